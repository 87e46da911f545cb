package trainers_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// enumerated is every constraint w·a_j ≥ b_j − ξ_g(j) of a variant over
// all labelings of a tiny chain problem, dense, with an independent
// solver of its dual.
type enumerated struct {
	a     [][]float64
	b     []float64
	group []int
	quad  bool
	c     float64
	n     int
}

// enumerate lists the constraints of trainer (margin or slack) with loss
// delta and slack penalty: Δ = L_i(y) (Hamming) or 1 for every y ≠ y_i;
// r = √Δ for quadratic slacks, else Δ; margin a = δf, b = r; slack a = r·δf,
// b = r (Tsochantaridis et al. 2004, Algorithm 1, step 5).
func enumerate(m *chain.Model, data []chain.Instance, k int, trainer, delta, penalty string, c float64) *enumerated {
	e := &enumerated{quad: penalty == trainers.SlackQuadratic, c: c, n: len(data)}
	for i, x := range data {
		labelings(len(x.Labels), k, func(y []int) {
			if slices.Equal(y, x.Labels) {
				return
			}
			r := m.Loss(i, y)
			if delta == trainers.DeltaZeroOne {
				r = 1
			}
			if e.quad {
				r = math.Sqrt(r)
			}
			a := make([]float64, m.Dim())
			d := m.DeltaFeatures(i, y)
			for t, j := range d.Idx {
				a[j] = d.Val[t]
				if trainer == trainers.Slack {
					a[j] *= r
				}
			}
			e.a, e.b, e.group = append(e.a, a), append(e.b, r), append(e.group, i)
		})
	}
	return e
}

// penalty is C·ξ or (C/2)·ξ².
func (e *enumerated) penalty(xi float64) float64 {
	if e.quad {
		return 0.5 * e.c * xi * xi
	}
	return e.c * xi
}

// slacks returns every group's slack max(0, max_j b_j − w·a_j) at w.
func (e *enumerated) slacks(w []float64) []float64 {
	xi := make([]float64, e.n)
	for j, a := range e.a {
		xi[e.group[j]] = math.Max(xi[e.group[j]], e.b[j]-dotDense(a, w))
	}
	return xi
}

// primal is the objective at w over every constraint.
func (e *enumerated) primal(w []float64) float64 {
	p := 0.5 * dotDense(w, w)
	for _, x := range e.slacks(w) {
		p += e.penalty(x)
	}
	return p
}

// solveDual maximises the dual over all constraints by accelerated
// projected gradient (FISTA): Σ α_j b_j − ½‖Σ α_j a_j‖², over α ≥ 0 with
// Σ_{j∈g} α_j ≤ C (linear slacks), or minus (1/2C) Σ_g A_g² with no upper
// bound (quadratic). It returns the optimum's value once its own duality
// gap at w(α) is below tol, and false if it never gets there.
func (e *enumerated) solveDual(tol float64) (float64, bool) {
	m := len(e.b)
	gram := make([][]float64, m)
	var lip float64
	for j := range gram {
		gram[j] = make([]float64, m)
		for l := range gram[j] {
			gram[j][l] = dotDense(e.a[j], e.a[l])
			if e.quad && e.group[j] == e.group[l] {
				gram[j][l] += 1 / e.c
			}
			lip += gram[j][l] * gram[j][l]
		}
	}
	lip = math.Sqrt(lip) // Frobenius norm ≥ the largest eigenvalue
	dual := func(al []float64) float64 {
		d := 0.0
		for j := range al {
			d += al[j] * e.b[j]
			for l := range al {
				d -= 0.5 * al[j] * al[l] * gram[j][l]
			}
		}
		return d
	}
	wOf := func(al []float64) []float64 {
		w := make([]float64, len(e.a[0]))
		for j, x := range al {
			for t := range w {
				w[t] += x * e.a[j][t]
			}
		}
		return w
	}
	alpha, y, prev := make([]float64, m), make([]float64, m), make([]float64, m)
	tk := 1.0
	for it := range 200000 {
		for j := range y {
			g := e.b[j]
			for l := range y {
				g -= gram[j][l] * y[l]
			}
			alpha[j] = y[j] + g/lip
		}
		e.project(alpha)
		tn := (1 + math.Sqrt(1+4*tk*tk)) / 2
		for j := range y {
			y[j] = alpha[j] + (tk-1)/tn*(alpha[j]-prev[j])
		}
		copy(prev, alpha)
		tk = tn
		if it%200 == 0 {
			d := dual(alpha)
			if p := e.primal(wOf(alpha)); p-d <= tol*math.Max(1, p) {
				return d, true
			}
		}
	}
	return dual(alpha), false
}

