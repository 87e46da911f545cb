package trainers

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// Slack is exact slack scaling (Tsochantaridis et al. 2004, slack
// rescaling): one slack per instance i and constraints
//
//	L_i(y)·w·δf_i(y) ≥ L_i(y) − ξ_i   for all y ≠ y_i,
//
// separated exactly by scanning the best labeling of every loss value
// (LossCountDecoder). Which violated labeling the oracle adds is
// SlackParams.Criterion. With VariantParams, Δ may be the zero-one loss
// (then the constraints are margin scaling's) and the slacks' penalty
// quadratic (SVM_2, with √L_i(y) in place of L_i(y), both in the constraint
// and in the oracle's H). Params: SlackParams.
const Slack = "slack"

// The criteria of the exact slack oracle (SlackParams.Criterion): which
// labeling it proposes for instance i at w, with H(y) = L(y)·(1 − s(y_i) +
// s(y)) the violation of y's constraint before the slack, s(y) = w·f(x_i, y)
// and ξ_i the instance's current slack.
//
// Both are exact over the loss-count table: within one loss value L, H(y),
// s(y) − ξ/L and the test H(y) > ξ + ε all increase with s(y), so the best
// labeling of each loss value dominates every other labeling of that loss
// under either criterion, and scanning one entry per loss value is an exact
// argmax over all labelings. Both propose a constraint violated beyond ξ_i
// + ε whenever one exists, so the n-slack solver stops under both with
// every constraint within ε, the same bound C·G·ε, and they reach the same
// optimum; they differ only in the path (which constraints join the working
// set on the way).
const (
	// CriterionTsochantaridis proposes argmax_{y≠y_i} H(y), the labeling
	// that needs the largest slack (Tsochantaridis et al. 2005's H, also
	// Sarawagi & Gupta's section 4.3.1), whenever H > 0. It is the default,
	// and an unset criterion means it.
	CriterionTsochantaridis = "tsochantaridis"
	// CriterionSarawagiGupta proposes Sarawagi & Gupta's (ICML 2008)
	// equation (1): argmax s(y) − ξ_i/L(y) over the violators, i.e. the
	// labeling whose constraint, divided by its loss (w·δf ≥ 1 − ξ_i/L), is
	// violated the most: (H(y) − ξ_i)/L(y). The violators are the
	// labelings the solver would add, H(y) > ξ_i + ε (the tolerance folded
	// into their set Ȳ, as their proof of Claim 3.3 does): without ε the
	// argmax could be a labeling of small loss violated by less than ε,
	// which the solver rejects while one of larger loss is violated by more,
	// and the run would stop with a constraint violated by up to
	// ε·L_max/L_min. When no labeling is violated beyond ε it proposes the
	// largest violation H if it exceeds ξ_i (the solver does not add it, but
	// it measures the true slack that n-slack's stopping rule needs) and
	// nothing if no labeling is violated at all. Its proposals are not the
	// largest violation, so a certifying pass at slack zero cannot use it:
	// training certifies the final primal with the Tsochantaridis oracle.
	// n-slack only: one-slack passes a cache's bound for ξ_i and sums the
	// proposals into a joint constraint whose stopping test needs each
	// group's largest violation.
	CriterionSarawagiGupta = "sarawagi-gupta"
)

// SlackCriteria lists the values SlackParams.Criterion accepts.
func SlackCriteria() []string {
	return []string{CriterionTsochantaridis, CriterionSarawagiGupta}
}

// SlackParams are the params of the slack trainer: those of every
// cutting-plane trainer and the oracle's criterion.
type SlackParams struct {
	CuttingPlaneParams
	VariantParams
	// Criterion is CriterionTsochantaridis (also when empty) or
	// CriterionSarawagiGupta.
	Criterion string `param:"criterion" help:"which violated labeling the oracle adds: tsochantaridis (argmax L(y)(1 − w·δf(y)); also when unset) or sarawagi-gupta (Sarawagi & Gupta's eq. 1, argmax s(y) − ξ/L(y) over violators; n-slack only)"`
}

// Resolved fills the cutting-plane defaults and writes the default
// criterion as unset, so that a config spelling it out and one leaving it
// out have the same effective settings and unit keys.
func (p SlackParams) Resolved() SlackParams {
	p.CuttingPlaneParams = p.CuttingPlaneParams.Resolved()
	p.VariantParams = p.VariantParams.resolved()
	if p.Criterion == CriterionTsochantaridis {
		p.Criterion = ""
	}
	return p
}

