package trainers

import (
	"context"
	"errors"
	"math"
	"slices"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/internal/lbfgs"
	"gonum.org/v1/gonum/optimize"
)

// minimizeLBFGS minimises obj from x = 0 by L-BFGS as CRFsuite configures
// it by default: s.Memory (6) correction pairs and the Moré–Thuente line
// search. With the default rule it is gradRuleLBFGS; crf_gonum_test.go
// keeps the gonum run this replaced and checks that both give the same
// result.
//
// With StopCRFsuite the tests are libLBFGS's, in its order after each line
// search: the gradient (Epsilon), the relative decrease over Period
// iterations (Delta), then the iteration cap.
//
// Everything runs on the caller's thread, so cpu stays 0.
func minimizeLBFGS(ctx context.Context, obj *crfObjective, dim int, s CRFSettings, start time.Time, _ *cputime.Counter, cp *checkpointer) (x []float64, f float64, iters int, converged bool, err error) {
	progress := func(iters int, f float64) {
		if s.Progress != nil {
			s.Progress(Stats{Iterations: iters, Primal: f, Elapsed: time.Since(start)})
		}
	}
	if s.Stop != StopCRFsuite {
		// A model's error stays in obj.err, which the caller reports.
		return gradRuleLBFGS(ctx, obj.evaluate, make([]float64, dim), gradRule{
			memory: s.Memory, maxIterations: s.MaxIterations,
			converged: func(f float64, _ []float64) bool { return obj.gradConverged(f, s.GradTol) },
			progress:  progress, cp: cp,
		})
	}
	m := lbfgs.New(obj.evaluate, dim, s.Memory)
	if err := m.Start(make([]float64, dim)); err != nil {
		return nil, 0, 0, false, err
	}
	if obj.crfsuiteGradConverged(s.Epsilon) {
		return slices.Clone(m.X()), m.F(), 0, true, nil
	}
	var past []float64 // f of the last Period iterations, a ring
	if s.Period > 0 {
		past = make([]float64, s.Period)
		past[0] = m.F()
	}
	done := func() ([]float64, float64, int, bool, error) {
		return slices.Clone(m.X()), m.F(), iters, converged, nil
	}
	for iters = 1; ; iters++ {
		if iters > 1 {
			if err := m.Next(); err != nil {
				if obj.err != nil || ctx.Err() != nil {
					return nil, 0, 0, false, errors.Join(obj.err, ctx.Err())
				}
				if stalled(err) {
					iters-- // keep the last major iterate
					return done()
				}
				return nil, 0, 0, false, err
			}
		}
		f := m.F()
		progress(iters, f)
		if k := iters - 1; k > 0 {
			if obj.crfsuiteGradConverged(s.Epsilon) {
				converged = true
				return done()
			}
			if past != nil {
				if s.Period <= k {
					if rate := (past[k%s.Period] - f) / f; math.Abs(rate) < s.Delta {
						converged = true
						return done()
					}
				}
				past[k%s.Period] = f
			}
		}
		if iters >= s.MaxIterations {
			return done()
		}
		if cp.due(iters) {
			if err := cp.at(iters, m.X()); err != nil {
				return nil, 0, 0, false, err
			}
		}
	}
}

// stalled reports whether an error of lbfgs.Minimizer.Next is a stall in
// the line search, after which the last major iterate is kept.
func stalled(err error) bool {
	return errors.Is(err, optimize.ErrLinesearcherFailure) || errors.Is(err, optimize.ErrNoProgress) ||
		errors.Is(err, optimize.ErrNonDescentDirection)
}

// gradRule configures gradRuleLBFGS.
type gradRule struct {
	memory, maxIterations int
	// converged tests CRF's relative gradient tolerance at the last
	// evaluation: f and its gradient g.
	converged func(f float64, g []float64) bool
	progress  func(iters int, f float64) // nil: no reports
	cp        *checkpointer              // nil: no scheduled checkpoints
}

// gradRuleLBFGS minimises fn from x0 by L-BFGS with r.memory correction
// pairs and the Moré–Thuente line search. The iterates are those of
// gonum's optimize.LBFGS (package internal/lbfgs makes them bit for bit,
// with a fraction of gonum's passes over the weights), and so is
// everything around them: the starting point counts as major iteration 1;
// a run stops on gonum's FunctionConverge{1e-12, 1e-12, 20}, then the
// iteration cap, then the gradient tolerance, which is tested (after
// progress is reported) where gonum's Recorder tested it, and a run
// stopped by the first two reports no progress for its last iteration, as
// under gonum. A stall in the line search keeps the last major iterate,
// not converged.
//
// The last iteration's checkpoint is the caller's.
func gradRuleLBFGS(ctx context.Context, fn lbfgs.Func, x0 []float64, r gradRule) (x []float64, f float64, iters int, converged bool, err error) {
	m := lbfgs.New(fn, len(x0), r.memory)
	if err := m.Start(x0); err != nil {
		return nil, 0, 0, false, err
	}
	if r.converged(m.F(), m.Grad()) {
		return slices.Clone(m.X()), m.F(), 0, true, nil
	}
	fc := optimize.FunctionConverge{Absolute: 1e-12, Relative: 1e-12, Iterations: 20}
	fc.Init(len(x0))
	done := func() ([]float64, float64, int, bool, error) {
		return slices.Clone(m.X()), m.F(), iters, converged, nil
	}
	for iters = 1; ; iters++ {
		if iters > 1 {
			if err := m.Next(); err != nil {
				if cerr := ctx.Err(); cerr != nil {
					return nil, 0, 0, false, cerr
				}
				if stalled(err) {
					iters-- // keep the last major iterate
					return done()
				}
				return nil, 0, 0, false, err
			}
		}
		f := m.F()
		if fc.Converged(&optimize.Location{F: f}) == optimize.FunctionConvergence {
			converged = true
			return done()
		}
		if iters >= r.maxIterations {
			return done()
		}
		if r.progress != nil {
			r.progress(iters, f)
		}
		if r.converged(f, m.Grad()) {
			converged = true
			return done()
		}
		if r.cp.due(iters) {
			if err := r.cp.at(iters, m.X()); err != nil {
				return nil, 0, 0, false, err
			}
		}
	}
}
