package semimarkov_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

func TestLossCount(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		all := bruteforce.Enumerate(s.N, s.K, s.L, s.Score)
		for tname, truth := range in.truths() {
			for _, nl := range randLosses(in.rng, s.K) {
				if !nl.integer {
					continue
				}
				ctx := fmt.Sprintf("seed %d %s %s", in.seed, tname, nl.name)
				got, err := semimarkov.LossCount(s, truth, nl.loss, nil)
				if err != nil {
					t.Fatalf("%s: %v", ctx, err)
				}
				// Brute force: the first (smallest in Compare order) of the
				// best per loss value.
				var want []semimarkov.Result
				for _, r := range all {
					v := int(nl.loss.Of(truth, r.Segments))
					for len(want) <= v {
						want = append(want, semimarkov.Result{Score: math.Inf(-1)})
					}
					if want[v].Segments == nil || r.Score > want[v].Score {
						want[v] = r
					}
				}
				if len(got) != len(want) || float64(len(got)-1) != nl.loss.Max(truth, s.L) {
					t.Fatalf("%s: %d entries, brute force %d, Max %v", ctx, len(got), len(want), nl.loss.Max(truth, s.L))
				}
				for v, g := range got {
					if want[v].Segments == nil {
						if g.Segments != nil || !math.IsInf(g.Score, -1) {
							t.Errorf("%s loss %d: got %v, want none (nil, -Inf)", ctx, v, g)
						}
						continue
					}
					if gl := nl.loss.Of(truth, g.Segments); gl != float64(v) {
						t.Errorf("%s loss %d: returned %v has loss %v", ctx, v, g.Segments, gl)
					}
					checkResult(t, fmt.Sprintf("%s loss %d", ctx, v), s, g, want[v], s.Score, in.kind.exact())
					if sc := s.Score(g.Segments); sc != g.Score {
						t.Errorf("%s loss %d: Score %v, s.Score %v", ctx, v, g.Score, sc)
					}
				}
			}
		}
	})
}

func TestLossCountErrors(t *testing.T) {
	t.Parallel()
	s := randScores(newRand(1), floatScores, 3, 2, 2)
	truth := []structpred.Segment{{Start: 0, End: 2, Label: 0}, {Start: 2, End: 3, Label: 1}}
	mk := func(p0, m01 float64) semimarkov.Loss {
		return semimarkov.Loss{K: 2, Precision: []float64{p0, 1}, Recall: []float64{1, 1}, Misclass: []float64{0, m01, 1, 0}}
	}
	tests := []struct {
		name string
		loss semimarkov.Loss
	}{
		{"fractional", mk(0.5, 1)},
		{"negative", mk(-1, 1)},
		{"inf", mk(1, math.Inf(1))},
		{"nan", mk(math.NaN(), 1)},
		{"huge", mk(1e12, 1)},
	}
	for _, tt := range tests {
		if _, err := semimarkov.LossCount(s, truth, tt.loss, nil); err == nil {
			t.Errorf("%s: LossCount returned no error", tt.name)
		}
	}
	if _, err := semimarkov.LossCount(s, truth, mk(3, 2), nil); err != nil {
		t.Errorf("valid integer loss: %v", err)
	}
}

// TestLossCountMatchesLossAugmented: the best of LossCount's per-loss optima
// under s + λ·v is the loss-augmented MAP.
func TestLossCountMatchesLossAugmented(t *testing.T) {
	t.Parallel()
	rng := newRand(7)
	for range 20 {
		s := randScores(rng, floatScores, 10, 3, 4)
		truth := randTruth(rng, 10, 3, 6)
		loss := semimarkov.DefaultLoss(3)
		per, err := semimarkov.LossCount(s, truth, loss, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, scale := range scales {
			best := math.Inf(-1)
			var arg []structpred.Segment
			for v, r := range per {
				if c := r.Score + scale*float64(v); c > best {
					best, arg = c, r.Segments
				}
			}
			la := semimarkov.LossAugmented(s, truth, loss, scale, nil)
			if !approx(la.Score, best) {
				t.Errorf("scale %v: LossAugmented %v (%v), LossCount %v (%v)", scale, la.Score, la.Segments, best, arg)
			}
			if !slices.Equal(la.Segments, arg) {
				t.Errorf("scale %v: LossAugmented %v, LossCount %v", scale, la.Segments, arg)
			}
		}
	}
}
