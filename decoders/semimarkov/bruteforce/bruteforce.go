// Package bruteforce is the test oracle for package semimarkov: it enumerates
// every segmentation of a short sequence. It is exported so that the tests of
// other packages (segmentation models, trainers) can check their inference
// against it too; the number of segmentations grows like (K+1)^N, so it is
// meant for N of half a dozen or so.
package bruteforce

import (
	"cmp"
	"math"
	"slices"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// Segmentations returns every segmentation of n tokens into segments of
// length 1..l labelled 0..k-1, in increasing semimarkov.Compare order. For
// n = 0 it returns the single empty (non-nil) segmentation; for k < 1 or
// l < 1 and n > 0, none.
func Segmentations(n, k, l int) [][]structpred.Segment {
	var out [][]structpred.Segment
	cur := make([]structpred.Segment, 0, n)
	// Choosing each segment by label and then end is exactly Compare's
	// order, so the recursion emits segmentations already sorted.
	var rec func(i int)
	rec = func(i int) {
		if i == n {
			out = append(out, append(make([]structpred.Segment, 0, len(cur)), cur...))
			return
		}
		for y := range k {
			for e := i + 1; e <= min(n, i+l); e++ {
				cur = append(cur, structpred.Segment{Start: i, End: e, Label: y})
				rec(e)
				cur = cur[:len(cur)-1]
			}
		}
	}
	rec(0)
	return out
}

// Enumerate returns every segmentation with its value f(y), in the order of
// Segmentations.
func Enumerate(n, k, l int, f func([]structpred.Segment) float64) []semimarkov.Result {
	ys := Segmentations(n, k, l)
	out := make([]semimarkov.Result, len(ys))
	for i, y := range ys {
		out[i] = semimarkov.Result{Segments: y, Score: f(y)}
	}
	return out
}

// Best returns the segmentation maximising f among those for which keep
// returns true (all of them if keep is nil), the smallest in Compare order
// among ties. ok is false if no segmentation is kept.
func Best(n, k, l int, f func([]structpred.Segment) float64, keep func([]structpred.Segment) bool) (best semimarkov.Result, ok bool) {
	for _, y := range Segmentations(n, k, l) {
		if keep != nil && !keep(y) {
			continue
		}
		if v := f(y); !ok || v > best.Score {
			best, ok = semimarkov.Result{Segments: y, Score: v}, true
		}
	}
	return best, ok
}

// Sorted is Enumerate ordered by decreasing value, in Compare order among
// equal values: the order KBest promises.
func Sorted(n, k, l int, f func([]structpred.Segment) float64) []semimarkov.Result {
	out := Enumerate(n, k, l, f)
	slices.SortStableFunc(out, func(a, b semimarkov.Result) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// Posteriors computes the log partition function, segment probabilities and
// expected transition counts of P(y) ∝ exp(f(y)) over the segmentations of n
// tokens into segments of length 1..l labelled 0..k-1 (k, l ≥ 1), by summing
// over all of them, shifting by the largest f so that large values do not
// overflow. f need not decompose over segments.
func Posteriors(n, k, l int, f func([]structpred.Segment) float64) *semimarkov.Posteriors {
	all := Enumerate(n, k, l, f)
	top := math.Inf(-1)
	for _, r := range all {
		top = max(top, r.Score)
	}
	p := &semimarkov.Posteriors{N: n, K: k, L: l, Segment: make([]float64, n*l*k), Trans: make([]float64, (k+1)*k)}
	var z float64
	for _, r := range all {
		w := math.Exp(r.Score - top)
		z += w
		prev := k
		for _, g := range r.Segments {
			p.Segment[(g.Start*l+g.End-g.Start-1)*k+g.Label] += w
			p.Trans[prev*k+g.Label] += w
			prev = g.Label
		}
	}
	for i := range p.Segment {
		p.Segment[i] /= z
	}
	for i := range p.Trans {
		p.Trans[i] /= z
	}
	p.LogZ = top + math.Log(z)
	return p
}
