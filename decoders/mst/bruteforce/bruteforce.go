// Package bruteforce is the test oracle for package mst: it enumerates every
// dependency tree of a sentence. It is exported so that the tests of other
// packages (feature extractors, trainers on the parsing task) can check
// their inference against it too. A sentence of n words has (n+1)^(n-1)
// trees (Cayley), 262,144 for n = 7: meant for n ≤ 7.
package bruteforce

import (
	"iter"
	"slices"

	"github.com/maxmargin/repro/decoders/mst"
)

// Trees yields every tree over n words as a head vector of length n+1 with
// heads[0] = -1, in lexicographic order of heads[1..n]. The yielded slice is
// reused: clone it to keep it. It assigns heads word by word and refuses a
// head that would close a cycle, so it visits trees only.
func Trees(n int) iter.Seq[[]int] {
	return func(yield func([]int) bool) {
		heads := make([]int, n+1)
		heads[0] = -1
		var assign func(d int) bool
		assign = func(d int) bool {
			if d > n {
				return yield(heads)
			}
			for h := 0; h <= n; h++ {
				if h == d || closesCycle(heads, d, h) {
					continue
				}
				heads[d] = h
				if !assign(d + 1) {
					return false
				}
			}
			heads[d] = 0
			return true
		}
		assign(1)
	}
}

// closesCycle reports whether giving word d the head h closes a cycle among
// the words 1..d-1 already assigned: following heads from h reaches d before
// the root or an unassigned word.
func closesCycle(heads []int, d, h int) bool {
	for steps := 0; h != 0 && h < d && steps < d; steps++ {
		h = heads[h]
	}
	return h == d
}

// Projective reports whether the tree heads has no crossing arcs, the root
// being node 0 at the left; for trees this is the same as every word between
// a head and its dependent descending from the head. It is written
// independently of mst.IsProjective so that each checks the other.
func Projective(heads []int) bool {
	for d := 1; d < len(heads); d++ {
		a, b := min(heads[d], d), max(heads[d], d)
		for e := d + 1; e < len(heads); e++ {
			c, f := min(heads[e], e), max(heads[e], e)
			if (a < c && c < b && b < f) || (c < a && a < f && f < b) {
				return false
			}
		}
	}
	return true
}

// RootChildren returns the number of words attached to the root.
func RootChildren(heads []int) int {
	n := 0
	for _, h := range heads[1:] {
		if h == 0 {
			n++
		}
	}
	return n
}

// Best returns the tree over n words maximising f among those for which
// keep returns true (all if keep is nil), the lexicographically smallest
// among ties. ok is false if no tree is kept.
func Best(n int, f func(heads []int) float64, keep func(heads []int) bool) (best mst.Tree, ok bool) {
	for heads := range Trees(n) {
		if keep != nil && !keep(heads) {
			continue
		}
		if s := f(heads); !ok || s > best.Score {
			best, ok = mst.Tree{Heads: slices.Clone(heads), Score: s}, true
		}
	}
	return best, ok
}
