package mst

import (
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// The errors CheckTree wraps (structpred's, where readers of treebanks
// find them too).
var (
	ErrBadHead = structpred.ErrBadHead
	ErrNoRoot  = structpred.ErrNoRoot
	ErrCycle   = structpred.ErrCycle
)

// CheckTree is structpred.CheckTree, its messages prefixed "mst: ".
func CheckTree(heads []int) error {
	if err := structpred.CheckTree(heads); err != nil {
		return fmt.Errorf("mst: %w", err)
	}
	return nil
}

// IsProjective reports whether heads is a projective tree: a tree (see
// CheckTree) in which every word between a head and its dependent descends
// from that head, the root being node 0 at the left of the sentence. These
// are the trees Eisner's algorithm searches.
func IsProjective(heads []int) bool {
	if CheckTree(heads) != nil {
		return false
	}
	for d := 1; d < len(heads); d++ {
		h := heads[d]
		for k := min(h, d) + 1; k < max(h, d); k++ {
			if !descends(heads, k, h) {
				return false
			}
		}
	}
	return true
}

// descends reports whether a is h or below it; heads must be a tree.
func descends(heads []int, a, h int) bool {
	for a != h && a != 0 {
		a = heads[a]
	}
	return a == h
}
