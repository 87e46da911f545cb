package multiclass_test

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// separableData draws n points around k well-apart centres (class c at
// 4·e_c in k dimensions, noise 0.3) plus a constant feature: a linearly
// separable problem with margin.
func separableData(rng *rand.Rand, n, k int) []multiclass.Instance {
	data := make([]multiclass.Instance, n)
	for i := range data {
		c := i % k
		x := structpred.SparseVec{}
		for j := range k + 1 {
			v := 1.0 // the constant feature
			if j < k {
				v = 0.3 * rng.NormFloat64()
				if j == c {
					v += 4
				}
			}
			x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, v)
		}
		data[i] = multiclass.Instance{X: x, Label: c}
	}
	return data
}

// On separable data the perceptron, k-best MIRA (k = K, hard constraints)
// and passive-aggressive stop after a pass without updates (Converged) at
// a w that classifies every training point; MIRA's w then meets every
// margin constraint w·δf ≥ Δ, checked by enumeration.
func TestOnlineTrainersSeparate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	const n, k = 30, 4
	data := separableData(rng, n, k)
	cost := decoders.Cost{K: k, M: make([]float64, k*k)}
	for a := range k {
		for b := range k {
			if a != b {
				cost.M[a*k+b] = float64(1 + (a+b)%3)
			}
		}
	}
	for _, tt := range []struct {
		name   string
		v      trainers.Values
		margin bool
	}{
		{trainers.PerceptronName, trainers.Values{"epochs": 100, "average": false}, false},
		{trainers.MIRAName, trainers.Values{"epochs": 100, "average": false, "k": k}, true},
		{"passive-aggressive", trainers.Values{"epochs": 100, "average": false}, false},
	} {
		m, err := multiclass.New(data, k+1, k, cost)
		if err != nil {
			t.Fatal(err)
		}
		res, err := trainers.Train(context.Background(), tt.name, m, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged {
			t.Errorf("%s: no pass without updates in %d epochs", tt.name, res.Iterations)
		}
		for i, x := range data {
			if got := m.Predict(x.X, res.W); got != x.Label {
				t.Errorf("%s: instance %d predicted %d, want %d", tt.name, i, got, x.Label)
			}
			if !tt.margin {
				continue
			}
			for y := range k {
				if h := m.Loss(i, y) - m.DeltaFeatures(i, y).Dot(res.W); y != x.Label && h > 1e-9 {
					t.Errorf("%s: instance %d class %d: margin constraint violated by %v", tt.name, i, y, h)
				}
			}
		}
	}
}

// Stochastic subgradient descent reports the margin-scaled SSVM primal at
// its w (checked by enumeration) and approaches the optimum the reference
// dual solver finds.
func TestSubgradientApproachesOptimum(t *testing.T) {
	t.Parallel()
	for _, p := range problems() {
		cost := p.cost
		if cost.M == nil {
			cost = decoders.Hamming(p.k)
		}
		const c = 1.0
		n := len(p.data)
		cs := allConstraints(p.data, p.d, cost, false)
		opt := ssvmOptimum(t, cs, n, p.d*p.k, c)
		res, err := trainers.Train(context.Background(), trainers.SubgradientName, p.model(t), trainers.Values{"C": c, "epochs": 3000, "average": true})
		if err != nil {
			t.Fatal(err)
		}
		own := ssvmPrimal(cs, n, res.W, c)
		if math.Abs(own-res.Primal) > 1e-9*max(1, own) {
			t.Errorf("%s: reported primal %v, at its w %v", p.name, res.Primal, own)
		}
		if own < opt-1e-7 || own > opt*1.01 {
			t.Errorf("%s: primal %v, optimum %v", p.name, own, opt)
		}
		t.Logf("%s: subgradient primal / optimum − 1 = %.3g", p.name, own/opt-1)
	}
}
