package trainers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
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

// Solver names for Settings.Solver, as used in configs.
const (
	// NSlack is Tsochantaridis et al.'s Algorithm 1 with one slack per group
	// (the formulation of Sarawagi & Gupta's paper).
	NSlack = "n-slack"
	// OneSlack is Joachims, Finley & Yu's (2009) 1-slack cutting plane: one
	// slack shared by joint constraints that sum a constraint of every group.
	OneSlack = "one-slack"
)

// Solvers lists the values Settings.Solver accepts.
func Solvers() []string { return []string{NSlack, OneSlack} }

// Settings configures CuttingPlane. The zero value of every field but C
// selects a documented default.
type Settings struct {
	C float64 // regularisation trade-off, > 0
	// Epsilon is Algorithm 1's ε: a proposal is added only if its violation
	// exceeds ξ_g + ε, so at termination every constraint of the full set
	// holds to within ε, which bounds the primal sub-optimality by C·G·ε for
	// G slack groups. The one-slack solver stops when the joint constraint
	// is violated by at most G·ε beyond its slack, which gives the same
	// bound. Default 0.01 (in units of the loss).
	Epsilon float64
	// Relative makes the one-slack solver's ε relative: it stops when
	// C·(H − ξ) ≤ ε·P, where H is the oracle pass's joint violation at w,
	// ξ the working slack and P = ½‖w‖² + C·max(ξ, H) the true primal at
	// w (so the primal is within ε·P + the QP's own gap of optimal, not
	// C·G·ε); the cache's threshold G·ε becomes ε·P_ws/C likewise. With
	// the quadratic slack penalty P is the working primal plus C·(H − ξ),
	// an estimate. It does not apply to n-slack.
	Relative bool
	// QPTolerance, if set, is a relative bound (P−D)/max(1,P) on the
	// working-set QP's gap that the n-slack solver must reach before it
	// stops, however small the rest of the true gap is (the one-slack
	// solver solves its small QP to it every iteration).
	//
	// Left zero, n-slack stops on the true gap instead: once a pass adds
	// nothing, w has not moved during it, so the pass measures the
	// cutting-plane part of the true gap, E = C Σ_g (true ξ_g − working
	// ξ_g) ≤ C·G·ε, and the run stops as soon as WorkingGap + E ≤ C·G·ε,
	// the bound ε already promises; otherwise the QP is solved until its
	// gap is at most C·G·ε − E (and never beyond the relative 1e-4 that
	// the one-slack solver uses) and another pass checks the new w.
	// Solving the QP further could not certify more than E.
	QPTolerance float64
	// MaxIterations caps the passes over the data (n-slack, default 500)
	// or the cutting-plane iterations (one-slack, whether they call the
	// oracle or use the constraint cache; default 5000, as one iteration
	// adds a single constraint and most call no oracle).
	MaxIterations int
	// Solver is NSlack (the default) or OneSlack. Both minimise the same
	// objective ½‖w‖² + C Σ_g ξ_g and have the same optimum.
	Solver string
	// SlackPenalty is SlackLinear (also when empty) or SlackQuadratic:
	// the objective ½‖w‖² + (C/2) Σ_g ξ_g² (Tsochantaridis et al.'s SVM_2)
	// over the separator's constraints, which both solvers minimise as the
	// hard-margin problem over augmented constraints (see
	// augmentedSeparator; docs/svm-variants.md). The separator proposes
	// SVM_2's constraints itself (√Δ: VariantParams). With it n-slack stops
	// on the working-set QP's relative gap (QPTolerance, 1e-4 when unset),
	// the true-gap rule being derived for linear slacks.
	SlackPenalty string
	// DropIdle, if positive, has the n-slack solver forget constraints the
	// working set no longer uses, as the one-slack solver does with its
	// joint constraints: after each pass that does not end the run, a
	// constraint that has ended more than DropIdle consecutive passes at
	// α = 0, each time violated by less than its group's slack minus
	// IdleMargin·ε, is removed. Only α = 0 constraints go, so w, the dual
	// and the stopping rule's figures do not move when they do; the QP's
	// sweeps then visit fewer constraints. The margin keeps constraints
	// the oracle would soon propose again (without it, PosLearn's oracle
	// re-proposed the dropped ones and the run never converged). The
	// optimum is the same, but the path differs, so results move within
	// the tolerance ε promises, and it can cost passes: where w keeps
	// moving, dropped constraints come back (on Cora without edge features
	// slack scaling at C ≥ 1 then met MaxIterations where keeping every
	// constraint converged; docs/performance.md). Zero (the default) keeps
	// every constraint.
	DropIdle int
	// Certifier, if non-nil, is an exact separation oracle for the same
	// constraints as the training oracle, called once at the end to compute
	// the true slacks behind Stats.Primal. Give it when the training oracle
	// is approximate (ApproxSlack: pass the exact slack-scaling separator
	// when the model can count losses). Without it the training oracle
	// certifies, and an approximate one makes Primal a lower bound on the
	// true primal (see Stats.PrimalExact).
	Certifier Separator
	// Threads is how many goroutines the one-slack solver separates on
	// (oracle calls and the constraint cache) and both solvers run the
	// final exact pass on; the n-slack passes stay sequential, as each
	// instance's constraint moves w before the next is separated. Results
	// do not depend on it: every instance's answer is reduced in instance
	// order. Threads > 1 needs a separator of this package over a model
	// that implements Forker (each goroutine separates with its own fork);
	// CPU time spent off the caller's goroutine is reported in
	// Stats.OtherThreadsCPU. Default 1.
	Threads int
	// Progress, if non-nil, is called after every pass (n-slack) or
	// iteration (one-slack).
	Progress func(Stats)
	// Checkpoint, if non-nil, is called at scheduled passes (n-slack) or
	// iterations (one-slack) and at the end (see CheckpointFunc).
	Checkpoint CheckpointFunc
}

