package trainers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/maxmargin/repro/structpred"
)

// onlineRun trains with one of the online trainers by name.
func onlineRun(ctx context.Context, trainer string, m Model[int], s OnlineSettings) (*Result, error) {
	switch trainer {
	case PerceptronName:
		return Perceptron(ctx, m, s)
	case MIRAName:
		return MIRA(ctx, m, s)
	case SubgradientName:
		return Subgradient(ctx, m, s)
	}
	return nil, fmt.Errorf("no trainer %q", trainer)
}

// onlineSettingsFor gives each trainer settings under which it can separate
// the separable toy.
func onlineSettingsFor(trainer string) OnlineSettings {
	s := OnlineSettings{Epochs: 20, Seed: 1, K: 3}
	if trainer == SubgradientName {
		s.Lambda = 1e-3
	}
	return s
}

func TestOnlineTrainersSeparateSeparableProblem(t *testing.T) {
	t.Parallel()
	for _, trainer := range OnlineTrainers() {
		for _, avg := range []Averaging{AverageOn, AverageOff} {
			m := rankToy{separableToy(rand.New(rand.NewPCG(3, 4)), 60, 3, 4)}
			s := onlineSettingsFor(trainer)
			s.Average = avg
			res, err := onlineRun(context.Background(), trainer, m, s)
			if err != nil {
				t.Fatalf("%s: %v", trainer, err)
			}
			if e := trainingErrors(m, res.W); e != 0 {
				t.Errorf("%s averaging %d: %d training errors", trainer, avg, e)
			}
			if res.Iterations < 1 || res.Constraints < 1 {
				t.Errorf("%s: %d epochs, %d updates", trainer, res.Iterations, res.Constraints)
			}
		}
	}
}

// Novikoff's bound: if some unit u separates every δf_i(y), y ≠ y_i, with
// margin γ, and ‖δf_i(y)‖ ≤ R, the perceptron makes at most R²/γ² updates in
// total, and so converges.
func TestPerceptronMistakeBound(t *testing.T) {
	t.Parallel()
	for seed := range uint64(4) {
		m := rankToy{separableToy(rand.New(rand.NewPCG(seed, 8)), 40, 3, 3)}
		sep, err := NewSeparator[int](Margin, m, 1e-4)
		if err != nil {
			t.Fatal(err)
		}
		hard, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 1e4, Epsilon: 1e-4})
		if err != nil {
			t.Fatal(err)
		}
		norm := math.Sqrt(dotf(hard.W, hard.W))
		gamma, r := math.Inf(1), 0.0
		for i := range m.x {
			for y := range m.k {
				if y == m.y[i] {
					continue
				}
				df := m.DeltaFeatures(i, y)
				gamma = math.Min(gamma, df.Dot(hard.W)/norm)
				r = math.Max(r, math.Sqrt(df.SquaredNorm()))
			}
		}
		if !(gamma > 0) {
			t.Fatalf("seed %d: reference separator has margin %v", seed, gamma)
		}
		res, err := Perceptron[int](context.Background(), m, OnlineSettings{Epochs: 1000, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		bound := r * r / (gamma * gamma)
		if !res.Converged || float64(res.Constraints) > bound {
			t.Errorf("seed %d: converged=%v after %d updates, Novikoff bound %.1f", seed, res.Converged, res.Constraints, bound)
		}
	}
}

// The lazy average (w − u/c, with shrinkage for Subgradient) equals the
// plain average of the weights after every step.
func TestLazyAverageEqualsNaiveAverage(t *testing.T) {
	t.Parallel()
	for _, algo := range []onlineAlgo[int]{perceptronAlgo[int](), miraAlgo[int](), subgradientAlgo[int]()} {
		trainer := algo.name
		m := noisyToy(5, 30, 4, 3)
		s := OnlineSettings{Epochs: 3, Seed: 9, K: 2, C: 0.5, Lambda: 0.05, Average: AverageOn}
		var sum []float64
		steps := 0
		hook := func(w []float64) {
			if sum == nil {
				sum = make([]float64, len(w))
			}
			for j, x := range w {
				sum[j] += x
			}
			steps++
		}
		res, err := trainOnline(context.Background(), algo, Model[int](m), s, hook)
		if err != nil {
			t.Fatal(err)
		}
		if steps != 3*m.Len() {
			t.Fatalf("%s: %d steps, want %d", trainer, steps, 3*m.Len())
		}
		for j := range sum {
			naive := sum[j] / float64(steps)
			if math.Abs(res.W[j]-naive) > 1e-9*math.Max(1, math.Abs(naive)) {
				t.Fatalf("%s: averaged w[%d] = %v, naive average %v", trainer, j, res.W[j], naive)
			}
		}
	}
}

