package trainers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func vec(idx []int32, val []float64) structpred.SparseVec {
	return structpred.SparseVec{Idx: idx, Val: val}
}

// Problems small enough to solve by hand (KKT conditions written out).
func TestWorkingSetHandSolved(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		c      float64
		cons   []structpred.Constraint
		wantW  []float64
		wantXi float64
	}{
		{
			name:  "one constraint, C not binding: α = b/‖a‖²",
			c:     10,
			cons:  []structpred.Constraint{{Group: 0, A: vec([]int32{0}, []float64{2}), B: 3}},
			wantW: []float64{1.5, 0},
		},
		{
			name:   "one constraint, C binding: α = C",
			c:      0.5,
			cons:   []structpred.Constraint{{Group: 0, A: vec([]int32{0}, []float64{2}), B: 3}},
			wantW:  []float64{1, 0},
			wantXi: 1,
		},
		{
			name: "two orthogonal constraints, one group, C not binding",
			c:    10,
			cons: []structpred.Constraint{
				{Group: 0, A: vec([]int32{0}, []float64{1}), B: 1},
				{Group: 0, A: vec([]int32{1}, []float64{1}), B: 1},
			},
			wantW: []float64{1, 1},
		},
		{
			// Σα ≤ 0.5 shared: symmetric optimum α = (¼, ¼), ξ = ¾.
			name: "two orthogonal constraints sharing a binding budget",
			c:    0.5,
			cons: []structpred.Constraint{
				{Group: 0, A: vec([]int32{0}, []float64{1}), B: 1},
				{Group: 0, A: vec([]int32{1}, []float64{1}), B: 1},
			},
			wantW:  []float64{0.25, 0.25},
			wantXi: 0.75,
		},
		{
			// The second constraint is implied by the first once w = (2, 0):
			// it must end with α = 0 even if the solver visits it first.
			name: "a dominated constraint gets no weight",
			c:    10,
			cons: []structpred.Constraint{
				{Group: 0, A: vec([]int32{0, 1}, []float64{1, 1}), B: 1},
				{Group: 0, A: vec([]int32{0}, []float64{1}), B: 2},
			},
			wantW: []float64{2, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ws := newWorkingSet(2, tt.c, nil)
			for _, k := range tt.cons {
				ws.add(k)
			}
			p, d, _, err := ws.solve(context.Background(), 1e-12, 0, 10000)
			if err != nil {
				t.Fatal(err)
			}
			for j, want := range tt.wantW {
				if math.Abs(ws.w[j]-want) > 1e-6 {
					t.Errorf("w[%d] = %v, want %v", j, ws.w[j], want)
				}
			}
			if xi := ws.slack(0); math.Abs(xi-tt.wantXi) > 1e-6 {
				t.Errorf("ξ = %v, want %v", xi, tt.wantXi)
			}
			if p-d < -1e-9 || p-d > 1e-9*math.Max(1, p) {
				t.Errorf("gap = %v (primal %v, dual %v)", p-d, p, d)
			}
		})
	}
}

