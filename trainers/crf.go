package trainers

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
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
	// Default 1e-6. Not used with StopCRFsuite.
	GradTol float64
	// Stop is the stopping rule: StopGradient ("", the default: GradTol, or
	// no decrease beyond 1e-12 relative in 20 iterations) or StopCRFsuite
	// (CRFsuite's L-BFGS: Delta over Period iterations, or Epsilon).
	Stop string
	// Delta, Period and Epsilon are CRFsuite's stopping rule (StopCRFsuite
	// only): L-BFGS stops once the objective f_k of iteration k has
	// |f_{k−Period} − f_k| ≤ Delta·|f_k| (strictly below, as libLBFGS
	// tests it), or once the gradient of CRFsuite's objective f/C has
	// ‖∇f‖₂/C ≤ Epsilon·max(1, ‖w‖₂). Defaults CRFsuite's: 1e-5, 10, 1e-5.
	Delta   float64
	Period  int
	Epsilon float64
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
	if s.Stop == StopGradient {
		s.Stop = ""
	}
	if s.Stop == "" && (s.Delta != 0 || s.Period != 0 || s.Epsilon != 0) {
		s.Stop = StopCRFsuite // its params select it
	}
	if s.Stop == StopCRFsuite {
		s.Delta, s.Period, s.Epsilon = cmp.Or(s.Delta, crfsuiteDelta), cmp.Or(s.Period, crfsuitePeriod), cmp.Or(s.Epsilon, crfsuiteEpsilon)
	}
	return s
}

// The stopping rules of CRF (CRFSettings.Stop).
const (
	StopGradient = "gradient"
	StopCRFsuite = "crfsuite"
)

// CRFsuite's defaults for its L-BFGS stopping rule (crfsuite learn -H -a lbfgs).
const (
	crfsuiteDelta   = 1e-5
	crfsuitePeriod  = 10
	crfsuiteEpsilon = 1e-5
)

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
	case s.Stop != "" && s.Stop != StopCRFsuite:
		return fmt.Errorf("stopping rule must be %q or %q, got %q", StopGradient, StopCRFsuite, s.Stop)
	case !(s.Delta >= 0) || !finite(s.Delta) || s.Period < 0 || !(s.Epsilon >= 0) || !finite(s.Epsilon):
		return errors.New("delta, period and epsilon must be finite and not negative")
	}
	return nil
}

// CRF minimises ½‖w‖² + C Σ_i ℓ_β,i(w) by L-BFGS from w = 0, where ℓ_β,i is
// Pletscher et al.'s loss (see LogLinear; SlackLogLinear when s.Rescaling is
// Slack). With β = 1 and LossScale = 0 this is the L2-regularised CRF;
// otherwise it is their entropy-and-margin trainer, whose optimum lies
// between the SSVM's optimum at the same C and that plus C·Σ_i log|Y_i|/β.
//
// The minimiser is package internal/lbfgs, whose iterates are gonum's
// optimize.LBFGS with Moré–Thuente line search, bit for bit (crf_lbfgs.go).
// The objective and its gradient come from one pass over the data.
// Result.W is the final point, Result.Primal its objective,
// Result.Iterations the L-BFGS major iterations (counting the starting
// point, as gonum does); Converged is true when L-BFGS stopped on its
// stopping rule (s.Stop) rather than on the iteration cap or a line search
// that could make no more progress (the point is still returned). Dual,
// Gap, Constraints and QPUpdates are zero. ctx is checked between
// instances; on cancellation CRF returns ctx.Err().
func CRF[Y any](ctx context.Context, m Model[Y], s CRFSettings) (*Result, error) {
	return crfWith(ctx, m, s, minimizeLBFGS)
}

// minimizer minimises obj from w = 0 under s's stopping rule, calling cp at
// its scheduled major iterations (the caller makes the last call); the
// CPU time it spends on other threads goes to cpu.
type minimizer func(ctx context.Context, obj *crfObjective, dim int, s CRFSettings, start time.Time, cpu *cputime.Counter, cp *checkpointer) (x []float64, f float64, iters int, converged bool, err error)

