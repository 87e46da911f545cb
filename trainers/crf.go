package trainers

import (
	"context"
	"errors"
	"fmt"
	"github.com/maxmargin/repro/internal/cputime"
	"math"
	"slices"
	"time"
)

// CRFSettings configures CRF. The zero value of every field but C selects a
// documented default.
type CRFSettings struct {
	// Beta is the inverse temperature β > 0. Default 1.
	Beta float64
	// LossScale weighs the error term: Δ = LossScale·L. 0 (the default) gives
	// the plain (β-tempered) CRF; 1 with large β approaches the SSVM.
	LossScale float64
	// Rescaling is Margin (the default; equation 9 of Pletscher et al.) or
	// Slack (their section 3.3, which needs SlackLogLinear).
	Rescaling string
	// C weighs the data term: CRF minimises ½‖w‖² + C Σ_i ℓ_β,i(w), the
	// cutting-plane trainers' scaling (the paper's Σ_i ℓ + (C'/2)‖w‖² is this
	// objective divided by C, with C' = 1/C). Must be positive and finite.
	C float64
	// MaxIterations caps the L-BFGS major iterations. Default 1000.
	MaxIterations int
	// Memory is the number of correction pairs L-BFGS keeps. Default 6,
	// CRFsuite's.
	Memory int
	// GradTol stops L-BFGS once ‖∇‖_∞ ≤ GradTol·max(1, |objective|).
	// Default 1e-6.
	GradTol float64
	// Progress, if non-nil, is called after every L-BFGS major iteration with
	// Iterations, Primal (the objective) and Elapsed set.
	Progress func(Stats)
	// Checkpoint, if non-nil, is called at scheduled major iterations and
	// at the end (see CheckpointFunc).
	Checkpoint CheckpointFunc
}

// Name returns the trainer name the settings correspond to: CRFName for
// β = 1 without an error term, EntropyMarginName otherwise.
func (s CRFSettings) Name() string {
	s = s.withDefaults()
	if s.Beta == 1 && s.LossScale == 0 && s.Rescaling == Margin {
		return CRFName
	}
	return EntropyMarginName
}

// Resolved returns s with every unset field at the default training uses.
func (s CRFSettings) Resolved() CRFSettings { return s.withDefaults() }

func (s CRFSettings) withDefaults() CRFSettings {
	if s.Beta == 0 {
		s.Beta = 1
	}
	if s.Rescaling == "" {
		s.Rescaling = Margin
	}
	if s.MaxIterations == 0 {
		s.MaxIterations = 1000
	}
	if s.GradTol == 0 {
		s.GradTol = 1e-6
	}
	if s.Memory == 0 {
		s.Memory = defaultLBFGSMemory
	}
	return s
}

func (s CRFSettings) validate() error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !(s.C > 0) || !finite(s.C):
		return fmt.Errorf("the trade-off C must be a positive finite number, got %v", s.C)
	case !(s.Beta > 0) || !finite(s.Beta):
		return fmt.Errorf("beta must be a positive finite number, got %v", s.Beta)
	case !(s.LossScale >= 0) || !finite(s.LossScale):
		return fmt.Errorf("loss scale must be finite and ≥ 0, got %v", s.LossScale)
	case s.Rescaling != Margin && s.Rescaling != Slack:
		return fmt.Errorf("rescaling must be %q or %q, got %q", Margin, Slack, s.Rescaling)
	case s.MaxIterations < 0 || !(s.GradTol >= 0) || s.Memory < 0:
		return errors.New("iteration cap, gradient tolerance and L-BFGS memory must not be negative")
	}
	return nil
}

