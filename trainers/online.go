package trainers

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/maxmargin/repro/structpred"
)

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
	// Checkpoint, if non-nil, is called after every epoch with the weights
	// training would return then (the average so far when averaging), the
	// last time after the trainer's final step (see CheckpointFunc).
	Checkpoint CheckpointFunc
}

// DefaultEpochs is the number of passes an online trainer makes when
// Epochs is unset.
const DefaultEpochs = 10

// onlineAlgo is one online trainer: its step and the few rules in which the
// online trainers differ. Each trainer's file builds its own.
type onlineAlgo[Y any] struct {
	name string
	// averages selects averaging when Settings.Average is AverageDefault.
	averages bool
	// converges stops training after a pass without updates (w is then a
	// fixed point of the trainer's step).
	converges bool
	check     func(m Model[Y]) error
	defaults  func(s OnlineSettings) OnlineSettings // nil: none of its own
	validate  func(s OnlineSettings) error          // nil: nothing of its own
	step      func(m Model[Y], s OnlineSettings) onlineStep
	finish    func(m Model[Y], s OnlineSettings, res *Result) error // nil: none
}

// resolved fills the defaults the algorithm trains with.
func (a onlineAlgo[Y]) resolved(s OnlineSettings) OnlineSettings {
	if s.Epochs == 0 {
		s.Epochs = DefaultEpochs
	}
	if s.Average == AverageDefault {
		s.Average = AverageOff
		if a.averages {
			s.Average = AverageOn
		}
	}
	if a.defaults != nil {
		s = a.defaults(s)
	}
	return s
}

func (a onlineAlgo[Y]) validSettings(s OnlineSettings) error {
	switch {
	case s.Epochs < 0:
		return fmt.Errorf("epochs must not be negative, got %d", s.Epochs)
	case s.Average < AverageDefault || s.Average > AverageOff:
		return fmt.Errorf("unknown averaging mode %d", s.Average)
	case a.validate != nil:
		return a.validate(s)
	}
	return nil
}

// trainOnline checks m's capabilities, builds the trainer's step and runs it.
// hook, if non-nil, sees the current weights after every step.
func trainOnline[Y any](ctx context.Context, a onlineAlgo[Y], m Model[Y], s OnlineSettings, hook func(w []float64)) (*Result, error) {
	if err := a.check(m); err != nil {
		return nil, err
	}
	s = a.resolved(s)
	if err := a.validSettings(s); err != nil {
		return nil, err
	}
	cp := newCheckpointer(s.Checkpoint, nil)
	defer cp.close()
	res, err := runOnline(ctx, a.name, m, s, a.step(m, s), a.converges, hook, cp)
	if err != nil {
		return nil, err
	}
	if a.finish != nil {
		if err := a.finish(m, s, res); err != nil {
			return nil, err
		}
	}
	// The last checkpoint comes after finish, so that its time is the
	// whole training's.
	if err := cp.at(res.Iterations, res.W); err != nil {
		return nil, err
	}
	cp.record(&res.Stats)
	return res, nil
}

// OnlineParams are the params every online trainer shares.
type OnlineParams struct {
	Epochs  int    `param:"epochs,hyper" range:"[1,)" help:"passes over the data (perceptron and MIRA stop early after a pass without updates)"`
	Average *bool  `param:"average" help:"return the average of the weights after every step instead of the last"`
	Seed    uint64 `param:"seed" help:"seeds the random instance order of every epoch"`
}

// resolved fills the shared defaults; averages is the trainer's default
// averaging.
func (p OnlineParams) resolved(averages bool) OnlineParams {
	if p.Epochs == 0 {
		p.Epochs = DefaultEpochs
	}
	if p.Average == nil {
		p.Average = &averages
	}
	return p
}

// settings returns the OnlineSettings of resolved params.
func (p OnlineParams) settings() OnlineSettings {
	s := OnlineSettings{Epochs: p.Epochs, Seed: p.Seed, Average: AverageOff}
	if p.Average != nil && *p.Average {
		s.Average = AverageOn
	}
	return s
}

// onlineTrainer is the registry entry of an online algorithm with typed
// params P, which turn into OnlineSettings for a model of n instances.
func onlineTrainer[Y any, P params[P]](a onlineAlgo[Y], summary, c string, settings func(p P, n int) OnlineSettings) Trainer[Y] {
	return entry[Y, P]{
		name: a.name, summary: summary, c: c,
		check: func(m Model[Y], _ P) error { return a.check(m) },
		train: func(ctx context.Context, m Model[Y], p P, o options) (*Result, error) {
			s := settings(p, m.Len())
			s.Checkpoint = o.checkpoint
			return trainOnline(ctx, a, m, s, nil)
		},
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

// result returns what training returns if it stops now: the average when
// averaging, else the current weights (a fresh slice).
func (st *onlineState) result() []float64 {
	if st.averaged {
		return st.average()
	}
	return st.weights()
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
// freshly shuffled order, one step per instance, early stop (if converges:
// the perceptron and MIRA) after a pass without updates. hook, if non-nil, sees
// the current weights after every step (tests use it to check the lazy
// average); cp sees the weights training would return after every epoch but
// the last, which the caller reports.
func runOnline[Y any](ctx context.Context, trainer string, m Model[Y], s OnlineSettings, step onlineStep, converges bool, hook func(w []float64), cp *checkpointer) (*Result, error) {
	start := time.Now()
	if s.Progress == nil {
		s.Progress = onlineProgress(ctx, start)
	}
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
		if updates == 0 && converges {
			stats.Converged = true
			break
		}
		if cp != nil && stats.Iterations < s.Epochs {
			if err := cp.at(stats.Iterations, st.result()); err != nil {
				return nil, err
			}
		}
	}
	w := st.result()
	for _, x := range w {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("%s: weights: %w", trainer, ErrNotFinite)
		}
	}
	stats.QPUpdates = st.qpSteps
	stats.Elapsed = time.Since(start)
	return &Result{W: w, Stats: stats}, nil
}

// OnlineTrainers lists the trainers that make passes over the data one
// instance at a time: Perceptron, MIRA and Subgradient.
func OnlineTrainers() []string { return []string{PerceptronName, MIRAName, SubgradientName} }
