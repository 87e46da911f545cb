package chain

import (
	"fmt"
	"math"

	"github.com/maxmargin/repro/decoders"
	"gonum.org/v1/gonum/floats"
)

// The chain model serves CRF and entropy-margin training (trainers.LogLinear;
// asserted in capabilities_test.go).

// LogLoss returns Pletscher et al.'s margin-rescaled loss of instance i,
//
//	(1/β) log Σ_y exp(β(s_i(y) + lossScale·L_i(y))) − s_i(y_i),
//
// and, if grad is non-nil, adds its gradient E_p[f(x_i, y)] − f(x_i, y_i)
// into grad, where p(y) ∝ exp(β(s_i(y) + lossScale·L_i(y))). Because the
// loss decomposes over positions, p is itself a chain, with unary scores
// β·(unary_t(y) + lossScale·M[y_i,t·K + y]) and transition scores β·trans; one
// forward-backward pass gives log Z and the node and edge marginals, from
// which the expected state features (P(y_t = y) for every attribute of token
// t) and transition features (Σ_t P(y_{t−1} = a, y_t = b)) follow. β must be
// positive.
func (m *Model) LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	return m.logLoss(m.data[i], w, beta, lossScale, grad, m.pairs)
}

// logLoss is LogLoss of instance x with w and grad laid out for the pairs
// p (nil: every attribute–label pair).
func (m *Model) logLoss(x Instance, w []float64, beta, lossScale float64, grad []float64, p *Pairs) float64 {
	k := m.k
	c := m.scoresIn(x, w, p)
	truth := c.Score(x.Labels)
	if beta != 1 || lossScale != 0 {
		for t, g := range x.Labels {
			row, cost := c.Unary[t*k:(t+1)*k], m.cost.M[g*k:(g+1)*k]
			for y := range row {
				row[y] = beta * (row[y] + lossScale*cost[y])
			}
		}
	}
	m.temperTrans(c, beta)
	mg := decoders.ForwardBackwardTo(&m.marg, c, &m.ws)
	if grad != nil {
		m.addExpectedMinusTruth(x, mg, grad, p)
	}
	return mg.LogZ/beta - truth
}

// temperTrans scales c's transition scores by β (unless β is 1). c.Trans
// aliases w, so the scaled table is a copy (scores resets c.Trans every
// call).
func (m *Model) temperTrans(c *decoders.Chain, beta float64) {
	if len(c.Trans) == 0 || beta == 1 {
		return
	}
	scaled := grow(m.transBuf, m.k*m.k)
	for j, v := range c.Trans {
		scaled[j] = beta * v
	}
	m.transBuf, c.Trans = scaled, scaled
}

// PredictMPM returns the labeling of maximum posterior marginals of x (x
// need not be a training instance) under the model's Gibbs distribution at
// inverse temperature β, P_β(y) ∝ exp(β·w·f(x, y)): each token's most
// probable label, the lowest among ties (decoders.MPM; Pletscher et al.,
// section 8.2). For a CRF β is 1; an entropy-margin model's β is the one it
// was trained at, without the error term, which needs the truth. β must be
// positive.
func (m *Model) PredictMPM(x Instance, w []float64, beta float64) []int {
	c := m.scores(x, w)
	if beta != 1 {
		for j := range c.Unary {
			c.Unary[j] *= beta
		}
	}
	m.temperTrans(c, beta)
	return decoders.MPM(c, &m.ws)
}

// PosteriorModes is PredictMPM for training instance i
// (trainers.PosteriorModer).
func (m *Model) PosteriorModes(i int, w []float64, beta float64) []int {
	return m.PredictMPM(m.data[i], w, beta)
}

