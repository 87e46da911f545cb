package trainers

import (
	"context"
	"errors"
	"fmt"
	"github.com/maxmargin/repro/internal/cputime"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// crfObjectiveAt recomputes ½‖w‖² + C Σ_i ℓ_i(w) from the model.
func crfObjectiveAt(m rankToy, s CRFSettings, w []float64) float64 {
	s = s.withDefaults()
	sum := 0.0
	for i := range m.x {
		if s.Rescaling == Slack {
			l, _ := m.SlackLogLoss(i, w, s.Beta, s.LossScale, nil)
			sum += l
		} else {
			sum += m.LogLoss(i, w, s.Beta, s.LossScale, nil)
		}
	}
	return 0.5*dotf(w, w) + s.C*sum
}

// The trainer's objective (sum over instances, regulariser, C)
// has the gradient that finite differences measure.
func TestCRFObjectiveGradientFiniteDifferences(t *testing.T) {
	t.Parallel()
	tests := []CRFSettings{
		{C: 0.7},
		{C: 0.7, Beta: 3, LossScale: 1},
		{C: 2, Beta: 0.5, LossScale: 2},
		{C: 0.7, Beta: 2, LossScale: 1, Rescaling: Slack},
	}
	for _, s := range tests {
		m := noisyToy(4, 12, 3, 3)
		obj, err := newCRFObjective(context.Background(), Model[int](m), s.withDefaults())
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		x := make([]float64, m.Dim())
		for j := range x {
			x[j] = 0.3 * rng.NormFloat64()
		}
		g := make([]float64, len(x))
		f, err := obj.evaluate(x, g)
		if err != nil {
			t.Fatal(err)
		}
		if want := crfObjectiveAt(m, s, x); math.Abs(f-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%+v: objective %v, recomputed %v", s, f, want)
		}
		value := func(x []float64) float64 {
			f, _ := obj.evaluate(x, make([]float64, len(x)))
			return f
		}
		num := fd.Gradient(nil, value, x, &fd.Settings{Formula: fd.Central})
		for j := range g {
			if math.Abs(g[j]-num[j]) > 1e-5*math.Max(1, math.Abs(g[j])) {
				t.Errorf("%+v: grad[%d] = %v, finite differences %v", s, j, g[j], num[j])
			}
		}
	}
}

func TestCRFSeparatesSeparableProblem(t *testing.T) {
	t.Parallel()
	for _, s := range []CRFSettings{
		{C: 10},
		{C: 10, Beta: 10, LossScale: 1},
		{C: 10, Beta: 10, LossScale: 1, Rescaling: Slack},
	} {
		m := rankToy{separableToy(rand.New(rand.NewPCG(3, 4)), 60, 3, 4)}
		res, err := CRF[int](context.Background(), m, s)
		if err != nil {
			t.Fatal(err)
		}
		if e := trainingErrors(m, res.W); e != 0 || !res.Converged || res.Iterations < 1 {
			t.Errorf("%s %+v: %d training errors, converged=%v after %d iterations", s.Name(), s, e, res.Converged, res.Iterations)
		}
		if want := crfObjectiveAt(m, s, res.W); math.Abs(res.Primal-want) > 1e-12*math.Max(1, want) {
			t.Errorf("%+v: reported objective %v, recomputed %v", s, res.Primal, want)
		}
	}
}

// The L-BFGS memory changes the path, not the optimum: CRFsuite's 6 pairs,
// gonum's 15 and a single pair reach the same objective and weights at a
// tight tolerance, and the memory is really used (the paths differ).
func TestCRFMemoryKeepsTheOptimum(t *testing.T) {
	t.Parallel()
	m := noisyToy(7, 40, 3, 4)
	train := func(memory int) *Result {
		t.Helper()
		res, err := CRF[int](context.Background(), m, CRFSettings{C: 3, Memory: memory, GradTol: 1e-7})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged {
			t.Fatalf("memory %d: not converged after %d iterations", memory, res.Iterations)
		}
		return res
	}
	ref := train(0) // the default, 6
	iterations := map[int]bool{ref.Iterations: true}
	for _, memory := range []int{1, 15} {
		res := train(memory)
		iterations[res.Iterations] = true
		if math.Abs(res.Primal-ref.Primal) > 1e-9*ref.Primal {
			t.Errorf("memory %d: objective %.15g, default's %.15g", memory, res.Primal, ref.Primal)
		}
		for j := range res.W {
			if math.Abs(res.W[j]-ref.W[j]) > 1e-4*math.Max(1, math.Abs(ref.W[j])) {
				t.Fatalf("memory %d: w[%d] = %v, default's %v", memory, j, res.W[j], ref.W[j])
			}
		}
	}
	if len(iterations) == 1 {
		t.Errorf("memories 1, 6 and 15 all took %d iterations: is Memory passed to L-BFGS?", ref.Iterations)
	}
}

// Pletscher et al., section 3.1: β alone only rescales the problem. With
// v = βw the objective at (β, C) is (1/β²)·(the CRF objective at C·β), so
// w_β = w_1(Cβ)/β.
func TestCRFBetaAloneRescales(t *testing.T) {
	t.Parallel()
	m := noisyToy(6, 30, 3, 4)
	tight := func(s CRFSettings) CRFSettings { s.GradTol = 1e-10; return s }
	a, err := CRF[int](context.Background(), m, tight(CRFSettings{C: 0.5, Beta: 4}))
	if err != nil {
		t.Fatal(err)
	}
	b, err := CRF[int](context.Background(), m, tight(CRFSettings{C: 2}))
	if err != nil {
		t.Fatal(err)
	}
	for j := range a.W {
		if math.Abs(a.W[j]-b.W[j]/4) > 1e-5*math.Max(1, math.Abs(b.W[j])) {
			t.Fatalf("w_β[%d] = %v, w_1(Cβ)/β = %v", j, a.W[j], b.W[j]/4)
		}
	}
	if math.Abs(a.Primal-b.Primal/16) > 1e-8*b.Primal {
		t.Errorf("objective %v, want %v", a.Primal, b.Primal/16)
	}
}

// As β grows the entropy-margin objective approaches the SSVM's: its
// minimum lies in [P*, P* + C·n·log k/β] (ℓ_β exceeds the hinge by at most
// log k/β), and its solution is nearly SSVM-optimal. P* is CuttingPlane's
// optimum at the same C, for margin and for slack rescaling.
func TestEntropyMarginApproachesSSVM(t *testing.T) {
	t.Parallel()
	const c = 1.0
	for _, rescaling := range []string{Margin, Slack} {
		m := noisyToy(7, 40, 4, 5)
		sep, err := NewSeparator[int](rescaling, m, 1e-5)
		if err != nil {
			t.Fatal(err)
		}
		cp, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: c, Epsilon: 1e-5, QPTolerance: 1e-9})
		if err != nil {
			t.Fatal(err)
		}
		opt := m.truePrimal(rescaling, cp.W, c)
		prevExcess := math.Inf(1)
		for _, beta := range []float64{1, 10, 100, 1000} {
			s := CRFSettings{C: c, Beta: beta, LossScale: 1, Rescaling: rescaling}
			res, err := CRF[int](context.Background(), m, s)
			if err != nil {
				t.Fatal(err)
			}
			bound := c * float64(m.Len()) * math.Log(float64(m.k)) / beta
			excess := res.Primal - opt
			t.Logf("%s β=%-5v objective %.6f, SSVM optimum %.6f, excess %.3g ≤ %.3g; SSVM objective at w_β %.6f; %d iterations",
				rescaling, beta, res.Primal, opt, excess, bound, m.truePrimal(rescaling, res.W, c), res.Iterations)
			if res.Primal < cp.Dual-1e-6 || excess > bound*(1+1e-3)+1e-6 {
				t.Errorf("%s β=%v: objective %v outside [%v, %v]", rescaling, beta, res.Primal, cp.Dual, opt+bound)
			}
			if hinge := m.truePrimal(rescaling, res.W, c); hinge > res.Primal+1e-9 {
				t.Errorf("%s β=%v: SSVM objective %v exceeds the entropy-margin one %v", rescaling, beta, hinge, res.Primal)
			}
			if excess > prevExcess {
				t.Errorf("%s β=%v: excess %v grew from %v", rescaling, beta, excess, prevExcess)
			}
			prevExcess = excess
		}
		if prevExcess > 0.01*opt {
			t.Errorf("%s: at β = 1000 the objective is %v above the SSVM optimum %v", rescaling, prevExcess, opt)
		}
	}
}

