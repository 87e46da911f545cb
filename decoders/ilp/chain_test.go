package ilp_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
	"github.com/maxmargin/repro/decoders/ilp"
)

// chainSizes are the (N, K) of the random chains, with how many of each.
var chainSizes = []struct{ n, k, reps int }{
	{0, 3, 1}, {1, 1, 2}, {1, 4, 5}, {2, 1, 2}, {2, 3, 10}, {3, 2, 10},
	{4, 3, 10}, {5, 4, 5}, {8, 3, 4}, {10, 4, 2},
}

// costs are the decomposable losses under test.
var costs = []struct {
	name string
	cost decoders.Cost
}{
	{"hamming", decoders.Hamming(5)},
	{"weighted", decoders.Cost{K: 5, M: []float64{
		0, 1, 2, 0.5, 3,
		1, 0, 1, 1, 1,
		2, 1, 0, 4, 1,
		0.5, 1, 4, 0, 2,
		3, 1, 1, 2, 0,
	}}},
}

// restrict returns the top-left k×k block of a cost over more labels.
func restrict(c decoders.Cost, k int) decoders.Cost {
	m := make([]float64, k*k)
	for a := range k {
		copy(m[a*k:(a+1)*k], c.M[a*c.K:a*c.K+k])
	}
	return decoders.Cost{K: k, M: m}
}

// forEachChain runs f on random chains of every size, kind and with or
// without transitions, as parallel subtests.
func forEachChain(t *testing.T, f func(t *testing.T, c *decoders.Chain, rng *rand.Rand)) {
	for _, kind := range []scoreKind{floatScores, intScores} {
		for _, trans := range []bool{true, false} {
			t.Run(fmt.Sprintf("%v/trans=%v", kind, trans), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(kind), 45))
				for _, sz := range chainSizes {
					for range sz.reps {
						f(t, randChain(rng, kind, sz.n, sz.k, trans), rng)
					}
				}
			})
		}
	}
}

// TestChainMatchesViterbi compares the ILP's optimum with Viterbi's and
// checks that every chain relaxation was integral: the chapter's program is
// a flow polytope, so the simplex's vertex should need no branching. The
// test fails the first time a relaxation is fractional.
func TestChainMatchesViterbi(t *testing.T) {
	forEachChain(t, func(t *testing.T, c *decoders.Chain, _ *rand.Rand) {
		got, st, err := ilp.DecodeChain(c, ilp.Options{})
		if err != nil {
			t.Fatalf("N=%d K=%d: %v", c.N, c.K, err)
		}
		want := decoders.Viterbi(c, nil)
		if !approx(got.Score, want.Score) {
			t.Errorf("N=%d K=%d: ilp %v scores %v, Viterbi %v scores %v", c.N, c.K, got.Labels, got.Score, want.Labels, want.Score)
		}
		if s := c.Score(got.Labels); s != got.Score {
			t.Errorf("N=%d K=%d: Score %v, c.Score of its labels %v", c.N, c.K, got.Score, s)
		}
		if st.RootFractional || (c.N > 0 && st.LPs != 1) {
			t.Errorf("N=%d K=%d: chain relaxation fractional (%+v)", c.N, c.K, st)
		}
	})
}

func TestChainLossAugmentedMatchesViterbi(t *testing.T) {
	for _, cc := range costs {
		t.Run(cc.name, func(t *testing.T) {
			forEachChain(t, func(t *testing.T, c *decoders.Chain, rng *rand.Rand) {
				cost := restrict(cc.cost, c.K)
				truth := randLabels(rng, c.N, c.K)
				for _, scale := range []float64{0, 1, 2.5} {
					got, st, err := ilp.LossAugmentedChain(c, truth, cost, scale, ilp.Options{})
					if err != nil {
						t.Fatalf("N=%d K=%d scale=%v: %v", c.N, c.K, scale, err)
					}
					want := decoders.LossAugmented(c, truth, cost, scale, nil)
					if !approx(got.Score, want.Score) {
						t.Errorf("N=%d K=%d scale=%v: ilp %v scores %v, Viterbi %v scores %v", c.N, c.K, scale, got.Labels, got.Score, want.Labels, want.Score)
					}
					if v := c.Score(got.Labels) + scale*cost.Loss(truth, got.Labels); !approx(v, got.Score) {
						t.Errorf("N=%d K=%d scale=%v: Score %v, augmented value of its labels %v", c.N, c.K, scale, got.Score, v)
					}
					if st.RootFractional {
						t.Errorf("N=%d K=%d scale=%v: chain relaxation fractional (%+v)", c.N, c.K, scale, st)
					}
				}
			})
		})
	}
}

// TestChainBruteForce checks tiny chains against enumeration, the oracle
// that does not share Viterbi's assumptions.
func TestChainBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 45))
	for _, kind := range []scoreKind{floatScores, intScores} {
		for n := 1; n <= 4; n++ {
			for k := 1; k <= 3; k++ {
				for range 4 {
					c := randChain(rng, kind, n, k, true)
					truth := randLabels(rng, n, k)
					cost := decoders.Hamming(k)
					got, _, err := ilp.LossAugmentedChain(c, truth, cost, 1, ilp.Options{})
					if err != nil {
						t.Fatal(err)
					}
					want, _ := bruteforce.Best(n, k, func(y []int) float64 { return c.Score(y) + cost.Loss(truth, y) }, nil)
					if !approx(got.Score, want.Score) {
						t.Errorf("%v N=%d K=%d: ilp %v scores %v, brute force %v scores %v", kind, n, k, got.Labels, got.Score, want.Labels, want.Score)
					}
				}
			}
		}
	}
}
