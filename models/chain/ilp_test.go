package chain_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// ilpData draws n short sequences over attrs attribute ids and k labels,
// labelled by a hidden weight vector plus noise so that they are not
// separable: every slack matters to the objective.
func ilpData(rng *rand.Rand, n, attrs, k int) []chain.Instance {
	hidden := make([]float64, chain.Dim(attrs, k, true))
	for i := range hidden {
		hidden[i] = rng.NormFloat64()
	}
	probe, _ := chain.New(nil, attrs, k, true, decoders.Cost{})
	data := make([]chain.Instance, n)
	for i := range data {
		x := chain.Instance{Attrs: make([][]int32, 2+rng.IntN(3))}
		for t := range x.Attrs {
			x.Attrs[t] = []int32{int32(rng.IntN(attrs / 2)), int32(attrs/2 + rng.IntN(attrs/2))}
		}
		x.Labels = probe.Predict(x, hidden)
		if rng.IntN(3) == 0 {
			x.Labels[0] = rng.IntN(k)
		}
		data[i] = x
	}
	return data
}

// TestILPDecoderTrainsAlike trains margin scaling with Viterbi and with
// the ILP decoder. The objective ½‖w‖² + C Σξ is strictly convex, so both
// runs approach one optimum w*: their true primals must lie within the
// sum of their gaps, and ½‖w − w*‖² ≤ gap bounds the distance of their
// weights. Ties among labelings (at w = 0 every labeling ties) may send
// the two runs through different constraints, which these bounds allow.
func TestILPDecoderTrainsAlike(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 2))
	const attrs, k = 8, 3
	data := ilpData(rng, 12, attrs, k)
	var res [2]*trainers.Result
	for i, useILP := range []bool{false, true} {
		m, err := chain.New(data, attrs, k, true, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		m.UseILP(useILP)
		r, err := trainers.Train(context.Background(), "margin", m, trainers.Values{"C": 1.0})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Converged {
			t.Fatalf("ilp=%v: not converged (gap %v)", useILP, r.Gap)
		}
		res[i] = r
	}
	a, b := res[0], res[1]
	t.Logf("Viterbi: primal %v gap %v oracle calls %d; ILP: primal %v gap %v oracle calls %d; ‖Δw‖ %v", a.Primal, a.Gap, a.OracleCalls, b.Primal, b.Gap, b.OracleCalls, floats.Distance(a.W, b.W, 2))
	if d := math.Abs(a.Primal - b.Primal); d > a.Gap+b.Gap+1e-9 {
		t.Errorf("primal %v with Viterbi, %v with the ILP: %v apart, gaps %v and %v", a.Primal, b.Primal, d, a.Gap, b.Gap)
	}
	if d, bound := floats.Distance(a.W, b.W, 2), math.Sqrt(2*a.Gap)+math.Sqrt(2*b.Gap)+1e-9; d > bound {
		t.Errorf("weights %v apart, gaps allow %v", d, bound)
	}
	if a.Primal <= 0 {
		t.Errorf("primal %v: the test data should not be trivially fit", a.Primal)
	}
}

// TestILPDecoderOptimal checks the model's ILP path against its Viterbi
// path on random weights: same objective, for MAP and loss-augmented MAP.
func TestILPDecoderOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 3))
	const attrs, k = 8, 3
	data := ilpData(rng, 10, attrs, k)
	exact, _ := chain.New(data, attrs, k, true, decoders.Cost{})
	viaILP, _ := chain.New(data, attrs, k, true, decoders.Cost{})
	viaILP.UseILP(true)
	for range 5 {
		w := make([]float64, exact.Dim())
		for j := range w {
			w[j] = rng.NormFloat64()
		}
		for i := range data {
			for _, scale := range []float64{0, 1} {
				obj := func(y []int) float64 { return exact.Score(i, w, y) + scale*exact.Loss(i, y) }
				if g, e := obj(viaILP.LossAugmented(i, w, scale)), obj(exact.LossAugmented(i, w, scale)); math.Abs(g-e) > 1e-9 {
					t.Errorf("instance %d scale %v: ILP reaches %v, Viterbi %v", i, scale, g, e)
				}
			}
			if g, e := exact.Score(i, w, viaILP.Predict(data[i], w)), exact.Score(i, w, exact.Predict(data[i], w)); math.Abs(g-e) > 1e-9 {
				t.Errorf("instance %d: ILP prediction scores %v, Viterbi's %v", i, g, e)
			}
		}
	}
}