// The scaled representation w = a·v survives its renormalisation.
func TestOnlineStateRenormalises(t *testing.T) {
	t.Parallel()
	st := newOnlineState(2, true)
	x := structpred.SparseVec{Idx: []int32{0, 1}, Val: []float64{1, 2}}
	var sum [2]float64
	for step := range 40 {
		if step > 0 {
			st.shrink(0.5) // a reaches 1e-9 after 30 halvings
		}
		st.add(x, 1)
		st.endStep()
		for j, w := range st.weights() {
			sum[j] += w
		}
	}
	avg := st.average()
	for j := range avg {
		if want := sum[j] / 40; math.Abs(avg[j]-want) > 1e-12*want {
			t.Errorf("average[%d] = %v, want %v", j, avg[j], want)
		}
	}
	if w := st.weights(); math.Abs(w[0]-2) > 1e-9 || math.Abs(w[1]-4) > 1e-9 {
		t.Errorf("w = %v, want ≈ [2 4] (the fixed point of w ← w/2 + x)", w)
	}
}

func TestOnlineTrainersAreDeterministic(t *testing.T) {
	t.Parallel()
	for _, trainer := range OnlineTrainers() {
		m := noisyToy(2, 40, 4, 5)
		s := OnlineSettings{Epochs: 4, Seed: 42, K: 3, C: 1, Lambda: 0.02}
		a, err := onlineRun(context.Background(), trainer, m, s)
		if err != nil {
			t.Fatal(err)
		}
		b, err := onlineRun(context.Background(), trainer, m, s)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a.W, b.W) || a.Constraints != b.Constraints {
			t.Errorf("%s: two runs with seed 42 differ", trainer)
		}
		s.Seed = 43
		c, err := onlineRun(context.Background(), trainer, m, s)
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(a.W, c.W) {
			t.Errorf("%s: seeds 42 and 43 give the same weights: is the order shuffled?", trainer)
		}
	}
}

func TestOnlineTrainersStopOnCancel(t *testing.T) {
	t.Parallel()
	for _, trainer := range OnlineTrainers() {
		m := noisyToy(1, 20, 3, 3)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		if _, err := onlineRun(ctx, trainer, m, onlineSettingsFor(trainer)); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled before start: err = %v", trainer, err)
		}
		// Cancelled during the run, after the first epoch.
		ctx, cancel = context.WithCancel(context.Background())
		s := onlineSettingsFor(trainer)
		s.Progress = func(epoch, _ int) { cancel() }
		if _, err := onlineRun(ctx, trainer, m, s); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: cancelled mid-run: err = %v", trainer, err)
		}
	}
}

func TestOnlineSettingsRejected(t *testing.T) {
	t.Parallel()
	m := noisyToy(1, 5, 3, 2)
	tests := []struct {
		trainer string
		s       OnlineSettings
	}{
		{PerceptronName, OnlineSettings{Epochs: -1}},
		{PerceptronName, OnlineSettings{Average: 7}},
		{MIRAName, OnlineSettings{K: -2}},
		{MIRAName, OnlineSettings{C: -1}},
		{MIRAName, OnlineSettings{C: math.Inf(1)}},
		{SubgradientName, OnlineSettings{}},
		{SubgradientName, OnlineSettings{Lambda: -1}},
		{SubgradientName, OnlineSettings{Lambda: math.NaN()}},
		{SubgradientName, OnlineSettings{Lambda: 1, Eta0: -1}},
	}
	for _, tt := range tests {
		if _, err := onlineRun(context.Background(), tt.trainer, m, tt.s); err == nil {
			t.Errorf("%s accepted %+v", tt.trainer, tt.s)
		}
	}
}