// project puts α back on the feasible set: α ≥ 0, and for linear slacks
// each group's sum at most C (the Euclidean projection onto the simplex of
// sum C where the clipped sum exceeds it, by sorting).
func (e *enumerated) project(alpha []float64) {
	for j := range alpha {
		alpha[j] = math.Max(0, alpha[j])
	}
	if e.quad {
		return
	}
	members := make([][]int, e.n)
	for j, g := range e.group {
		members[g] = append(members[g], j)
	}
	for _, js := range members {
		u := make([]float64, 0, len(js))
		sum := 0.0
		for _, j := range js {
			u = append(u, alpha[j])
			sum += alpha[j]
		}
		if sum <= e.c {
			continue
		}
		slices.Sort(u)
		slices.Reverse(u)
		theta, run := 0.0, 0.0
		for r, x := range u {
			run += x
			if t := (run - e.c) / float64(r+1); x > t {
				theta = t
			}
		}
		for _, j := range js {
			alpha[j] = math.Max(0, alpha[j]-theta)
		}
	}
}

// Every loss and slack variant of the margin and slack trainers, on both
// solvers, reaches the optimum of its formulation: the reported primal is
// the objective over all enumerated constraints at the returned w, the
// reported dual is below the optimum an independent solver (projected
// gradient on the enumerated dual) finds and the primal above it, and the
// primal is within what ε promises of it: C·G·ε for linear slacks, and
// for quadratic ones C·Σ_g (ξ_g·ε + ε²/2) (n-slack: raising every slack by
// ε) or C·(max_g ξ_g·Gε + (Gε)²/2) (one-slack: the excesses sum to at most
// G·ε), plus the working-set QP's gap.
func TestVariantsReachTheirOptimum(t *testing.T) {
	t.Parallel()
	shapes := []chainShape{
		{n: 4, tokens: 3, k: 2, attrs: 6, perTok: 2, noise: 0.3, edges: true},
		{n: 3, tokens: 2, k: 3, attrs: 5, perTok: 2, noise: 0.3, edges: false},
	}
	const eps = 1e-4
	for si, shape := range shapes {
		m, data := randomChain(uint64(si), shape)
		for _, trainer := range []string{trainers.Margin, trainers.Slack} {
			for _, delta := range trainers.Deltas() {
				for _, penalty := range trainers.SlackPenalties() {
					for _, c := range []float64{0.5, 5} {
						e := enumerate(m, data, shape.k, trainer, delta, penalty, c)
						opt, ok := e.solveDual(1e-10)
						if !ok {
							t.Fatalf("shape %d %s %s %s C=%v: the reference dual solver did not converge", si, trainer, delta, penalty, c)
						}
						for _, solver := range trainers.Solvers() {
							name := fmt.Sprintf("shape%d/%s/%s/%s/%s/C=%v", si, trainer, delta, penalty, solver, c)
							v := trainers.Values{"C": c, "epsilon": eps, "qp_tolerance": 1e-10, "solver": solver, "delta_loss": delta, "slack_penalty": penalty}
							res, err := trainers.Train(context.Background(), trainer, m, v)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							want := e.primal(res.W)
							tol := 1e-9 * math.Max(1, want)
							if !res.PrimalExact || math.Abs(res.Primal-want) > tol || res.Gap != res.Primal-res.Dual {
								t.Errorf("%s: primal %v (exact %v, gap %v), enumerated %v", name, res.Primal, res.PrimalExact, res.Gap, want)
							}
							if res.Dual > opt+tol || res.Primal < opt-tol {
								t.Errorf("%s: dual %v, primal %v, but the optimum is %v", name, res.Dual, res.Primal, opt)
							}
							bound := c * float64(len(data)) * eps
							if e.quad {
								// n-slack: every group within ε; one-slack: the
								// groups' excesses sum to at most G·ε.
								bound = 0
								xis := e.slacks(res.W)
								for _, xi := range xis {
									bound += c * (xi*eps + eps*eps/2)
								}
								if solver == trainers.OneSlack {
									ge := float64(len(data)) * eps
									bound = c * (slices.Max(xis)*ge + ge*ge/2)
								}
							}
							if res.Primal-opt > bound+math.Max(res.WorkingGap, 0)+tol {
								t.Errorf("%s: primal %v is %v above the optimum %v, beyond ε's bound %v (working gap %v)", name, res.Primal, res.Primal-opt, opt, bound, res.WorkingGap)
							}
							if res.Support == 0 || res.SupportLoss < 1 || res.SupportLoss > float64(shape.tokens) {
								t.Errorf("%s: %d support labelings of mean loss %v", name, res.Support, res.SupportLoss)
							}
						}
					}
				}
			}
		}
	}
}

