package trainers

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/maxmargin/repro/structpred"
)

// Names of the online and log-linear trainers, as used in configs and result
// files. (The cutting-plane names are Margin, Slack, ApproxSlack, PosLearn.)
const (
	PerceptronName    = "perceptron"
	MIRAName          = "mira"
	SubgradientName   = "subgradient"
	CRFName           = "crf"
	EntropyMarginName = "entropy-margin"
)

// OnlineTrainers lists the trainers that make passes over the data one
// instance at a time: Perceptron, MIRA and Subgradient.
func OnlineTrainers() []string { return []string{PerceptronName, MIRAName, SubgradientName} }

// LogLinearTrainers lists the trainers served by CRF: the plain CRF and
// Pletscher et al.'s entropy-and-margin loss.
func LogLinearTrainers() []string { return []string{CRFName, EntropyMarginName} }

// KBestDecoder returns the k labelings with the highest s_i(y) + scale·L_i(y)
// (all of them if there are fewer), best first, the truth included if it
// ranks. MIRA calls it with scale 0, as Crammer et al. do.
type KBestDecoder[Y any] interface {
	KBest(i int, w []float64, scale float64, k int) []Y
}

// CanTrain reports whether trainer can train model m: nil if m has every
// capability the trainer needs, otherwise an error naming the missing one.
// It knows every trainer of this package, the cutting-plane ones included, so
// a config can be validated before anything trains.
func CanTrain[Y any](trainer string, m Model[Y]) error {
	switch trainer {
	case PerceptronName, SubgradientName:
		if _, ok := m.(LossAugmentedDecoder[Y]); !ok {
			return fmt.Errorf("trainer %q needs (loss-augmented) decoding, which this task does not provide", trainer)
		}
		return nil
	case MIRAName:
		if _, ok := m.(KBestDecoder[Y]); !ok {
			return fmt.Errorf("trainer %q needs k-best decoding, which this task does not provide", trainer)
		}
		return nil
	case CRFName, EntropyMarginName:
		if _, ok := m.(LogLinear[Y]); !ok {
			return fmt.Errorf("trainer %q needs a log partition function and marginals, which this task does not provide", trainer)
		}
		return nil
	}
	for _, t := range CuttingPlaneTrainers() {
		if t == trainer {
			_, err := NewSeparator(trainer, m, 0.01)
			return err
		}
	}
	known := append(append(CuttingPlaneTrainers(), OnlineTrainers()...), LogLinearTrainers()...)
	return fmt.Errorf("unknown trainer %q (known: %v)", trainer, known)
}

// Averaging selects whether an online trainer returns its last weight vector
// or the average of the weight vectors after every instance it visited.
type Averaging int

const (
	// AverageDefault averages for Perceptron and MIRA (Collins 2002;
	// Crammer et al. report MIRA with averaging) and not for Subgradient.
	AverageDefault Averaging = iota
	// AverageOn returns the average of the weights after every step.
	AverageOn
	// AverageOff returns the last weights.
	AverageOff
)

// OnlineSettings configures Perceptron, MIRA and Subgradient. The zero value
// of every field selects a documented default, except Lambda, which
// Subgradient requires.
type OnlineSettings struct {
	// Epochs is the number of passes over the data. Default 10. Perceptron
	// and MIRA stop early once a whole pass makes no update (w is then a
	// fixed point, and Stats.Converged is set).
	Epochs int
	// Seed seeds the PCG generator that shuffles the instance order at the
	// start of every epoch. Equal seeds give bit-identical results.
	Seed uint64
	// Average selects averaging; see Averaging.
	Average Averaging

	// K is the number of best labelings MIRA constrains per instance.
	// Default 5 (Crammer et al. use 5 for chunking and NER, 20 for OCR).
	K int
	// C bounds MIRA's dual variables, Σ_j α_j ≤ C (one shared slack per
	// instance, as in the cutting-plane QP). 0 means unbounded: the hard
	// constraints of Crammer et al.'s Figure 1.
	C float64

	// Lambda is Subgradient's regulariser: it minimises
	// F(w) = λ/2‖w‖² + (1/n) Σ_i H_i(w), with H_i the structured hinge. This
	// is the cutting-plane objective ½‖w‖² + C Σ_i H_i(w) divided by C·n,
	// for C = 1/(λn). Required (> 0) by Subgradient, ignored otherwise.
	Lambda float64
	// Eta0 is Subgradient's initial learning rate; step t (counting
	// instances from 0 across epochs) uses η_t = η0/(1 + η0·λ·t). Default
	// 1/λ, which makes η_t = 1/(λ(t+1)), the Pegasos schedule for a
	// λ-strongly convex objective.
	Eta0 float64

	// Progress, if non-nil, is called after every epoch with the epoch
	// number (from 1) and the number of updates it made.
	Progress func(epoch, updates int)
}

