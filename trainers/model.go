package trainers

import "github.com/maxmargin/repro/structpred"

// Model is what every trainer needs of a structured model over its training
// instances 0..Len()-1. Implementations own per-instance scratch buffers and
// are not safe for concurrent use; the runner gives each training run its own.
type Model[Y any] interface {
	Len() int
	Dim() int
	// Truth returns the correct labeling y_i of instance i.
	Truth(i int) Y
	// DeltaFeatures returns δf_i(y) = f(x_i, y_i) − f(x_i, y).
	DeltaFeatures(i int, y Y) structpred.SparseVec
	// Loss returns L_i(y) ≥ 0, zero for the truth.
	Loss(i int, y Y) float64
	// Score returns s_i(y) = w·f(x_i, y).
	Score(i int, w []float64, y Y) float64
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
// slack-scaling oracle a scan over k with no further decoding.
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