// CRF minimises ½‖w‖² + C Σ_i ℓ_β,i(w) by L-BFGS from w = 0, where ℓ_β,i is
// Pletscher et al.'s loss (see LogLinear; SlackLogLinear when s.Rescaling is
// Slack). With β = 1 and LossScale = 0 this is the L2-regularised CRF;
// otherwise it is their entropy-and-margin trainer, whose optimum lies
// between the SSVM's optimum at the same C and that plus C·Σ_i log|Y_i|/β.
//
// The minimiser is gonum's optimize.LBFGS (crf_gonum.go). The objective and its
// gradient come from one pass over the data, cached so that a gradient
// request at the point just evaluated costs nothing. Result.W is the final
// point, Result.Primal its objective, Result.Iterations the L-BFGS major
// iterations; Converged is true when L-BFGS stopped on the gradient
// tolerance or on function convergence (no decrease beyond 1e-12 relative in
// 20 iterations) rather than on the iteration cap or a line search that
// could make no more progress (the point is still returned). Dual, Gap,
// Constraints and QPUpdates are zero. ctx is checked between instances; on
// cancellation CRF returns ctx.Err().
func CRF[Y any](ctx context.Context, m Model[Y], s CRFSettings) (*Result, error) {
	s = s.withDefaults()
	if s.Progress == nil {
		s.Progress = progressOf(ctx)
	}
	if err := s.validate(); err != nil {
		return nil, err
	}
	obj, err := newCRFObjective(ctx, m, s)
	if err != nil {
		return nil, err
	}
	if m.Dim() == 0 {
		return nil, errors.New("crf: model has no weights")
	}
	var cpu cputime.Counter
	cp := newCheckpointer(s.Checkpoint, &cpu)
	defer cp.close()
	start := time.Now()
	x, f, iters, converged, err := minimizeLBFGS(ctx, obj, m.Dim(), s, start, &cpu, cp)
	if cerr := ctx.Err(); cerr != nil {
		return nil, cerr
	}
	if obj.err != nil {
		return nil, obj.err
	}
	if err != nil {
		return nil, fmt.Errorf("%s: L-BFGS: %w", s.Name(), err)
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("%s: objective: %w", s.Name(), ErrNotFinite)
	}
	if err := cp.at(iters, x); err != nil {
		return nil, fmt.Errorf("%s: %w", s.Name(), err)
	}
	res := &Result{W: x, Stats: Stats{
		Iterations: iters,
		Primal:     f,
		Converged:  converged,
		Elapsed:    time.Since(start),

		OtherThreadsCPU: cpu.Total(),
	}}
	cp.record(&res.Stats)
	return res, nil
}

// gradConverged reports whether ‖g‖_∞ ≤ tol·max(1, |f|), CRF's stopping
// rule; a NaN in g never converges. It compares each |g_j| with the bound
// directly (no math.Max, whose NaN and signed-zero handling costs a call per
// element over all A·K weights).
func gradConverged(g []float64, f, tol float64) bool {
	bound := tol * math.Max(1, math.Abs(f))
	for _, x := range g {
		if !(math.Abs(x) <= bound) {
			return false
		}
	}
	return true
}

// crfObjective evaluates f(w) = ½‖w‖² + C Σ_i ℓ_i(w) and its gradient in one
// pass, caching (x, f, ∇f) because gonum calls Func and then Grad at the
// same x.
type crfObjective struct {
	ctx    context.Context
	n      int
	c      float64
	loss   func(i int, w, grad []float64) (float64, error)
	err    error // the first error met (cancellation, model error)
	x, g   []float64
	f      float64
	cached bool
	evals  int
}

