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
// search. The iterates are those of gonum's optimize.LBFGS (package
// internal/lbfgs makes them bit for bit, with a fraction of gonum's passes
// over the weights), and so is everything around them: the starting point
// counts as major iteration 1; with the default rule a run stops on
// gonum's FunctionConverge{1e-12, 1e-12, 20}, then the iteration cap, then
// CRF's relative gradient tolerance, which is tested (after progress is
// reported) where gonum's Recorder tested it, and a run stopped by the
// first two reports no progress for its last iteration, as under gonum.
// crf_gonum_test.go keeps the gonum run this replaced and checks that
// both give the same result.
//
// With StopCRFsuite the tests are libLBFGS's, in its order after each line
// search: the gradient (Epsilon), the relative decrease over Period
// iterations (Delta), then the iteration cap.
//
// Everything runs on the caller's thread, so cpu stays 0.
func minimizeLBFGS(ctx context.Context, obj *crfObjective, dim int, s CRFSettings, start time.Time, _ *cputime.Counter, cp *checkpointer) (x []float64, f float64, iters int, converged bool, err error) {
	m := lbfgs.New(obj.evaluate, dim, s.Memory)
	if err := m.Start(make([]float64, dim)); err != nil {
		return nil, 0, 0, false, err
	}
	crfsuite := s.Stop == StopCRFsuite
	if crfsuite && obj.crfsuiteGradConverged(s.Epsilon) || !crfsuite && obj.gradConverged(m.F(), s.GradTol) {
		return slices.Clone(m.X()), m.F(), 0, true, nil
	}
	fc := optimize.FunctionConverge{Absolute: 1e-12, Relative: 1e-12, Iterations: 20}
	fc.Init(dim)
	var past []float64 // CRFsuite's rule: f of the last Period iterations, a ring
	if crfsuite && s.Period > 0 {
		past = make([]float64, s.Period)
		past[0] = m.F()
	}
	progress := func(iters int, f float64) {
		if s.Progress != nil {
			s.Progress(Stats{Iterations: iters, Primal: f, Elapsed: time.Since(start)})
		}
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
				if errors.Is(err, optimize.ErrLinesearcherFailure) || errors.Is(err, optimize.ErrNoProgress) ||
					errors.Is(err, optimize.ErrNonDescentDirection) {
					iters-- // stalled in the line search: keep the last major iterate
					return done()
				}
				return nil, 0, 0, false, err
			}
		}
		f := m.F()
		if crfsuite {
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
		} else {
			if fc.Converged(&optimize.Location{F: f}) == optimize.FunctionConvergence {
				converged = true
				return done()
			}
			if iters >= s.MaxIterations {
				return done()
			}
			progress(iters, f)
			if obj.gradConverged(f, s.GradTol) {
				converged = true
				return done() // the last iteration: its checkpoint is the caller's
			}
		}
		if cp.due(iters) {
			if err := cp.at(iters, m.X()); err != nil {
				return nil, 0, 0, false, err
			}
		}
	}
}
