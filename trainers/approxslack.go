package trainers

import (
	"math"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// ApproxSlack is Sarawagi & Gupta's (ICML 2008) approximate slack scaling:
// the slack-scaling constraints of Slack, separated by a golden-section
// search over λ of a top-2 loss-augmented decoder (TruthExcludingDecoder),
// which needs only margin-style inference. Its oracle cannot certify its own
// slacks, so training certifies the final primal with the exact slack
// oracle where the model can count losses (Settings.Certifier). Params:
// CuttingPlaneParams; ε also sets the search's λ_l = ε/L_max.
const ApproxSlack = "approx-slack"

func approxSlackTrainer[Y any]() Trainer[Y] {
	return cuttingPlaneTrainer(ApproxSlack,
		"slack-scaled structural SVM with Sarawagi & Gupta's approximate oracle (golden-section search over λ)",
		"weighs the instances' slacks: min ½‖w‖² + C Σ_i ξ_i (C/n with C_per_example), as for slack",
		newApproxSlackSeparator[Y], true)
}

func newApproxSlackSeparator[Y any](m Model[Y], epsilon float64) (Separator, error) {
	if err := needs[TruthExcludingDecoder[Y]](ApproxSlack, "top-2 loss-augmented decoding", m); err != nil {
		return nil, err
	}
	return &approxSlackSeparator[Y]{m: m, d: m.(TruthExcludingDecoder[Y]), epsilon: epsilon}, nil
}

// approxSlackSeparator is Sarawagi & Gupta's section 3: golden-section search
// of the convex upper bound F(λ) = max_{y≠y_i} s(y) + λL(y) − 2√(ξλ) over
// [λ_l, λ_u]; of the labelings visited it returns the one maximising
// s(y) − ξ/L(y) (their equation 1).
type approxSlackSeparator[Y any] struct {
	m       Model[Y]
	d       TruthExcludingDecoder[Y]
	epsilon float64
	// decodeEvery decodes at every λ, even where the envelope is known:
	// the reference the skipping is tested against.
	decodeEvery bool
	// points is Separate's record of the λs it evaluated, kept between
	// calls so that the oracle's hot path does not allocate it anew.
	points []lambdaPoint
}

// lambdaPoint is a λ the search evaluated and the index of the visit
// decoded or known there.
type lambdaPoint struct {
	lambda float64
	v      int
}

// golden is the number of F evaluations inside [λ_l, λ_u]; the bracket
// shrinks by 0.618 per evaluation, so 24 evaluations leave 1e-5 of it.
const golden = 24

func (s *approxSlackSeparator[Y]) Groups() int { return s.m.Len() }

// fork is the same oracle over a fork of the model (see forkable).
func (s *approxSlackSeparator[Y]) fork() (Separator, error) {
	m, err := forkModel(s.m)
	if err != nil {
		return nil, err
	}
	return newApproxSlackSeparator(m, s.epsilon)
}

// Exact is false: the λ search can miss the most violated labeling (Claim
// 3.3), so CuttingPlane's true primal needs a Settings.Certifier.
func (s *approxSlackSeparator[Y]) Exact() bool { return false }

func (s *approxSlackSeparator[Y]) Separate(i int, w []float64, slack func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	defer pinScores(s.m, i, w)()
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
	// points are the λs evaluated so far. F's first term is the upper envelope of the lines s(y) + λL(y),
	// so where the evaluated λs on both sides of a new λ share one line, the
	// envelope there is that line: the decoder could only return a labeling
	// on it, whose F and objective are those already visited. Such a λ is
	// evaluated without decoding, which leaves the search's path and its
	// answer as they were, but for ties: of two labelings on one line the
	// decoder's rounding picks one at each λ, and a skipped λ may miss the
	// other.
	points := s.points[:0]
	defer func() { s.points = points }()
	eval := func(lambda float64) float64 {
		below, above := -1, -1
		for k, p := range points {
			if p.lambda <= lambda && (below < 0 || p.lambda > points[below].lambda) {
				below = k
			}
			if p.lambda >= lambda && (above < 0 || p.lambda < points[above].lambda) {
				above = k
			}
		}
		if below >= 0 && above >= 0 && !s.decodeEvery {
			vb, va := visited[points[below].v], visited[points[above].v]
			if vb.score == va.score && vb.loss == va.loss {
				points = append(points, lambdaPoint{lambda, points[below].v})
				return vb.score + lambda*vb.loss - 2*math.Sqrt(xi*lambda)
			}
		}
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
		points = append(points, lambdaPoint{lambda, len(visited)})
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
