package trainers

import (
	"context"
	"math"
	"strings"
	"testing"
)

// Passive-aggressive PA-I is 1-best MIRA: both solve the same one-constraint
// QP per instance in closed form (PA) or by coordinate ascent (MIRA), so
// with the same seed they visit the same instances and reach the same w.
func TestPassiveAggressiveIsOneBestMIRA(t *testing.T) {
	t.Parallel()
	for _, c := range []float64{0, 0.05, 1} {
		m := noisyToy(11, 40, 4, 5)
		v := Values{ParamC: c, "epochs": 4, ParamSeed: uint64(3)}
		pa, err := Train[int](context.Background(), PassiveAggressiveName, m, v)
		if err != nil {
			t.Fatal(err)
		}
		v["k"] = 1
		mira, err := Train[int](context.Background(), MIRAName, m, v)
		if err != nil {
			t.Fatal(err)
		}
		if pa.Constraints != mira.Constraints {
			t.Errorf("C=%v: %d updates, MIRA k=1 made %d", c, pa.Constraints, mira.Constraints)
		}
		for j := range pa.W {
			if d := math.Abs(pa.W[j] - mira.W[j]); d > 1e-9*math.Max(1, math.Abs(mira.W[j])) {
				t.Fatalf("C=%v: w[%d] = %v, MIRA k=1 %v", c, j, pa.W[j], mira.W[j])
			}
		}
	}
}

// On separable data the unbounded PA stops after a pass without updates,
// with every training instance right.
func TestPassiveAggressiveSeparable(t *testing.T) {
	t.Parallel()
	m := noisyToy(5, 30, 3, 8)
	res, err := Train[int](context.Background(), PassiveAggressiveName, m, Values{"epochs": 50, "average": false})
	if err != nil {
		t.Fatal(err)
	}
	if errs := trainingErrors(m, res.W); !res.Converged || errs != 0 {
		t.Errorf("converged=%v after %d epochs with %d training errors", res.Converged, res.Iterations, errs)
	}
}

func TestPassiveAggressiveParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		v    Values
		want string // substring of the error; "" for none
	}{
		{Values{}, ""},
		{Values{ParamC: -1.0}, "C: must be in [0, 1e+12], got -1"},
		{Values{"epochs": -1}, "epochs: must be at least 1"},
		{Values{"k": 3}, `k: does not apply to trainer "passive-aggressive"`},
		{Values{"epochs": 1.5}, "epochs: expected int"},
	}
	for _, tt := range tests {
		_, err := Train[int](context.Background(), PassiveAggressiveName, noisyToy(1, 5, 2, 2), tt.v)
		if (err == nil) != (tt.want == "") || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%v: error %v, want %q", tt.v, err, tt.want)
		}
	}
}