func TestCanTrainRefusesMissingCapability(t *testing.T) {
	t.Parallel()
	var bare Model[int] = bareModel{}
	for _, trainer := range append(OnlineTrainers(), LogLinearTrainers()...) {
		if err := CanTrain(trainer, bare); err == nil {
			t.Errorf("%s accepted a model without its decoder", trainer)
		}
		if err := CanTrain[int](trainer, rankToy{newToy([][]float64{{1}}, []int{0}, 2)}); err != nil {
			t.Errorf("%s refused the toy: %v", trainer, err)
		}
	}
	if _, err := Perceptron(context.Background(), bare, OnlineSettings{}); err == nil {
		t.Error("Perceptron trained a model without a decoder")
	}
	if _, err := MIRA(context.Background(), bare, OnlineSettings{}); err == nil {
		t.Error("MIRA trained a model without k-best decoding")
	}
	if err := CanTrain(Margin, bare); err == nil {
		t.Error("margin accepted a model without loss-augmented decoding")
	}
	if err := CanTrain[int]("nonsense", rankToy{newToy([][]float64{{1}}, []int{0}, 2)}); err == nil {
		t.Error("unknown trainer accepted")
	}
}

// MIRA's per-instance QP, solved by hand (KKT conditions written out); w = 0
// so b is the margin.
func TestMIRAQPHandSolved(t *testing.T) {
	t.Parallel()
	e0 := vec([]int32{0}, []float64{1})
	e1 := vec([]int32{1}, []float64{1})
	tests := []struct {
		name      string
		c         float64 // 0: hard constraints
		a         []structpred.SparseVec
		b         []float64
		wantU     []float64
		wantAlpha []float64
		wantErr   error
	}{
		{"one constraint: α = b/‖a‖²", 0, []structpred.SparseVec{vec([]int32{0}, []float64{2})}, []float64{3}, []float64{1.5, 0}, []float64{0.75}, nil},
		{"one constraint clipped at C", 0.25, []structpred.SparseVec{vec([]int32{0}, []float64{2})}, []float64{3}, []float64{0.5, 0}, []float64{0.25}, nil},
		{"satisfied constraint: no move", 0, []structpred.SparseVec{e0}, []float64{-1}, []float64{0, 0}, []float64{0}, nil},
		{"two orthogonal", 0, []structpred.SparseVec{e0, e1}, []float64{1, 1}, []float64{1, 1}, []float64{1, 1}, nil},
		{"two orthogonal sharing C", 0.5, []structpred.SparseVec{e0, e1}, []float64{1, 1}, []float64{0.25, 0.25}, []float64{0.25, 0.25}, nil},
		// u₁ ≥ 1, u₂ ≥ 1, u₁ + u₂ ≥ 3: only the third binds, u = (1.5, 1.5).
		{"three, one binding", 0, []structpred.SparseVec{e0, e1, vec([]int32{0, 1}, []float64{1, 1})}, []float64{1, 1, 3},
			[]float64{1.5, 1.5}, []float64{0, 0, 1.5}, nil},
		// u₁ + u₂ ≥ 1 is implied once u₁ ≥ 2 holds.
		{"dominated", 0, []structpred.SparseVec{vec([]int32{0, 1}, []float64{1, 1}), e0}, []float64{1, 2}, []float64{2, 0}, []float64{0, 2}, nil},
		// u₁ ≥ 1 and −u₁ ≥ 1: no u; with C = 1 the slack takes it (ξ = 1, u = 0).
		{"contradictory, hard", 0, []structpred.SparseVec{e0, vec([]int32{0}, []float64{-1})}, []float64{1, 1}, nil, nil, ErrInfeasible},
		{"contradictory, C = 1", 1, []structpred.SparseVec{e0, vec([]int32{0}, []float64{-1})}, []float64{1, 1}, []float64{0, 0}, []float64{0.5, 0.5}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var q miraQP
			for j := range tt.a {
				q.add(tt.a[j], tt.b[j])
			}
			budget := tt.c
			if budget == 0 {
				budget = math.Inf(1)
			}
			_, err := q.solve(budget)
			if !errors.Is(err, tt.wantErr) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			u := make([]float64, 2)
			for j, a := range q.alpha {
				tt.a[j].AddTo(u, a)
			}
			for j := range u {
				if math.Abs(u[j]-tt.wantU[j]) > 1e-9 {
					t.Errorf("u = %v, want %v", u, tt.wantU)
					break
				}
			}
			for j := range q.alpha {
				if math.Abs(q.alpha[j]-tt.wantAlpha[j]) > 1e-9 {
					t.Errorf("α = %v, want %v", q.alpha, tt.wantAlpha)
					break
				}
			}
		})
	}
}

