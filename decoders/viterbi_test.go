package decoders_test

import (
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

func TestViterbi(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		want, _ := bruteforce.Best(c.N, c.K, c.Score, nil)
		got := decoders.Viterbi(c, nil)
		if len(got.Labels) != c.N {
			t.Fatalf("seed %d: len(Labels) = %d, want %d", in.seed, len(got.Labels), c.N)
		}
		if !approx(got.Score, want.Score) {
			t.Errorf("seed %d: score %v, brute force %v", in.seed, got.Score, want.Score)
		}
		if s := c.Score(got.Labels); s != got.Score {
			t.Errorf("seed %d: Score field %v but c.Score(labels) = %v", in.seed, got.Score, s)
		}
		if in.kind.exact() && !slices.Equal(got.Labels, want.Labels) {
			t.Errorf("seed %d: labels %v, want lexicographically smallest optimum %v", in.seed, got.Labels, want.Labels)
		}
	})
}

func TestLossAugmented(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		truth := randLabels(in.rng, c.N, c.K)
		for _, nc := range randCosts(in.rng, c.K) {
			for _, scale := range scales {
				obj := func(y []int) float64 { return c.Score(y) + scale*nc.cost.Loss(truth, y) }
				want, _ := bruteforce.Best(c.N, c.K, obj, nil)
				got := decoders.LossAugmented(c, truth, nc.cost, scale, nil)
				if !approx(got.Score, want.Score) || !approx(obj(got.Labels), want.Score) {
					t.Errorf("seed %d %s scale %v: score %v (objective of labels %v), brute force %v",
						in.seed, nc.name, scale, got.Score, obj(got.Labels), want.Score)
				}
				if in.kind.exact() && (nc.integer || scale == 0) && !slices.Equal(got.Labels, want.Labels) {
					t.Errorf("seed %d %s scale %v: labels %v, want %v", in.seed, nc.name, scale, got.Labels, want.Labels)
				}
			}
		}
	})
}

// TestWorkspaceReuse decodes chains of varying shapes through one workspace,
// so stale buffer contents from a larger or different chain would show up as
// a difference from a fresh workspace.
func TestWorkspaceReuse(t *testing.T) {
	t.Parallel()
	ws := new(decoders.Workspace)
	forEachChainSerial := func(f func(c *decoders.Chain, truth []int)) {
		for _, kind := range allKinds {
			for _, n := range []int{5, 0, 1, 6, 3} {
				for _, k := range []int{4, 1, 3, 2} {
					in := randInstance(kind, n, k, 7)
					f(in.c, randLabels(in.rng, n, k))
				}
			}
		}
	}
	forEachChainSerial(func(c *decoders.Chain, truth []int) {
		h := decoders.Hamming(c.K)
		checkSame(t, "Viterbi", decoders.Viterbi(c, ws), decoders.Viterbi(c, nil))
		checkSame(t, "LossAugmented", decoders.LossAugmented(c, truth, h, 1, ws), decoders.LossAugmented(c, truth, h, 1, nil))
		a, b := decoders.KBest(c, 5, ws), decoders.KBest(c, 5, nil)
		for i := range max(len(a), len(b)) {
			if i >= len(a) || i >= len(b) {
				t.Fatalf("KBest lengths differ: %d vs %d", len(a), len(b))
			}
			checkSame(t, "KBest", a[i], b[i])
		}
		la, _ := decoders.LossCount(c, truth, h, ws)
		lb, _ := decoders.LossCount(c, truth, h, nil)
		for i := range la {
			checkSame(t, "LossCount", la[i], lb[i])
		}
		ma, mb := decoders.ComputeMaxMarginals(c, ws), decoders.ComputeMaxMarginals(c, nil)
		if !slices.Equal(ma.MM, mb.MM) {
			t.Errorf("MaxMarginals differ with reused workspace")
		}
		fa, fb := decoders.ForwardBackward(c, ws), decoders.ForwardBackward(c, nil)
		if fa.LogZ != fb.LogZ || !slices.Equal(fa.Node, fb.Node) || !slices.Equal(fa.Edge, fb.Edge) {
			t.Errorf("ForwardBackward differs with reused workspace")
		}
	})
}

func checkSame(t *testing.T, what string, a, b decoders.Scored) {
	t.Helper()
	if !slices.Equal(a.Labels, b.Labels) || a.Score != b.Score {
		t.Errorf("%s: reused workspace gave %v, fresh gave %v", what, a, b)
	}
}

func TestViterbiAllocs(t *testing.T) {
	in := randInstance(floatScores, 30, 13, 1)
	truth := randLabels(in.rng, 30, 13)
	h := decoders.Hamming(13)
	ws := new(decoders.Workspace)
	tests := []struct {
		name string
		f    func()
	}{
		{"Viterbi", func() { decoders.Viterbi(in.c, ws) }},
		{"LossAugmented", func() { decoders.LossAugmented(in.c, truth, h, 1, ws) }},
		{"ViterbiNoTrans", func() { decoders.Viterbi(&decoders.Chain{N: 30, K: 13, Unary: in.c.Unary}, ws) }},
	}
	for _, tt := range tests {
		// The returned labeling is the one allocation allowed.
		if a := testing.AllocsPerRun(20, tt.f); a > 1 {
			t.Errorf("%s: %v allocations per call with a reused workspace, want 1", tt.name, a)
		}
	}
}