// For every trainer on a noisy (non-separable) problem with non-uniform
// costs: the working-set duality gap closes, it is never negative, and for
// the exact oracles the dual bounds the primal over the FULL constraint set,
// which the cutting-plane guarantee puts within C·n·ε of it.
func TestCuttingPlaneReachesObjective(t *testing.T) {
	t.Parallel()
	for _, trainer := range CuttingPlaneTrainers() {
		for _, c := range []float64{0.1, 1, 10} {
			rng := rand.New(rand.NewPCG(7, uint64(c*10)))
			m := separableToy(rng, 40, 4, 5)
			for i := range m.x { // overlap the clusters
				for j := range m.x[i] {
					m.x[i][j] += 2 * rng.NormFloat64()
				}
			}
			for a := range m.cost {
				for b := range m.cost[a] {
					m.cost[a][b] = math.Abs(float64(a - b))
				}
			}
			sep, err := NewSeparator[int](trainer, m, 1e-3)
			if err != nil {
				t.Fatal(err)
			}
			s := Settings{C: c, Epsilon: 1e-3, QPTolerance: 1e-7}
			res, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
			if err != nil {
				t.Fatalf("%s C=%v: %v", trainer, c, err)
			}
			if !res.Converged {
				t.Errorf("%s C=%v: not converged after %d passes", trainer, c, res.Iterations)
			}
			if res.WorkingGap < -1e-9 || res.WorkingGap > 1e-7*math.Max(1, res.WorkingPrimal)+1e-9 {
				t.Errorf("%s C=%v: working-set gap %v (primal %v)", trainer, c, res.WorkingGap, res.WorkingPrimal)
			}
			// ApproxSlack's oracle is a heuristic, so the full-set bound is
			// only promised for the exact ones.
			if trainer == ApproxSlack {
				continue
			}
			formulation := trainer
			if trainer == PosLearn { // one position: PosLearn is slack scaling
				formulation = Slack
			}
			full := m.truePrimal(formulation, res.W, c)
			if math.Abs(res.Primal-full) > 1e-9*math.Max(1, full) || res.Gap != res.Primal-res.Dual {
				t.Errorf("%s C=%v: reported primal %v (gap %v), enumerated %v", trainer, c, res.Primal, res.Gap, full)
			}
			bound := c*float64(m.Len())*1e-3 + 1e-6*math.Max(1, full)
			if full-res.Dual > bound || full-res.Dual < -1e-6 {
				t.Errorf("%s C=%v: full primal %v − dual %v = %v, want in [0, %v]", trainer, c, full, res.Dual, full-res.Dual, bound)
			}
		}
	}
}

func TestCuttingPlaneSeparatesSeparableProblem(t *testing.T) {
	t.Parallel()
	for _, trainer := range CuttingPlaneTrainers() {
		m := separableToy(rand.New(rand.NewPCG(3, 4)), 60, 3, 4)
		sep, err := NewSeparator[int](trainer, m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 1000, Epsilon: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		for i := range m.x {
			truth := m.Score(i, res.W, m.y[i])
			for y := 0; y < m.k; y++ {
				// Hard margin reached: every wrong class trails by ≥ 1 − ε.
				if y != m.y[i] && truth-m.Score(i, res.W, y) < 1-2e-3 {
					t.Fatalf("%s: instance %d class %d margin %v < 1", trainer, i, y, truth-m.Score(i, res.W, y))
				}
			}
		}
	}
}

func TestCuttingPlaneStopsOnCancel(t *testing.T) {
	t.Parallel()
	for _, solver := range Solvers() {
		m := separableToy(rand.New(rand.NewPCG(1, 1)), 10, 3, 3)
		sep, _ := NewSeparator[int](Margin, m, 0.01)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := CuttingPlane(ctx, m.Len(), m.Dim(), sep, Settings{C: 1, Solver: solver}); !errors.Is(err, context.Canceled) {
			t.Fatalf("%s: err = %v, want context.Canceled", solver, err)
		}
	}
}

func TestCuttingPlaneRejectsBadSettings(t *testing.T) {
	t.Parallel()
	m := separableToy(rand.New(rand.NewPCG(1, 1)), 10, 3, 3)
	sep, _ := NewSeparator[int](Margin, m, 0.01)
	for _, s := range []Settings{{C: 0}, {C: -1}, {C: math.NaN()}, {C: math.Inf(1)}, {C: 1, Solver: "two-slack"}} {
		if _, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s); err == nil {
			t.Errorf("%+v accepted", s)
		}
	}
}

func TestNewSeparatorRefusesMissingCapability(t *testing.T) {
	t.Parallel()
	var m Model[int] = bareModel{}
	for _, trainer := range CuttingPlaneTrainers() {
		if _, err := NewSeparator(trainer, m, 0.01); err == nil {
			t.Errorf("%s accepted a model without its decoder", trainer)
		}
	}
	if _, err := NewSeparator[int]("nonsense", newToy([][]float64{{1}}, []int{0}, 2), 0.01); err == nil {
		t.Error("unknown trainer accepted")
	}
}