// addExpectedMinusTruth adds E[f] − f(x, y) into grad, with E[f] read off the
// node and edge marginals mg (expectations of the indicator features). Token
// t contributes d_t = P(y_t = ·) − e_{y_t} to the K weights of each of its
// attributes, so d_t is formed once and added as one contiguous K-wide row
// per attribute.
func (m *Model) addExpectedMinusTruth(x Instance, mg *decoders.Marginals, grad []float64, p *Pairs) {
	k := m.k
	d := grow(m.rowBuf, k)
	m.rowBuf = d
	for t, attrs := range x.Attrs {
		copy(d, mg.Node[t*k:(t+1)*k])
		d[x.Labels[t]]--
		vals := x.values(t)
		if p != nil && m.pairIdx != nil && m.pairIdx.gradient(grad, attrs, vals, d) {
			continue
		}
		if p == nil && addRows(grad, attrs, vals, d, m.attrs) {
			continue // the loop below in one call, bit for bit
		}
		for j, a := range attrs {
			if int(a) >= m.attrs {
				continue // as in scores: ids outside the index carry no weight
			}
			if p != nil {
				m.addPairs(grad, a, d, vals, j)
				continue
			}
			if vals == nil {
				// SIMD, and each element rounds as the scalar += does.
				floats.Add(grad[int(a)*k:int(a)*k+k], d)
				continue
			}
			s, row := vals[j], grad[int(a)*k:int(a)*k+k]
			for y, v := range d {
				row[y] += s * v
			}
		}
	}
	if !m.edges {
		return
	}
	base := transBase(p, m.attrs, k)
	trans := grad[base : base+k*k]
	addTo(trans, mg.Edge)
	for t := 1; t < len(x.Labels); t++ {
		trans[x.Labels[t-1]*k+x.Labels[t]]--
	}
}

// addPairs adds d[y], scaled by vals[j] unless vals is nil, into grad's
// weight of every pair (a, y) the model has.
func (m *Model) addPairs(grad []float64, a int32, d, vals []float64, j int) {
	lo, hi := m.pairs.Start[a], m.pairs.Start[a+1]
	labels, g := m.pairs.Label[lo:hi], grad[lo:hi]
	g = g[:len(labels)]
	if vals == nil {
		for q, y := range labels {
			g[q] += d[y]
		}
		return
	}
	s := vals[j]
	for q, y := range labels {
		g[q] += s * d[y]
	}
}

// addTo adds src into dst element-wise; len(dst) must be at least len(src).
func addTo(dst, src []float64) {
	dst = dst[:len(src)]
	for j, v := range src {
		dst[j] += v
	}
}

// The chain model also serves the slack-rescaled variant, for integer costs.

