// Package bruteforce is the test oracle for package semimarkov: it enumerates
// every segmentation of a short sequence. It is exported so that the tests of
// other packages (segmentation models, trainers) can check their inference
// against it too; the number of segmentations grows like (K+1)^N, so it is
// meant for N of half a dozen or so.
package bruteforce

import (
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