func TestCRFSettingsName(t *testing.T) {
	t.Parallel()
	tests := []struct {
		s    CRFSettings
		want string
	}{
		{CRFSettings{}, CRFName},
		{CRFSettings{Beta: 1}, CRFName},
		{CRFSettings{Beta: 2}, EntropyMarginName},
		{CRFSettings{LossScale: 1}, EntropyMarginName},
		{CRFSettings{Rescaling: Slack}, EntropyMarginName},
	}
	for _, tt := range tests {
		if got := tt.s.Name(); got != tt.want {
			t.Errorf("%+v: Name() = %q, want %q", tt.s, got, tt.want)
		}
	}
}

// marginOnlyToy has LogLoss but no slack-rescaled loss.
type marginOnlyToy struct {
	*toyModel
	LogLinear[int]
}

func TestCRFRejects(t *testing.T) {
	t.Parallel()
	m := noisyToy(1, 5, 3, 2)
	bad := []CRFSettings{
		{},
		{C: -1},
		{C: math.Inf(1)},
		{C: 1, Beta: -1},
		{C: 1, Beta: math.NaN()},
		{C: 1, LossScale: -1},
		{C: 1, Rescaling: "both"},
		{C: 1, MaxIterations: -1},
	}
	for _, s := range bad {
		if _, err := CRF[int](context.Background(), m, s); err == nil {
			t.Errorf("accepted %+v", s)
		}
	}
	if _, err := CRF[int](context.Background(), bareModel{}, CRFSettings{C: 1}); err == nil {
		t.Error("trained a model without LogLoss")
	}
	mo := marginOnlyToy{m.toyModel, m}
	if _, err := CRF[int](context.Background(), mo, CRFSettings{C: 1, Rescaling: Slack}); err == nil {
		t.Error("slack rescaling accepted on a model without SlackLogLoss")
	}
	if _, err := CRF[int](context.Background(), mo, CRFSettings{C: 1}); err != nil {
		t.Errorf("margin rescaling refused: %v", err)
	}
}