// DefaultEpsilon is the cutting-plane tolerance ε when none is given.
const DefaultEpsilon = 0.01

// IdleMargin is how far, in units of ε, below its group's slack an α = 0
// constraint's violation must end a pass for the pass to count towards
// Settings.DropIdle.
const IdleMargin = 5

// Resolved returns s with every unset field at the default training uses,
// so that callers (a config's effective settings, a separator's ε) take
// defaults from here rather than restating them. QPTolerance stays zero
// when unset: zero selects the true-gap stopping rule.
func (s Settings) Resolved() Settings {
	q := s.QPTolerance
	s = s.withDefaults()
	s.QPTolerance = q
	return s
}

func (s Settings) withDefaults() Settings {
	if s.Epsilon == 0 {
		s.Epsilon = DefaultEpsilon
	}
	if s.QPTolerance == 0 {
		s.QPTolerance = defaultQPTolerance
	}
	if s.Solver == "" {
		s.Solver = NSlack
	}
	if s.Threads == 0 {
		s.Threads = 1
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 500
		if s.Solver == OneSlack {
			s.MaxIterations = oneSlackMaxIterations
		}
	}
	return s
}

func (s Settings) validate() error {
	switch {
	case !(s.C > 0) || math.IsInf(s.C, 0):
		return fmt.Errorf("the trade-off C must be a positive finite number, got %v", s.C)
	case s.Epsilon < 0 || s.QPTolerance < 0 || s.MaxIterations < 0 || s.Threads < 0 || s.DropIdle < 0:
		return errors.New("epsilon, QP tolerance, iteration cap, threads and idle passes must not be negative")
	case s.Solver != NSlack && s.Solver != OneSlack:
		return fmt.Errorf("unknown cutting-plane solver %q (known: %v)", s.Solver, Solvers())
	case s.DropIdle > 0 && s.Solver == OneSlack:
		return errDropIdleOneSlack
	case s.SlackPenalty != "" && !slices.Contains(SlackPenalties(), s.SlackPenalty):
		return fmt.Errorf("unknown slack penalty %q (known: %v)", s.SlackPenalty, SlackPenalties())
	case s.Relative && s.Solver != OneSlack:
		return errRelativeNSlack
	}
	return nil
}