// Validate checks resolved params.
func (p SlackParams) Validate() error {
	if err := p.CuttingPlaneParams.Validate(); err != nil {
		return err
	}
	return p.validateCriterion()
}

// validateCriterion checks the criterion and its solver (also at Check, so
// that a config is refused before anything trains).
func (p SlackParams) validateCriterion() error {
	if err := p.VariantParams.validate(); err != nil {
		return err
	}
	if p.zeroOne() && p.Criterion != "" && p.Criterion != CriterionTsochantaridis {
		return &ParamError{Key: "criterion", Msg: fmt.Sprintf("does not apply with delta_loss: %s (every wrong labeling has Δ = 1, so the oracle is the best wrong labeling)", DeltaZeroOne)}
	}
	switch p.Criterion {
	case "", CriterionTsochantaridis:
		return nil
	case CriterionSarawagiGupta:
		if p.Solver == OneSlack {
			return &ParamError{Key: "criterion", Msg: fmt.Sprintf("%s needs the %s solver (one-slack's stopping test needs every group's largest violation)", CriterionSarawagiGupta, NSlack)}
		}
		return nil
	}
	return &ParamError{Key: "criterion", Msg: fmt.Sprintf("unknown criterion %q (known: %s)", p.Criterion, strings.Join(SlackCriteria(), ", "))}
}

func slackTrainer[Y any]() Trainer[Y] {
	return cuttingPlane[Y]{
		separator: newSlackSeparator[Y],
		Trainer: entry[Y, SlackParams]{
			name:    Slack,
			summary: "slack-scaled structural SVM, cutting plane with the exact loss-count oracle",
			c:       "weighs the instances' slacks: min ½‖w‖² + C Σ_i ξ_i, or (C/2) Σ_i ξ_i² with slack_penalty: quadratic (C/n with C_per_example)",
			check: func(m Model[Y], p SlackParams) error {
				if err := p.validateCriterion(); err != nil {
					return fmt.Errorf("trainer %q: %w", Slack, err)
				}
				if _, err := newSlackVariantSeparator(m, p.Epsilon, p.Criterion, p.VariantParams); err != nil {
					return err
				}
				return checkThreads(Slack, m, p.Threads)
			},
			train: func(ctx context.Context, m Model[Y], p SlackParams, o options) (*Result, error) {
				s := p.settings(m.Len())
				s.SlackPenalty = p.SlackPenalty
				s.Checkpoint = o.checkpoint
				oracle, err := newSlackVariantSeparator(m, s.Epsilon, p.Criterion, p.VariantParams)
				if err != nil {
					return nil, err
				}
				if !isExact(oracle) {
					if s.Certifier, err = newSlackVariantSeparator(m, s.Epsilon, CriterionTsochantaridis, p.VariantParams); err != nil {
						return nil, err
					}
				}
				return CuttingPlane(ctx, m.Len(), m.Dim(), oracle, s)
			},
		},
	}
}

// newSlackSeparator is the exact slack oracle with the default criterion.
func newSlackSeparator[Y any](m Model[Y], epsilon float64) (Separator, error) {
	return newSlackSeparatorFor(m, epsilon, CriterionTsochantaridis)
}

// newSlackVariantSeparator is slack scaling's oracle for the variant v:
// the zero-one oracle for Δ = 1, else the exact slack oracle (with √L_i for
// quadratic slacks).
func newSlackVariantSeparator[Y any](m Model[Y], epsilon float64, criterion string, v VariantParams) (Separator, error) {
	if v.zeroOne() {
		return newZeroOneSeparator(Slack, m)
	}
	sep, err := newSlackSeparatorFor(m, epsilon, criterion)
	if err != nil {
		return nil, err
	}
	sep.(*slackSeparator[Y]).root = v.quadratic()
	return sep, nil
}

// newSlackSeparatorFor is the exact slack oracle with the given criterion
// ("" for the default); epsilon is the solver's ε, which bounds the
// Sarawagi–Gupta violators.
func newSlackSeparatorFor[Y any](m Model[Y], epsilon float64, criterion string) (Separator, error) {
	if err := needs[LossCountDecoder[Y]](Slack, "exact loss-count decoding", m); err != nil {
		return nil, err
	}
	if c, ok := m.(interface{ CanCountLoss() error }); ok {
		if err := c.CanCountLoss(); err != nil {
			return nil, fmt.Errorf("trainer %q: %w", Slack, err)
		}
	}
	if criterion == "" {
		criterion = CriterionTsochantaridis
	}
	if err := (SlackParams{Criterion: criterion}).validateCriterion(); err != nil {
		return nil, fmt.Errorf("trainer %q: %w", Slack, err)
	}
	return &slackSeparator[Y]{m: m, d: m.(LossCountDecoder[Y]), criterion: criterion, epsilon: epsilon}, nil
}

