package trainers

import (
	"context"
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/internal/lbfgs"

	"gonum.org/v1/gonum/optimize"
)

// minimizeGonum is the minimiser that CRF used before package
// internal/lbfgs, kept as the reference that minimizeLBFGS must equal
// (TestCRFMinimizerIsGonums). It minimises obj from x = 0 with gonum's
// optimize.Minimize and
// optimize.LBFGS, configured as CRFsuite configures its L-BFGS by default:
// s.Memory (6) correction pairs and the Moré–Thuente line search. gonum's
// default history of 15 pairs made the two-loop recursion over all A·K
// weights two thirds of a Cora CRF's time (see LBFGSRevision). obj caches (x, f, ∇f), so the Grad call that gonum makes
// after Func at the same x costs nothing. CRF's relative gradient tolerance
// is applied by a Recorder at every major iteration; cancellation and model
// errors stop the run through Problem.Status.
//
// gonum's own absolute gradient test (‖∇‖_∞ < 1e-12 by default) is switched
// off: CRF's relative tolerance is never tighter, so it always stops first,
// and gonum's test costs a pass over the gradient (math.Max per element) at
// every major iteration. The starting point is tested here instead, since the
// Recorder only sees major iterations.
//
// gonum runs the method and every evaluation in goroutines of its own, not
// on the caller's thread, so their CPU time is measured where they run and
// summed into cpu. The Recorder, which runs on the caller's goroutine,
// calls cp at its scheduled major iterations; the caller makes the last
// call.
func minimizeGonum(ctx context.Context, obj *crfObjective, dim int, s CRFSettings, start time.Time, cpu *cputime.Counter, cp *checkpointer) (x []float64, f float64, iters int, converged bool, err error) {
	x0 := make([]float64, dim)
	cache := &cachedObjective{obj: obj}
	if f0 := cache.value(x0); obj.err == nil && !math.IsInf(f0, 0) && !math.IsNaN(f0) && gradConverged(cache.g, f0, s.GradTol) {
		return x0, f0, 0, true, nil
	}
	problem := optimize.Problem{
		Func: func(x []float64) (f float64) {
			cpu.Measure(func() { f = cache.value(x) })
			return f
		},
		Grad: func(grad, x []float64) { cpu.Measure(func() { cache.gradient(grad, x) }) },
		Status: func() (optimize.Status, error) {
			if obj.err != nil {
				return optimize.Failure, obj.err
			}
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{
		MajorIterations: s.MaxIterations,
		Converger:       &optimize.FunctionConverge{Absolute: 1e-12, Relative: 1e-12, Iterations: 20},
		Recorder:        &crfRecorder{progress: s.Progress, start: start, gradTol: s.GradTol, cp: cp},
	}
	method := &timedMethod{LBFGS: &optimize.LBFGS{GradStopThreshold: math.NaN(), Store: s.Memory, Linesearcher: &optimize.MoreThuente{}}, cpu: cpu}
	res, err := optimize.Minimize(problem, x0, settings, method)
	if obj.err != nil || ctx.Err() != nil {
		return nil, 0, 0, false, errors.Join(obj.err, ctx.Err())
	}
	switch {
	case errors.Is(err, errCRFGradTol):
		converged = true
	case err == nil:
		switch res.Status {
		case optimize.GradientThreshold, optimize.FunctionConvergence, optimize.MethodConverge, optimize.Success:
			converged = true
		}
	case errors.Is(err, optimize.ErrLinesearcherFailure), errors.Is(err, optimize.ErrNoProgress),
		errors.Is(err, optimize.ErrNonDescentDirection):
		// Stalled in the line search: keep the best point found.
	default:
		return nil, 0, 0, false, err
	}
	if res == nil {
		return nil, math.NaN(), 0, false, nil
	}
	return slices.Clone(res.X), res.F, res.MajorIterations, converged, nil
}

// errCRFGradTol is how crfRecorder ends a run whose gradient met CRF's
// relative tolerance (gonum's GradientThreshold is absolute).
var errCRFGradTol = errors.New("gradient tolerance reached")

// timedMethod is gonum's L-BFGS with the CPU time of its Run (the goroutine
// that updates the history and computes directions) added to cpu.
type timedMethod struct {
	*optimize.LBFGS
	cpu *cputime.Counter
}

func (m *timedMethod) Run(operation chan<- optimize.Task, result <-chan optimize.Task, tasks []optimize.Task) {
	m.cpu.Measure(func() { m.LBFGS.Run(operation, result, tasks) })
}

// crfRecorder reports progress, applies the gradient tolerance and calls
// the checkpoints due at every major iteration.
type crfRecorder struct {
	progress func(Stats)
	start    time.Time
	gradTol  float64
	cp       *checkpointer
}

func (r *crfRecorder) Init() error { return nil }

func (r *crfRecorder) Record(loc *optimize.Location, op optimize.Operation, st *optimize.Stats) error {
	if op != optimize.MajorIteration {
		return nil
	}
	if r.progress != nil {
		r.progress(Stats{Iterations: st.MajorIterations, Primal: loc.F, Elapsed: time.Since(r.start)})
	}
	if len(loc.Gradient) > 0 && gradConverged(loc.Gradient, loc.F, r.gradTol) {
		return errCRFGradTol // the last iteration: its checkpoint is the caller's
	}
	// gonum has just made loc its optimum (performMajorIteration), so loc.X
	// is what training returns if it stops here.
	if r.cp.due(st.MajorIterations) {
		return r.cp.at(st.MajorIterations, loc.X)
	}
	return nil
}

// cachedObjective is the objective as gonum calls it: Func, then Grad at
// the same x, which the cache answers without a second pass.
type cachedObjective struct {
	obj    *crfObjective
	x, g   []float64
	f      float64
	cached bool
}

func (c *cachedObjective) eval(x []float64) {
	if c.cached && slices.Equal(c.x, x) {
		return
	}
	c.x = append(c.x[:0], x...)
	c.g = growFloats(c.g, len(x))
	c.f, _ = c.obj.evaluate(x, c.g) // an error stays in obj.err, which Status reports
	if c.obj.err != nil {
		clear(c.g)
	}
	c.cached = true
}

func (c *cachedObjective) value(x []float64) float64 {
	c.eval(x)
	return c.f
}

func (c *cachedObjective) gradient(grad, x []float64) {
	c.eval(x)
	copy(grad, c.g)
}

// CRF's own L-BFGS (internal/lbfgs) gives what gonum's gave, bit for bit:
// the weights, objective, iterations, convergence, every progress report
// and every checkpoint, whichever way the run ends (the gradient
// tolerance, function convergence, the iteration cap, a stalled line
// search).
func TestCRFMinimizerIsGonums(t *testing.T) {
	t.Parallel()
	if !lbfgs.SameOrderAsGonum() {
		t.Skip("gonum's Dot sums in another order on this platform or build")
	}
	type run struct {
		res      *Result
		progress []Stats
		cps      []Checkpoint
	}
	train := func(m rankToy, s CRFSettings, min minimizer) run {
		t.Helper()
		var r run
		s.Progress = func(st Stats) { st.Elapsed = 0; r.progress = append(r.progress, st) }
		s.Checkpoint = func(cp Checkpoint) error { cp.CPU, cp.Elapsed = 0, 0; r.cps = append(r.cps, cp); return nil }
		var err error
		if r.res, err = crfWith[int](context.Background(), m, s, min); err != nil {
			t.Fatal(err)
		}
		return r
	}
	for _, tt := range []struct {
		name string
		m    rankToy
		s    CRFSettings
	}{
		{"crf", noisyToy(7, 40, 3, 4), CRFSettings{C: 3}},
		{"crf/memory 1", noisyToy(7, 40, 3, 4), CRFSettings{C: 3, Memory: 1}},
		{"crf/memory 15", noisyToy(8, 60, 4, 5), CRFSettings{C: 0.5, Memory: 15}},
		{"crf/tight", noisyToy(9, 40, 3, 4), CRFSettings{C: 10, GradTol: 1e-14}},
		{"crf/cap", noisyToy(10, 40, 3, 4), CRFSettings{C: 3, MaxIterations: 7}},
		{"crf/separable", rankToy{separableToy(rand.New(rand.NewPCG(3, 4)), 60, 3, 4)}, CRFSettings{C: 10}},
		{"entropy-margin", noisyToy(11, 30, 4, 3), CRFSettings{C: 1, Beta: 5, LossScale: 1}},
		{"entropy-margin/slack", noisyToy(12, 30, 3, 3), CRFSettings{C: 1, Beta: 2, LossScale: 1, Rescaling: Slack}},
	} {
		got, want := train(tt.m, tt.s, minimizeLBFGS), train(tt.m, tt.s, minimizeGonum)
		g, w := got.res, want.res
		if math.Float64bits(g.Primal) != math.Float64bits(w.Primal) || g.Iterations != w.Iterations || g.Converged != w.Converged {
			t.Errorf("%s: primal %v, %d iterations, converged %v; gonum %v, %d, %v", tt.name, g.Primal, g.Iterations, g.Converged, w.Primal, w.Iterations, w.Converged)
		}
		if !bitsEqual(g.W, w.W) {
			t.Errorf("%s: weights differ from gonum's", tt.name)
		}
		if !slices.Equal(got.progress, want.progress) {
			t.Errorf("%s: progress %v, gonum %v", tt.name, got.progress, want.progress)
		}
		if len(got.cps) != len(want.cps) {
			t.Fatalf("%s: %d checkpoints, gonum %d", tt.name, len(got.cps), len(want.cps))
		}
		for i := range got.cps {
			if got.cps[i].Iteration != want.cps[i].Iteration || !bitsEqual(got.cps[i].W, want.cps[i].W) {
				t.Errorf("%s: checkpoint %d at iteration %d, gonum's at %d (weights equal %v)", tt.name, i, got.cps[i].Iteration, want.cps[i].Iteration, bitsEqual(got.cps[i].W, want.cps[i].W))
			}
		}
		t.Logf("%s: %d iterations, converged %v, %d checkpoints", tt.name, g.Iterations, g.Converged, len(got.cps))
	}
}

func bitsEqual(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
}
