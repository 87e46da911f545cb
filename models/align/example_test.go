package align_test

import (
	"fmt"

	"github.com/maxmargin/repro/models/align"
)

// Generate emits each homologue with the alignment its mutation made; the
// generative baseline scores substitutions by log-odds from those
// alignments.
func Example() {
	xs, err := align.Generate(20, align.GenConfig{}, 1)
	if err != nil {
		fmt.Println(err)
		return
	}
	x := xs[0]
	fmt.Println(len(x.Native), "native letters,", len(x.Decoys), "decoys; true alignment from", x.True.S, x.True.T)
	m, err := align.New(xs, 20, align.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	w := align.Generative(xs, 20, 0.5)
	fmt.Println(len(w) == m.Dim(), w[400])
	// Output:
	// 50 native letters, 10 decoys; true alignment from 0 0
	// true -0.5
}