func TestCRFStopsOnCancel(t *testing.T) {
	t.Parallel()
	m := noisyToy(1, 20, 3, 3)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CRF[int](ctx, m, CRFSettings{C: 1}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled before start: err = %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	s := CRFSettings{C: 1, Progress: func(st Stats) {
		if st.Iterations == 2 {
			cancel()
		}
	}}
	if _, err := CRF[int](ctx, m, s); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled mid-run: err = %v", err)
	}
}

func TestCRFIsDeterministic(t *testing.T) {
	t.Parallel()
	m := noisyToy(2, 30, 4, 3)
	s := CRFSettings{C: 1, Beta: 5, LossScale: 1}
	a, err := CRF[int](context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	b, err := CRF[int](context.Background(), m, s)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.W, b.W) || a.Iterations != b.Iterations {
		t.Error("two identical runs differ")
	}
}

// BenchmarkCRF times full L-BFGS runs on the online benchmark's problem and
// reports the iterations taken.
func BenchmarkCRF(b *testing.B) {
	m := benchOnlineToy()
	for _, s := range []CRFSettings{
		{C: 1},
		{C: 1, Beta: 10, LossScale: 1},
		{C: 1, Beta: 100, LossScale: 1},
	} {
		b.Run(fmt.Sprintf("%s/beta=%v", s.Name(), max(s.Beta, 1)), func(b *testing.B) {
			b.ReportAllocs()
			var res *Result
			for b.Loop() {
				var err error
				if res, err = CRF[int](context.Background(), m, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Iterations), "iterations")
		})
	}
}

