package trainers

import (
	"fmt"
	"math"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// Cutting-plane trainer names, as used in configs and result files.
const (
	Margin      = "margin"
	Slack       = "slack"
	ApproxSlack = "approx-slack"
	PosLearn    = "poslearn"
)

// CuttingPlaneTrainers lists the trainers served by CuttingPlane.
func CuttingPlaneTrainers() []string { return []string{Margin, Slack, ApproxSlack, PosLearn} }

// NewSeparator returns the separation oracle of a cutting-plane trainer for
// model m, or an error naming the capability m lacks. Call it when a config is
// validated, before any training starts.
func NewSeparator[Y any](trainer string, m Model[Y], epsilon float64) (Separator, error) {
	if epsilon == 0 {
		epsilon = DefaultEpsilon // ApproxSlack's λ_l = ε/L_max needs the real ε
	}
	switch trainer {
	case Margin:
		d, ok := m.(LossAugmentedDecoder[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q needs loss-augmented decoding, which this task does not provide", trainer)
		}
		return &marginSeparator[Y]{m: m, d: d}, nil
	case Slack:
		d, ok := m.(LossCountDecoder[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q needs exact loss-count decoding, which this task does not provide", trainer)
		}
		if c, ok := m.(interface{ CanCountLoss() error }); ok {
			if err := c.CanCountLoss(); err != nil {
				return nil, fmt.Errorf("trainer %q: %w", trainer, err)
			}
		}
		return &slackSeparator[Y]{m: m, d: d}, nil
	case ApproxSlack:
		d, ok := m.(TruthExcludingDecoder[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q needs top-2 loss-augmented decoding, which this task does not provide", trainer)
		}
		return &approxSlackSeparator[Y]{m: m, d: d, epsilon: epsilon}, nil
	case PosLearn:
		d, ok := m.(PositionDecoder[Y])
		if !ok {
			return nil, fmt.Errorf("trainer %q needs per-position violators (max-marginals), which this task does not provide", trainer)
		}
		s := &posLearnSeparator[Y]{m: m, d: d, offset: make([]int, m.Len()+1)}
		for i := range m.Len() {
			s.offset[i+1] = s.offset[i] + d.Positions(i)
		}
		return s, nil
	}
	return nil, fmt.Errorf("unknown cutting-plane trainer %q (known: %v)", trainer, CuttingPlaneTrainers())
}

// slackConstraint builds the slack-scaled constraint L·w·δf ≥ L − ξ_g.
func slackConstraint[Y any](m Model[Y], group, i int, y Y, loss float64) structpred.Constraint {
	return structpred.Constraint{Group: group, A: m.DeltaFeatures(i, y).Scaled(loss), B: loss, Loss: loss}
}

// marginSeparator: ŷ = argmax_y s_i(y) + L_i(y), i.e. the maximiser of
// H(y) = L_i(y) − w·δf_i(y).
type marginSeparator[Y any] struct {
	m Model[Y]
	d LossAugmentedDecoder[Y]
}

func (s *marginSeparator[Y]) Groups() int { return s.m.Len() }

func (s *marginSeparator[Y]) Separate(i int, w []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	y := s.d.LossAugmented(i, w, 1)
	loss := s.m.Loss(i, y)
	if loss == 0 {
		return dst, nil
	}
	return append(dst, structpred.Constraint{Group: i, A: s.m.DeltaFeatures(i, y), B: loss, Loss: loss}), nil
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

// approxSlackSeparator is Sarawagi & Gupta's section 3: golden-section search
// of the convex upper bound F(λ) = max_{y≠y_i} s(y) + λL(y) − 2√(ξλ) over
// [λ_l, λ_u]; of the labelings visited it returns the one maximising
// s(y) − ξ/L(y) (their equation 1).
type approxSlackSeparator[Y any] struct {
	m       Model[Y]
	d       TruthExcludingDecoder[Y]
	epsilon float64
}

// golden is the number of F evaluations inside [λ_l, λ_u]; the bracket
// shrinks by 0.618 per evaluation, so 24 evaluations leave 1e-5 of it.
const golden = 24

func (s *approxSlackSeparator[Y]) Groups() int { return s.m.Len() }

// Exact is false: the λ search can miss the most violated labeling (Claim
// 3.3), so CuttingPlane's true primal needs a Settings.Certifier.
func (s *approxSlackSeparator[Y]) Exact() bool { return false }

func (s *approxSlackSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	xi := slack(i)
	sTruth := s.m.Score(i, w, s.m.Truth(i))
	// L_ε (smallest nonzero loss) and L_max of section 3.1, from the model
	// when it knows them; 1 and 1 otherwise.
	lMin, lMax := 1.0, 1.0
	if b, ok := s.m.(interface {
		LossRange(i int) (min, max float64)
	}); ok {
		lMin, lMax = b.LossRange(i)
	}
	if lMax <= 0 {
		return dst, nil
	}
	type visit struct {
		y            Y
		score, loss  float64
		f, objective float64
	}
	var visited []visit
	eval := func(lambda float64) float64 {
		y, ok := s.d.BestExcluding(i, w, lambda)
		if !ok {
			return math.Inf(1)
		}
		v := visit{y: y, score: s.m.Score(i, w, y), loss: s.m.Loss(i, y)}
		v.f = v.score + lambda*v.loss - 2*math.Sqrt(xi*lambda)
		v.objective = math.Inf(-1)
		if v.loss > 0 {
			v.objective = v.score - xi/v.loss
		}
		visited = append(visited, v)
		return v.f
	}
	// Section 3.1: below λ_l = ε/L_max no labeling better by more than ε can
	// appear. For λ_u we take the larger of the paper's bound (with y_1 the
	// best labeling ≠ y_i) and ξ/L_ε², beyond which F'(λ) = L(y_λ) − √(ξ/λ)
	// is non-negative; a wider bracket only costs evaluations, never
	// correctness, because F is convex.
	lo := s.epsilon / lMax
	if lo <= 0 {
		lo = 1e-6
	}
	if eval(0); len(visited) == 0 {
		return dst, nil // the truth is the only labeling: nothing can violate
	}
	s1 := visited[0].score
	hi := math.Max((s1-sTruth+1-xi/lMax)/lMin, xi/(lMin*lMin))
	hi = math.Max(hi, 2*lo)
	eval(lo)
	eval(hi)
	const phi = 0.6180339887498949
	a, b := lo, hi
	c, d := b-phi*(b-a), a+phi*(b-a)
	fc, fd := eval(c), eval(d)
	for k := 0; k < golden; k++ {
		if fc <= fd {
			b, d, fd = d, c, fc
			c = b - phi*(b-a)
			fc = eval(c)
		} else {
			a, c, fc = c, d, fd
			d = a + phi*(b-a)
			fd = eval(d)
		}
	}
	best := slices.MaxFunc(visited, func(x, y visit) int {
		switch {
		case x.objective < y.objective:
			return -1
		case x.objective > y.objective:
			return 1
		}
		return 0
	})
	if best.loss <= 0 || best.loss*(1-sTruth+best.score) <= 0 {
		return dst, nil
	}
	return append(dst, slackConstraint(s.m, i, i, best.y, best.loss)), nil
}

// posLearnSeparator gives every (instance, position) its own slack group and
// proposes, per position c, the labeling wrong at c that maximises
// L_ic(y_c)·(1 − w·δf_i(y)).
type posLearnSeparator[Y any] struct {
	m      Model[Y]
	d      PositionDecoder[Y]
	offset []int // group of (i, c) is offset[i] + c
	buf    []PositionViolator[Y]
}

func (s *posLearnSeparator[Y]) Groups() int { return s.offset[len(s.offset)-1] }

func (s *posLearnSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	truth := s.m.Score(i, w, s.m.Truth(i))
	s.buf = s.d.PositionViolators(i, w, s.buf[:0])
	for _, v := range s.buf {
		g := s.offset[i] + v.Position
		// Building δf is the costly part: only do it for proposals the solver
		// will keep (violation above the group's slack).
		if v.Loss > 0 && v.Loss*(1-truth+v.Score) > slack(g) {
			dst = append(dst, slackConstraint(s.m, g, i, v.Y, v.Loss))
		}
	}
	return dst, nil
}
