package trainers

import "github.com/maxmargin/repro/structpred"

// This file holds every capability a trainer may ask of a model. A model
// implements them structurally, without importing this package (the
// models' tests assert it); a trainer states which ones it needs in its
// Check, so an unsupported trainer/model pair fails before training.

// Model is what every trainer needs of a structured model over its training
// instances 0..Len()-1 (see structpred.Model, where it is defined so that a
// model's Fork can return one without importing this package).
// Implementations own per-instance scratch buffers and are not safe for
// concurrent use; the runner gives each training run its own, and a trainer
// that works on several goroutines gives each its own Fork.
type Model[Y any] = structpred.Model[Y]

// Forker is a model that can be used from several goroutines: Fork returns
// a model over the same instances that shares everything read-only (the
// instances, the cost) with the original but has scratch buffers of its
// own, so that the original and its forks may be called concurrently, one
// goroutine each. A fork answers every call exactly as the original does
// and has every capability it has. The cutting-plane trainers need it for
// threads > 1.
type Forker[Y any] interface {
	Fork() Model[Y]
}

// LossAugmentedDecoder finds argmax_y s_i(y) + scale·L_i(y) over all
// labelings, the truth included (margin scaling's oracle).
type LossAugmentedDecoder[Y any] interface {
	LossAugmented(i int, w []float64, scale float64) Y
}

// TruthExcludingDecoder finds argmax_{y≠y_i} s_i(y) + scale·L_i(y), e.g. by
// a top-2 decoder (ApproxSlack's inner step). ok is false when y_i is the
// only labeling.
type TruthExcludingDecoder[Y any] interface {
	BestExcluding(i int, w []float64, scale float64) (y Y, ok bool)
}

// LossCountDecoder returns, for every integer loss value k = 0..K, the
// highest-scoring labeling with loss exactly k and its score s_i(ys[k])
// (scores[k] = −Inf when no labeling has loss k), which makes the exact
// slack-scaling oracle a scan over k with no further decoding. The oracle
// takes each entry's loss from Model.Loss, so a model whose losses need not
// be integers may instead list one entry per distinct loss value, in
// increasing order (models/multiclass, whose classes it enumerates).
type LossCountDecoder[Y any] interface {
	BestPerLoss(i int, w []float64) (ys []Y, scores []float64, err error)
}

// PositionViolator is the best labeling that is wrong at one position c of a
// decomposable loss, with its score and the position's loss L_ic(y_c). It is
// defined in structpred so that models need not import trainers.
type PositionViolator[Y any] = structpred.PositionViolator[Y]

// PositionDecoder serves PosLearn: Positions(i) error positions for instance
// i, and for each the labeling maximising L_ic(y_c)·(1 − s_i(y_i) + s_i(y))
// among labelings wrong at c (from max-marginals on chains).
type PositionDecoder[Y any] interface {
	Positions(i int) int
	PositionViolators(i int, w []float64, dst []PositionViolator[Y]) []PositionViolator[Y]
}

// KBestDecoder returns the k labelings with the highest s_i(y) + scale·L_i(y)
// (all of them if there are fewer), best first, the truth included if it
// ranks. MIRA calls it with scale 0, as Crammer et al. do.
type KBestDecoder[Y any] interface {
	KBest(i int, w []float64, scale float64, k int) []Y
}

// LogLinear is what CRF training needs of a model: the margin-rescaled loss
// of Pletscher, Ong & Buhmann (2010), equation 9,
//
//	ℓ_β,i(w) = (1/β) log Σ_y exp(β(s_i(y) + lossScale·L_i(y))) − s_i(y_i),
//
// and its gradient E_p[f(x_i, y)] − f(x_i, y_i) under
// p(y) ∝ exp(β(s_i(y) + lossScale·L_i(y))). LogLoss returns ℓ_β,i(w) and ADDS
// the gradient into grad (which may be nil: value only). β must be positive.
// At β = 1, lossScale = 0 it is the CRF's negative log-likelihood; as β → ∞
// it tends to the margin-scaled hinge max_y s_i(y) + lossScale·L_i(y) − s_i(y_i).
type LogLinear[Y any] interface {
	LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64
}

// LogLossSummer is a LogLinear model that can also sum the loss over its
// training instances in one call, which may run faster than one LogLoss
// call per instance (a chain restricted to seen pairs evaluates in whole
// K-wide rows). LogLossSum must return Σ_i LogLoss(i, w, beta, lossScale,
// grad), summed in order of i, and add the same gradient into grad, bit
// for bit when grad is zero on entry (CRF training passes it so); it calls
// check(i), if not nil, before instance i and returns its first error.
type LogLossSummer interface {
	LogLossSum(w []float64, beta, lossScale float64, grad []float64, check func(i int) error) (float64, error)
}

