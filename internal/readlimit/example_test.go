package readlimit_test

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/maxmargin/repro/internal/readlimit"
)

// A stream longer than its bound is refused with an error that names the
// file and the bound, rather than read into memory.
func ExampleReadAll() {
	_, err := readlimit.ReadAll(context.Background(), strings.NewReader(strings.Repeat("x", 2048)), 1024, 0)
	var tl *readlimit.TooLargeError
	if errors.As(err, &tl) {
		tl.Name, tl.What = "big.yaml", "config"
		fmt.Println(tl)
	}
	// Output: big.yaml: larger than the 1 KiB bound for a config (is it the right file?)
}