func crfWith[Y any](ctx context.Context, m Model[Y], s CRFSettings, minimize minimizer) (*Result, error) {
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
	x, f, iters, converged, err := minimize(ctx, obj, m.Dim(), s, start, &cpu, cp)
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
// pass over the data, and on the way the norms that the stopping rules
// test, so that they cost no pass of their own.
type crfObjective struct {
	ctx  context.Context
	n    int
	c    float64
	loss func(i int, w, grad []float64) (float64, error)
	// sum, if not nil, is Σ_i loss(i, w, grad) in one call (LogLossSummer)
	sum   func(w, grad []float64, check func(i int) error) (float64, error)
	err   error // the first error met (cancellation, model error)
	evals int
	// Of the last evaluation: ‖w‖₂², ‖∇f‖₂² and max_j |∇f_j| (NaN if a
	// component is NaN).
	ww, gg, gmax float64
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
		if ls, ok := m.(LogLossSummer); ok {
			o.sum = func(w, grad []float64, check func(i int) error) (float64, error) {
				return ls.LogLossSum(w, beta, scale, grad, check)
			}
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

// evaluate returns f(x) and writes ∇f(x) into grad. An error (cancellation,
// a model's) is also kept in o.err.
func (o *crfObjective) evaluate(x, grad []float64) (float64, error) {
	o.evals++
	clear(grad)
	sum, err := o.lossSum(x, grad)
	if err != nil {
		return o.fail(err)
	}
	var ww, gg, gmax float64
	nan := false
	for j, w := range x {
		ww += w * w
		g := w + o.c*grad[j]
		grad[j] = g
		gg += g * g
		a := math.Abs(g)
		nan = nan || a != a
		if a > gmax {
			gmax = a
		}
	}
	if nan {
		gmax = math.NaN()
	}
	o.ww, o.gg, o.gmax = ww, gg, gmax
	return 0.5*ww + o.c*sum, nil
}

// lossSum returns Σ_i ℓ_i(x), summed in order of i, and adds the
// gradients into grad, in one call where the model offers one.
func (o *crfObjective) lossSum(x, grad []float64) (float64, error) {
	if o.sum != nil {
		return o.sum(x, grad, o.check)
	}
	var sum float64
	for i := range o.n {
		if err := o.check(i); err != nil {
			return 0, err
		}
		l, err := o.loss(i, x, grad)
		if err != nil {
			return 0, fmt.Errorf("instance %d: %w", i, err)
		}
		sum += l
	}
	return sum, nil
}

// check is called before each instance: a cancelled context ends the
// evaluation.
func (o *crfObjective) check(int) error { return o.ctx.Err() }

// fail records err, the first error met, and returns it.
func (o *crfObjective) fail(err error) (float64, error) {
	if o.err == nil {
		o.err = err
	}
	return math.Inf(1), o.err
}

// gradConverged is gradConverged of the last evaluation's gradient, at its
// objective f.
func (o *crfObjective) gradConverged(f, tol float64) bool {
	return o.gmax <= tol*math.Max(1, math.Abs(f))
}

// crfsuiteGradConverged is CRFsuite's (libLBFGS's) gradient test of the
// last evaluation, on CRFsuite's objective f/C: ‖∇f‖₂/C ≤ ε·max(1, ‖w‖₂).
func (o *crfObjective) crfsuiteGradConverged(eps float64) bool {
	return math.Sqrt(o.gg)/o.c/math.Max(1, math.Sqrt(o.ww)) <= eps
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
//
// Stop selects the stopping rule (CRFSettings.Stop); delta, period and
// epsilon belong to StopCRFsuite (setting one of them selects it), which
// gives each of them CRFsuite's default when unset. Resolved leaves every
// one of them unset under the default rule, so that a config's unit keys
// do not change.
type CRFParams struct {
	TradeOff
	MaxIterations int      `param:"max_iterations" range:"[1,)" help:"cap on L-BFGS major iterations"`
	Stop          string   `param:"stop" help:"stopping rule: gradient (unset: ‖∇f‖∞ ≤ 1e-6·max(1,|f|), or no decrease beyond 1e-12 relative in 20 iterations) or crfsuite (CRFsuite's L-BFGS: delta over period iterations, or epsilon)"`
	Delta         *float64 `param:"delta" range:"(0,)" help:"CRFsuite's rule (setting it implies stop: crfsuite): stop once |f(k−period) − f(k)| < delta·|f(k)| (default 1e-5)"`
	Period        *int     `param:"period" range:"[1,)" help:"CRFsuite's rule (setting it implies stop: crfsuite): iterations the decrease is measured over (default 10)"`
	Epsilon       *float64 `param:"epsilon" range:"(0,)" help:"CRFsuite's rule (setting it implies stop: crfsuite): stop once ‖∇f‖₂/C ≤ epsilon·max(1, ‖w‖₂), its gradient test on its objective f/C (default 1e-5)"`
	Predict       string   `param:"predict,hyper" help:"prediction rule of the trained model (training ignores it): map (unset: the highest-scoring labeling), mpm or mpm-beta1 (maximum posterior marginals: each position's most probable label under p(y|x) ∝ exp(w·f(x, y)), Pletscher et al. section 8.2)"`
}

// Resolved fills the defaults as CRFSettings.Resolved does.
func (p CRFParams) Resolved() CRFParams {
	if p.Stop == "" && (p.Delta != nil || p.Period != nil || p.Epsilon != nil) {
		p.Stop = StopCRFsuite // its params select it, even at 0
	}
	s := p.settings().Resolved()
	p.MaxIterations, p.Stop = s.MaxIterations, s.Stop
	p.Predict = resolvedPredict(p.Predict)
	if s.Stop == StopCRFsuite { // defaults for the unset ones; a stated 0 is left for the range check
		p.Delta, p.Period, p.Epsilon = cmp.Or(p.Delta, &s.Delta), cmp.Or(p.Period, &s.Period), cmp.Or(p.Epsilon, &s.Epsilon)
	}
	return p
}

// settings returns the CRF settings p states (C aside).
func (p CRFParams) settings() CRFSettings {
	deref := func(x *float64) float64 {
		if x == nil {
			return 0
		}
		return *x
	}
	s := CRFSettings{MaxIterations: p.MaxIterations, Stop: p.Stop, Delta: deref(p.Delta), Epsilon: deref(p.Epsilon)}
	if p.Period != nil {
		s.Period = *p.Period
	}
	return s
}

// Validate checks resolved params beyond their ranges: the stopping rule's
// name.
func (p CRFParams) Validate() error {
	if p.Stop != "" && p.Stop != StopCRFsuite {
		return &ParamError{Key: "stop", Msg: fmt.Sprintf("must be %s or %s, got %q", StopGradient, StopCRFsuite, p.Stop)}
	}
	return validatePredict(p.Predict)
}

// ParamPredict is the log-linear trainers' param that chooses the trained
// model's prediction rule, PredictMAP (unset), PredictMPM or
// PredictMPMBeta1. Training ignores it: the task's model predicts, and the
// MPM rules need it to be a PosteriorModer.
const ParamPredict = "predict"

// Prediction rules of a log-linear model (param predict).
const (
	// PredictMAP predicts the highest-scoring labeling, argmax_y w·f(x, y)
	// (the default, and every other trainer's rule).
	PredictMAP = "map"
	// PredictMPM predicts each position's most probable label under the
	// model's own distribution at the trainer's β, P_β(y|x) ∝
	// exp(β·w·f(x, y)) (1 for the CRF; without the error term, which needs
	// the truth): maximum posterior marginals (Pletscher et al., section
	// 8.2), by the distribution their section 5 predicts with.
	PredictMPM = "mpm"
	// PredictMPMBeta1 is maximum posterior marginals under P(y|x, w) ∝
	// exp(w·f(x, y)) whatever β trained w: the distribution section 8.2's
	// formula names (their section 3's P, without β). For the CRF it is
	// PredictMPM.
	PredictMPMBeta1 = "mpm-beta1"
)

// predictRules lists the values of param predict, the default first.
func predictRules() []string { return []string{PredictMAP, PredictMPM, PredictMPMBeta1} }

// resolvedPredict is the predict param as unit keys and model files hold
// it: unset for the default rule, however the config spells it, so that
// stating predict: map changes no key.
func resolvedPredict(rule string) string {
	if rule == PredictMAP {
		return ""
	}
	return rule
}

// validatePredict checks a resolved predict param.
func validatePredict(rule string) error {
	if rule != "" && !slices.Contains(predictRules(), rule) {
		return &ParamError{Key: ParamPredict, Msg: fmt.Sprintf("must be one of %s, got %q", strings.Join(predictRules(), ", "), rule)}
	}
	return nil
}

// checkPredict asks for the capability the MPM rules need of the task's
// model.
func checkPredict[Y any](name, rule string, m Model[Y]) error {
	if rule != PredictMPM && rule != PredictMPMBeta1 {
		return nil
	}
	if _, ok := m.(PosteriorModer[Y]); !ok {
		return fmt.Errorf("trainer %q with %s: %s needs maximum posterior marginals, which this task's model does not provide (the sequence task's does)", name, ParamPredict, rule)
	}
	return nil
}

// MPM reports whether params v (as a model file or a unit holds them,
// defaults resolved or not) of the trainer called name ask for prediction
// by maximum posterior marginals, and the inverse temperature β of the
// distribution P_β(y|x) ∝ exp(β·w·f(x, y)) whose marginals those are: the
// trainer's beta (1 if it has none, the CRF) for PredictMPM, 1 for
// PredictMPMBeta1.
func MPM(name string, v Values) (beta float64, ok bool) {
	rule, _ := v[ParamPredict].(string)
	if (rule != PredictMPM && rule != PredictMPMBeta1) || !slices.Contains(LogLinearTrainers(), name) {
		return 0, false
	}
	beta = 1
	if b, isFloat := v["beta"].(float64); isFloat && b > 0 && rule == PredictMPM {
		beta = b
	}
	return beta, true
}

func crfTrainer[Y any]() Trainer[Y] {
	return entry[Y, CRFParams]{
		name:    CRFName,
		summary: "L2-regularised conditional random field, L-BFGS",
		c:       "weighs the negative log-likelihood: min ½‖w‖² + C Σ_i −log p(y_i|x_i) (C/n with C_per_example)",
		check: func(m Model[Y], p CRFParams) error {
			if err := needs[LogLinear[Y]](CRFName, "a log partition function and marginals", m); err != nil {
				return err
			}
			return checkPredict(CRFName, p.Predict, m)
		},
		train: func(ctx context.Context, m Model[Y], p CRFParams, o options) (*Result, error) {
			s := p.settings()
			s.C, s.Checkpoint = p.PerExample(m.Len()), o.checkpoint
			return CRF(ctx, m, s)
		},
	}
}
