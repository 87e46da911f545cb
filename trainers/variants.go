package trainers

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// The loss and slack variants of Tsochantaridis et al. (2004), options of
// the margin and slack trainers (VariantParams): which loss Δ the
// constraints use, and whether slacks are penalised linearly (SVM_1) or
// quadratically (SVM_2). Every variant keeps the solvers' one constraint
// form w·a_j ≥ b_j − ξ_g(j); docs/svm-variants.md derives each.
const (
	// DeltaTask is the task's own loss L_i(y) (Hamming on chains; the
	// default, also when unset).
	DeltaTask = "task"
	// DeltaZeroOne is Δ(y_i, y) = 1 for every y ≠ y_i: the most violated
	// constraint is then the best wrong labeling, under margin and slack
	// rescaling alike (their constraints coincide), found by a
	// truth-excluding (top-2) decoder.
	DeltaZeroOne = "zero-one"

	// SlackLinear is SVM_1, ½‖w‖² + C Σ ξ_g (the default, also when unset).
	SlackLinear = "linear"
	// SlackQuadratic is SVM_2, ½‖w‖² + (C/2) Σ ξ_g², whose constraints take
	// √Δ where SVM_1's take Δ (the paper's Algorithm 1, step 5).
	SlackQuadratic = "quadratic"
)

// Deltas lists the values VariantParams.Delta accepts.
func Deltas() []string { return []string{DeltaTask, DeltaZeroOne} }

// SlackPenalties lists the values VariantParams.SlackPenalty and
// Settings.SlackPenalty accept.
func SlackPenalties() []string { return []string{SlackLinear, SlackQuadratic} }

// VariantParams are the loss and slack-penalty options of the margin and
// slack trainers. Their defaults (Hamming, linear) are written as unset, so
// that a config that spells them out and one that leaves them out train
// the same and have the same unit keys.
type VariantParams struct {
	Delta        string `param:"delta_loss" help:"the loss Δ in the constraints: task (the task's own loss: Hamming on chains; also when unset) or zero-one (Δ = 1 for any wrong labeling; needs a truth-excluding decoder)"`
	SlackPenalty string `param:"slack_penalty" help:"linear (SVM_1: C Σ ξ; also when unset) or quadratic (SVM_2: (C/2) Σ ξ², with √Δ in the constraints as in the paper's Algorithm 1)"`
}

// resolved writes the defaults as unset.
func (v VariantParams) resolved() VariantParams {
	if v.Delta == DeltaTask {
		v.Delta = ""
	}
	if v.SlackPenalty == SlackLinear {
		v.SlackPenalty = ""
	}
	return v
}

func (v VariantParams) validate() error {
	if v.Delta != "" && !slices.Contains(Deltas(), v.Delta) {
		return &ParamError{Key: "delta_loss", Msg: fmt.Sprintf("unknown loss %q (known: %s)", v.Delta, strings.Join(Deltas(), ", "))}
	}
	if v.SlackPenalty != "" && !slices.Contains(SlackPenalties(), v.SlackPenalty) {
		return &ParamError{Key: "slack_penalty", Msg: fmt.Sprintf("unknown slack penalty %q (known: %s)", v.SlackPenalty, strings.Join(SlackPenalties(), ", "))}
	}
	return nil
}

func (v VariantParams) zeroOne() bool   { return v.Delta == DeltaZeroOne }
func (v VariantParams) quadratic() bool { return v.SlackPenalty == SlackQuadratic }

// zeroOneSeparator is the oracle of Δ = 1 for both rescalings and both
// penalties (√1 = 1): argmax_{y≠y_i} H(y) = 1 − w·δf_i(y) is the best wrong
// labeling, whose constraint is w·δf_i(y) ≥ 1 − ξ_i. Its Loss is the task's
// L_i(y), for SupportLoss.
type zeroOneSeparator[Y any] struct {
	m       Model[Y]
	d       TruthExcludingDecoder[Y]
	trainer string
}

func newZeroOneSeparator[Y any](trainer string, m Model[Y]) (Separator, error) {
	if err := needs[TruthExcludingDecoder[Y]](trainer, "truth-excluding (second-best) decoding for delta_loss: "+DeltaZeroOne, m); err != nil {
		return nil, err
	}
	return &zeroOneSeparator[Y]{m: m, d: m.(TruthExcludingDecoder[Y]), trainer: trainer}, nil
}

func (s *zeroOneSeparator[Y]) Groups() int { return s.m.Len() }

func (s *zeroOneSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	return newZeroOneSeparator(s.trainer, m)
}

func (s *zeroOneSeparator[Y]) Separate(i int, w []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	y, ok := s.d.BestExcluding(i, w, 0)
	if !ok {
		return dst, nil // the truth is the only labeling
	}
	return append(dst, structpred.Constraint{Group: i, A: s.m.DeltaFeatures(i, y), B: 1, Loss: s.m.Loss(i, y)}), nil
}

// rootMarginSeparator is margin rescaling with quadratic slacks (SVM_2^Δm):
// constraints w·δf_i(y) ≥ √L_i(y) − ξ_i, so H(y) = √L_i(y) − w·δf_i(y) is
// no longer linear in the loss and loss-augmented decoding cannot find its
// argmax. Within one loss value H increases with the score, so scanning
// the best labeling of every loss value (LossCountDecoder) is exact, as for
// slack rescaling.
type rootMarginSeparator[Y any] struct {
	m Model[Y]
	d LossCountDecoder[Y]
}

