package multiclass

import "math"

// The model serves CRF and entropy-margin training, margin- and
// slack-rescaled (trainers.LogLinear and trainers.SlackLogLinear; asserted
// in capabilities_test.go). With K classes both partition functions are
// sums of K terms, so they are exact for any costs.

// LogLoss returns Pletscher et al.'s margin-rescaled loss of instance i,
//
//	(1/β) log Σ_y exp(β(s_i(y) + lossScale·Δ(y_i, y))) − s_i(y_i),
//
// and, if grad is non-nil, adds its gradient Σ_y p(y) f(x_i, y) − f(x_i, y_i)
// into grad, p(y) ∝ exp(β(s_i(y) + lossScale·Δ(y_i, y))): p(y)·x_i into
// every class's block and −x_i into the truth's. At β = 1, lossScale = 0 it
// is multinomial logistic regression's negative log-likelihood. β must be
// positive.
func (m *Model) LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	truth := s[x.Label]
	for y := range s { // s becomes the exponents β(s(y) + lossScale·Δ(y))
		s[y] = beta * (s[y] + lossScale*cost[y])
	}
	logZ := normalize(s)
	if grad != nil {
		m.addWeighted(x, s, 1, grad)
	}
	return logZ/beta - truth
}

// SlackLogLoss returns the slack-rescaled loss of Pletscher et al., section
// 3.3, with Δ = lossScale·Δ(y_i, ·),
//
//	(1/β) log Σ_y exp(β·Δ(y)·(1 + s_i(y) − s_i(y_i))),
//
// and, if grad is non-nil, adds its gradient Σ_y p(y)·Δ(y)·(f(x_i, y) −
// f(x_i, y_i)) into grad. The error is always nil: the sum has K terms.
func (m *Model) SlackLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) (float64, error) {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	truth := s[x.Label]
	for y := range s {
		s[y] = beta * lossScale * cost[y] * (1 + s[y] - truth)
	}
	logZ := normalize(s)
	if grad != nil {
		var weight float64 // Σ_y p(y)·Δ(y), the weight of f(x_i, y_i)
		for y, p := range s {
			s[y] = p * lossScale * cost[y]
			weight += s[y]
		}
		m.addWeighted(x, s, weight, grad)
	}
	return logZ / beta, nil
}

// normalize turns the exponents a into probabilities exp(a_y − log Z) in
// place and returns log Z = log Σ_y exp(a_y).
func normalize(a []float64) float64 {
	top := math.Inf(-1)
	for _, v := range a {
		top = max(top, v)
	}
	var z float64
	for y, v := range a {
		a[y] = math.Exp(v - top)
		z += a[y]
	}
	for y := range a {
		a[y] /= z
	}
	return top + math.Log(z)
}

// addWeighted adds Σ_y c[y]·f(x, y) − truthWeight·f(x, y_x) into grad.
func (m *Model) addWeighted(x Instance, c []float64, truthWeight float64, grad []float64) {
	if m.emb != nil {
		m.embAddWeighted(x, c, truthWeight, grad)
		return
	}
	for y, cy := range c {
		if y == x.Label {
			cy -= truthWeight
		}
		if cy == 0 {
			continue
		}
		x.X.AddTo(grad[y*m.dim:(y+1)*m.dim], cy)
	}
}
