package decoders_test

import (
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

// backpointerKey orders labelings through (t, y) the way
// MaxMarginals.Labeling breaks ties: the prefix read from t-1 back to 0,
// then the suffix from t+1 on.
func backpointerKey(y []int, t int) []int {
	key := make([]int, 0, len(y))
	for u := t - 1; u >= 0; u-- {
		key = append(key, y[u])
	}
	return append(key, y[t+1:]...)
}

func TestMaxMarginals(t *testing.T) {
	t.Parallel()
	forEachChain(t, allKinds, func(t *testing.T, in instance) {
		c := in.c
		m := decoders.ComputeMaxMarginals(c, nil)
		if m.N != c.N || m.K != c.K || len(m.MM) != c.N*c.K {
			t.Fatalf("shape N=%d K=%d len(MM)=%d, want %d %d %d", m.N, m.K, len(m.MM), c.N, c.K, c.N*c.K)
		}
		all := bruteforce.Enumerate(c.N, c.K, c.Score)
		for pos := range c.N {
			for y := range c.K {
				want, _ := bruteforce.Best(c.N, c.K, c.Score, func(l []int) bool { return l[pos] == y })
				mm := m.MM[pos*c.K+y]
				if !approx(mm, want.Score) {
					t.Errorf("seed %d: MM[%d,%d] = %v, brute force %v", in.seed, pos, y, mm, want.Score)
				}
				lab := m.Labeling(pos, y)
				if len(lab) != c.N || lab[pos] != y {
					t.Fatalf("seed %d: Labeling(%d,%d) = %v does not have y_%d = %d", in.seed, pos, y, lab, pos, y)
				}
				if s := c.Score(lab); !approx(s, mm) {
					t.Errorf("seed %d: Labeling(%d,%d) = %v scores %v, MM = %v", in.seed, pos, y, lab, s, mm)
				}
				if !in.kind.exact() {
					continue
				}
				// The documented tie-breaking rule, checked among all optima.
				var best []int
				for _, s := range all {
					if s.Labels[pos] == y && s.Score == want.Score &&
						(best == nil || slices.Compare(backpointerKey(s.Labels, pos), backpointerKey(best, pos)) < 0) {
						best = s.Labels
					}
				}
				if !slices.Equal(lab, best) {
					t.Errorf("seed %d: Labeling(%d,%d) = %v, want %v by the back-pointer tie rule", in.seed, pos, y, lab, best)
				}
			}
		}
	})
}

func TestForwardBackward(t *testing.T) {
	t.Parallel()
	forEachChain(t, []chainKind{floatScores, intScores, noTrans, bigScores}, func(t *testing.T, in instance) {
		c := in.c
		got := decoders.ForwardBackward(c, nil)
		want := bruteforce.Marginals(c)
		if !approx(got.LogZ, want.LogZ) {
			t.Errorf("seed %d: LogZ = %v, brute force %v", in.seed, got.LogZ, want.LogZ)
		}
		compare := func(name string, g, w []float64) {
			t.Helper()
			if len(g) != len(w) {
				t.Fatalf("seed %d: len(%s) = %d, want %d", in.seed, name, len(g), len(w))
			}
			for i := range g {
				if math.IsNaN(g[i]) || !approx(g[i], w[i]) {
					t.Errorf("seed %d: %s[%d] = %v, brute force %v", in.seed, name, i, g[i], w[i])
				}
			}
		}
		compare("Node", got.Node, want.Node)
		compare("Edge", got.Edge, want.Edge)
		// Σ_y P(y_t = y) = 1 and the edge marginals total N-1.
		for pos := range c.N {
			var s float64
			for y := range c.K {
				s += got.Node[pos*c.K+y]
			}
			if !approx(s, 1) {
				t.Errorf("seed %d: node marginals at %d sum to %v", in.seed, pos, s)
			}
		}
		var e float64
		for _, v := range got.Edge {
			e += v
		}
		if !approx(e, float64(max(c.N-1, 0))) {
			t.Errorf("seed %d: edge marginals sum to %v, want %d", in.seed, e, max(c.N-1, 0))
		}
	})
}

// TestForwardBackwardHugeScores uses scores far beyond exp's range on a
// longer chain than brute force can handle and checks that everything stays
// finite and normalised, and that LogZ is near the Viterbi score as it must
// be when one labeling dominates.
func TestForwardBackwardHugeScores(t *testing.T) {
	t.Parallel()
	for _, scale := range []float64{500, 1e4, 1e6} {
		in := randInstance(floatScores, 40, 5, 3)
		for i := range in.c.Unary {
			in.c.Unary[i] *= scale
		}
		for i := range in.c.Trans {
			in.c.Trans[i] *= scale
		}
		m := decoders.ForwardBackward(in.c, nil)
		v := decoders.Viterbi(in.c, nil)
		if math.IsNaN(m.LogZ) || math.IsInf(m.LogZ, 0) || m.LogZ < v.Score || m.LogZ > v.Score+40*math.Log(5) {
			t.Errorf("scale %v: LogZ = %v, Viterbi %v", scale, m.LogZ, v.Score)
		}
		for i, p := range append(m.Node, m.Edge...) {
			if math.IsNaN(p) || p < 0 || p > float64(in.c.N) {
				t.Fatalf("scale %v: marginal %d = %v", scale, i, p)
			}
		}
	}
}