func ExampleCRF() {
	m := rankToy{separableToy(rand.New(rand.NewPCG(1, 2)), 30, 3, 3)}
	for _, s := range []CRFSettings{
		{C: 1},                         // L2-regularised CRF
		{C: 1, Beta: 10, LossScale: 1}, // entropy-margin, margin rescaling
		{C: 1, Beta: 10, Rescaling: Slack, LossScale: 1},
	} {
		res, err := CRF[int](context.Background(), m, s)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s: converged %v, training errors %d\n", s.Name(), res.Converged, trainingErrors(m, res.W))
	}
	// Output:
	// crf: converged true, training errors 0
	// entropy-margin: converged true, training errors 0
	// entropy-margin: converged true, training errors 0
}

// CRF trains on the caller's thread (gonum's L-BFGS used goroutines of its
// own, whose CPU it had to measure and report): it reports no CPU on other
// threads, and the caller's thread clock covers the training.
func TestCRFTrainsOnTheCallersThread(t *testing.T) {
	t.Parallel()
	if _, ok := cputime.Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	m := rankToy{separableToy(rand.New(rand.NewPCG(5, 6)), 200, 4, 6)}
	t0, _ := cputime.Thread()
	res, err := CRF[int](context.Background(), m, CRFSettings{C: 10})
	if err != nil {
		t.Fatal(err)
	}
	t1, _ := cputime.Thread()
	if res.OtherThreadsCPU != 0 || !(t1 > t0) {
		t.Errorf("CRF reported %v of CPU on other threads, its caller's thread used %v, after %d iterations", res.OtherThreadsCPU, t1-t0, res.Iterations)
	}
}

// With CRFsuite's stopping rule, L-BFGS stops at the first iteration where
// libLBFGS would: the relative decrease over period iterations falls below
// delta, or the gradient of f/C below epsilon·max(1, ‖w‖₂); never before.
func TestCRFStopsAsCRFsuite(t *testing.T) {
	t.Parallel()
	m := noisyToy(13, 60, 4, 5)
	for _, tt := range []struct {
		name string
		s    CRFSettings
		why  string // which test stops the run: "delta" or "epsilon"
	}{
		{"defaults", CRFSettings{C: 2, Stop: StopCRFsuite}, "delta"},
		{"period 3", CRFSettings{C: 2, Stop: StopCRFsuite, Period: 3, Delta: 1e-3}, "delta"},
		{"epsilon", CRFSettings{C: 2, Stop: StopCRFsuite, Delta: 1e-300, Epsilon: 1e-3}, "epsilon"},
	} {
		var fs []float64
		s := tt.s
		s.Progress = func(st Stats) { fs = append(fs, st.Primal) }
		var ws [][]float64
		s.Checkpoint = func(cp Checkpoint) error { ws = append(ws, cp.W); return nil }
		res, err := CRF[int](context.Background(), m, s)
		if err != nil {
			t.Fatal(err)
		}
		r := s.withDefaults()
		if !res.Converged || len(fs) != res.Iterations {
			t.Fatalf("%s: converged %v after %d iterations, %d reported", tt.name, res.Converged, res.Iterations, len(fs))
		}
		deltaStop := func(k int) bool { // k counts line searches, as libLBFGS's k
			return k >= r.Period && math.Abs((fs[k-r.Period]-fs[k])/fs[k]) < r.Delta
		}
		gradStop := func(w []float64) bool {
			g := make([]float64, len(w))
			obj, _ := newCRFObjective(context.Background(), Model[int](m), r)
			obj.evaluate(w, g)
			return math.Sqrt(dotf(g, g))/r.C/math.Max(1, math.Sqrt(dotf(w, w))) <= r.Epsilon
		}
		last := len(fs) - 1
		switch tt.why {
		case "delta":
			if !deltaStop(last) {
				t.Errorf("%s: stopped at %d without the delta test", tt.name, last)
			}
		case "epsilon":
			if !gradStop(res.W) || deltaStop(last) {
				t.Errorf("%s: stopped at %d: gradient test %v, delta test %v", tt.name, last, gradStop(res.W), deltaStop(last))
			}
		}
		for k := 1; k < last; k++ {
			if deltaStop(k) {
				t.Errorf("%s: the delta test held at iteration %d, before the stop at %d", tt.name, k, last)
			}
		}
		for i, w := range ws[:len(ws)-1] { // checkpoints before the last
			if gradStop(w) {
				t.Errorf("%s: the gradient test held at checkpoint %d, before the stop", tt.name, i)
			}
		}
	}
}

