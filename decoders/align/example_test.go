package align_test

import (
	"fmt"

	"github.com/maxmargin/repro/decoders/align"
)

// Two letters, identity +1, mismatch −1, gap −0.5: the best local
// alignment skips the native's middle letter.
func ExampleWorkspace_Local() {
	sc := align.Scores{A: 2, Sub: []float64{1, -1, -1, 1}, Gap: -0.5}
	native, cand := []byte{0, 0, 1, 0, 0}, []byte{0, 0, 0, 0}
	var w align.Workspace
	score, a := w.Local(native, cand, sc)
	fmt.Println(score, a)
	// Output: 3.5 0,0:MMDMM
}