var errRelativeNSlack = errors.New("a relative ε (epsilon_relative) applies to the one-slack solver only")

// Stats describes a training run (after each pass, and at the end).
//
// For the cutting-plane solvers Primal, Dual and Gap are the honest figures
// of the whole problem min ½‖w‖² + C Σ_g ξ_g over the full (exponential)
// constraint set: Primal takes every group's true slack ξ_g = max(0, max_y
// H_g(y)) from one separation pass at the returned w, and Dual, the
// working-set dual, is a lower bound on the optimum, so Gap bounds how far
// the returned w is from optimal. The working-set figures, which see only
// the constraints found so far, are WorkingPrimal and WorkingGap. In
// Progress reports before the end Primal and Gap are zero.
type Stats struct {
	Iterations  int // passes over the data (n-slack) or iterations (one-slack)
	Constraints int // working-set size
	Dropped     int // constraints n-slack removed as idle (Settings.DropIdle)
	Added       int // constraints added in the last pass or iteration
	// Primal is the objective at W over the full constraint set (for
	// Subgradient the same, for CRF its own objective).
	Primal float64
	Dual   float64 // working-set dual at the final α: a lower bound on the optimum
	Gap    float64 // Primal − Dual ≥ 0: a bound on W's sub-optimality
	// PrimalExact reports whether Primal's slacks came from an exact oracle
	// (every trainer but approx-slack, or a Settings.Certifier); if not,
	// Primal is a lower bound on the true primal.
	PrimalExact bool
	// WorkingPrimal is the primal over the working set only: ½‖w‖² + C Σ_g
	// ξ_g with ξ_g over the constraints found (n-slack), or ½‖w‖² + C ξ over
	// the joint constraints (one-slack). WorkingGap = WorkingPrimal − Dual.
	WorkingPrimal float64
	WorkingGap    float64
	// Converged reports that the solver stopped on its criterion (a pass
	// added nothing with the QP solved to QPTolerance; one-slack: the joint
	// constraint of an oracle pass was within G·ε of the slack), not on
	// MaxIterations.
	Converged   bool
	QPUpdates   int // pair steps of the dual solver
	OracleCalls int // Separate calls, the final certifying pass included
	Elapsed     time.Duration
	// OtherThreadsCPU is CPU time the training used on threads other than
	// the caller's (the cutting-plane solvers separate on
	// Settings.Threads goroutines); add it to the caller's thread CPU for
	// the training's whole cost. Zero for trainers that run on the caller's.
	OtherThreadsCPU time.Duration
	// CheckpointCPU and CheckpointWall are the time spent inside a
	// CheckpointFunc (CPU on the calling thread, and wall-clock), which a
	// caller's own measurement of the whole training includes: subtract
	// them for the training's cost. Zero without a hook.
	CheckpointCPU, CheckpointWall time.Duration
	// Support is the number of labelings behind the working set's
	// constraints with α > 0 (n-slack: those constraints; one-slack: the
	// groups' constraints summed into its joint constraints with α > 0),
	// and SupportLoss their mean task loss L_i(y) (Hamming on chains,
	// whatever Δ trained): Tsochantaridis et al.'s "average loss" (Table 3).
	// For PosLearn the loss is the position's L_ic. Zero for the other
	// trainers.
	Support     int
	SupportLoss float64
	// QPTime is the time the cutting-plane solvers spent on the
	// working-set QP: adding constraints (their Gram rows), the dual
	// solves with their gap and stopping computations, refreshing the
	// one-slack gradients and dropping idle constraints; separation and
	// the certifying pass are not in it. It is the CPU time of the calling
	// thread (QPTimeCPU) where the platform has a thread clock, else
	// wall-clock time; the QP runs on the caller's thread only, so it is
	// part of the caller's CPU time, never of OtherThreadsCPU. Tsochantaridis
	// et al.'s Table 5 reports it as a share of the training time. Zero for
	// the other trainers.
	QPTime    time.Duration
	QPTimeCPU bool
}

