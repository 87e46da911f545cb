package trainers

import (
	"math"
)

// PassiveAggressiveName is the structured passive-aggressive trainer's name
// in configs and results.
const PassiveAggressiveName = "passive-aggressive"

// PassiveAggressiveParams are the params of the structured passive-aggressive
// trainer (PA-I; Crammer, Dekel, Keshet, Shalev-Shwartz & Singer, "Online
// Passive-Aggressive Algorithms", JMLR 7, 2006, section 8, prediction-based
// cost-sensitive updates with the loss as the margin). For each instance, in
// a seeded random order, it predicts ŷ = argmax_y s_i(y) and, with
// ℓ = max(0, L_i(ŷ) − w·δf_i(ŷ)), sets
//
//	w ← w + τ·δf_i(ŷ),   τ = min(C, ℓ/‖δf_i(ŷ)‖²).
//
// C bounds the step of every instance (PA-I's aggressiveness; per instance
// already, so there is no C_per_example); absent (0), τ is unbounded: the
// original PA. It is k-best MIRA with k = 1 at a tenth of the decoding cost
// (one Viterbi, no k-best list), which the tests check.
type PassiveAggressiveParams struct {
	OnlineParams
	C float64 `param:"C" range:"[0,1e12]" help:"bound on every step τ (0: unbounded, plain PA)"`
}

// Resolved fills the defaults: 10 epochs, averaging on (as for MIRA).
func (p PassiveAggressiveParams) Resolved() PassiveAggressiveParams {
	p.OnlineParams = p.OnlineParams.resolved(true)
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p PassiveAggressiveParams) Validate() error { return nil }

func passiveAggressiveAlgo[Y any]() onlineAlgo[Y] {
	return onlineAlgo[Y]{
		name: PassiveAggressiveName, averages: true, converges: true,
		check: func(m Model[Y]) error {
			return needs[LossAugmentedDecoder[Y]](PassiveAggressiveName, "(loss-augmented) decoding", m)
		},
		step: func(m Model[Y], s OnlineSettings) onlineStep {
			d := m.(LossAugmentedDecoder[Y])
			bound := s.C
			if bound == 0 {
				bound = math.Inf(1)
			}
			return func(i int, st *onlineState) (bool, error) {
				y := d.LossAugmented(i, st.v, 0) // a ≡ 1: v is w
				df := m.DeltaFeatures(i, y)
				norm := df.SquaredNorm()
				loss := m.Loss(i, y) - df.Dot(st.v)
				if norm == 0 || loss <= 0 {
					return false, nil
				}
				st.add(df, math.Min(bound, loss/norm))
				return true, nil
			}
		},
	}
}

func passiveAggressiveTrainer[Y any]() Trainer[Y] {
	return onlineTrainer(passiveAggressiveAlgo[Y](), "structured passive-aggressive PA-I (Crammer et al. 2006), 1-best MIRA",
		"bounds every step τ ≤ C (per instance; absent: unbounded)",
		func(p PassiveAggressiveParams, _ int) OnlineSettings {
			s := p.settings()
			s.C = p.C
			return s
		})
}
