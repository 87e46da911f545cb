package trainers

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/structpred"
)

// countingChain counts the top-2 decodes of the chain model it wraps.
type countingChain struct {
	*chain.Model
	decodes int
}

func (m *countingChain) BestExcluding(i int, w []float64, scale float64) ([]int, bool) {
	m.decodes++
	return m.Model.BestExcluding(i, w, scale)
}

// The λ search skips the decoder where the labelings found on both sides of
// λ lie on one line, and its answer must be the one it gives decoding at
// every λ: the same constraint, for every instance, weight vector and slack,
// with fewer decodes. Only two labelings on one line could tell the two
// apart, through the decoder's rounding (it happened in one of
// configs/cora's 124 approx-slack units); on these chains, with small
// integer or real weights, it does not.
func TestApproxSlackSkipsKnownLines(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 2008))
	var skipped, all int
	for trial := range 40 {
		k, attrs := 2+rng.IntN(4), 6
		data := make([]chain.Instance, 4)
		for i := range data {
			n := 1 + rng.IntN(6)
			x := chain.Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
			for t := range n {
				x.Attrs[t] = []int32{int32(rng.IntN(attrs / 2)), int32(attrs/2 + rng.IntN(attrs/2))}
				x.Labels[t] = rng.IntN(k)
			}
			data[i] = x
		}
		base, err := chain.New(data, attrs, k, trial%2 == 0, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		w := make([]float64, base.Dim())
		for j := range w {
			// Small integers make ties common; the rest are real.
			if trial%3 == 0 {
				w[j] = float64(rng.IntN(3) - 1)
			} else {
				w[j] = rng.NormFloat64()
			}
		}
		// One separator of each kind for the whole trial, so that calls
		// follow one another as in training.
		eps := 0.01 + 0.1*rng.Float64()
		var seps [2]*approxSlackSeparator[[]int]
		var counts [2]*countingChain
		for e, every := range []bool{false, true} {
			counts[e] = &countingChain{Model: base}
			seps[e] = &approxSlackSeparator[[]int]{m: counts[e], d: counts[e], epsilon: eps, decodeEvery: every}
		}
		for i := range data {
			for _, xi := range []float64{0, 0.5, 3 * rng.Float64()} {
				var got [2][]structpred.Constraint
				for e, sep := range seps {
					c, err := sep.Separate(i, w, func(int) float64 { return xi }, nil)
					if err != nil {
						t.Fatal(err)
					}
					got[e] = c
				}
				if !sameConstraints(got[0], got[1]) {
					t.Errorf("trial %d instance %d ξ = %v: skipping gives %+v, decoding at every λ %+v", trial, i, xi, got[0], got[1])
				}
			}
		}
		skipped, all = skipped+counts[0].decodes, all+counts[1].decodes
	}
	if skipped >= all {
		t.Errorf("%d decodes with skipping, %d without: nothing was skipped", skipped, all)
	}
	t.Logf("%d decodes with skipping, %d decoding at every λ", skipped, all)
}

func sameConstraints(a, b []structpred.Constraint) bool {
	return slices.EqualFunc(a, b, func(x, y structpred.Constraint) bool {
		return x.Group == y.Group && x.B == y.B && x.Loss == y.Loss &&
			slices.Equal(x.A.Idx, y.A.Idx) && slices.Equal(x.A.Val, y.A.Val)
	})
}
