// Package bruteforce is the test oracle for package decoders: it enumerates
// all K^N labelings of a chain. It is exported so that the tests of other
// packages can check their inference against it too; it is exponential in N
// and meant for N·log K of a dozen or so.
package bruteforce

import (
	"cmp"
	"math"
	"slices"

	"github.com/maxmargin/repro/decoders"
)

// Labelings returns all k^n labelings of length n over k labels in
// lexicographic order (y_0 most significant). For n = 0 it returns the single
// empty labeling; for k < 1 and n > 0, none.
func Labelings(n, k int) [][]int {
	if n == 0 {
		return [][]int{{}}
	}
	if k < 1 {
		return nil
	}
	var out [][]int
	y := make([]int, n)
	for {
		out = append(out, slices.Clone(y))
		t := n - 1
		for t >= 0 && y[t] == k-1 {
			y[t] = 0
			t--
		}
		if t < 0 {
			return out
		}
		y[t]++
	}
}

// Enumerate returns every labeling of length n over k labels with its value
// f(y), in lexicographic order.
func Enumerate(n, k int, f func(y []int) float64) []decoders.Scored {
	ys := Labelings(n, k)
	out := make([]decoders.Scored, len(ys))
	for i, y := range ys {
		out[i] = decoders.Scored{Labels: y, Score: f(y)}
	}
	return out
}

// Sorted is Enumerate ordered by decreasing value, lexicographically among
// equal values: the order KBest promises.
func Sorted(n, k int, f func(y []int) float64) []decoders.Scored {
	out := Enumerate(n, k, f)
	slices.SortStableFunc(out, func(a, b decoders.Scored) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// Best returns the labeling maximising f among those for which keep returns
// true (all of them if keep is nil), the lexicographically smallest among
// ties. ok is false if no labeling is kept.
func Best(n, k int, f func(y []int) float64, keep func(y []int) bool) (best decoders.Scored, ok bool) {
	for _, y := range Labelings(n, k) {
		if keep != nil && !keep(y) {
			continue
		}
		if s := f(y); !ok || s > best.Score {
			best, ok = decoders.Scored{Labels: y, Score: s}, true
		}
	}
	return best, ok
}

// Marginals computes the log partition function and node and edge marginals
// of exp(s(y)) by summing over every labeling, shifting by the best score so
// that large scores do not overflow.
func Marginals(c *decoders.Chain) *decoders.Marginals {
	all := Enumerate(c.N, c.K, c.Score)
	top := math.Inf(-1)
	for _, s := range all {
		top = max(top, s.Score)
	}
	m := &decoders.Marginals{Node: make([]float64, c.N*c.K), Edge: make([]float64, c.K*c.K)}
	var z float64
	for _, s := range all {
		p := math.Exp(s.Score - top)
		z += p
		for t, y := range s.Labels {
			m.Node[t*c.K+y] += p
			if t > 0 {
				m.Edge[s.Labels[t-1]*c.K+y] += p
			}
		}
	}
	for i := range m.Node {
		m.Node[i] /= z
	}
	for i := range m.Edge {
		m.Edge[i] /= z
	}
	m.LogZ = top + math.Log(z)
	return m
}