type bareModel struct{}

func (bareModel) Len() int                                    { return 1 }
func (bareModel) Dim() int                                    { return 1 }
func (bareModel) Truth(int) int                               { return 0 }
func (bareModel) DeltaFeatures(int, int) structpred.SparseVec { return structpred.SparseVec{} }
func (bareModel) Loss(int, int) float64                       { return 0 }
func (bareModel) Score(int, []float64, int) float64           { return 0 }

// nanModel poisons every feature difference with NaN.
type nanModel struct{ *toyModel }

func (m nanModel) DeltaFeatures(i, y int) structpred.SparseVec {
	v := m.toyModel.DeltaFeatures(i, y)
	v.Val[0] = math.NaN()
	return v
}

func TestCuttingPlaneRejectsNaN(t *testing.T) {
	t.Parallel()
	m := nanModel{separableToy(rand.New(rand.NewPCG(2, 2)), 10, 3, 3)}
	for _, solver := range Solvers() {
		sep, err := NewSeparator[int](Margin, m, 0.01)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 1, Solver: solver}); !errors.Is(err, ErrNotFinite) {
			t.Fatalf("%s: err = %v, want ErrNotFinite", solver, err)
		}
	}
}

// A separator whose constraint names a group outside its Groups() is an
// error, not an index panic, for both solvers.
func TestCuttingPlaneRejectsGroupOutOfRange(t *testing.T) {
	t.Parallel()
	for _, solver := range Solvers() {
		_, err := CuttingPlane(context.Background(), 1, 1, badGroup{}, Settings{C: 1, Solver: solver})
		if err == nil || !strings.Contains(err.Error(), "group 3") {
			t.Errorf("%s: err = %v, want one naming group 3", solver, err)
		}
	}
}

// badGroup declares one group but proposes a constraint of group 3.
type badGroup struct{}

func (badGroup) Groups() int { return 1 }

func (badGroup) Separate(_ int, _ []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	return append(dst, structpred.Constraint{Group: 3, A: vec([]int32{0}, []float64{1}), B: 1}), nil
}

// The dual solver itself honours cancellation (a final solve can take
// minutes at large C), not only the loop over instances.
func TestWorkingSetSolveStopsOnCancel(t *testing.T) {
	t.Parallel()
	ws := newWorkingSet(2, 10, nil)
	ws.add(structpred.Constraint{Group: 0, A: vec([]int32{0}, []float64{1}), B: 1})
	ws.add(structpred.Constraint{Group: 1, A: vec([]int32{0, 1}, []float64{1, 1}), B: 3})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, sweeps, err := ws.solve(ctx, 1e-12, 0, 10000); !errors.Is(err, context.Canceled) || sweeps != 0 {
		t.Fatalf("err = %v after %d sweeps, want context.Canceled at once", err, sweeps)
	}
}

// An unset ε (zero) must reach ApproxSlack as the default: its golden
// search starts at λ_l = ε/L_max, and a zero ε once made it 1e-6.
func TestNewSeparatorDefaultEpsilon(t *testing.T) {
	t.Parallel()
	m := separableToy(rand.New(rand.NewPCG(3, 3)), 4, 2, 3)
	for _, eps := range []float64{0, 0.05} {
		sep, err := NewSeparator[int](ApproxSlack, m, eps)
		if err != nil {
			t.Fatal(err)
		}
		want := eps
		if eps == 0 {
			want = DefaultEpsilon
		}
		if got := sep.(*approxSlackSeparator[int]).epsilon; got != want {
			t.Errorf("ε %v reached ApproxSlack as %v, want %v", eps, got, want)
		}
	}
	if got := (Settings{C: 1}).Resolved(); got.Epsilon != DefaultEpsilon || got.QPTolerance != 0 || got.Solver != NSlack {
		t.Errorf("Resolved() = %+v: want default ε, zero QP tolerance (true-gap rule), n-slack", got)
	}
}
