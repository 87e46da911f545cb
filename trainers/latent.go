package trainers

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// LatentLBetaName is the name in configs and results of Pletscher, Ong &
// Buhmann's (2010, section 5) entropy-and-margin loss with latent
// variables, minimised by L-BFGS from several starting points.
const LatentLBetaName = "latent-lbeta"

// LatentLBetaParams are the latent-lbeta trainer's params. C weighs the
// losses as for entropy-margin: min ½‖w‖² + C Σ_i ℓ_β,i(w) (C/n with
// C_per_example); the paper's Σ ℓ + (C′/2)‖w‖² is this divided by C, with
// C′ = 1/C.
type LatentLBetaParams struct {
	TradeOff
	Beta          float64  `param:"beta,required,hyper" range:"(0,)" help:"inverse temperature β > 0 (β → ∞: the latent SSVM, MI-SVM on bags; β = 1 without loss: the hidden CRF, MI/LR)"`
	LossScale     *float64 `param:"loss_scale,hyper" range:"[0,)" help:"weight of the loss Δ in the exponent"`
	Restarts      *int     `param:"restarts" range:"[0,1000]" help:"L-BFGS runs from seeded random points besides the one from w = 0; the lowest objective wins"`
	Seed          uint64   `param:"seed" help:"seeds the random starting points of the restarts"`
	MaxIterations int      `param:"max_iterations" range:"[1,)" help:"cap on L-BFGS major iterations per run"`
}

// DefaultLatentRestarts is the number of random restarts latent-lbeta makes
// unless told otherwise.
const DefaultLatentRestarts = 4

// Resolved fills the defaults: loss scale 1, DefaultLatentRestarts and
// CRF's iteration cap. β has none.
func (p LatentLBetaParams) Resolved() LatentLBetaParams {
	p.MaxIterations = CRFSettings{MaxIterations: p.MaxIterations}.Resolved().MaxIterations
	if p.LossScale == nil {
		one := 1.0
		p.LossScale = &one
	}
	if p.Restarts == nil {
		r := DefaultLatentRestarts
		p.Restarts = &r
	}
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p LatentLBetaParams) Validate() error { return nil }

func latentLBetaTrainer[Y any]() Trainer[Y] {
	return entry[Y, LatentLBetaParams]{
		name:    LatentLBetaName,
		summary: "Pletscher et al.'s (2010) l_β with latent variables (non-convex), L-BFGS (internal/lbfgs, gonum's iterates) from w = 0 and seeded random restarts",
		c:       "weighs l_β: min ½‖w‖² + C Σ_i ℓ_β,i(w) (C/n with C_per_example)",
		check: func(m Model[Y], _ LatentLBetaParams) error {
			return needs[LatentLogLinear[Y]](LatentLBetaName, "a latent-variable log partition function", m)
		},
		train: func(ctx context.Context, m Model[Y], p LatentLBetaParams, o options) (*Result, error) {
			s := LatentSettings{
				Beta: p.Beta, LossScale: *p.LossScale, C: p.PerExample(m.Len()),
				Restarts: *p.Restarts, Seed: p.Seed, MaxIterations: p.MaxIterations, Checkpoint: o.checkpoint,
			}
			return LatentLBeta(ctx, m, s)
		},
	}
}

// LatentSettings configures LatentLBeta.
type LatentSettings struct {
	Beta, LossScale, C float64
	// Restarts is the number of L-BFGS runs from random points after the
	// one from w = 0; restart r starts from w_j ~ N(0, 1/Dim) drawn from
	// PCG(Seed, r), so ‖w‖ is about 1.
	Restarts int
	Seed     uint64
	// MaxIterations caps each run's L-BFGS major iterations (default 1000);
	// GradTol is CRF's relative gradient tolerance (default 1e-6).
	MaxIterations int
	GradTol       float64
	// Checkpoint, if non-nil, is called once, at the returned weights, with
	// Iteration the major iterations of every run together.
	Checkpoint CheckpointFunc
}

