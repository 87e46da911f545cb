package bruteforce_test

import (
	"testing"

	"github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/decoders/align/bruteforce"
)

// Lengths 1 and 1 by hand: from (0,0) the empty alignment, M, D, I, DI
// and ID; from (0,1) the empty one and D; from (1,0) the empty one and I;
// from (1,1) the empty one: 11.
func TestAlignmentsCount(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	n := 0
	bruteforce.Alignments(1, 1, func(a align.Alignment) {
		n++
		seen[a.String()] = true
		if err := a.Check(1, 1); err != nil {
			t.Error(err)
		}
	})
	if n != 11 || len(seen) != 11 {
		t.Errorf("%d alignments (%d distinct), want 11", n, len(seen))
	}
}