// lossAugmentedOnly is a chain model with margin scaling's oracle and none
// of the decoders the variants need.
type lossAugmentedOnly struct{ m *chain.Model }

func (x lossAugmentedOnly) Len() int          { return x.m.Len() }
func (x lossAugmentedOnly) Dim() int          { return x.m.Dim() }
func (x lossAugmentedOnly) Truth(i int) []int { return x.m.Truth(i) }
func (x lossAugmentedOnly) DeltaFeatures(i int, y []int) structpred.SparseVec {
	return x.m.DeltaFeatures(i, y)
}
func (x lossAugmentedOnly) Loss(i int, y []int) float64               { return x.m.Loss(i, y) }
func (x lossAugmentedOnly) Score(i int, w []float64, y []int) float64 { return x.m.Score(i, w, y) }
func (x lossAugmentedOnly) LossAugmented(i int, w []float64, scale float64) []int {
	return x.m.LossAugmented(i, w, scale)
}

// A variant whose oracle needs a decoder the model lacks is refused before
// training, naming it; bad values are param errors.
func TestVariantsCheck(t *testing.T) {
	t.Parallel()
	m, _ := randomChain(1, chainShape{n: 3, tokens: 2, k: 2, attrs: 4, perTok: 1})
	bare := lossAugmentedOnly{m}
	for _, tt := range []struct {
		v    trainers.Values
		want string // "" for no error
	}{
		{trainers.Values{}, ""},
		{trainers.Values{"delta_loss": "task", "slack_penalty": "linear"}, ""},
		{trainers.Values{"delta_loss": "zero-one"}, "truth-excluding"},
		{trainers.Values{"slack_penalty": "quadratic"}, "loss-count"},
		{trainers.Values{"delta_loss": "zero-one-ish"}, "unknown loss"},
		{trainers.Values{"slack_penalty": "cubic"}, "unknown slack penalty"},
	} {
		err := trainers.Check[[]int](trainers.Margin, bare, tt.v)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("margin %v: error %v, want one mentioning %q", tt.v, err, tt.want)
		}
	}
	if err := trainers.Validate(trainers.Slack, trainers.Values{"C": 1, "delta_loss": "zero-one", "criterion": "sarawagi-gupta"}); err == nil {
		t.Error("slack accepted the Sarawagi–Gupta criterion with the zero-one loss")
	}
	// The defaults spelt out resolve to unset, so unit keys do not move.
	for _, name := range []string{trainers.Margin, trainers.Slack} {
		v, err := trainers.Resolve(name, trainers.Values{"C": 1, "delta_loss": "task", "slack_penalty": "linear"})
		if err != nil {
			t.Fatal(err)
		}
		if v["delta_loss"] != "" || v["slack_penalty"] != "" {
			t.Errorf("%s: defaults resolve to %q, %q, want unset", name, v["delta_loss"], v["slack_penalty"])
		}
	}
}