// Resolved returns s with every unset field at the default trainer (a
// name such as PerceptronName) trains with.
func (s OnlineSettings) Resolved(trainer string) OnlineSettings { return s.withDefaults(trainer) }

func (s OnlineSettings) withDefaults(trainer string) OnlineSettings {
	if s.Epochs == 0 {
		s.Epochs = 10
	}
	if s.K == 0 {
		s.K = 5
	}
	if s.Eta0 == 0 && s.Lambda > 0 {
		s.Eta0 = 1 / s.Lambda
	}
	if s.Average == AverageDefault {
		s.Average = AverageOn
		if trainer == SubgradientName {
			s.Average = AverageOff
		}
	}
	return s
}

func (s OnlineSettings) validate(trainer string) error {
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case s.Epochs < 0:
		return fmt.Errorf("epochs must not be negative, got %d", s.Epochs)
	case s.Average < AverageDefault || s.Average > AverageOff:
		return fmt.Errorf("unknown averaging mode %d", s.Average)
	case trainer == MIRAName && s.K < 1:
		return fmt.Errorf("MIRA needs K ≥ 1, got %d", s.K)
	case trainer == MIRAName && (s.C < 0 || !finite(s.C)):
		return fmt.Errorf("MIRA's C must be finite and ≥ 0 (0 = unbounded), got %v", s.C)
	case trainer == SubgradientName && (!(s.Lambda > 0) || !finite(s.Lambda)):
		return fmt.Errorf("subgradient needs a positive finite lambda, got %v", s.Lambda)
	case trainer == SubgradientName && (!(s.Eta0 > 0) || !finite(s.Eta0)):
		return fmt.Errorf("subgradient needs a positive finite eta0, got %v", s.Eta0)
	}
	return nil
}

// ErrInfeasible reports that hard-margin MIRA (C = 0) met constraints that no
// weight vector satisfies together; a positive C makes every step feasible.
var ErrInfeasible = errors.New("MIRA constraints cannot all be satisfied; set C > 0")

// Perceptron is the structured perceptron (Daumé, Algorithm 40; Collins
// 2002): for every instance, in a seeded random order each epoch, decode
// ŷ = argmax_y s_i(y) (LossAugmented with scale 0) and, if δf_i(ŷ) ≠ 0,
// set w ← w + δf_i(ŷ). Averaging (on by default) uses the lazy trick of
// CRFsuite, so an update costs O(|δf|), not O(Dim). Result.Iterations is the
// number of epochs run and Result.Constraints the number of updates; Primal,
// Dual and Gap are zero (the perceptron minimises no regularised objective).
// It returns ctx.Err() if ctx is cancelled.
func Perceptron[Y any](ctx context.Context, m Model[Y], s OnlineSettings) (*Result, error) {
	return trainOnline(ctx, PerceptronName, m, s, nil)
}

// MIRA is k-best MIRA (Crammer, McDonald & Pereira 2005, Figure 1): for each
// instance it takes the K best labelings z_j under the current w (KBest with
// scale 0) and replaces w by the solution of
//
//	min_u ½‖u − w‖² + C·ξ  s.t.  u·δf_i(z_j) ≥ L_i(z_j) − ξ,  ξ ≥ 0,
//
// whose dual bounds Σ_j α_j ≤ C; C = 0 means ξ = 0, the paper's hard
// constraints. The QP is solved exactly: Hildreth's coordinate ascent on the
// dual, generalised to pair steps with a virtual slack coordinate (as in the
// cutting-plane solver) so that the budget C is respected, iterated until the
// KKT conditions hold to 1e-12. Labelings with δf_i(z) = 0 are skipped: they
// are the truth or indistinguishable from it, and no u can separate them.
// Averaging is on by default. Result.Constraints counts the instances whose
// QP moved w, Result.QPUpdates the dual steps; Primal, Dual and Gap are zero.
// With C = 0 an infeasible constraint set is reported as ErrInfeasible.
func MIRA[Y any](ctx context.Context, m Model[Y], s OnlineSettings) (*Result, error) {
	return trainOnline(ctx, MIRAName, m, s, nil)
}

