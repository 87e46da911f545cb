package semimarkov_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// reverseCompare orders two segmentations of the same tokens the way
// SpanMarginals.Segmentation breaks ties before its segment: segments read
// from the right, each by label and then length.
func reverseCompare(a, b []structpred.Segment) int {
	for i := 1; i <= min(len(a), len(b)); i++ {
		x, y := a[len(a)-i], b[len(b)-i]
		if c := cmp.Compare(x.Label, y.Label); c != 0 {
			return c
		}
		if c := cmp.Compare(x.End-x.Start, y.End-y.Start); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

// splitAt returns the segments of y before and after its segment g.
func splitAt(y []structpred.Segment, g structpred.Segment) (before, after []structpred.Segment) {
	i := slices.Index(y, g)
	return y[:i], y[i+1:]
}

func TestSpanMarginals(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		n, k, l := s.N, s.K, s.L
		m := semimarkov.ComputeSpanMarginals(s, nil)
		if m.N != n || m.K != k || m.L != l {
			t.Fatalf("shape %d %d %d, want %d %d %d", m.N, m.K, m.L, n, k, l)
		}
		all := bruteforce.Enumerate(n, k, l, s.Score)
		mapScore := math.Inf(-1)
		for _, r := range all {
			mapScore = max(mapScore, r.Score)
		}
		if !approx(m.Backward(0, k), mapScore) {
			t.Errorf("seed %d: β(0, START) = %v, MAP %v", in.seed, m.Backward(0, k), mapScore)
		}

		// γ(i, y) and β(i, p) from their definitions over shorter sequences.
		for i := 1; i <= n; i++ {
			for y := range k {
				want := math.Inf(-1)
				for _, pre := range bruteforce.Segmentations(i, k, l) {
					if pre[len(pre)-1].Label == y {
						want = max(want, partialScore(s, pre, k))
					}
				}
				if got := m.Forward(i, y); !approx(got, want) {
					t.Errorf("seed %d: γ(%d, %d) = %v, brute force %v", in.seed, i, y, got, want)
				}
			}
		}
		for i := 0; i <= n; i++ {
			for p := range k + 1 {
				if p == k && i > 0 {
					continue
				}
				want := math.Inf(-1)
				for _, suf := range bruteforce.Segmentations(n-i, k, l) {
					want = max(want, partialScore(s, shift(suf, i), p))
				}
				if got := m.Backward(i, p); !approx(got, want) {
					t.Errorf("seed %d: β(%d, %d) = %v, brute force %v", in.seed, i, p, got, want)
				}
			}
		}

		for st := range n {
			for e := st + 1; e <= min(n, st+l); e++ {
				for y := range k {
					g := structpred.Segment{Start: st, End: e, Label: y}
					want := math.Inf(-1)
					var optima [][]structpred.Segment
					for _, r := range all {
						if !contains(r.Segments, g) {
							continue
						}
						if r.Score > want {
							want, optima = r.Score, optima[:0]
						}
						if r.Score == want {
							optima = append(optima, r.Segments)
						}
					}
					ctx := fmt.Sprintf("seed %d: segment %v", in.seed, g)
					if got := m.Best(st, e, y); !approx(got, want) {
						t.Errorf("%s: Best = %v, brute force %v", ctx, got, want)
					}
					seg := m.Segmentation(st, e, y)
					if err := semimarkov.CheckSegmentation(seg, n, k, l); err != nil || !contains(seg, g) {
						t.Fatalf("%s: Segmentation %v invalid or without it: %v", ctx, seg, err)
					}
					if v := s.Score(seg); !approx(v, m.Best(st, e, y)) {
						t.Errorf("%s: Segmentation %v scores %v, Best %v", ctx, seg, v, m.Best(st, e, y))
					}
					if !in.kind.exact() {
						continue
					}
					// The documented tie rule, checked among all optima: the
					// parts before and after the segment are chosen
					// independently.
					var wantBefore, wantAfter []structpred.Segment
					for i, y := range optima {
						b, a := splitAt(y, g)
						if i == 0 || reverseCompare(b, wantBefore) < 0 {
							wantBefore = b
						}
						if i == 0 || semimarkov.Compare(a, wantAfter) < 0 {
							wantAfter = a
						}
					}
					if b, a := splitAt(seg, g); !slices.Equal(b, wantBefore) || !slices.Equal(a, wantAfter) {
						t.Errorf("%s: Segmentation %v, want %v + %v + %v by the tie rule", ctx, seg, wantBefore, g, wantAfter)
					}
				}
			}
		}
	})
}

