package multiclass_test

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/trainers"
)

// The trainers are checked against solutions computed here without them:
// the SSVMs' optima by a projected-gradient solver of the dual over every
// constraint (K per instance, enumerated), the log-linear objectives by
// gonum's BFGS on the objective written out densely, with finite-difference
// gradients.

// noisyData is a small problem that no w separates: d features plus a
// constant one, k classes whose means differ, unit-variance noise.
func noisyData(rng *rand.Rand, n, d, k int) []multiclass.Instance {
	data := randomData(rng, n, d+1, k, false)
	for i := range data {
		x := &data[i]
		for j := range d {
			x.X.Val[j] += float64((x.Label + j) % k)
		}
		x.X.Val[d] = 1
	}
	return data
}

// constraint is one SSVM constraint w·a ≥ b − ξ_group, a dense.
type constraint struct {
	group int
	a     []float64
	b     float64
}

// allConstraints enumerates every constraint of the margin- or
// slack-rescaled SSVM over the dense joint feature map: for each instance
// and every class but the truth, a = δf (slack: Δ·δf) and b = Δ.
func allConstraints(data []multiclass.Instance, d int, cost decoders.Cost, slack bool) []constraint {
	k := cost.K
	var cs []constraint
	for i, x := range data {
		ft := jointFeatures(x.X, x.Label, d, k)
		for y := range k {
			delta := cost.M[x.Label*k+y]
			if y == x.Label || (slack && delta == 0) {
				continue // slack: 0 ≥ −ξ holds
			}
			a := jointFeatures(x.X, y, d, k)
			scale := 1.0
			if slack {
				scale = delta
			}
			for j := range a {
				a[j] = scale * (ft[j] - a[j])
			}
			cs = append(cs, constraint{group: i, a: a, b: delta})
		}
	}
	return cs
}

// ssvmPrimal is ½‖w‖² + C Σ_g max(0, max_{c∈g} b_c − w·a_c).
func ssvmPrimal(cs []constraint, n int, w []float64, c float64) float64 {
	xi := make([]float64, n)
	for _, k := range cs {
		xi[k.group] = max(xi[k.group], k.b-dot(k.a, w))
	}
	return 0.5*dot(w, w) + c*floatsSum(xi)
}

func floatsSum(x []float64) float64 {
	var s float64
	for _, v := range x {
		s += v
	}
	return s
}

// ssvmOptimum solves the dual max Σ α_c b_c − ½‖Σ α_c a_c‖² subject to
// α ≥ 0, Σ_{c∈g} α_c ≤ C by accelerated projected gradient (FISTA with
// restarts) until the primal at w(α) and the dual agree to 1e-10
// relative; it returns the optimum.
func ssvmOptimum(t *testing.T, cs []constraint, n, dim int, c float64) float64 {
	t.Helper()
	// Step 1/L, L ≥ the largest eigenvalue of the Gram matrix (power
	// iteration, with a margin).
	v := make([]float64, len(cs))
	for j := range v {
		v[j] = 1
	}
	lip := 0.0
	for range 200 {
		u := gram(cs, v, dim)
		lip = math.Sqrt(dot(u, u) / dot(v, v))
		for j := range v {
			v[j] = u[j] / lip
		}
	}
	step := 1 / (1.1*lip + 1e-12)
	alpha, prev, z := make([]float64, len(cs)), make([]float64, len(cs)), make([]float64, len(cs))
	mom := 1.0
	for iter := range 1_000_000 {
		w := combine(cs, z, dim)
		for j, k := range cs {
			alpha[j] = z[j] + step*(k.b-dot(k.a, w))
		}
		projectGroups(cs, alpha, n, c)
		if iter%100 == 0 {
			w := combine(cs, alpha, dim)
			dual := 0.0
			for j, k := range cs {
				dual += alpha[j] * k.b
			}
			dual -= 0.5 * dot(w, w)
			p := ssvmPrimal(cs, n, w, c)
			if p-dual <= 1e-9*max(1, p) {
				return p
			}
		}
		restart := 0.0
		for j := range alpha {
			restart += (z[j] - alpha[j]) * (alpha[j] - prev[j])
		}
		next := (1 + math.Sqrt(1+4*mom*mom)) / 2
		if restart > 0 { // the momentum points downhill: drop it
			next = 1
		}
		for j := range z {
			z[j] = alpha[j] + (min(mom, next)-1)/next*(alpha[j]-prev[j])
		}
		mom = next
		copy(prev, alpha)
	}
	t.Fatal("the reference dual solver did not converge")
	return 0
}

// combine returns Σ_c α_c a_c.
func combine(cs []constraint, alpha []float64, dim int) []float64 {
	w := make([]float64, dim)
	for j, k := range cs {
		for e, v := range k.a {
			w[e] += alpha[j] * v
		}
	}
	return w
}

// gram returns G·v, G_cd = a_c·a_d.
func gram(cs []constraint, v []float64, dim int) []float64 {
	w := combine(cs, v, dim)
	out := make([]float64, len(cs))
	for j, k := range cs {
		out[j] = dot(k.a, w)
	}
	return out
}