// Subgradient is stochastic subgradient descent on the margin-scaled
// structural SVM (Daumé, Algorithm 41, with a decaying step as in Pegasos):
// at step t, for instance i, ŷ = argmax_y s_i(y) + L_i(y) and
//
//	w ← (1 − η_t·λ)·w + η_t·δf_i(ŷ)   (the δf term only if δf_i(ŷ) ≠ 0),
//
// η_t = η0/(1 + η0·λ·t), a stochastic subgradient step on
// F(w) = λ/2‖w‖² + (1/n) Σ_i H_i(w), H_i(w) = max_y s_i(y) + L_i(y) − s_i(y_i).
// The shrinkage is O(1): w is stored as a·v and the decoder is asked for
// argmax s_v(y) + L(y)/a. Averaging is off by default. Result.Primal is the
// final objective in cutting-plane units, ½‖w‖² + C Σ_i H_i(w) with
// C = 1/(λn) (that is F(w)/λ), at the returned w, so that it can be compared
// with CuttingPlane's Primal at that C; Dual and Gap are zero.
func Subgradient[Y any](ctx context.Context, m Model[Y], s OnlineSettings) (*Result, error) {
	return trainOnline(ctx, SubgradientName, m, s, nil)
}

// trainOnline checks m's capabilities, builds the trainer's step and runs it.
// hook, if non-nil, sees the current weights after every step.
func trainOnline[Y any](ctx context.Context, trainer string, m Model[Y], s OnlineSettings, hook func(w []float64)) (*Result, error) {
	if err := CanTrain(trainer, m); err != nil {
		return nil, err
	}
	s = s.withDefaults(trainer)
	if err := s.validate(trainer); err != nil {
		return nil, err
	}
	var step onlineStep
	switch trainer {
	case PerceptronName:
		step = perceptronStep(m)
	case MIRAName:
		step = miraStep(m, s)
	case SubgradientName:
		step = subgradientStep(m, s)
	}
	res, err := runOnline(ctx, trainer, m, s, step, hook)
	if err != nil || trainer != SubgradientName {
		return res, err
	}
	res.Primal = MarginPrimal(m, m.(LossAugmentedDecoder[Y]), res.W, 1/(s.Lambda*float64(m.Len())))
	if math.IsNaN(res.Primal) || math.IsInf(res.Primal, 0) {
		return nil, fmt.Errorf("%s: final objective: %w", trainer, ErrNotFinite)
	}
	return res, nil
}

func perceptronStep[Y any](m Model[Y]) onlineStep {
	d := m.(LossAugmentedDecoder[Y])
	return func(i int, st *onlineState) (bool, error) {
		df := m.DeltaFeatures(i, d.LossAugmented(i, st.v, 0)) // a ≡ 1: v is w
		if df.Len() == 0 {
			return false, nil
		}
		st.add(df, 1)
		return true, nil
	}
}

func miraStep[Y any](m Model[Y], s OnlineSettings) onlineStep {
	d := m.(KBestDecoder[Y])
	budget := s.C
	if budget == 0 {
		budget = math.Inf(1)
	}
	var (
		qp  miraQP
		acc structpred.Accumulator
	)
	return func(i int, st *onlineState) (bool, error) {
		qp.reset()
		for _, z := range d.KBest(i, st.v, 0, s.K) { // a ≡ 1: v is w
			df := m.DeltaFeatures(i, z)
			if df.Len() == 0 {
				continue
			}
			qp.add(df, m.Loss(i, z)-df.Dot(st.v))
		}
		steps, err := qp.solve(budget)
		st.qpSteps += steps
		if err != nil {
			return false, err
		}
		acc.Reset()
		moved := false
		for j, a := range qp.alpha {
			if a == 0 {
				continue
			}
			moved = true
			for k, idx := range qp.a[j].Idx {
				acc.Add(idx, a*qp.a[j].Val[k])
			}
		}
		if !moved {
			return false, nil
		}
		st.add(acc.Vec(), 1)
		return true, nil
	}
}

func subgradientStep[Y any](m Model[Y], s OnlineSettings) onlineStep {
	d := m.(LossAugmentedDecoder[Y])
	return func(i int, st *onlineState) (bool, error) {
		// The subgradient is taken at the current w = a·v, before shrinking.
		df := m.DeltaFeatures(i, d.LossAugmented(i, st.v, 1/st.a))
		eta := s.Eta0 / (1 + s.Eta0*s.Lambda*float64(st.steps))
		if st.steps > 0 { // w = 0 before the first step: nothing to shrink
			st.shrink(1 - eta*s.Lambda)
		}
		if df.Len() == 0 {
			return false, nil
		}
		st.add(df, eta)
		return true, nil
	}
}

// MarginPrimal returns the margin-scaled SSVM objective over the full
// constraint set, ½‖w‖² + C Σ_i max_y (s_i(y) + L_i(y) − s_i(y_i)), using
// the loss-augmented decoder d of m (the maximum is ≥ 0 since y = y_i is a
// candidate).
func MarginPrimal[Y any](m Model[Y], d LossAugmentedDecoder[Y], w []float64, c float64) float64 {
	var ww, hinge float64
	for _, x := range w {
		ww += x * x
	}
	for i := range m.Len() {
		y := d.LossAugmented(i, w, 1)
		hinge += math.Max(0, m.Loss(i, y)-m.DeltaFeatures(i, y).Dot(w))
	}
	return 0.5*ww + c*hinge
}