// Result is the learnt weight vector and the run's statistics.
type Result struct {
	W []float64
	Stats
}

// Dual sweeps over all groups after a pass that added constraints, the cap
// on the final solve, and the relative QP gap when QPTolerance is not set.
const (
	sweepsPerPass      = 10
	maxSweeps          = 10000
	defaultQPTolerance = 1e-4

	oneSlackMaxIterations = 5000
)

// errDropIdleOneSlack refuses DropIdle with the one-slack solver, which
// drops its idle joint constraints by itself.
var errDropIdleOneSlack = fmt.Errorf("dropping idle constraints is an %s option: %s drops its inactive joint constraints by itself", NSlack, OneSlack)

// ErrNotFinite reports that training produced a NaN or infinite value.
var ErrNotFinite = errors.New("training produced a non-finite value")

// CuttingPlane minimises ½‖w‖² + C Σ_g ξ_g over the constraints that sep
// separates, with the solver s.Solver (see NSlack and OneSlack). It stops on
// the solver's criterion, after MaxIterations, or when ctx is cancelled (then
// it returns ctx's error). The result reports the true primal at the
// returned w (see Stats).
func CuttingPlane(ctx context.Context, n, dim int, sep Separator, s Settings) (*Result, error) {
	onTrueGap := s.QPTolerance == 0
	s = s.withDefaults()
	if s.Progress == nil {
		s.Progress = progressOf(ctx)
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	var quad *quadSlack
	if s.SlackPenalty == SlackQuadratic {
		quad = &quadSlack{dim: dim, c: s.C, certifier: certifier(sep, s)}
		sep = newAugmentedSeparator(sep, dim, s.C)
		dim += sep.Groups()
		onTrueGap = false
	}
	// The QP's thread CPU readings subtract only on one OS thread
	// (qpTimer); nested locks are counted, so a caller's lock stays.
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	p := pool{threads: s.Threads, cpu: new(cputime.Counter)}
	if p.workers(n) > 1 {
		// Fail now, not after training, if a separator cannot fork.
		for _, sep := range []Separator{sep, s.Certifier} {
			if sep == nil {
				continue
			}
			if _, err := forks(sep, 2); err != nil {
				return nil, err
			}
		}
	}
	if s.Solver == OneSlack {
		return oneSlack(ctx, n, dim, sep, s, p, quad)
	}
	return nSlack(ctx, n, dim, sep, s, onTrueGap, p, quad)
}

// nSlack is Tsochantaridis et al.'s Algorithm 1 with one slack per group:
// for each instance in turn, ask sep for its most violated constraints, add
// those violated by more than ξ_g + ε, and re-optimise that group's dual
// variables (the cheap variant of step 10); after each pass the whole
// working-set dual is re-solved to QPTolerance. With onTrueGap it stops on
// the true gap instead (see Settings.QPTolerance). With quad, sep is
// augmented and the working set solves SVM_2 as a hard margin.
func nSlack(ctx context.Context, n, dim int, sep Separator, s Settings, onTrueGap bool, p pool, quad *quadSlack) (*Result, error) {
	start := time.Now()
	cp := newCheckpointer(s.Checkpoint, nil)
	defer cp.close()
	ws := newWorkingSet(dim, s.C, quad)
	qp := newQPTimer()
	var props []structpred.Constraint
	st := Stats{}
	// found[g] is the largest violation among the group's proposals in the
	// current pass: when a pass adds nothing, w did not move during it, so
	// with an exact oracle these are the true slacks at the final w.
	found := make([]float64, sep.Groups())
	gapWithin := false // the previous pass ended with the QP solved to tolerance
	for st.Iterations < s.MaxIterations {
		st.Iterations++
		st.Added = 0
		clear(found)
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			var err error
			props, err = sep.Separate(i, ws.w, ws.slack, props[:0])
			st.OracleCalls++
			if err != nil {
				return nil, fmt.Errorf("instance %d: %w", i, err)
			}
			for _, k := range props {
				if err := checkConstraint(k, len(found)); err != nil {
					return nil, fmt.Errorf("instance %d: %w", i, err)
				}
				v := k.Violation(ws.w)
				found[k.Group] = math.Max(found[k.Group], v)
				if v > ws.slack(k.Group)+s.Epsilon {
					t0 := qp.start()
					ws.add(k)
					st.Added++
					ws.optimizeGroup(k.Group, s.QPTolerance, 50, true)
					qp.stop(t0)
				}
			}
			ws.forget()
		}
		// Between passes a few sweeps suffice (the next pass adds constraints
		// anyway); once a pass adds nothing, solve to tolerance. Convergence
		// needs both: no constraint added, at a w whose gap is within
		// tolerance, so a polish that moves w is followed by one more pass.
		t0 := qp.start()
		sweeps, absTol := sweepsPerPass, 0.0
		if st.Added == 0 {
			sweeps = maxSweeps
			if onTrueGap {
				// The QP need only close what the bound C·G·ε leaves of
				// the true gap after the cutting-plane part E.
				bound := s.C * float64(len(found)) * s.Epsilon
				absTol = bound - s.C*ws.excess(found)
				wp, d := ws.objectives()
				gapWithin = wp-d <= absTol // if so w stays, and this pass certifies it
			}
		}
		before := ws.version
		var err error
		if st.WorkingPrimal, st.Dual, _, err = ws.solve(ctx, s.QPTolerance, absTol, sweeps); err != nil {
			return nil, err
		}
		qp.stop(t0)
		qp.record(&st)
		if math.IsNaN(st.WorkingPrimal) || math.IsInf(st.WorkingPrimal, 0) {
			return nil, fmt.Errorf("pass %d: %w", st.Iterations, ErrNotFinite)
		}
		st.Constraints, st.WorkingGap, st.QPUpdates, st.Elapsed = len(ws.cons), st.WorkingPrimal-st.Dual, ws.updates, time.Since(start)
		st.Converged = st.Added == 0 && gapWithin
		gapWithin = st.WorkingGap <= math.Max(s.QPTolerance*math.Max(1, st.WorkingPrimal), absTol)
		if st.Converged || st.Iterations == s.MaxIterations {
			// The pass's proposals certify w when nothing moved it since.
			certified := st.Added == 0 && ws.version == before && isExact(sep) && s.Certifier == nil && quad == nil
			if err := st.finish(ctx, n, ws, sep, s, found, certified, p); err != nil {
				return nil, err
			}
		}
		if s.Progress != nil {
			s.Progress(st)
		}
		if st.Converged {
			break
		}
		if s.DropIdle > 0 {
			// After the convergence test, so the pass that ends the run
			// reports the working set it stopped on.
			t0 := qp.start()
			st.Dropped += ws.dropIdle(s.DropIdle, IdleMargin*s.Epsilon)
			qp.stop(t0)
		}
		if st.Iterations < s.MaxIterations && cp.due(st.Iterations) {
			if err := cp.at(st.Iterations, quad.model(ws.w)); err != nil {
				return nil, err
			}
		}
	}
	if err := cp.at(st.Iterations, quad.model(ws.w)); err != nil {
		return nil, err
	}
	cp.record(&st)
	qp.record(&st)
	st.Support, st.SupportLoss = ws.support()
	return &Result{W: quad.model(ws.w), Stats: st}, nil
}