// LatentLBeta minimises ½‖w‖² + C Σ_i ℓ_β,i(w) with ℓ_β,i the latent loss
// of LatentLogLinear. The objective is not convex, so L-BFGS (CRF's:
// 6 pairs, Moré–Thuente, gonum's iterates) runs from w = 0 and from
// s.Restarts seeded random points, and the point with the lowest objective
// is returned (the earliest run on ties). Result.Iterations counts the
// major iterations of every run; Result.Primal is the returned point's
// objective; Converged says whether its run met the gradient tolerance or
// function convergence. The result depends on s and the data only.
func LatentLBeta[Y any](ctx context.Context, m Model[Y], s LatentSettings) (*Result, error) {
	if s.MaxIterations == 0 {
		s.MaxIterations = 1000
	}
	if s.GradTol == 0 {
		s.GradTol = 1e-6
	}
	finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
	switch {
	case !(s.C > 0) || !finite(s.C):
		return nil, fmt.Errorf("%s: the trade-off C must be a positive finite number, got %v", LatentLBetaName, s.C)
	case !(s.Beta > 0) || !finite(s.Beta):
		return nil, fmt.Errorf("%s: beta must be a positive finite number, got %v", LatentLBetaName, s.Beta)
	case !(s.LossScale >= 0) || !finite(s.LossScale):
		return nil, fmt.Errorf("%s: loss scale must be finite and ≥ 0, got %v", LatentLBetaName, s.LossScale)
	case s.Restarts < 0 || s.MaxIterations < 0 || !(s.GradTol >= 0):
		return nil, fmt.Errorf("%s: restarts, iteration cap and gradient tolerance must not be negative", LatentLBetaName)
	}
	ll, ok := m.(LatentLogLinear[Y])
	if !ok {
		return nil, fmt.Errorf("trainer %q needs a latent-variable log partition function, which this task does not provide", LatentLBetaName)
	}
	dim := m.Dim()
	if dim == 0 {
		return nil, fmt.Errorf("%s: model has no weights", LatentLBetaName)
	}
	obj := &latentObjective{ctx: ctx, n: m.Len(), c: s.C, loss: func(i int, w, grad []float64) float64 {
		return ll.LatentLogLoss(i, w, s.Beta, s.LossScale, grad)
	}}
	cp := newCheckpointer(s.Checkpoint, nil) // everything runs on this thread
	defer cp.close()
	start := time.Now()
	var best *Result
	total := 0
	for r := range s.Restarts + 1 {
		x0 := make([]float64, dim)
		if r > 0 {
			rng := rand.New(rand.NewPCG(s.Seed, uint64(r)))
			sd := 1 / math.Sqrt(float64(dim))
			for j := range x0 {
				x0[j] = sd * rng.NormFloat64()
			}
		}
		x, f, iters, converged, err := latentLBFGS(ctx, obj, x0, s)
		if err != nil {
			return nil, fmt.Errorf("%s: run %d: %w", LatentLBetaName, r, err)
		}
		total += iters
		if best == nil || f < best.Primal {
			best = &Result{W: x, Stats: Stats{Primal: f, Converged: converged}}
		}
	}
	best.Iterations = total
	best.Elapsed = time.Since(start)
	if err := cp.at(total, best.W); err != nil {
		return nil, fmt.Errorf("%s: %w", LatentLBetaName, err)
	}
	cp.record(&best.Stats)
	return best, nil
}

// latentObjective is f(w) = ½‖w‖² + C Σ_i ℓ_i(w) with its gradient.
type latentObjective struct {
	ctx  context.Context
	n    int
	c    float64
	loss func(i int, w, grad []float64) float64
}

// evaluate is an lbfgs.Func; it fails only when ctx is done.
func (o *latentObjective) evaluate(x, grad []float64) (float64, error) {
	clear(grad)
	var sum float64
	for i := range o.n {
		if err := o.ctx.Err(); err != nil {
			return math.Inf(1), err
		}
		sum += o.loss(i, x, grad)
	}
	var ww float64
	for j, w := range x {
		ww += w * w
		grad[j] = w + o.c*grad[j]
	}
	return 0.5*ww + o.c*sum, nil
}

// latentLBFGS runs one L-BFGS minimisation of obj from x0, stopping as CRF
// does (gradRuleLBFGS); a run that stalls in the line search (the
// objective has kinks as β grows) keeps its last major iterate.
func latentLBFGS(ctx context.Context, obj *latentObjective, x0 []float64, s LatentSettings) (x []float64, f float64, iters int, converged bool, err error) {
	x, f, iters, converged, err = gradRuleLBFGS(ctx, obj.evaluate, x0, gradRule{
		memory: defaultLBFGSMemory, maxIterations: s.MaxIterations,
		converged: func(f float64, g []float64) bool { return gradConverged(g, f, s.GradTol) },
	})
	if cerr := ctx.Err(); cerr != nil {
		return nil, 0, 0, false, cerr
	}
	if err != nil {
		return nil, 0, 0, false, err
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, 0, 0, false, fmt.Errorf("objective: %w", ErrNotFinite)
	}
	return x, f, iters, converged, nil
}