// projectGroups projects each group's α onto {α ≥ 0, Σα ≤ C}.
func projectGroups(cs []constraint, alpha []float64, n int, c float64) {
	for g := range n {
		var idx []int
		for j, k := range cs {
			if k.group == g {
				idx = append(idx, j)
			}
		}
		var sum float64
		for _, j := range idx {
			sum += max(alpha[j], 0)
		}
		if sum <= c {
			for _, j := range idx {
				alpha[j] = max(alpha[j], 0)
			}
			continue
		}
		// Onto the simplex Σα = C: α_j = max(α_j − τ, 0).
		vals := make([]float64, len(idx))
		for e, j := range idx {
			vals[e] = alpha[j]
		}
		slices.Sort(vals)
		slices.Reverse(vals)
		var cum, tau float64
		for r, v := range vals {
			cum += v
			if t := (cum - c) / float64(r+1); v-t > 0 {
				tau = t
			}
		}
		for _, j := range idx {
			alpha[j] = max(alpha[j]-tau, 0)
		}
	}
}

// problem is a small multiclass problem and its model.
type problem struct {
	name string
	data []multiclass.Instance
	d, k int
	cost decoders.Cost
}

func (p problem) model(t *testing.T) *multiclass.Model {
	t.Helper()
	m, err := multiclass.New(p.data, p.d, p.k, p.cost)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// problems: the 0/1 loss, Pletscher et al.'s Synth2-like costs (0.1 for
// confusing classes 1 and 2) and a cost matrix with zero off-diagonal
// entries (a class that costs nothing to confuse with another).
func problems() []problem {
	rng := rand.New(rand.NewPCG(21, 22))
	synth := decoders.Cost{K: 3, M: []float64{0, 1, 1, 1, 0, 0.1, 1, 0.1, 0}}
	zeros := decoders.Cost{K: 3, M: []float64{0, 2, 0, 1, 0, 1, 0, 3, 0}}
	return []problem{
		{"0/1", noisyData(rng, 12, 2, 3), 3, 3, decoders.Cost{}},
		{"synth-costs", noisyData(rng, 12, 2, 3), 3, 3, synth},
		{"zero-costs", noisyData(rng, 10, 2, 3), 3, 3, zeros},
	}
}

// Margin and slack scaling on both solvers, and PosLearn (slack scaling
// with one position), reach the SSVM optimum within C·n·ε, report the
// true primal at their w, and a dual that does not exceed the optimum.
// ApproxSlack's primal, certified by the exact slack oracle, is never
// below the optimum.
func TestCuttingPlaneReachesOptimum(t *testing.T) {
	t.Parallel()
	const eps = 1e-4
	for _, p := range problems() {
		n := len(p.data)
		cost := p.cost
		if cost.M == nil {
			cost = decoders.Hamming(p.k)
		}
		for _, c := range []float64{0.1, 1, 10} {
			for _, slack := range []bool{false, true} {
				cs := allConstraints(p.data, p.d, cost, slack)
				opt := ssvmOptimum(t, cs, n, p.d*p.k, c)
				names := []string{trainers.Margin}
				if slack {
					names = []string{trainers.Slack, trainers.PosLearn, trainers.ApproxSlack}
				}
				for _, name := range names {
					for _, solver := range trainers.Solvers() {
						res, err := trainers.Train(context.Background(), name, p.model(t), trainers.Values{"C": c, "epsilon": eps, "solver": solver})
						if err != nil {
							t.Fatal(err)
						}
						own := ssvmPrimal(cs, n, res.W, c)
						tol := 1e-9 * max(1, opt)
						bound := c * float64(n) * eps
						if name == trainers.ApproxSlack {
							bound = math.Inf(1) // an approximate oracle: no bound above
						}
						switch {
						case math.Abs(res.Primal-own) > tol:
							t.Errorf("%s %s %s C=%v: reported primal %v, at its w the primal is %v", p.name, name, solver, c, res.Primal, own)
						case own < opt-1e-7*max(1, opt) || own > opt+bound+tol:
							t.Errorf("%s %s %s C=%v: primal %v, optimum %v (bound C·n·ε = %v)", p.name, name, solver, c, own, opt, bound)
						case res.Dual > opt+1e-7*max(1, opt):
							t.Errorf("%s %s %s C=%v: dual %v above the optimum %v", p.name, name, solver, c, res.Dual, opt)
						}
						t.Logf("%s %s %s C=%v: primal − optimum = %.3g (C·n·ε = %.3g), %d iterations", p.name, name, solver, c, own-opt, c*float64(n)*eps, res.Iterations)
					}
				}
			}
		}
	}
}

// One-slack separating on several goroutines (each with a Fork of the
// model) gives the result of one, bit for bit.
func TestThreadsDoNotChangeResults(t *testing.T) {
	t.Parallel()
	p := problems()[1]
	var want []float64
	for _, threads := range []int{1, 3} {
		res, err := trainers.Train(context.Background(), trainers.Slack, p.model(t),
			trainers.Values{"C": 1.0, "solver": trainers.OneSlack, "threads": threads})
		if err != nil {
			t.Fatal(err)
		}
		if want == nil {
			want = res.W
		} else if !slices.Equal(res.W, want) {
			t.Errorf("%d threads: w differs from one thread's", threads)
		}
	}
}
