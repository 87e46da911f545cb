package multiclass_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/models/multiclass"
)

// logLosses returns both of the model's losses of instance i as functions
// of w (value only), and with their gradients.
func logLosses(m *multiclass.Model, i int, beta, scale float64) map[string]func(w, grad []float64) float64 {
	return map[string]func(w, grad []float64) float64{
		"margin": func(w, grad []float64) float64 { return m.LogLoss(i, w, beta, scale, grad) },
		"slack": func(w, grad []float64) float64 {
			v, err := m.SlackLogLoss(i, w, beta, scale, grad)
			if err != nil {
				panic(err)
			}
			return v
		},
	}
}

// Both losses' gradients match central finite differences, for several β
// and loss scales and real-valued costs.
func TestLogLossGradients(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	const n, d, k = 4, 3, 4
	data := randomData(rng, n, d, k, true)
	m, err := multiclass.New(data, d, k, randomCost(rng, k, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct{ beta, scale float64 }{{1, 0}, {1, 1}, {0.3, 2}, {5, 1}, {40, 0.5}} {
		w := randomW(rng, m.Dim())
		for i := range n {
			for name, f := range logLosses(m, i, p.beta, p.scale) {
				grad := make([]float64, m.Dim())
				f(w, grad)
				const h = 1e-6
				for j := range w {
					wp, wm := append([]float64(nil), w...), append([]float64(nil), w...)
					wp[j] += h
					wm[j] -= h
					fd := (f(wp, nil) - f(wm, nil)) / (2 * h)
					if math.Abs(fd-grad[j]) > 1e-5*math.Max(1, math.Abs(fd)) {
						t.Errorf("%s β=%v scale=%v instance %d: ∂/∂w[%d] = %v, finite difference %v", name, p.beta, p.scale, i, j, grad[j], fd)
					}
				}
			}
		}
	}
}

// At β = 1 without the loss the margin-rescaled loss is multinomial
// logistic regression's −log p(y_i | x_i) = log Σ_y exp(s(y)) − s(y_i);
// as β grows both losses tend to their hinges from above, within
// log K/β:
//
//	margin: max_y s(y) + Δ(y) − s(y_i) ≤ ℓ_β ≤ that + log K/β,
//	slack:  max_y Δ(y)·(1 + s(y) − s(y_i)) ≤ ℓ_β ≤ that + log K/β.
//
// With the loss scale 0 the slack-rescaled loss is the constant log K/β.
func TestLogLossLimits(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 10))
	const n, d, k = 6, 3, 5
	data := randomData(rng, n, d, k, false)
	cost := randomCost(rng, k, false)
	m, err := multiclass.New(data, d, k, cost)
	if err != nil {
		t.Fatal(err)
	}
	w := randomW(rng, m.Dim())
	for i, x := range data {
		s := augmented(x, w, cost, 0, d)
		var z float64
		for _, v := range s {
			z += math.Exp(v)
		}
		if got, want := m.LogLoss(i, w, 1, 0, nil), math.Log(z)-s[x.Label]; math.Abs(got-want) > 1e-12 {
			t.Errorf("instance %d: CRF loss %v, want −log softmax %v", i, got, want)
		}
		if got, _ := m.SlackLogLoss(i, w, 2, 0, nil); math.Abs(got-math.Log(k)/2) > 1e-12 {
			t.Errorf("instance %d: slack loss without Δ %v, want log K/β = %v", i, got, math.Log(k)/2)
		}
		var marginHinge, slackHinge float64
		for y, c := range cost.M[x.Label*k : (x.Label+1)*k] {
			marginHinge = max(marginHinge, s[y]+c-s[x.Label])
			slackHinge = max(slackHinge, c*(1+s[y]-s[x.Label]))
		}
		for _, beta := range []float64{1, 10, 1e3, 1e6} {
			slack, _ := m.SlackLogLoss(i, w, beta, 1, nil)
			for name, got := range map[string][2]float64{
				"margin": {m.LogLoss(i, w, beta, 1, nil), marginHinge},
				"slack":  {slack, slackHinge},
			} {
				const tol = 1e-9
				if got[0] < got[1]-tol || got[0] > got[1]+math.Log(k)/beta+tol {
					t.Errorf("%s β=%v instance %d: ℓ_β = %v outside [%v, %v + log K/β]", name, beta, i, got[0], got[1], got[1])
				}
			}
		}
	}
}
