package trainers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"testing"
)

// A relative ε (Settings.Relative) stops one-slack with the full primal
// within ε of itself above the dual (plus the QP's own gap), for every
// exact cutting-plane trainer on a noisy problem; a looser ε stops no later.
func TestOneSlackRelativeEpsilonReachesObjective(t *testing.T) {
	t.Parallel()
	for _, trainer := range []string{Margin, Slack, PosLearn} {
		for _, c := range []float64{0.1, 1, 10} {
			rng := rand.New(rand.NewPCG(7, uint64(c*10)))
			m := separableToy(rng, 40, 4, 5)
			for i := range m.x {
				for j := range m.x[i] {
					m.x[i][j] += 2 * rng.NormFloat64()
				}
			}
			iters := map[float64]int{}
			for _, eps := range []float64{1e-4, 1e-2} {
				sep, err := NewSeparator[int](trainer, m, eps)
				if err != nil {
					t.Fatal(err)
				}
				s := Settings{C: c, Epsilon: eps, QPTolerance: 1e-7, Solver: OneSlack, Relative: true}
				res, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
				if err != nil {
					t.Fatalf("%s C=%v: %v", trainer, c, err)
				}
				formulation := trainer
				if trainer == PosLearn {
					formulation = Slack
				}
				full := m.truePrimal(formulation, res.W, c)
				if bound := eps*full + 1e-6*math.Max(1, full); !res.Converged || full-res.Dual > bound || full-res.Dual < -1e-6 {
					t.Errorf("%s C=%v ε=%v: converged %v, full primal %v − dual %v = %v, want in [0, %v]", trainer, c, eps, res.Converged, full, res.Dual, full-res.Dual, bound)
				}
				iters[eps] = res.Iterations
			}
			if iters[1e-2] > iters[1e-4] {
				t.Errorf("%s C=%v: %d iterations at relative ε 1e-2, %d at 1e-4", trainer, c, iters[1e-2], iters[1e-4])
			}
		}
	}
}

func TestRelativeEpsilonParams(t *testing.T) {
	t.Parallel()
	m := separableToy(rand.New(rand.NewPCG(1, 1)), 10, 3, 3)
	sep, _ := NewSeparator[int](Margin, m, 0.01)
	if _, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 1, Relative: true}); !errors.Is(err, errRelativeNSlack) {
		t.Errorf("n-slack with a relative ε: %v, want %v", err, errRelativeNSlack)
	}
	for _, tc := range []struct {
		v       Values
		want    any // the resolved epsilon_relative; nil: absent
		wantErr string
	}{
		{Values{"C": 1.0, "solver": OneSlack}, nil, ""},
		{Values{"C": 1.0, "solver": OneSlack, "epsilon_relative": false}, nil, ""},
		{Values{"C": 1.0, "solver": OneSlack, "epsilon_relative": true}, true, ""},
		{Values{"C": 1.0, "epsilon_relative": true}, nil, "epsilon_relative"},
	} {
		err := Validate(PosLearn, tc.v)
		if tc.wantErr != "" {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Key != tc.wantErr {
				t.Errorf("%v: error %v, want one about %s", tc.v, err, tc.wantErr)
			}
			continue
		}
		r, err := Resolve(PosLearn, tc.v)
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := r["epsilon_relative"]; ok != (tc.want != nil) || ok && got != tc.want {
			t.Errorf("%v: resolved epsilon_relative %v (present %v), want %v", tc.v, got, ok, tc.want)
		}
	}
}