// finish sets the true Primal and Gap at the final w: each group's slack is
// the larger of its working-set slack and the largest violation an oracle
// pass at w proposed for it (found, from the last pass if certified, else
// from a certifying pass run here).
func (st *Stats) finish(ctx context.Context, n int, ws *workingSet, sep Separator, s Settings, found []float64, certified bool, p pool) error {
	if ws.quad != nil {
		// SVM_2: the real constraints' slacks at the model's w.
		clear(found)
		seps, err := forks(ws.quad.certifier, p.workers(n))
		if err != nil {
			return err
		}
		if err := certify(ctx, n, ws.quad.model(ws.w), seps, found, st, p); err != nil {
			return err
		}
		st.OtherThreadsCPU = p.cpu.Total()
		st.Primal = ws.quad.primal(ws.w, found)
		st.Gap = st.Primal - st.Dual
		st.PrimalExact = isExact(ws.quad.certifier)
		return nil
	}
	if !certified {
		clear(found) // proposals from earlier in the pass saw another w
		seps, err := forks(certifier(sep, s), p.workers(n))
		if err != nil {
			return err
		}
		if err := certify(ctx, n, ws.w, seps, found, st, p); err != nil {
			return err
		}
		st.OtherThreadsCPU = p.cpu.Total()
	}
	xi := 0.0
	for g, v := range found {
		xi += math.Max(ws.slack(g), v)
	}
	st.Primal = 0.5*dot(ws.w, ws.w) + s.C*xi
	st.Gap = st.Primal - st.Dual
	st.PrimalExact = s.Certifier != nil || isExact(sep)
	return nil
}