// slackConstraint builds the slack-scaled constraint L·w·δf ≥ L − ξ_g.
func slackConstraint[Y any](m Model[Y], group, i int, y Y, loss float64) structpred.Constraint {
	a := m.DeltaFeatures(i, y) // the caller's own storage: scaled in place
	for k := range a.Val {
		a.Val[k] *= loss
	}
	return structpred.Constraint{Group: group, A: a, B: loss, Loss: loss}
}

// rootSlackConstraint builds SVM_2's slack-scaled constraint √L·w·δf ≥ √L
// − ξ_g, whose Loss is L itself.
func rootSlackConstraint[Y any](m Model[Y], group, i int, y Y, loss float64) structpred.Constraint {
	k := slackConstraint(m, group, i, y, math.Sqrt(loss))
	k.Loss = loss
	return k
}

// slackSeparator is exact slack scaling: it scans the best labeling of
// every loss value and proposes the one its criterion picks (see
// CriterionTsochantaridis and CriterionSarawagiGupta).
type slackSeparator[Y any] struct {
	m         Model[Y]
	d         LossCountDecoder[Y]
	criterion string
	epsilon   float64
	// root puts √L_i(y) in place of L_i(y) (SVM_2, slack_penalty:
	// quadratic): H(y) = √L·(1 − w·δf) and the constraint √L·w·δf ≥ √L − ξ.
	// Within one loss value both criteria still increase with the score,
	// so the scan stays exact.
	root bool
}

func (s *slackSeparator[Y]) Groups() int { return s.m.Len() }

// fork is the same oracle over a fork of the model (see forkable).
func (s *slackSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	f, err := newSlackSeparatorFor(m, s.epsilon, s.criterion)
	if err != nil {
		return nil, err
	}
	f.(*slackSeparator[Y]).root = s.root
	return f, nil
}

// Exact reports whether the proposals are each group's largest violation,
// which the solver's certifying pass needs: true for Tsochantaridis' H,
// false for Sarawagi & Gupta's criterion (training then certifies with H).
func (s *slackSeparator[Y]) Exact() bool { return s.criterion != CriterionSarawagiGupta }

func (s *slackSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	defer pinScores(s.m, i, w)()
	ys, scores, err := s.d.BestPerLoss(i, w)
	if err != nil {
		return dst, err
	}
	truth := s.m.Score(i, w, s.m.Truth(i))
	losses := make([]float64, len(ys))
	for k := range ys {
		if !math.IsInf(scores[k], -1) {
			losses[k] = s.m.Loss(i, ys[k])
			if s.root {
				losses[k] = math.Sqrt(losses[k])
			}
		}
	}
	var best int
	if s.criterion == CriterionSarawagiGupta {
		best = sarawagiGupta(losses, scores, truth, slack(i), s.epsilon)
	} else {
		best = largestViolation(losses, scores, truth, 0)
	}
	if best < 0 {
		return dst, nil
	}
	if s.root {
		return append(dst, rootSlackConstraint(s.m, i, i, ys[best], s.m.Loss(i, ys[best]))), nil
	}
	return append(dst, slackConstraint(s.m, i, i, ys[best], losses[best])), nil
}

// largestViolation returns the index k of the largest H_k = losses[k]·(1 −
// truth + scores[k]) above floor over the entries of positive loss, or −1
// if none exceeds it.
func largestViolation(losses, scores []float64, truth, floor float64) int {
	best, bestH := -1, floor
	for k, loss := range losses {
		if loss <= 0 {
			continue
		}
		if h := loss * (1 - truth + scores[k]); h > bestH {
			best, bestH = k, h
		}
	}
	return best
}

// sarawagiGupta returns the index of Sarawagi & Gupta's eq. (1) argmax of
// scores[k] − xi/losses[k] over the entries violated beyond xi + eps; if
// there is none, that of the largest violation above xi; else −1 (see
// CriterionSarawagiGupta).
func sarawagiGupta(losses, scores []float64, truth, xi, eps float64) int {
	best, bestV := -1, math.Inf(-1)
	for k, loss := range losses {
		if loss <= 0 || loss*(1-truth+scores[k]) <= xi+eps {
			continue
		}
		if v := scores[k] - xi/loss; v > bestV {
			best, bestV = k, v
		}
	}
	if best >= 0 {
		return best
	}
	return largestViolation(losses, scores, truth, xi)
}
