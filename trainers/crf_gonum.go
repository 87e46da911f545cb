package trainers

import (
	"context"
	"errors"
	"github.com/maxmargin/repro/internal/cputime"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/optimize"
)

// minimizeLBFGS minimises obj from x = 0 with gonum's optimize.Minimize and
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
func minimizeLBFGS(ctx context.Context, obj *crfObjective, dim int, s CRFSettings, start time.Time, cpu *cputime.Counter, cp *checkpointer) (x []float64, f float64, iters int, converged bool, err error) {
	x0 := make([]float64, dim)
	if f0 := obj.value(x0); obj.err == nil && !math.IsInf(f0, 0) && !math.IsNaN(f0) && gradConverged(obj.g, f0, s.GradTol) {
		return x0, f0, 0, true, nil
	}
	problem := optimize.Problem{
		Func: func(x []float64) (f float64) {
			cpu.Measure(func() { f = obj.value(x) })
			return f
		},
		Grad: func(grad, x []float64) { cpu.Measure(func() { obj.gradient(grad, x) }) },
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

// timedMethod is gonum's L-BFGS with the CPU time of its Run (the goroutine
// that updates the history and computes directions) added to cpu.
type timedMethod struct {
	*optimize.LBFGS
	cpu *cputime.Counter
}

func (m *timedMethod) Run(operation chan<- optimize.Task, result <-chan optimize.Task, tasks []optimize.Task) {
	m.cpu.Measure(func() { m.LBFGS.Run(operation, result, tasks) })
}

// errCRFGradTol is how crfRecorder ends a run whose gradient met CRF's
// relative tolerance (gonum's GradientThreshold is absolute).
var errCRFGradTol = errors.New("gradient tolerance reached")

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