func newCRFObjective[Y any](ctx context.Context, m Model[Y], s CRFSettings) (*crfObjective, error) {
	o := &crfObjective{ctx: ctx, n: m.Len(), c: s.C}
	switch s.Rescaling {
	case Margin:
		ll, ok := m.(LogLinear[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q needs a log partition function and marginals, which this task does not provide", s.Name())
		}
		beta, scale := s.Beta, s.LossScale
		o.loss = func(i int, w, grad []float64) (float64, error) {
			return ll.LogLoss(i, w, beta, scale, grad), nil
		}
	case Slack:
		ll, ok := m.(SlackLogLinear[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q with slack rescaling needs a slack-rescaled partition function, which this task does not provide", s.Name())
		}
		if c, ok := m.(interface{ CanCountLoss() error }); ok {
			if err := c.CanCountLoss(); err != nil {
				return nil, fmt.Errorf("trainer %q with slack rescaling: %w", s.Name(), err)
			}
		}
		beta, scale := s.Beta, s.LossScale
		o.loss = func(i int, w, grad []float64) (float64, error) {
			return ll.SlackLogLoss(i, w, beta, scale, grad)
		}
	}
	return o, nil
}

// eval fills the cache at x (no-op if it already holds x).
func (o *crfObjective) eval(x []float64) {
	if o.cached && slices.Equal(o.x, x) {
		return
	}
	o.evals++
	o.x = append(o.x[:0], x...)
	o.g = growFloats(o.g, len(x))
	clear(o.g)
	var sum float64
	for i := range o.n {
		if err := o.ctx.Err(); err != nil {
			o.fail(err)
			return
		}
		l, err := o.loss(i, x, o.g)
		if err != nil {
			o.fail(fmt.Errorf("instance %d: %w", i, err))
			return
		}
		sum += l
	}
	var ww float64
	for j, w := range x {
		ww += w * w
		o.g[j] = w + o.c*o.g[j]
	}
	o.f = 0.5*ww + o.c*sum
	o.cached = true
}

// fail records err and poisons the cache with +Inf, which L-BFGS rejects;
// the Status check before the next evaluation then stops the run.
func (o *crfObjective) fail(err error) {
	if o.err == nil {
		o.err = err
	}
	o.f = math.Inf(1)
	clear(o.g)
	o.cached = true
}

func (o *crfObjective) value(x []float64) float64 {
	o.eval(x)
	return o.f
}

func (o *crfObjective) gradient(grad, x []float64) {
	o.eval(x)
	copy(grad, o.g)
}

func dotf(a, b []float64) float64 {
	var s float64
	for j, x := range a {
		s += x * b[j]
	}
	return s
}

// defaultLBFGSMemory is CRFsuite's default number of L-BFGS correction pairs.
const defaultLBFGSMemory = 6

// LBFGSRevision names the L-BFGS configuration that CRF trains with. It moved
// from gonum's defaults (15 pairs, bisection line search) to CRFsuite's (6
// pairs, Moré–Thuente), which stops at a different point within the same
// gradient tolerance: callers that cache results (experiments' unit keys)
// fold it into their keys so that units of the old minimiser are not
// reused as if they were this one's.
const LBFGSRevision = "lbfgs-m6-morethuente"

// CRFName is the L2-regularised CRF's name in configs and results.
const CRFName = "crf"

// LogLinearTrainers lists the trainers served by CRF: the plain CRF and
// Pletscher et al.'s entropy-and-margin loss.
func LogLinearTrainers() []string { return []string{CRFName, EntropyMarginName} }

// CRFParams are the plain CRF's params. C weighs the negative
// log-likelihood: min ½‖w‖² + C Σ_i −log p(y_i | x_i) (C/n with
// C_per_example), the cutting-plane trainers' scaling; the usual
// Σ_i −log p + (C'/2)‖w‖² is this divided by C, with C' = 1/C.
type CRFParams struct {
	TradeOff
	MaxIterations int `param:"max_iterations" range:"[1,)" help:"cap on L-BFGS major iterations"`
}

// Resolved fills the defaults as CRFSettings.Resolved does.
func (p CRFParams) Resolved() CRFParams {
	p.MaxIterations = CRFSettings{MaxIterations: p.MaxIterations}.Resolved().MaxIterations
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p CRFParams) Validate() error { return nil }

func crfTrainer[Y any]() Trainer[Y] {
	return entry[Y, CRFParams]{
		name:    CRFName,
		summary: "L2-regularised conditional random field, gonum L-BFGS",
		c:       "weighs the negative log-likelihood: min ½‖w‖² + C Σ_i −log p(y_i|x_i) (C/n with C_per_example)",
		check: func(m Model[Y], _ CRFParams) error {
			return needs[LogLinear[Y]](CRFName, "a log partition function and marginals", m)
		},
		train: func(ctx context.Context, m Model[Y], p CRFParams, o options) (*Result, error) {
			return CRF(ctx, m, CRFSettings{C: p.PerExample(m.Len()), MaxIterations: p.MaxIterations, Checkpoint: o.checkpoint})
		},
	}
}