// SlackLogLoss returns the slack-rescaled loss of Pletscher et al., section
// 3.3, with Δ = lossScale·L_i,
//
//	(1/β) log Σ_y exp(β·Δ(y)·(1 + s_i(y) − s_i(y_i))),
//
// and, if grad is non-nil, adds its gradient Σ_y p(y)·Δ(y)·(f(x_i, y) −
// f(x_i, y_i)) into grad. The exponent is a product of two sums over
// positions, so p is not a chain; but grouping labelings by their loss l
// makes every group one: with τ_l = β·lossScale·l,
//
//	Σ_y … = Σ_l exp(τ_l·(1 − s_i(y_i))) · Z_l,   Z_l = Σ_{y: L(y) = l} exp(τ_l·s_i(y)),
//
// and Z_l and the marginals of its group come from forward-backward over
// (position, label, loss so far), like the loss-count decoder. That needs
// integer per-position costs (else an error is returned) and costs
// O(N·K²·L_max²) per call, against O(N·K²) for LogLoss.
func (m *Model) SlackLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) (float64, error) {
	if err := m.CanCountLoss(); err != nil {
		return 0, fmt.Errorf("slack-rescaled log loss: %w", err)
	}
	x, k := m.data[i], m.k
	n := len(x.Labels)
	if n == 0 {
		return 0, nil
	}
	c := m.scores(x, w)
	truth := c.Score(x.Labels)
	dp := slackDP{n: n, k: k, unary: c.Unary, trans: c.Trans, inc: make([]int, n*k),
		remain: make([]int, n), upto: make([]int, n)}
	if len(dp.trans) == 0 {
		dp.trans = make([]float64, k*k)
	}
	for t, g := range x.Labels {
		most := 0
		for y := range k {
			dp.inc[t*k+y] = int(m.cost.M[g*k+y])
			most = max(most, dp.inc[t*k+y])
		}
		dp.upto[t] = most
		if t > 0 {
			dp.upto[t] += dp.upto[t-1]
		}
	}
	for t := n - 2; t >= 0; t-- {
		dp.remain[t] = dp.remain[t+1] + dp.upto[t+1] - dp.upto[t]
	}
	lmax := int(m.cost.MaxLoss(x.Labels))
	// Each loss level l is a chain at temperature τ_l, summed in exp space
	// where its range allows (slackscaled.go; m.forceLogSlack: tests), else
	// in log space.
	r := dp.scoreRange()
	sc := &m.slack
	scaled := func(tau float64) bool { return !m.forceLogSlack && scaledSlackOK(tau, r, k) }
	logZ := func(tau float64, l int) float64 {
		if scaled(tau) {
			sc.prepare(&dp, tau)
			return sc.forward(&dp, l)
		}
		if dp.alpha == nil {
			dp.alpha = make([]float64, n*k*(lmax+1))
			dp.beta = make([]float64, n*k*(lmax+1))
		}
		return dp.forward(tau, l)
	}
	// One pass over the loss levels: each level's forward sum gives its
	// term of the total, and, for the gradient, its backward sums and
	// marginals, weighted by exp(term − top) for the largest term so far
	// (the accumulators are rescaled when it grows) and by exp(top − total)
	// at the end. A level whose weight is below e^−50 of the largest is
	// left out of the gradient: its part is below rounding.
	terms := make([]float64, lmax+1)
	var node, edge []float64
	if grad != nil {
		node, edge = make([]float64, n*k), make([]float64, k*k)
	}
	top := math.Inf(-1)
	var weight float64 // Σ_l exp(term_l − top)·Δ_l, the weight of f(x_i, y_i)
	for l := range terms {
		delta := lossScale * float64(l)
		tau := beta * delta
		z := logZ(tau, l)
		terms[l] = tau*(1-truth) + z
		if grad == nil || delta == 0 || math.IsInf(z, -1) {
			continue
		}
		if terms[l] > top {
			r := math.Exp(top - terms[l]) // 0 while top is −Inf
			floats.Scale(r, node)
			floats.Scale(r, edge)
			weight *= r
			top = terms[l]
		}
		if terms[l]-top < -50 {
			continue
		}
		wl := math.Exp(terms[l]-top) * delta
		if scaled(tau) {
			sc.backward(&dp, l)
			sc.marginals(&dp, l, z, wl, node, edge)
		} else {
			dp.backward(tau, l)
			dp.marginals(tau, l, z, wl, node, edge)
		}
		weight += wl
	}
	total := logSumExp(terms)
	if grad == nil {
		return total / beta, nil
	}
	if weight > 0 {
		r := math.Exp(top - total)
		floats.Scale(r, node)
		floats.Scale(r, edge)
		weight *= r
	}
	m.addWeightedMinusTruth(x, node, edge, weight, grad)
	return total / beta, nil
}

// addWeightedMinusTruth adds Σ node/edge expectations − weight·f(x, y) into
// grad: node[t*K+y] weighs the state features of token t with label y, and
// edge[a*K+b] the transition a→b.
func (m *Model) addWeightedMinusTruth(x Instance, node, edge []float64, weight float64, grad []float64) {
	k := m.k
	for t, attrs := range x.Attrs {
		p, g := node[t*k:(t+1)*k], x.Labels[t]
		vals := x.values(t)
		for j, a := range attrs {
			if int(a) >= m.attrs {
				continue
			}
			if m.pairs != nil {
				m.addWeightedPairs(grad, a, p, g, weight, vals, j)
				continue
			}
			row := grad[int(a)*k : int(a)*k+k]
			if vals == nil {
				for y, v := range p {
					row[y] += v
				}
				row[g] -= weight
				continue
			}
			s := vals[j]
			for y, v := range p {
				row[y] += s * v
			}
			row[g] -= s * weight
		}
	}
	if !m.edges {
		return
	}
	base := m.transBase()
	trans := grad[base : base+k*k]
	for j, v := range edge {
		trans[j] += v
	}
	for t := 1; t < len(x.Labels); t++ {
		trans[x.Labels[t-1]*k+x.Labels[t]] -= weight
	}
}

// addWeightedPairs is addWeightedMinusTruth's term of attribute a at a
// token with label g and node weights p, over the pairs the model has.
func (m *Model) addWeightedPairs(grad []float64, a int32, p []float64, g int, weight float64, vals []float64, j int) {
	s := 1.0
	if vals != nil {
		s = vals[j]
	}
	pr := m.pairs
	for q := pr.Start[a]; q < pr.Start[a+1]; q++ {
		y := int(pr.Label[q])
		v := s * p[y]
		if y == g {
			v -= s * weight
		}
		grad[q] += v
	}
}

