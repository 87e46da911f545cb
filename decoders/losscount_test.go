package decoders_test

import (
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

func TestLossCount(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		truth := randLabels(in.rng, c.N, c.K)
		for _, nc := range randCosts(in.rng, c.K) {
			if !nc.integer {
				continue
			}
			got, err := decoders.LossCount(c, truth, nc.cost, nil)
			if err != nil {
				t.Fatalf("%s: %v", nc.name, err)
			}
			maxLoss := int(nc.cost.MaxLoss(truth))
			if len(got) != maxLoss+1 {
				t.Fatalf("%s: %d entries, want MaxLoss+1 = %d", nc.name, len(got), maxLoss+1)
			}
			for l, g := range got {
				hasLoss := func(y []int) bool { return nc.cost.Loss(truth, y) == float64(l) }
				want, ok := bruteforce.Best(c.N, c.K, c.Score, hasLoss)
				if !ok {
					if g.Labels != nil || !math.IsInf(g.Score, -1) {
						t.Errorf("%s loss %d: got %v, want no labeling (nil, -Inf)", nc.name, l, g)
					}
					continue
				}
				if len(g.Labels) != c.N {
					t.Fatalf("%s loss %d: labels %v, want length %d", nc.name, l, g.Labels, c.N)
				}
				if gl := nc.cost.Loss(truth, g.Labels); gl != float64(l) {
					t.Errorf("%s loss %d: returned labeling %v has loss %v", nc.name, l, g.Labels, gl)
				}
				if s := c.Score(g.Labels); s != g.Score {
					t.Errorf("%s loss %d: Score %v, c.Score %v", nc.name, l, g.Score, s)
				}
				if !approx(g.Score, want.Score) {
					t.Errorf("%s loss %d: score %v, brute force %v", nc.name, l, g.Score, want.Score)
				}
				if in.kind.exact() && !slices.Equal(g.Labels, want.Labels) {
					t.Errorf("%s loss %d: labels %v, want %v", nc.name, l, g.Labels, want.Labels)
				}
			}
		}
	})
}

func TestLossCountErrors(t *testing.T) {
	t.Parallel()
	c := randInstance(floatScores, 3, 2, 1).c
	truth := []int{0, 1, 0}
	tests := []struct {
		name string
		cost decoders.Cost
	}{
		{"fractional", decoders.Cost{K: 2, M: []float64{0, 0.5, 1, 0}}},
		{"negative", decoders.Cost{K: 2, M: []float64{0, -1, 1, 0}}},
		{"inf", decoders.Cost{K: 2, M: []float64{0, math.Inf(1), 1, 0}}},
		{"nan", decoders.Cost{K: 2, M: []float64{0, math.NaN(), 1, 0}}},
		{"huge", decoders.Cost{K: 2, M: []float64{0, 1e12, 1, 0}}},
	}
	for _, tt := range tests {
		if _, err := decoders.LossCount(c, truth, tt.cost, nil); err == nil {
			t.Errorf("%s: LossCount returned no error", tt.name)
		}
	}
}
