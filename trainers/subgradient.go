package trainers

import (
	"context"
	"fmt"
	"math"
)

// SubgradientName is stochastic subgradient descent's name in configs and
// results.
const SubgradientName = "subgradient"

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
	return trainOnline(ctx, subgradientAlgo[Y](), m, s, nil)
}

func subgradientAlgo[Y any]() onlineAlgo[Y] {
	return onlineAlgo[Y]{
		name: SubgradientName,
		check: func(m Model[Y]) error {
			return needs[LossAugmentedDecoder[Y]](SubgradientName, "(loss-augmented) decoding", m)
		},
		defaults: func(s OnlineSettings) OnlineSettings {
			if s.Eta0 == 0 && s.Lambda > 0 {
				s.Eta0 = 1 / s.Lambda
			}
			return s
		},
		validate: func(s OnlineSettings) error {
			finite := func(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
			switch {
			case !(s.Lambda > 0) || !finite(s.Lambda):
				return fmt.Errorf("subgradient needs a positive finite lambda, got %v", s.Lambda)
			case !(s.Eta0 > 0) || !finite(s.Eta0):
				return fmt.Errorf("subgradient needs a positive finite eta0, got %v", s.Eta0)
			}
			return nil
		},
		step: subgradientStep[Y],
		finish: func(m Model[Y], s OnlineSettings, res *Result) error {
			res.Primal = MarginPrimal(m, m.(LossAugmentedDecoder[Y]), res.W, 1/(s.Lambda*float64(m.Len())))
			if math.IsNaN(res.Primal) || math.IsInf(res.Primal, 0) {
				return fmt.Errorf("%s: final objective: %w", SubgradientName, ErrNotFinite)
			}
			return nil
		},
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

// SubgradientParams are Subgradient's params. C sets the regulariser
// λ = 1/(C·n) for n instances, so that its objective λ/2‖w‖² + (1/n) Σ_i H_i
// is the cutting-plane objective ½‖w‖² + C Σ_i H_i divided by C·n and one C
// grid means the same scale for every trainer; with C_per_example C weighs
// the mean hinge (C/n in place of C, so λ = 1/C).
type SubgradientParams struct {
	OnlineParams
	TradeOff
}

// Resolved fills the defaults: 10 epochs, averaging off.
func (p SubgradientParams) Resolved() SubgradientParams {
	p.OnlineParams = p.OnlineParams.resolved(false)
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p SubgradientParams) Validate() error { return nil }

func subgradientTrainer[Y any]() Trainer[Y] {
	return onlineTrainer(subgradientAlgo[Y](), "stochastic subgradient descent on the margin-scaled SSVM, Pegasos steps (Daumé, Algorithm 41)",
		"sets λ = 1/(C·n): min ½‖w‖² + C Σ_i H_i(w), H_i the margin-scaled hinge (C/n with C_per_example)",
		func(p SubgradientParams, n int) OnlineSettings {
			s := p.settings()
			s.Lambda = 1 / (p.PerExample(n) * float64(n))
			return s
		})
}