// The CRF's stopping params: stop: gradient is the default and resolves to
// unset, so it adds nothing to what identifies a run; crfsuite's rule gets
// CRFsuite's defaults, and setting one of its params selects it.
func TestCRFStopParams(t *testing.T) {
	t.Parallel()
	f := func(x float64) *float64 { return &x }
	i := func(x int) *int { return &x }
	for _, tt := range []struct {
		in      CRFParams
		want    CRFParams
		wrongAt string
	}{
		{in: CRFParams{}, want: CRFParams{MaxIterations: 1000}},
		{in: CRFParams{Stop: StopGradient}, want: CRFParams{MaxIterations: 1000}},
		{in: CRFParams{Stop: StopCRFsuite}, want: CRFParams{MaxIterations: 1000, Stop: StopCRFsuite, Delta: f(1e-5), Period: i(10), Epsilon: f(1e-5)}},
		{in: CRFParams{Stop: StopCRFsuite, Period: i(3)}, want: CRFParams{MaxIterations: 1000, Stop: StopCRFsuite, Delta: f(1e-5), Period: i(3), Epsilon: f(1e-5)}},
		{in: CRFParams{Delta: f(1e-3)}, want: CRFParams{MaxIterations: 1000, Stop: StopCRFsuite, Delta: f(1e-3), Period: i(10), Epsilon: f(1e-5)}},
		{in: CRFParams{Period: i(3)}, want: CRFParams{MaxIterations: 1000, Stop: StopCRFsuite, Delta: f(1e-5), Period: i(3), Epsilon: f(1e-5)}},
		{in: CRFParams{Stop: "libsvm"}, wrongAt: "stop"},
	} {
		tt.in.C, tt.want.C = 1, 1
		got := tt.in.Resolved()
		err := got.Validate()
		var pe *ParamError
		switch {
		case tt.wrongAt != "":
			if !errors.As(err, &pe) || pe.Key != tt.wrongAt {
				t.Errorf("%+v: error %v, want one at %q", tt.in, err, tt.wrongAt)
			}
		case err != nil || stopOf(got) != stopOf(tt.want) || (got.Delta == nil) != (tt.want.Delta == nil):
			t.Errorf("%+v: resolved to %+v (%v), want %+v", tt.in, stopOf(got), err, stopOf(tt.want))
		}
	}
	for key, v := range map[string]Values{
		"delta":   {"C": 1.0, "stop": StopCRFsuite, "delta": -1.0},
		"period":  {"C": 1.0, "stop": StopCRFsuite, "period": 0},
		"epsilon": {"C": 1.0, "epsilon": 0.0},
		"stop":    {"C": 1.0, "stop": "libsvm"},
	} {
		var pe *ParamError
		if err := Validate(CRFName, v); !errors.As(err, &pe) || pe.Key != key {
			t.Errorf("%v: error %v, want one at %q", v, err, key)
		}
	}
}

// stopOf is the part of p's settings that the stopping params decide.
func stopOf(p CRFParams) [5]any {
	s := p.settings()
	return [5]any{s.MaxIterations, s.Stop, s.Delta, s.Period, s.Epsilon}
}