// checkConstraint rejects a proposal with a non-finite value or a group
// outside [0, groups).
func checkConstraint(k structpred.Constraint, groups int) error {
	if !k.A.IsFinite() || math.IsNaN(k.B) || math.IsInf(k.B, 0) {
		return fmt.Errorf("constraint: %w", ErrNotFinite)
	}
	if k.Group < 0 || k.Group >= groups {
		return fmt.Errorf("constraint of group %d outside the separator's %d groups", k.Group, groups)
	}
	return nil
}

// exactness is implemented by separators that can tell whether they find
// the most violated constraint of every group (approx-slack cannot).
type exactness interface{ Exact() bool }

// isExact reports whether sep is an exact oracle; separators that do not
// say are taken to be exact.
func isExact(sep Separator) bool {
	e, ok := sep.(exactness)
	return !ok || e.Exact()
}

func certifier(sep Separator, s Settings) Separator {
	if s.Certifier != nil {
		return s.Certifier
	}
	return sep
}

// certify runs one separation pass at w with every slack taken as zero (so
// that a filtering separator returns each group's most violated constraint
// whenever it is violated at all) and raises found[g] to the largest
// violation proposed for group g. Goroutine k of the pool separates with
// seps[k] (see forks).
func certify(ctx context.Context, n int, w []float64, seps []Separator, found []float64, st *Stats, p pool) error {
	zero := func(int) float64 { return 0 }
	props := make([][]structpred.Constraint, len(seps))
	err := groupMax(ctx, p, n, found, func(k, i int, found []float64) error {
		var err error
		props[k], err = seps[k].Separate(i, w, zero, props[k][:0])
		if err != nil {
			return fmt.Errorf("certifying pass, instance %d: %w", i, err)
		}
		for _, c := range props[k] {
			if err := checkConstraint(c, len(found)); err != nil {
				return fmt.Errorf("certifying pass, instance %d: %w", i, err)
			}
			found[c.Group] = math.Max(found[c.Group], c.Violation(w))
		}
		return nil
	})
	if err != nil {
		return err
	}
	st.OracleCalls += n
	return nil
}