// slackDP is sum-product over (position t, label y, loss so far c) for the
// labelings with total loss exactly l, under scores scaled by τ. Entries are
// logs; index ((t·K + y)·(l+1) + c).
type slackDP struct {
	n, k         int
	unary, trans []float64
	inc          []int // inc[t*K+y]: the loss of label y at position t
	// upto[t] and remain[t] bound the loss of positions 0..t and of
	// positions after t.
	upto, remain []int
	alpha, beta  []float64
}

func (d *slackDP) at(t, y, c, l int) int { return (t*d.k+y)*(l+1) + c }

// forward fills alpha for loss l and returns log Z_l (−Inf if no labeling
// has loss l).
func (d *slackDP) forward(tau float64, l int) float64 {
	n, k := d.n, d.k
	a := d.alpha[:n*k*(l+1)]
	for i := range a {
		a[i] = math.Inf(-1)
	}
	for y := range k {
		if c := d.inc[y]; c <= l {
			a[d.at(0, y, c, l)] = tau * d.unary[y]
		}
	}
	buf := make([]float64, k)
	for t := 1; t < n; t++ {
		for y := range k {
			step := d.inc[t*k+y]
			for c := step; c <= l; c++ {
				for p := range k {
					buf[p] = a[d.at(t-1, p, c-step, l)] + tau*d.trans[p*k+y]
				}
				a[d.at(t, y, c, l)] = tau*d.unary[t*k+y] + logSumExp(buf)
			}
		}
	}
	for y := range k {
		buf[y] = a[d.at(n-1, y, l, l)]
	}
	return logSumExp(buf)
}

// backward fills beta for loss l: beta(t, y, c) is the log-sum over the
// suffixes after t that bring the loss from c to exactly l.
func (d *slackDP) backward(tau float64, l int) {
	n, k := d.n, d.k
	b := d.beta[:n*k*(l+1)]
	for i := range b {
		b[i] = math.Inf(-1)
	}
	for y := range k {
		b[d.at(n-1, y, l, l)] = 0
	}
	buf := make([]float64, k)
	for t := n - 2; t >= 0; t-- {
		for y := range k {
			for c := 0; c <= l; c++ {
				for q := range k {
					buf[q] = math.Inf(-1)
					if c2 := c + d.inc[(t+1)*k+q]; c2 <= l {
						buf[q] = tau*d.trans[y*k+q] + tau*d.unary[(t+1)*k+q] + b[d.at(t+1, q, c2, l)]
					}
				}
				b[d.at(t, y, c, l)] = logSumExp(buf)
			}
		}
	}
}

// marginals adds weight·P_l(y_t = y) into node and weight·Σ_t P_l(y_{t−1} =
// a, y_t = b) into edge, for the distribution ∝ exp(τ·s(y)) over labelings
// with loss l.
func (d *slackDP) marginals(tau float64, l int, logZ, weight float64, node, edge []float64) {
	n, k := d.n, d.k
	for t := range n {
		for y := range k {
			var p float64
			for c := 0; c <= l; c++ {
				j := d.at(t, y, c, l)
				p += math.Exp(d.alpha[j] + d.beta[j] - logZ)
			}
			node[t*k+y] += weight * p
		}
	}
	for t := 1; t < n; t++ {
		for a := range k {
			for b := range k {
				step := d.inc[t*k+b]
				var p float64
				for c := 0; c+step <= l; c++ {
					p += math.Exp(d.alpha[d.at(t-1, a, c, l)] + tau*d.trans[a*k+b] + tau*d.unary[t*k+b] +
						d.beta[d.at(t, b, c+step, l)] - logZ)
				}
				edge[a*k+b] += weight * p
			}
		}
	}
}

// logSumExp returns log Σ exp(x_i), −Inf for an empty or all −Inf x.
func logSumExp(x []float64) float64 {
	top := math.Inf(-1)
	for _, v := range x {
		top = max(top, v)
	}
	if math.IsInf(top, 0) {
		return top
	}
	var s float64
	for _, v := range x {
		s += math.Exp(v - top)
	}
	return top + math.Log(s)
}