func newRootMarginSeparator[Y any](m Model[Y]) (Separator, error) {
	if err := needs[LossCountDecoder[Y]](Margin, "exact loss-count decoding for slack_penalty: "+SlackQuadratic+" (√Δ is not linear in the loss)", m); err != nil {
		return nil, err
	}
	if c, ok := m.(interface{ CanCountLoss() error }); ok {
		if err := c.CanCountLoss(); err != nil {
			return nil, fmt.Errorf("trainer %q: %w", Margin, err)
		}
	}
	return &rootMarginSeparator[Y]{m: m, d: m.(LossCountDecoder[Y])}, nil
}

func (s *rootMarginSeparator[Y]) Groups() int { return s.m.Len() }

func (s *rootMarginSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	return newRootMarginSeparator(m)
}

func (s *rootMarginSeparator[Y]) Separate(i int, w []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	defer pinScores(s.m, i, w)()
	ys, scores, err := s.d.BestPerLoss(i, w)
	if err != nil {
		return dst, err
	}
	truth := s.m.Score(i, w, s.m.Truth(i))
	best, bestH, bestLoss := -1, math.Inf(-1), 0.0
	for k := range ys {
		if math.IsInf(scores[k], -1) {
			continue
		}
		loss := s.m.Loss(i, ys[k])
		if loss <= 0 {
			continue
		}
		if h := math.Sqrt(loss) - truth + scores[k]; h > bestH {
			best, bestH, bestLoss = k, h, loss
		}
	}
	if best < 0 {
		return dst, nil
	}
	return append(dst, structpred.Constraint{Group: i, A: s.m.DeltaFeatures(i, ys[best]), B: math.Sqrt(bestLoss), Loss: bestLoss}), nil
}

// augmentedSeparator turns quadratic slacks into a hard margin, the form
// both solvers run SVM_2 in: ½‖w‖² + (C/2) Σ_g ξ_g² subject to w·a_j ≥ b_j −
// ξ_g(j) is ½‖w̃‖² subject to w̃·ã_j ≥ b_j, with w̃ = (w, √C·ξ) and ã_j =
// (a_j, e_g(j)/√C): one extra coordinate dim+g per slack group. Its dual is
// the hard-margin dual with Gram matrix a_j·a_k + δ_g(j)g(k)/C, the
// paper's section 4.1 (δ_ij·n/C with their C/n). The inner separator sees
// w (the first dim coordinates) and the real slacks ξ_g = w̃_{dim+g}/√C +
// the working set's residual, so its proposals and criteria are SVM_2's.
type augmentedSeparator struct {
	inner Separator
	dim   int
	scale float64 // 1/√C
}

func newAugmentedSeparator(inner Separator, dim int, c float64) *augmentedSeparator {
	return &augmentedSeparator{inner: inner, dim: dim, scale: 1 / math.Sqrt(c)}
}

func (s *augmentedSeparator) Groups() int { return s.inner.Groups() }

// Exact is the inner separator's.
func (s *augmentedSeparator) Exact() bool { return isExact(s.inner) }

func (s *augmentedSeparator) fork() (Separator, error) {
	f, ok := s.inner.(forkable)
	if !ok {
		return nil, fmt.Errorf("separator %T cannot be used from several goroutines: threads > 1 needs a separator of this package", s.inner)
	}
	inner, err := f.fork()
	if err != nil {
		return nil, err
	}
	return &augmentedSeparator{inner: inner, dim: s.dim, scale: s.scale}, nil
}

func (s *augmentedSeparator) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	real := func(g int) float64 { return slack(g) + w[s.dim+g]*s.scale }
	n := len(dst)
	dst, err := s.inner.Separate(i, w[:s.dim], real, dst)
	if err != nil {
		return dst, err
	}
	for k := n; k < len(dst); k++ {
		a := dst[k].A
		// Fresh storage: the inner separator may share a vector between
		// proposals of different groups.
		a.Idx = append(a.Idx[:len(a.Idx):len(a.Idx)], int32(s.dim+dst[k].Group))
		a.Val = append(a.Val[:len(a.Val):len(a.Val)], s.scale)
		dst[k].A = a
	}
	return dst, nil
}

// quadSlack is what a solver needs to know of an SVM_2 run beyond the
// augmented problem it solves: the model's dimension (w̃'s first dim
// coordinates are w), the C of the objective, and the exact separator over
// the real constraints that certifies the final primal.
type quadSlack struct {
	dim       int
	c         float64
	certifier Separator
}

// model returns the model's weights w, the first dim coordinates of w̃
// (w itself when q is nil: a linear-slack run).
func (q *quadSlack) model(w []float64) []float64 {
	if q == nil {
		return w
	}
	return w[:q.dim:q.dim]
}

// primal returns SVM_2's objective ½‖w‖² + (C/2) Σ_g ξ_g² for real slacks
// xi.
func (q *quadSlack) primal(w []float64, xi []float64) float64 {
	var sq float64
	for _, x := range xi {
		sq += x * x
	}
	return 0.5*dot(w[:q.dim], w[:q.dim]) + 0.5*q.c*sq
}