// groupMax calls visit(k, i, found_k) for every instance i on the pool's
// goroutines, where found_k is found itself for goroutine 0 and a zeroed
// copy for each other, which visit raises; then it raises found to the
// copies. The maximum does not depend on the order it is taken in, so
// neither does found.
func groupMax(ctx context.Context, p pool, n int, found []float64, visit func(k, i int, found []float64) error) error {
	mine := make([][]float64, p.workers(n))
	mine[0] = found
	for k := 1; k < len(mine); k++ {
		mine[k] = make([]float64, len(found))
	}
	if err := p.forEach(ctx, n, func(k, i int) error { return visit(k, i, mine[k]) }); err != nil {
		return err
	}
	for _, m := range mine[1:] {
		for g, v := range m {
			found[g] = math.Max(found[g], v)
		}
	}
	return nil
}

func dot(a, b []float64) float64 {
	var s float64
	for j, x := range a {
		s += x * b[j]
	}
	return s
}

// CuttingPlaneTrainers lists the trainers served by CuttingPlane.
func CuttingPlaneTrainers() []string {
	var out []string
	for _, t := range registry[struct{}]() {
		if _, ok := t.(cuttingPlane[struct{}]); ok {
			out = append(out, t.Spec().Name)
		}
	}
	return out
}

// NewSeparator returns the separation oracle of a cutting-plane trainer for
// model m, or an error naming the capability m lacks. An epsilon of 0 means
// DefaultEpsilon (ApproxSlack's λ_l = ε/L_max needs the real ε).
func NewSeparator[Y any](trainer string, m Model[Y], epsilon float64) (Separator, error) {
	if epsilon == 0 {
		epsilon = DefaultEpsilon
	}
	t, err := Lookup[Y](trainer)
	if err != nil {
		return nil, err
	}
	cp, ok := t.(cuttingPlane[Y])
	if !ok {
		return nil, fmt.Errorf("unknown cutting-plane trainer %q (known: %v)", trainer, CuttingPlaneTrainers())
	}
	return cp.separator(m, epsilon)
}

// TradeOff is the C of the trainers that minimise ½‖w‖² + C·(their loss
// summed over the instances); each trainer's file says what its loss is.
type TradeOff struct {
	C float64 `param:"C,required" range:"(0,1e12]" help:"the regularisation trade-off"`
	// CPerExample makes C weigh the mean of the losses instead of their
	// sum: the trainer uses C/n for n instances.
	CPerExample bool `param:"C_per_example" help:"C weighs the mean loss (C/n) instead of the sum"`
}

// PerExample returns the trade-off on the summed losses of n instances.
func (t TradeOff) PerExample(n int) float64 { return perExample(t.C, t.CPerExample, n) }

// CuttingPlaneParams are the params of the cutting-plane trainers (margin,
// slack, approx-slack, poslearn); see Settings for their meaning.
type CuttingPlaneParams struct {
	TradeOff
	Solver        string  `param:"solver" help:"n-slack (the paper's) or one-slack (Joachims et al. 2009)"`
	Epsilon       float64 `param:"epsilon" range:"(0,)" help:"violation tolerance ε; the primal is within C·G·ε of optimal"`
	QPTolerance   float64 `param:"qp_tolerance" range:"[0,1)" help:"relative working-set gap the QP must reach (0: stop on the true gap)"`
	MaxIterations int     `param:"max_iterations" range:"[1,)" help:"cap on passes (n-slack) or iterations (one-slack)"`
	Threads       int     `param:"threads,execution" range:"[1,)" help:"goroutines for one-slack's separation and both solvers' final exact pass; results do not depend on it"`
	DropIdle      int     `param:"drop_idle" range:"[0,)" help:"n-slack: forget a constraint after this many passes in a row at α = 0 well below its slack (0: keep every constraint)"`
	// EpsilonRelative is nil unless true, so that units that leave it
	// out or set it false keep their keys.
	EpsilonRelative *bool `param:"epsilon_relative" help:"one-slack: stop when C·(violation − ξ) ≤ ε·primal (ε relative) instead of ≤ C·G·ε"`
}

