package decoders_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

// checkKBest compares a k-best list with the brute-force ranking all
// (sorted by decreasing objective, lexicographically among ties). Scores
// must match position by position, which for tied scores is the multiset
// check; when exact is set the labelings must match too.
func checkKBest(t *testing.T, ctx string, got, all []decoders.Scored, k int, obj func([]int) float64, exact bool) {
	t.Helper()
	want := all[:min(k, len(all))]
	if len(got) != len(want) {
		t.Fatalf("%s: %d results, want %d", ctx, len(got), len(want))
	}
	seen := map[string]bool{}
	for i, g := range got {
		key := string(labelKey(g.Labels))
		if seen[key] {
			t.Errorf("%s: labeling %v returned twice", ctx, g.Labels)
		}
		seen[key] = true
		if !approx(g.Score, want[i].Score) {
			t.Errorf("%s: rank %d score %v, brute force %v", ctx, i, g.Score, want[i].Score)
		}
		if !approx(obj(g.Labels), g.Score) {
			t.Errorf("%s: rank %d Score %v but objective of %v is %v", ctx, i, g.Score, g.Labels, obj(g.Labels))
		}
		if i > 0 && g.Score > got[i-1].Score {
			t.Errorf("%s: scores not decreasing at rank %d: %v > %v", ctx, i, g.Score, got[i-1].Score)
		}
		if exact && !slices.Equal(g.Labels, want[i].Labels) {
			t.Errorf("%s: rank %d labels %v, want %v", ctx, i, g.Labels, want[i].Labels)
		}
	}
}

func labelKey(y []int) []byte {
	b := make([]byte, len(y))
	for i, l := range y {
		b[i] = byte(l)
	}
	return b
}

func TestKBest(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		all := bruteforce.Sorted(c.N, c.K, c.Score)
		for k := 1; k <= 7; k++ {
			got := decoders.KBest(c, k, nil)
			checkKBest(t, fmt.Sprintf("k=%d", k), got, all, k, c.Score, in.kind.exact())
			for i, g := range got {
				if s := c.Score(g.Labels); s != g.Score {
					t.Errorf("k=%d rank %d: Score %v, c.Score %v", k, i, g.Score, s)
				}
			}
		}
		if got := decoders.KBest(c, 0, nil); got != nil {
			t.Errorf("KBest(k=0) = %v, want nil", got)
		}
		// k = 1 is Viterbi.
		v, kb := decoders.Viterbi(c, nil), decoders.KBest(c, 1, nil)
		if !approx(v.Score, kb[0].Score) || (in.kind.exact() && !slices.Equal(v.Labels, kb[0].Labels)) {
			t.Errorf("KBest(1) = %v, Viterbi = %v", kb[0], v)
		}
	})
}

func TestLossAugmentedKBest(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		truth := randLabels(in.rng, c.N, c.K)
		for _, nc := range randCosts(in.rng, c.K) {
			for _, scale := range scales {
				obj := func(y []int) float64 { return c.Score(y) + scale*nc.cost.Loss(truth, y) }
				all := bruteforce.Sorted(c.N, c.K, obj)
				exact := in.kind.exact() && (nc.integer || scale == 0)
				for _, k := range []int{1, 2, 5, 7, 20} {
					got := decoders.LossAugmentedKBest(c, truth, nc.cost, scale, k, nil)
					checkKBest(t, nc.name, got, all, k, obj, exact)
				}
			}
		}
	})
}

func TestBestExcluding(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		truth := randLabels(in.rng, c.N, c.K)
		// Make the truth the unconstrained optimum half the time, so the
		// runner-up branch is exercised.
		if in.seed%2 == 0 {
			truth = decoders.Viterbi(c, nil).Labels
		}
		notTruth := func(y []int) bool { return !slices.Equal(y, truth) }
		for _, nc := range randCosts(in.rng, c.K) {
			for _, scale := range scales {
				obj := func(y []int) float64 { return c.Score(y) + scale*nc.cost.Loss(truth, y) }
				want, wantOK := bruteforce.Best(c.N, c.K, obj, notTruth)
				got, ok := decoders.BestExcluding(c, truth, nc.cost, scale, nil)
				if ok != wantOK || ok != (pow(c.K, c.N) > 1) {
					t.Fatalf("seed %d: ok = %v, want %v", in.seed, ok, wantOK)
				}
				if !ok {
					continue
				}
				if slices.Equal(got.Labels, truth) {
					t.Errorf("seed %d %s: returned the excluded truth %v", in.seed, nc.name, truth)
				}
				if !approx(got.Score, want.Score) || !approx(obj(got.Labels), want.Score) {
					t.Errorf("seed %d %s scale %v: score %v, brute force %v", in.seed, nc.name, scale, got.Score, want.Score)
				}
				if in.kind.exact() && (nc.integer || scale == 0) && !slices.Equal(got.Labels, want.Labels) {
					t.Errorf("seed %d %s scale %v: labels %v, want %v", in.seed, nc.name, scale, got.Labels, want.Labels)
				}
			}
		}
	})
}

// The one-scan 2-best lists give exactly the general merges' lists: the
// same labelings in the same order with the same scores, on scores with
// many ties (small integers), with -Inf entries, and on real scores.
func TestKBestTop2MatchesMerges(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	for _, tc := range []struct {
		name  string
		value func() float64
	}{
		{"ties", func() float64 { return float64(rng.IntN(3)) }},
		{"-Inf", func() float64 {
			if rng.IntN(4) == 0 {
				return math.Inf(-1)
			}
			return float64(rng.IntN(2))
		}},
		{"real", rng.NormFloat64},
	} {
		for trial := range 300 {
			n, k := 1+rng.IntN(6), 1+rng.IntN(4)
			c := &decoders.Chain{N: n, K: k, Unary: make([]float64, n*k), Trans: make([]float64, k*k)}
			for i := range c.Unary {
				c.Unary[i] = tc.value()
			}
			for i := range c.Trans {
				c.Trans[i] = tc.value()
			}
			got, want := decoders.KBestWith(c, 2, true), decoders.KBestWith(c, 2, false)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%s, trial %d (n=%d, k=%d): one scan %v, merges %v", tc.name, trial, n, k, got, want)
			}
		}
	}
}
