package trainers

import (
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// Slack is exact slack scaling (Tsochantaridis et al. 2004, slack
// rescaling): one slack per instance i and constraints
//
//	L_i(y)·w·δf_i(y) ≥ L_i(y) − ξ_i   for all y ≠ y_i,
//
// separated exactly by scanning the best labeling of every loss value
// (LossCountDecoder). Params: CuttingPlaneParams.
const Slack = "slack"

func slackTrainer[Y any]() Trainer[Y] {
	return cuttingPlaneTrainer(Slack,
		"slack-scaled structural SVM, cutting plane with the exact loss-count oracle",
		"weighs the instances' slacks: min ½‖w‖² + C Σ_i ξ_i (C/n with C_per_example)",
		newSlackSeparator[Y], false)
}

func newSlackSeparator[Y any](m Model[Y], _ float64) (Separator, error) {
	if err := needs[LossCountDecoder[Y]](Slack, "exact loss-count decoding", m); err != nil {
		return nil, err
	}
	if c, ok := m.(interface{ CanCountLoss() error }); ok {
		if err := c.CanCountLoss(); err != nil {
			return nil, fmt.Errorf("trainer %q: %w", Slack, err)
		}
	}
	return &slackSeparator[Y]{m: m, d: m.(LossCountDecoder[Y])}, nil
}

// slackConstraint builds the slack-scaled constraint L·w·δf ≥ L − ξ_g.
func slackConstraint[Y any](m Model[Y], group, i int, y Y, loss float64) structpred.Constraint {
	return structpred.Constraint{Group: group, A: m.DeltaFeatures(i, y).Scaled(loss), B: loss, Loss: loss}
}

// slackSeparator is exact slack scaling: ŷ = argmax_{y≠y_i} L_i(y)·(1 −
// w·δf_i(y)), found by scanning the best labeling of every loss value.
type slackSeparator[Y any] struct {
	m Model[Y]
	d LossCountDecoder[Y]
}

func (s *slackSeparator[Y]) Groups() int { return s.m.Len() }

func (s *slackSeparator[Y]) Separate(i int, w []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	ys, scores, err := s.d.BestPerLoss(i, w)
	if err != nil {
		return dst, err
	}
	truth := s.m.Score(i, w, s.m.Truth(i))
	best, bestH, bestLoss := -1, 0.0, 0.0
	for k := range ys {
		if math.IsInf(scores[k], -1) {
			continue
		}
		loss := s.m.Loss(i, ys[k])
		if loss <= 0 {
			continue
		}
		if h := loss * (1 - truth + scores[k]); h > bestH {
			best, bestH, bestLoss = k, h, loss
		}
	}
	if best < 0 {
		return dst, nil
	}
	return append(dst, slackConstraint(s.m, i, i, ys[best], bestLoss)), nil
}
