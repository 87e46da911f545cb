package multiclass_test

import (
	"context"
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/optimize"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/trainers"
)

// lbetaObjective is ½‖w‖² + C Σ_i ℓ_β,i(w) written out over the dense
// joint feature map: margin-rescaled (1/β) log Σ_y exp(β(s(y) + λΔ(y))) −
// s(y_i), or slack-rescaled (1/β) log Σ_y exp(βλΔ(y)(1 + s(y) − s(y_i))).
func lbetaObjective(p problem, c, beta, lambda float64, slack bool) func(w []float64) float64 {
	cost := p.cost
	if cost.M == nil {
		cost = decoders.Hamming(p.k)
	}
	return func(w []float64) float64 {
		f := 0.5 * dot(w, w)
		for _, x := range p.data {
			s := augmented(x, w, cost, 0, p.d)
			row := cost.M[x.Label*p.k : (x.Label+1)*p.k]
			var z float64
			for y := range s {
				if slack {
					z += math.Exp(beta * lambda * row[y] * (1 + s[y] - s[x.Label]))
				} else {
					z += math.Exp(beta * (s[y] + lambda*row[y]))
				}
			}
			l := math.Log(z) / beta
			if !slack {
				l -= s[x.Label]
			}
			f += c * l
		}
		return f
	}
}

// minimizeIndependently minimises f with gonum's BFGS and
// finite-difference gradients from w = 0.
func minimizeIndependently(t *testing.T, f func([]float64) float64, dim int) (float64, []float64) {
	t.Helper()
	prob := optimize.Problem{
		Func: f,
		Grad: func(grad, x []float64) { fd.Gradient(grad, f, x, &fd.Settings{Formula: fd.Central}) },
	}
	res, err := optimize.Minimize(prob, make([]float64, dim), &optimize.Settings{GradientThreshold: 1e-7}, &optimize.BFGS{})
	if err != nil {
		t.Fatal(err)
	}
	return res.F, res.X
}

// CRF (multinomial logistic regression) and entropy-margin, margin- and
// slack-rescaled, reach the minimum of their objective as gonum finds it
// on the objective written out here; entropy-margin at β = 1 without the
// loss is the CRF.
func TestLogLinearReachesOptimum(t *testing.T) {
	t.Parallel()
	settings := []struct {
		trainer     string
		beta, scale float64
		rescaling   string
	}{
		{trainers.CRFName, 1, 0, trainers.Margin},
		{trainers.EntropyMarginName, 1, 0, trainers.Margin},
		{trainers.EntropyMarginName, 1, 1, trainers.Margin},
		{trainers.EntropyMarginName, 0.5, 2, trainers.Margin},
		{trainers.EntropyMarginName, 5, 1, trainers.Slack},
		{trainers.EntropyMarginName, 1, 1, trainers.Slack},
	}
	for _, p := range problems()[:2] {
		for _, c := range []float64{0.1, 3} {
			for _, s := range settings {
				v := trainers.Values{"C": c}
				if s.trainer == trainers.EntropyMarginName {
					v["beta"], v["loss_scale"], v["rescaling"] = s.beta, s.scale, s.rescaling
				}
				res, err := trainers.Train(context.Background(), s.trainer, p.model(t), v)
				if err != nil {
					t.Fatal(err)
				}
				f := lbetaObjective(p, c, s.beta, s.scale, s.rescaling == trainers.Slack)
				want, wantW := minimizeIndependently(t, f, p.d*p.k)
				if got := f(res.W); math.Abs(got-res.Primal) > 1e-9*max(1, got) {
					t.Errorf("%s %v C=%v: reported objective %v, at its w %v", p.name, s, c, res.Primal, got)
				}
				if math.Abs(res.Primal-want) > 1e-7*max(1, want) {
					t.Errorf("%s %v C=%v: objective %v, gonum's minimum %v", p.name, s, c, res.Primal, want)
				}
				var dw float64
				for j, x := range wantW {
					dw = max(dw, math.Abs(x-res.W[j]))
				}
				if dw > 1e-3 {
					t.Errorf("%s %v C=%v: w differs from gonum's by %v", p.name, s, c, dw)
				}
			}
		}
	}
}

// As β grows, entropy-margin's minimum tends to the SSVM's: the SSVM
// optimum P* ≤ min F_β ≤ P* + C·n·log K/β, margin- and slack-rescaled
// (ℓ_β lies between the hinge and the hinge + log K/β; see
// TestLogLossLimits), with P* from the reference dual solver.
func TestEntropyMarginTendsToSSVM(t *testing.T) {
	t.Parallel()
	const beta, c = 1000.0, 1.0
	for _, p := range problems() {
		cost := p.cost
		if cost.M == nil {
			cost = decoders.Hamming(p.k)
		}
		n := len(p.data)
		for _, rescaling := range []string{trainers.Margin, trainers.Slack} {
			cs := allConstraints(p.data, p.d, cost, rescaling == trainers.Slack)
			opt := ssvmOptimum(t, cs, n, p.d*p.k, c)
			res, err := trainers.Train(context.Background(), trainers.EntropyMarginName, p.model(t),
				trainers.Values{"C": c, "beta": beta, "rescaling": rescaling, "max_iterations": 5000})
			if err != nil {
				t.Fatal(err)
			}
			slackBound := c * float64(n) * math.Log(float64(p.k)) / beta
			if res.Primal < opt-1e-7 || res.Primal > opt+slackBound+1e-6 {
				t.Errorf("%s %s β=%v: objective %v, SSVM optimum %v (+ C·n·log K/β = %v)", p.name, rescaling, beta, res.Primal, opt, slackBound)
			}
			if own := ssvmPrimal(cs, n, res.W, c); own < opt-1e-7 || own > res.Primal+1e-9 {
				t.Errorf("%s %s: SSVM primal at ℓβ's w %v, optimum %v, ℓβ objective %v", p.name, rescaling, own, opt, res.Primal)
			}
			t.Logf("%s %s β=%v: objective − SSVM optimum = %.3g (bound %.3g), %d iterations", p.name, rescaling, beta, res.Primal-opt, slackBound, res.Iterations)
		}
	}
}
