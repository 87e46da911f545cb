package trainers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"time"

	"github.com/maxmargin/repro/structpred"
)

// Separator is a separation oracle for the cutting-plane solver: it proposes,
// for one instance at the current w, at most one constraint per slack group
// of that instance: the one its criterion deems most violated. slack(g)
// reports the group's current slack ξ_g over the working set. The solver
// keeps a proposal only if it is violated by more than ξ_g + ε.
type Separator interface {
	// Groups returns the total number of slack groups.
	Groups() int
	Separate(i int, w []float64, slack func(g int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error)
}

// Settings configures CuttingPlane. The zero value of every field but C
// selects a documented default.
type Settings struct {
	C float64 // regularisation trade-off, > 0
	// Epsilon is Algorithm 1's ε: a proposal is added only if its violation
	// exceeds ξ_g + ε, so at termination every constraint of the full set
	// holds to within ε. Default 0.01 (in units of the loss).
	Epsilon float64
	// QPTolerance bounds the working-set QP's relative primal-dual gap,
	// (P−D)/max(1,P), after each pass. Default 1e-4.
	QPTolerance float64
	// MaxIterations caps the passes over the data. Default 500.
	MaxIterations int
	// Progress, if non-nil, is called after every pass.
	Progress func(Stats)
}

func (s Settings) withDefaults() Settings {
	if s.Epsilon == 0 {
		s.Epsilon = 0.01
	}
	if s.QPTolerance == 0 {
		s.QPTolerance = 1e-4
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 500
	}
	return s
}

func (s Settings) validate() error {
	switch {
	case !(s.C > 0) || math.IsInf(s.C, 0):
		return fmt.Errorf("the trade-off C must be a positive finite number, got %v", s.C)
	case s.Epsilon < 0 || s.QPTolerance < 0 || s.MaxIterations < 0:
		return errors.New("epsilon, QP tolerance and iteration cap must not be negative")
	}
	return nil
}

// Stats describes a cutting-plane run (after each pass, and at the end).
type Stats struct {
	Iterations  int     // passes over the data
	Constraints int     // working-set size
	Added       int     // constraints added in the last pass
	Primal      float64 // ½‖w‖² + C Σ ξ_g over the working set
	Dual        float64 // dual objective at the current α
	Gap         float64 // Primal − Dual (≥ 0 up to rounding)
	Converged   bool    // a full pass added no constraint
	QPUpdates   int     // pair steps of the dual solver
	Elapsed     time.Duration
}

// Result is the learnt weight vector and the run's statistics.
type Result struct {
	W []float64
	Stats
}

// Dual sweeps over all groups after a pass that added constraints, and the
// cap on the final solve.
const (
	sweepsPerPass = 10
	maxSweeps     = 10000
)

// ErrNotFinite reports that training produced a NaN or infinite value.
var ErrNotFinite = errors.New("training produced a non-finite value")

// CuttingPlane trains by Tsochantaridis et al.'s Algorithm 1 with one slack
// per group: for each instance in turn, ask sep for its most violated
// constraints, add those violated by more than ξ_g + ε, and re-optimise that
// group's dual variables (the cheap variant of step 10); after each pass the
// whole working-set dual is re-solved to QPTolerance. It stops when a pass
// adds nothing, after MaxIterations passes, or when ctx is cancelled (then it
// returns ctx's error).
func CuttingPlane(ctx context.Context, n, dim int, sep Separator, s Settings) (*Result, error) {
	s = s.withDefaults()
	if err := s.validate(); err != nil {
		return nil, err
	}
	start := time.Now()
	ws := newWorkingSet(dim, s.C)
	var props []structpred.Constraint
	st := Stats{}
	gapWithin := false // the previous pass ended with the QP solved to tolerance
	for st.Iterations < s.MaxIterations {
		st.Iterations++
		st.Added = 0
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var err error
			props, err = sep.Separate(i, ws.w, ws.slack, props[:0])
			if err != nil {
				return nil, fmt.Errorf("instance %d: %w", i, err)
			}
			for _, k := range props {
				if !k.A.IsFinite() || math.IsNaN(k.B) || math.IsInf(k.B, 0) {
					return nil, fmt.Errorf("instance %d: constraint: %w", i, ErrNotFinite)
				}
				if k.Violation(ws.w) > ws.slack(k.Group)+s.Epsilon {
					ws.add(k)
					st.Added++
					ws.optimizeGroup(k.Group, s.QPTolerance, 50)
				}
			}
		}
		// Between passes a few sweeps suffice (the next pass adds constraints
		// anyway); once a pass adds nothing, solve to tolerance. Convergence
		// needs both: no constraint added, at a w whose gap is within
		// tolerance, so a polish that moves w is followed by one more pass.
		sweeps := sweepsPerPass
		if st.Added == 0 {
			sweeps = maxSweeps
		}
		var err error
		if st.Primal, st.Dual, _, err = ws.solve(ctx, s.QPTolerance, sweeps); err != nil {
			return nil, err
		}
		if math.IsNaN(st.Primal) || math.IsInf(st.Primal, 0) {
			return nil, fmt.Errorf("pass %d: %w", st.Iterations, ErrNotFinite)
		}
		st.Constraints, st.Gap, st.QPUpdates, st.Elapsed = len(ws.cons), st.Primal-st.Dual, ws.updates, time.Since(start)
		st.Converged = st.Added == 0 && gapWithin
		gapWithin = st.Gap <= s.QPTolerance*math.Max(1, st.Primal)
		if s.Progress != nil {
			s.Progress(st)
		}
		if st.Converged {
			break
		}
	}
	return &Result{W: ws.w, Stats: st}, nil
}
