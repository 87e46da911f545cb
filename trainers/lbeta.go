package trainers

import (
	"context"
	"fmt"
)

// EntropyMarginName is the name in configs and results of Pletscher, Ong &
// Buhmann's (2010) entropy-and-margin trainer, which minimises their loss
// l_β with CRF's L-BFGS (see LogLinear and SlackLogLinear).
const EntropyMarginName = "entropy-margin"

// EntropyMarginParams are the entropy-margin trainer's params. C weighs
// l_β: min ½‖w‖² + C Σ_i ℓ_β,i(w) (C/n with C_per_example), the SSVM's
// scaling, so that as β → ∞ the objective tends to the margin-scaled
// SSVM's at the same C.
type EntropyMarginParams struct {
	TradeOff
	Beta          float64  `param:"beta,required,hyper" range:"(0,)" help:"inverse temperature β > 0 (β → ∞: the SSVM; β = 1 without loss: the CRF)"`
	LossScale     *float64 `param:"loss_scale,hyper" range:"[0,)" help:"weight of the loss Δ in the exponent"`
	Rescaling     string   `param:"rescaling,hyper" help:"margin (their eq. 9) or slack (section 3.3, needs a slack-rescaled partition function)"`
	MaxIterations int      `param:"max_iterations" range:"[1,)" help:"cap on L-BFGS major iterations"`
	Predict       string   `param:"predict,hyper" help:"prediction rule of the trained model (training ignores it): map (unset: the highest-scoring labeling), mpm (maximum posterior marginals under the model's P_β(y|x) ∝ exp(β·w·f(x, y)), without Δ) or mpm-beta1 (under P(y|x) ∝ exp(w·f(x, y)), section 8.2's formula; Pletscher et al. section 8.2)"`
}

// Resolved fills the defaults: loss scale 1, margin rescaling and CRF's
// iteration cap. β has none.
func (p EntropyMarginParams) Resolved() EntropyMarginParams {
	s := CRFSettings{MaxIterations: p.MaxIterations, Rescaling: p.Rescaling}.Resolved()
	p.MaxIterations, p.Rescaling = s.MaxIterations, s.Rescaling
	p.Predict = resolvedPredict(p.Predict)
	if p.LossScale == nil {
		one := 1.0
		p.LossScale = &one
	}
	return p
}

// Validate checks resolved params (their ranges are the fields' tags).
func (p EntropyMarginParams) Validate() error {
	if p.Rescaling != Margin && p.Rescaling != Slack {
		return &ParamError{Key: "rescaling", Msg: fmt.Sprintf("must be %s or %s, got %q", Margin, Slack, p.Rescaling)}
	}
	return validatePredict(p.Predict)
}

func entropyMarginTrainer[Y any]() Trainer[Y] {
	return entry[Y, EntropyMarginParams]{
		name:    EntropyMarginName,
		summary: "Pletscher et al.'s (2010) entropy-and-margin loss l_β, L-BFGS",
		c:       "weighs l_β: min ½‖w‖² + C Σ_i ℓ_β,i(w) (C/n with C_per_example)",
		check: func(m Model[Y], p EntropyMarginParams) error {
			if p.Rescaling == Slack {
				// Pletscher et al. section 3.3: not every model can compute
				// the slack-rescaled partition function.
				if _, ok := m.(SlackLogLinear[Y]); !ok {
					return fmt.Errorf("trainer %q with slack rescaling needs the slack-rescaled partition function, which this task does not provide", EntropyMarginName)
				}
			} else if err := needs[LogLinear[Y]](EntropyMarginName, "a log partition function and marginals", m); err != nil {
				return err
			}
			return checkPredict(EntropyMarginName, p.Predict, m)
		},
		train: func(ctx context.Context, m Model[Y], p EntropyMarginParams, o options) (*Result, error) {
			s := CRFSettings{Beta: p.Beta, Rescaling: p.Rescaling, C: p.PerExample(m.Len()), MaxIterations: p.MaxIterations, Checkpoint: o.checkpoint}
			if p.LossScale != nil {
				s.LossScale = *p.LossScale
			}
			return CRF(ctx, m, s)
		},
	}
}