// On random 2- and 3-constraint problems the QP's solution matches brute
// force over active sets (hard constraints) and closes the duality gap
// (budget C).
func TestMIRAQPAgainstBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 18))
	const dim = 4
	for trial := range 300 {
		k := 2 + trial%2
		var q miraQP
		for range k {
			v := make([]float64, dim)
			for d := range v {
				v[d] = rng.NormFloat64()
			}
			q.add(denseToSparse(v), rng.NormFloat64()+0.5)
		}
		// Hard constraints: k ≤ dim generic vectors, always feasible.
		if _, err := q.solve(math.Inf(1)); err != nil {
			t.Fatal(err)
		}
		got := qpPoint(&q, dim)
		want := bruteHardQP(t, &q, dim)
		for d := range got {
			if math.Abs(got[d]-want[d]) > 1e-8 {
				t.Fatalf("trial %d: u = %v, brute force %v", trial, got, want)
			}
		}
		// A budget: zero duality gap certifies the optimum.
		c := 0.1 + rng.Float64()
		if _, err := q.solve(c); err != nil {
			t.Fatal(err)
		}
		u := qpPoint(&q, dim)
		xi, ab, sum := 0.0, 0.0, 0.0
		for j := range k {
			xi = math.Max(xi, q.b[j]-q.a[j].Dot(u))
			ab += q.alpha[j] * q.b[j]
			sum += q.alpha[j]
			if q.alpha[j] < 0 {
				t.Fatalf("α = %v", q.alpha)
			}
		}
		if sum > c*(1+1e-12) {
			t.Fatalf("Σα = %v > C = %v", sum, c)
		}
		uu := dotf(u, u)
		primal, dual := 0.5*uu+c*xi, ab-0.5*uu
		if gap := primal - dual; gap < -1e-12 || gap > 1e-9 {
			t.Fatalf("trial %d: gap %v (primal %v, dual %v)", trial, gap, primal, dual)
		}
	}
}

func denseToSparse(v []float64) structpred.SparseVec {
	var s structpred.SparseVec
	for d, x := range v {
		s.Idx, s.Val = append(s.Idx, int32(d)), append(s.Val, x)
	}
	return s
}

func qpPoint(q *miraQP, dim int) []float64 {
	u := make([]float64, dim)
	for j, a := range q.alpha {
		q.a[j].AddTo(u, a)
	}
	return u
}

// bruteHardQP solves min ½‖u‖² s.t. u·a_j ≥ b_j by trying every active set S:
// u = Σ_{j∈S} α_j a_j with G_SS α = b_S, α ≥ 0, and every other constraint
// met. The optimum is unique, so the first consistent S gives it.
func bruteHardQP(t *testing.T, q *miraQP, dim int) []float64 {
	t.Helper()
	k := len(q.a)
	for set := range 1 << k {
		var idx []int
		for j := range k {
			if set&(1<<j) != 0 {
				idx = append(idx, j)
			}
		}
		u := make([]float64, dim)
		if len(idx) > 0 {
			g := mat.NewDense(len(idx), len(idx), nil)
			rhs := mat.NewVecDense(len(idx), nil)
			for r, j := range idx {
				rhs.SetVec(r, q.b[j])
				for c, l := range idx {
					g.Set(r, c, q.a[j].DotSparse(q.a[l]))
				}
			}
			var alpha mat.VecDense
			if err := alpha.SolveVec(g, rhs); err != nil {
				continue
			}
			ok := true
			for r, j := range idx {
				if alpha.AtVec(r) < -1e-12 {
					ok = false
				}
				q.a[j].AddTo(u, alpha.AtVec(r))
			}
			if !ok {
				continue
			}
		}
		feasible := true
		for j := range k {
			if q.a[j].Dot(u) < q.b[j]-1e-9 {
				feasible = false
			}
		}
		if feasible {
			return u
		}
	}
	t.Fatal("no active set is consistent")
	return nil
}

// After one hard-margin MIRA step with K = all classes, the instance meets
// every margin constraint s(y_i) − s(z) ≥ L(z).
func TestMIRAStepMeetsItsConstraints(t *testing.T) {
	t.Parallel()
	m := noisyToy(3, 1, 4, 3)
	res, err := MIRA[int](context.Background(), m, OnlineSettings{Epochs: 1, K: 4, Average: AverageOff})
	if err != nil {
		t.Fatal(err)
	}
	truth := m.Score(0, res.W, m.y[0])
	for z := range m.k {
		if margin := truth - m.Score(0, res.W, z); margin < m.Loss(0, z)-1e-9 {
			t.Errorf("class %d: margin %v < loss %v", z, margin, m.Loss(0, z))
		}
	}
	if res.Constraints != 1 || res.QPUpdates < 1 {
		t.Errorf("updates %d, QP steps %d", res.Constraints, res.QPUpdates)
	}
}

