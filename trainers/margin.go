package trainers

import (
	"context"
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// Margin is margin scaling (Taskar et al. 2003; Tsochantaridis et al. 2004,
// margin rescaling): one slack per instance i and constraints
//
//	w·δf_i(y) ≥ L_i(y) − ξ_i   for all y,
//
// separated by loss-augmented decoding; with VariantParams, Δ may be the
// zero-one loss and the slacks' penalty quadratic (SVM_2, with √L_i(y) in
// place of L_i(y)). Params: MarginParams.
const Margin = "margin"

// MarginParams are the params of the margin trainer: those of every
// cutting-plane trainer and the loss and slack variants.
type MarginParams struct {
	CuttingPlaneParams
	VariantParams
}

// Resolved fills the cutting-plane defaults and writes the variants'
// defaults as unset.
func (p MarginParams) Resolved() MarginParams {
	p.CuttingPlaneParams = p.CuttingPlaneParams.Resolved()
	p.VariantParams = p.VariantParams.resolved()
	return p
}

// Validate checks resolved params.
func (p MarginParams) Validate() error {
	if err := p.CuttingPlaneParams.Validate(); err != nil {
		return err
	}
	return p.VariantParams.validate()
}

func marginTrainer[Y any]() Trainer[Y] {
	return cuttingPlane[Y]{
		separator: newMarginSeparator[Y],
		Trainer: entry[Y, MarginParams]{
			name:    Margin,
			summary: "margin-scaled structural SVM, cutting plane over loss-augmented decoding",
			c:       "weighs the instances' slacks: min ½‖w‖² + C Σ_i ξ_i, or (C/2) Σ_i ξ_i² with slack_penalty: quadratic (C/n with C_per_example)",
			check: func(m Model[Y], p MarginParams) error {
				if err := p.VariantParams.validate(); err != nil {
					return fmt.Errorf("trainer %q: %w", Margin, err)
				}
				if _, err := newMarginSeparatorFor(m, p.VariantParams); err != nil {
					return err
				}
				return checkThreads(Margin, m, p.Threads)
			},
			train: func(ctx context.Context, m Model[Y], p MarginParams, o options) (*Result, error) {
				s := p.settings(m.Len())
				s.SlackPenalty = p.SlackPenalty
				s.Checkpoint = o.checkpoint
				oracle, err := newMarginSeparatorFor(m, p.VariantParams)
				if err != nil {
					return nil, err
				}
				return CuttingPlane(ctx, m.Len(), m.Dim(), oracle, s)
			},
		},
	}
}

// newMarginSeparatorFor is margin scaling's oracle for the variant v.
func newMarginSeparatorFor[Y any](m Model[Y], v VariantParams) (Separator, error) {
	switch {
	case v.zeroOne():
		return newZeroOneSeparator(Margin, m)
	case v.quadratic():
		return newRootMarginSeparator(m)
	}
	return newMarginSeparator(m, 0)
}

func newMarginSeparator[Y any](m Model[Y], _ float64) (Separator, error) {
	if err := needs[LossAugmentedDecoder[Y]](Margin, "loss-augmented decoding", m); err != nil {
		return nil, err
	}
	return &marginSeparator[Y]{m: m, d: m.(LossAugmentedDecoder[Y])}, nil
}

// marginSeparator: ŷ = argmax_y s_i(y) + L_i(y), i.e. the maximiser of
// H(y) = L_i(y) − w·δf_i(y).
type marginSeparator[Y any] struct {
	m Model[Y]
	d LossAugmentedDecoder[Y]
}

func (s *marginSeparator[Y]) Groups() int { return s.m.Len() }

// fork is the same oracle over a fork of the model (see forkable).
func (s *marginSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	return newMarginSeparator(m, 0)
}

func (s *marginSeparator[Y]) Separate(i int, w []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	y := s.d.LossAugmented(i, w, 1)
	loss := s.m.Loss(i, y)
	if loss == 0 {
		// Usually the truth. But a cost with zero entries off its diagonal
		// (a multiclass cost matrix may have them) lets another labeling
		// cost nothing, and its constraint w·δf ≥ 0 is violated when it
		// outscores the truth.
		a := s.m.DeltaFeatures(i, y)
		if a.Len() == 0 || a.Dot(w) >= 0 {
			return dst, nil
		}
		return append(dst, structpred.Constraint{Group: i, A: a, B: 0, Loss: 0}), nil
	}
	return append(dst, structpred.Constraint{Group: i, A: s.m.DeltaFeatures(i, y), B: loss, Loss: loss}), nil
}
