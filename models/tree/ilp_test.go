package tree_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/floats"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/models/tree"
	"github.com/maxmargin/repro/trainers"
)

// ilpTreebank draws n short sentences whose gold trees are random, so that
// the data are not separable and every slack matters to the objective.
func ilpTreebank(rng *rand.Rand, n, attrs int) []tree.Instance {
	data := make([]tree.Instance, n)
	for i := range data {
		data[i] = randInstance(rng, 2+rng.IntN(3), attrs)
	}
	return data
}

// TestILPDecoderTrainsAlike trains margin scaling with Chu-Liu/Edmonds and
// with the ILP decoder, under both root conventions. The objective is
// strictly convex, so both runs approach one optimum: their true primals
// must lie within the sum of their gaps and their weights within
// √(2·gap) of it each.
func TestILPDecoderTrainsAlike(t *testing.T) {
	const attrs = 15
	for _, dec := range []mst.Decoder{{}, {SingleRoot: true}} {
		rng := rand.New(rand.NewPCG(45, 4))
		data := ilpTreebank(rng, 10, attrs)
		var res [2]*trainers.Result
		for i, useILP := range []bool{false, true} {
			m, err := tree.New(data, attrs, dec)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.UseILP(useILP); err != nil {
				t.Fatal(err)
			}
			r, err := trainers.Train(context.Background(), "margin", m, trainers.Values{"C": 1.0})
			if err != nil {
				t.Fatal(err)
			}
			if !r.Converged {
				t.Fatalf("%v ilp=%v: not converged (gap %v)", dec, useILP, r.Gap)
			}
			res[i] = r
		}
		a, b := res[0], res[1]
		t.Logf("%v: primal %v gap %v (%d oracle calls); ILP: primal %v gap %v (%d oracle calls); weights %v apart",
			dec, a.Primal, a.Gap, a.OracleCalls, b.Primal, b.Gap, b.OracleCalls, floats.Distance(a.W, b.W, 2))
		if d := math.Abs(a.Primal - b.Primal); d > a.Gap+b.Gap+1e-9 {
			t.Errorf("%v: primal %v exact, %v with the ILP: %v apart, gaps %v and %v", dec, a.Primal, b.Primal, d, a.Gap, b.Gap)
		}
		if d, bound := floats.Distance(a.W, b.W, 2), math.Sqrt(2*a.Gap)+math.Sqrt(2*b.Gap)+1e-9; d > bound {
			t.Errorf("%v: weights %v apart, gaps allow %v", dec, d, bound)
		}
		if a.Primal <= 0 {
			t.Errorf("%v: primal %v: the test data should not be trivially fit", dec, a.Primal)
		}
	}
}

// TestILPDecoderOptimal checks the ILP path against Chu-Liu/Edmonds on
// random weights: same objective for MAP and loss-augmented MAP.
func TestILPDecoderOptimal(t *testing.T) {
	rng := rand.New(rand.NewPCG(45, 5))
	const attrs = 15
	data := ilpTreebank(rng, 8, attrs)
	for _, dec := range []mst.Decoder{{}, {SingleRoot: true}} {
		exact, _ := tree.New(data, attrs, dec)
		viaILP, _ := tree.New(data, attrs, dec)
		if err := viaILP.UseILP(true); err != nil {
			t.Fatal(err)
		}
		for range 3 {
			w := make([]float64, attrs)
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			for i := range data {
				for _, scale := range []float64{0, 1} {
					obj := func(y []int) float64 { return exact.Score(i, w, y) + scale*exact.Loss(i, y) }
					if g, e := obj(viaILP.LossAugmented(i, w, scale)), obj(exact.LossAugmented(i, w, scale)); math.Abs(g-e) > 1e-9 {
						t.Errorf("%v instance %d scale %v: ILP reaches %v, exact %v", dec, i, scale, g, e)
					}
				}
				if g, e := exact.Score(i, w, viaILP.Predict(data[i], w)), exact.Score(i, w, exact.Predict(data[i], w)); math.Abs(g-e) > 1e-9 {
					t.Errorf("%v instance %d: ILP prediction scores %v, exact %v", dec, i, g, e)
				}
			}
		}
	}
}

// UseILP refuses the projective decoder, which the ILP does not model.
func TestUseILPRefusesProjective(t *testing.T) {
	m, err := tree.New(nil, 1, mst.Decoder{Projective: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.UseILP(true); err == nil {
		t.Error("UseILP accepted Eisner's projective decoder")
	}
	if err := m.UseILP(false); err != nil {
		t.Errorf("UseILP(false): %v", err)
	}
}