func TestViolators(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		n, k, l := s.N, s.K, s.L
		all := bruteforce.Enumerate(n, k, l, s.Score)
		m := semimarkov.ComputeSpanMarginals(s, nil)
		for tname, truth := range in.truths() {
			// A long truth has no score in the tables; any value will do
			// for the test, and one near the MAP makes violations rare.
			truthScore := m.Backward(0, k) - 1.5
			if tname == "truth" {
				truthScore = s.Score(truth)
			}
			for _, nl := range randLosses(in.rng, k) {
				ctx := fmt.Sprintf("seed %d %s %s", in.seed, tname, nl.name)
				got := m.Violators(truth, nl.loss, truthScore, nil)
				j := 0
				for st := range n {
					for e := st + 1; e <= min(n, st+l); e++ {
						// Brute force: for each label not the truth's, the best
						// segmentation containing the segment, then the label
						// maximising L·[1 − s(y_i) + s(y)]_+, lowest on ties.
						bestY, bestV := -1, 0.0
						var bestSeg semimarkov.Result
						for y := range k {
							g := structpred.Segment{Start: st, End: e, Label: y}
							if contains(truth, g) {
								continue
							}
							var r semimarkov.Result
							for _, z := range all {
								if contains(z.Segments, g) && (r.Segments == nil || z.Score > r.Score) {
									r = z
								}
							}
							loss := nl.loss.Segment(truth, g)
							if v := loss * max(0, 1-truthScore+r.Score); v > bestV {
								bestY, bestV, bestSeg = y, v, r
							}
						}
						if bestY < 0 {
							if j < len(got) && got[j].Segment.Start == st && got[j].Segment.End == e {
								t.Errorf("%s: span [%d,%d) reported %+v, brute force has no violation", ctx, st, e, got[j])
								j++
							}
							continue
						}
						if j >= len(got) || got[j].Segment.Start != st || got[j].Segment.End != e {
							t.Errorf("%s: span [%d,%d) missing, brute force label %d value %v", ctx, st, e, bestY, bestV)
							continue
						}
						v := got[j]
						j++
						g := v.Segment
						if v.Index != semimarkov.SpanIndex(n, l, st, e) {
							t.Errorf("%s: span [%d,%d) Index %d, want %d", ctx, st, e, v.Index, semimarkov.SpanIndex(n, l, st, e))
						}
						if !approx(v.Value, bestV) || (in.kind.exact() && nl.integer && g.Label != bestY) {
							t.Errorf("%s: span [%d,%d) label %d value %v, brute force %d %v", ctx, st, e, g.Label, v.Value, bestY, bestV)
						}
						if contains(truth, g) || !contains(v.Segments, g) || !slices.Equal(v.Segments, m.Segmentation(st, e, g.Label)) {
							t.Errorf("%s: violator %+v inconsistent", ctx, v)
						}
						if v.Loss != nl.loss.Segment(truth, g) || !approx(v.Score, s.Score(v.Segments)) ||
							v.Value != v.Loss*(1-truthScore+v.Score) {
							t.Errorf("%s: violator %+v: Loss, Score or Value wrong", ctx, v)
						}
						if in.kind.exact() && nl.integer && v.Score != bestSeg.Score {
							t.Errorf("%s: violator score %v, brute force %v", ctx, v.Score, bestSeg.Score)
						}
					}
				}
				if j != len(got) {
					t.Errorf("%s: %d violators, matched %d", ctx, len(got), j)
				}
			}
		}
	})
}