// Resolved fills the defaults as Settings.Resolved does.
func (p CuttingPlaneParams) Resolved() CuttingPlaneParams {
	s := Settings{Epsilon: p.Epsilon, QPTolerance: p.QPTolerance, MaxIterations: p.MaxIterations, Solver: p.Solver, Threads: p.Threads}.Resolved()
	p.Epsilon, p.QPTolerance, p.MaxIterations, p.Solver, p.Threads = s.Epsilon, s.QPTolerance, s.MaxIterations, s.Solver, s.Threads
	if p.EpsilonRelative != nil && !*p.EpsilonRelative {
		p.EpsilonRelative = nil
	}
	return p
}

// Validate checks resolved params (their ranges are the fields' tags).
func (p CuttingPlaneParams) Validate() error {
	switch {
	case !slices.Contains(Solvers(), p.Solver):
		return &ParamError{Key: "solver", Msg: fmt.Sprintf("unknown solver %q (known: %s)", p.Solver, strings.Join(Solvers(), ", "))}
	case p.DropIdle > 0 && p.Solver == OneSlack:
		return &ParamError{Key: "drop_idle", Msg: errDropIdleOneSlack.Error()}
	case p.EpsilonRelative != nil && *p.EpsilonRelative && p.Solver != OneSlack:
		return &ParamError{Key: "epsilon_relative", Msg: errRelativeNSlack.Error()}
	}
	return nil
}

// settings returns the solver settings for a model of n instances.
func (p CuttingPlaneParams) settings(n int) Settings {
	return Settings{C: p.PerExample(n), Epsilon: p.Epsilon, QPTolerance: p.QPTolerance, MaxIterations: p.MaxIterations, Solver: p.Solver, Threads: p.Threads, DropIdle: p.DropIdle,
		Relative: p.EpsilonRelative != nil && *p.EpsilonRelative}
}

// checkThreads reports whether trainer name can train m on threads
// goroutines: more than one needs a model that forks (Forker).
func checkThreads[Y any](name string, m Model[Y], threads int) error {
	if threads <= 1 {
		return nil
	}
	return needs[Forker[Y]](name, "a model usable from several goroutines (Fork) for threads > 1", m)
}

// cuttingPlane is a cutting-plane trainer: CuttingPlane with the trainer's
// separation oracle.
type cuttingPlane[Y any] struct {
	Trainer[Y] // an entry of CuttingPlaneParams, or of params embedding them
	// separator is the trainer's oracle at its default params (NewSeparator).
	separator func(m Model[Y], epsilon float64) (Separator, error)
}

// cuttingPlaneTrainer builds a cutting-plane trainer from its oracle. With
// certify, the oracle is approximate and the exact slack oracle certifies the
// final primal where the model can count losses (else Primal is a lower
// bound; see Stats.PrimalExact).
func cuttingPlaneTrainer[Y any](name, summary, c string, sep func(Model[Y], float64) (Separator, error), certify bool) Trainer[Y] {
	return cuttingPlane[Y]{
		separator: sep,
		Trainer: entry[Y, CuttingPlaneParams]{
			name: name, summary: summary, c: c,
			check: func(m Model[Y], p CuttingPlaneParams) error {
				if _, err := sep(m, p.Epsilon); err != nil {
					return err
				}
				return checkThreads(name, m, p.Threads)
			},
			train: func(ctx context.Context, m Model[Y], p CuttingPlaneParams, o options) (*Result, error) {
				s := p.settings(m.Len())
				s.Checkpoint = o.checkpoint
				oracle, err := sep(m, s.Epsilon)
				if err != nil {
					return nil, err
				}
				if certify {
					s.Certifier, _ = newSlackSeparator(m, s.Epsilon)
				}
				return CuttingPlane(ctx, m.Len(), m.Dim(), oracle, s)
			},
		},
	}
}