// onlineStep processes instance i, updating st through st.add and st.shrink;
// it reports whether it added anything.
type onlineStep func(i int, st *onlineState) (bool, error)

// onlineState is the weight vector of an online trainer and its running
// average, kept lazily.
//
// The current weights are w = a·v: shrinking w by ρ multiplies a (O(1)), and
// adding η·x adds (η/a)·x to v (O(|x|)). The average of w_1..w_T, the weights
// after each of the T steps so far, is
//
//	Σ_t w_t = Σ_t a_t v_t = A_T·v_T − Σ_s A_{s−1}·Δv_s,   A_t = Σ_{τ≤t} a_τ,
//
// because v_t is the sum of the updates Δv_s made at steps s ≤ t. So it
// suffices to keep u = Σ_s A_{s−1}·Δv_s, updated alongside v at the same
// sparse cost, and the average is (A_T·v − u)/T. With a ≡ 1 this is CRFsuite's
// trick (A_{s−1} = s − 1, average = v − u/T).
type onlineState struct {
	v        []float64
	a        float64
	averaged bool
	u        []float64
	cum      float64 // A_t over the steps finished so far
	steps    int     // T
	qpSteps  int     // MIRA's dual steps, for reporting
}

func newOnlineState(dim int, averaged bool) *onlineState {
	st := &onlineState{v: make([]float64, dim), a: 1, averaged: averaged}
	if averaged {
		st.u = make([]float64, dim)
	}
	return st
}

// add performs w ← w + eta·x.
func (st *onlineState) add(x structpred.SparseVec, eta float64) {
	x.AddTo(st.v, eta/st.a)
	if st.averaged {
		x.AddTo(st.u, st.cum*eta/st.a)
	}
}

// shrink performs w ← rho·w for 0 < rho ≤ 1, renormalising v when a becomes
// small (v ← a·v, A ← A/a, a ← 1 leaves both w and the average unchanged).
func (st *onlineState) shrink(rho float64) {
	st.a *= rho
	if st.a < 1e-9 {
		for j := range st.v {
			st.v[j] *= st.a
		}
		st.cum /= st.a
		st.a = 1
	}
}

// endStep closes a step: the current w joins the average.
func (st *onlineState) endStep() {
	st.cum += st.a
	st.steps++
}

// weights returns the current w (a fresh slice).
func (st *onlineState) weights() []float64 {
	w := make([]float64, len(st.v))
	for j, x := range st.v {
		w[j] = st.a * x
	}
	return w
}

// average returns the average of the weights after every step so far (the
// current w if there was none).
func (st *onlineState) average() []float64 {
	if st.steps == 0 {
		return st.weights()
	}
	w := make([]float64, len(st.v))
	t := float64(st.steps)
	for j, x := range st.v {
		w[j] = (st.cum*x - st.u[j]) / t
	}
	return w
}

// runOnline is the loop shared by the online trainers: Epochs passes over a
// freshly shuffled order, one step per instance, early stop (for the
// perceptron and MIRA) after a pass without updates. hook, if non-nil, sees
// the current weights after every step (tests use it to check the lazy
// average).
func runOnline[Y any](ctx context.Context, trainer string, m Model[Y], s OnlineSettings, step onlineStep, hook func(w []float64)) (*Result, error) {
	start := time.Now()
	n := m.Len()
	st := newOnlineState(m.Dim(), s.Average == AverageOn)
	rng := rand.New(rand.NewPCG(s.Seed, 0x6f6e6c696e65)) // "online"
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	stats := Stats{}
	for stats.Iterations < s.Epochs {
		stats.Iterations++
		rng.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
		updates := 0
		for _, i := range order {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			updated, err := step(i, st)
			if err != nil {
				return nil, fmt.Errorf("epoch %d, instance %d: %w", stats.Iterations, i, err)
			}
			st.endStep()
			if updated {
				updates++
			}
			if hook != nil {
				hook(st.weights())
			}
		}
		stats.Constraints += updates
		stats.Added = updates
		if s.Progress != nil {
			s.Progress(stats.Iterations, updates)
		}
		if updates == 0 && trainer != SubgradientName {
			stats.Converged = true
			break
		}
	}
	var w []float64
	if st.averaged {
		w = st.average()
	} else {
		w = st.weights()
	}
	for _, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: weights: %w", trainer, ErrNotFinite)
		}
	}
	stats.QPUpdates = st.qpSteps
	stats.Elapsed = time.Since(start)
	return &Result{W: w, Stats: stats}, nil
}
