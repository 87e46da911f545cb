package trainers

import (
	"context"
)

// PerceptronName is the structured perceptron's name in configs and results.
const PerceptronName = "perceptron"

// Perceptron is the structured perceptron (Daumé, Algorithm 40; Collins
// 2002): for every instance, in a seeded random order each epoch, decode
// ŷ = argmax_y s_i(y) (LossAugmented with scale 0) and, if δf_i(ŷ) ≠ 0,
// set w ← w + δf_i(ŷ). Averaging (on by default) uses the lazy trick of
// CRFsuite, so an update costs O(|δf|), not O(Dim). Result.Iterations is the
// number of epochs run and Result.Constraints the number of updates; Primal,
// Dual and Gap are zero (the perceptron minimises no regularised objective).
// It returns ctx.Err() if ctx is cancelled.
func Perceptron[Y any](ctx context.Context, m Model[Y], s OnlineSettings) (*Result, error) {
	return trainOnline(ctx, perceptronAlgo[Y](), m, s, nil)
}

func perceptronAlgo[Y any]() onlineAlgo[Y] {
	return onlineAlgo[Y]{
		name: PerceptronName, averages: true, converges: true,
		check: func(m Model[Y]) error {
			return needs[LossAugmentedDecoder[Y]](PerceptronName, "(loss-augmented) decoding", m)
		},
		step: func(m Model[Y], _ OnlineSettings) onlineStep { return perceptronStep(m) },
	}
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

// PerceptronParams are the perceptron's params. It has no C: it minimises no
// regularised objective.
type PerceptronParams struct{ OnlineParams }

// Resolved fills the defaults: 10 epochs, averaging on (Collins 2002).
func (p PerceptronParams) Resolved() PerceptronParams {
	p.OnlineParams = p.OnlineParams.resolved(true)
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p PerceptronParams) Validate() error { return nil }

func perceptronTrainer[Y any]() Trainer[Y] {
	return onlineTrainer(perceptronAlgo[Y](), "averaged structured perceptron (Collins 2002)", "",
		func(p PerceptronParams, _ int) OnlineSettings { return p.settings() })
}