// SlackLogLinear is the slack-rescaled variant of Pletscher et al., section
// 3.3, with Δ = lossScale·L_i:
//
//	ℓ_β,i(w) = (1/β) log Σ_y exp(β·Δ(y)·(1 + s_i(y) − s_i(y_i))),
//
// whose gradient Σ_y p(y)·Δ(y)·(f(x_i, y) − f(x_i, y_i)) is ADDED into grad
// (nil: value only). The exponent multiplies two sums over positions, so the
// partition function does not factorise like the model; a model offers this
// only where it can compute it exactly (chains: integer per-position costs),
// and reports other cases as an error.
type SlackLogLinear[Y any] interface {
	SlackLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) (float64, error)
}

// PosteriorModer labels training instance i by maximum posterior marginals
// under the model's Gibbs distribution P_β(y) ∝ exp(β·s_i(y)): each
// position's most probable label (Pletscher et al., section 8.2). The
// log-linear trainers' predict: mpm needs it of a task's model, since the
// model that predicts is the task's; a model offers it where its
// marginals are exact (chains). β must be positive.
type PosteriorModer[Y any] interface {
	PosteriorModes(i int, w []float64, beta float64) Y
}

// LatentLogLinear is what latent-lbeta needs of a model whose outputs have
// an observed part y and a latent part z (Pletscher et al., section 5):
//
//	ℓ_β,i(w) = (1/β) log Σ_{y,z} exp(β(s_i(y, z) + lossScale·L_i(y)))
//	         − (1/β) log Σ_z exp(β·s_i(y_i, z)),
//
// the loss only of the observed part. LatentLogLoss returns ℓ_β,i(w) and
// ADDS its gradient E_p[f(x_i, y, z)] − E_q[f(x_i, y_i, z)] into grad (nil:
// value only), p(y, z) ∝ exp(β(s_i(y, z) + lossScale·L_i(y))) and q(z) ∝
// exp(β·s_i(y_i, z)). β must be positive. As β → ∞ it tends to the latent
// SSVM's hinge max_{y,z} (s_i(y, z) + lossScale·L_i(y)) − max_z s_i(y_i, z).
// It is not convex in w.
type LatentLogLinear[Y any] interface {
	LatentLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64
}

// ScorePinner is an optional speed-up: PinScores(i, w) computes instance
// i's scores at w once and keeps them for the model's next calls on i until
// UnpinScores (or a call on another instance), so that an oracle which
// decodes and scores one instance many times at one w (ApproxSlack's λ
// search) does not recompute them each time. Results must not change.
type ScorePinner interface {
	PinScores(i int, w []float64)
	UnpinScores()
}

// DeltaScorer is an optional speed-up: DeltaScore(i, w, y) returns
// w·δf_i(y) = s_i(y_i) − s_i(y) without building δf_i(y), visiting only the
// parts where y and the truth differ. One-slack's caches of PosLearn's
// labelings take their dot products from it (else from two Score calls).
// It must equal w·DeltaFeatures(i, y) up to rounding.
type DeltaScorer[Y any] interface {
	DeltaScore(i int, w []float64, y Y) float64
}

// DeltaAdder is an optional speed-up: AddDelta(i, y, scale, add) calls
// add(j, scale·v) for the terms (j, v) of δf_i(y), unsorted and possibly
// repeating an index, without building the vector: one-slack sums
// PosLearn's cached labelings into its joint constraint with it (else from
// DeltaFeatures, which sorts).
type DeltaAdder[Y any] interface {
	AddDelta(i int, y Y, scale float64, add func(j int32, v float64))
}

// pinScores pins instance i's scores at w if m can, and returns what ends
// it.
func pinScores(m any, i int, w []float64) (unpin func()) {
	p, ok := m.(ScorePinner)
	if !ok {
		return func() {}
	}
	p.PinScores(i, w)
	return p.UnpinScores
}

// EmissionCounter serves the generative HMM baseline (trainer hmm): a
// sequence model whose tokens each emit one symbol. Attribute-based models
// designate which attributes are symbols (chains: the word attributes; see
// chain.Model.SetEmissions); every other attribute is ignored.
type EmissionCounter interface {
	// HMMShape returns S, the number of emission symbols, and K, the number
	// of labels, or an error if the model has no symbols designated.
	HMMShape() (symbols, labels int, err error)
	// HMMTokens returns instance i's tokens' symbols (−1 for a token with
	// none, e.g. a word the model's index does not know) and gold labels.
	HMMTokens(i int) (symbols []int32, labels []int)
	// HMMWeights returns the weight vector under which the model's score
	// of a labeling y of any sequence x is Σ_t e(x_t, y_t) + Σ_{t≥1}
	// logTrans[y_{t−1}][y_t], with e(s, y) = logEmit[s][y] for a token of
	// symbol s and logUnknown[y] for a token without one.
	HMMWeights(logEmit [][]float64, logUnknown []float64, logTrans [][]float64) ([]float64, error)
}