// Subgradient descent lowers the SSVM objective ½‖w‖² + C Σ H_i as it runs
// and approaches the optimum that CuttingPlane finds at the same C, with
// C = 1/(λn).
func TestSubgradientApproachesCuttingPlane(t *testing.T) {
	t.Parallel()
	m := noisyToy(7, 40, 4, 5)
	const c = 1.0
	lambda := 1 / (c * float64(m.Len()))
	sep, err := NewSeparator[int](Margin, m, 1e-4)
	if err != nil {
		t.Fatal(err)
	}
	cp, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: c, Epsilon: 1e-4, QPTolerance: 1e-8})
	if err != nil {
		t.Fatal(err)
	}
	opt := m.truePrimal(Margin, cp.W, c)
	prev := math.Inf(1)
	for _, tt := range []struct {
		epochs int
		within float64 // relative excess over the optimum allowed
	}{{1, math.Inf(1)}, {10, 10}, {100, 0.3}, {1000, 0.03}, {10000, 0.005}} {
		// Defaults: Pegasos steps η_t = 1/(λ(t+1)), last iterate.
		res, err := Subgradient[int](context.Background(), m, OnlineSettings{Epochs: tt.epochs, Seed: 3, Lambda: lambda})
		if err != nil {
			t.Fatal(err)
		}
		if full := m.truePrimal(Margin, res.W, c); math.Abs(full-res.Primal) > 1e-9*full {
			t.Fatalf("reported primal %v, enumerated %v", res.Primal, full)
		}
		if res.Primal < cp.Dual-1e-6 {
			t.Fatalf("%d epochs: primal %v below the dual bound %v", tt.epochs, res.Primal, cp.Dual)
		}
		if res.Primal > prev {
			t.Errorf("%d epochs: primal %v rose from %v", tt.epochs, res.Primal, prev)
		}
		if excess := (res.Primal - opt) / opt; excess > tt.within {
			t.Errorf("%d epochs: primal %v, optimum %v: excess %.3g > %v", tt.epochs, res.Primal, opt, excess, tt.within)
		}
		t.Logf("%4d epochs: primal %.6f (optimum %.6f)", tt.epochs, res.Primal, opt)
		prev = res.Primal
	}
}

// benchOnlineToy is BenchmarkCuttingPlane's problem: 200 instances, 5
// classes, 20 dimensions, overlapping clusters, cost |a − b|.
func benchOnlineToy() rankToy { return noisyToy(2008, 200, 5, 20) }

// BenchmarkOnlineEpoch times one epoch of each online trainer.
func BenchmarkOnlineEpoch(b *testing.B) {
	m := benchOnlineToy()
	for _, trainer := range OnlineTrainers() {
		b.Run(trainer, func(b *testing.B) {
			b.ReportAllocs()
			s := OnlineSettings{Epochs: 1, K: 5, C: 1, Lambda: 1 / float64(m.Len())}
			var res *Result
			for b.Loop() {
				var err error
				if res, err = onlineRun(context.Background(), trainer, m, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Constraints), "updates")
		})
	}
}

func ExamplePerceptron() {
	m := rankToy{separableToy(rand.New(rand.NewPCG(1, 2)), 30, 3, 3)}
	res, err := Perceptron[int](context.Background(), m, OnlineSettings{Epochs: 50, Seed: 7})
	if err != nil {
		panic(err)
	}
	fmt.Println("converged:", res.Converged, "training errors:", trainingErrors(m, res.W))
	// Output: converged: true training errors: 0
}

func ExampleMIRA() {
	m := rankToy{separableToy(rand.New(rand.NewPCG(1, 2)), 30, 3, 3)}
	// 2-best MIRA with a budget C = 1 per instance, averaged weights.
	res, err := MIRA[int](context.Background(), m, OnlineSettings{Epochs: 10, K: 2, C: 1})
	if err != nil {
		panic(err)
	}
	fmt.Println("training errors:", trainingErrors(m, res.W))
	// Output: training errors: 0
}
