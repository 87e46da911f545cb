package decoders

import "math"

// Marginals are the sum-product quantities of the Gibbs distribution
// P(y) = exp(s(y)) / Z.
type Marginals struct {
	LogZ float64   // log Σ_y exp(s(y))
	Node []float64 // Node[t*K+y] = P(y_t = y)
	Edge []float64 // Edge[a*K+b] = Σ_{t≥1} P(y_{t-1} = a, y_t = b)
}

// ForwardBackward runs the forward-backward algorithm in log space, with
// log-sum-exp at every step, so it neither overflows nor underflows however
// large the scores are. For N = 0, LogZ is 0 and Node is empty. Edge is K×K
// and all zero when N ≤ 1. The result owns its tables.
func ForwardBackward(c *Chain, ws *Workspace) *Marginals {
	c.check()
	ws = ws.orNew()
	n, k := c.N, c.K
	trans := c.trans(ws)
	out := &Marginals{Node: make([]float64, n*k), Edge: make([]float64, k*k)}
	if n == 0 {
		return out
	}
	alpha := grow(&ws.a, n*k) // log-sum over prefixes, including unary t
	beta := grow(&ws.b, n*k)  // log-sum over suffixes after t
	w := grow(&ws.tmp, k)
	nx := grow(&ws.tmp2, k)
	copy(alpha[:k], c.Unary[:k])
	for t := 1; t < n; t++ {
		prev := alpha[(t-1)*k : t*k]
		for y := range k {
			for p := range k {
				w[p] = prev[p] + trans[p*k+y]
			}
			alpha[t*k+y] = c.Unary[t*k+y] + logSumExp(w)
		}
	}
	clear(beta[(n-1)*k:])
	for t := n - 2; t >= 0; t-- {
		// The next position's unary+beta is shared by every row.
		for y := range k {
			nx[y] = c.Unary[(t+1)*k+y] + beta[(t+1)*k+y]
		}
		for y := range k {
			row := trans[y*k : (y+1)*k]
			for b := range k {
				w[b] = row[b] + nx[b]
			}
			beta[t*k+y] = logSumExp(w)
		}
	}
	copy(w, alpha[(n-1)*k:])
	logZ := logSumExp(w)
	out.LogZ = logZ

	for i := range out.Node {
		out.Node[i] = math.Exp(alpha[i] + beta[i] - logZ)
	}
	for t := 1; t < n; t++ {
		prev := alpha[(t-1)*k : t*k]
		for a := range k {
			for b := range k {
				out.Edge[a*k+b] += math.Exp(prev[a] + trans[a*k+b] + c.Unary[t*k+b] + beta[t*k+b] - logZ)
			}
		}
	}
	return out
}

// logSumExp returns log Σ exp(x_i), shifting by the maximum so that no term
// overflows; it is -Inf if every x_i is -Inf.
func logSumExp(x []float64) float64 {
	m := maxOf(x)
	if math.IsInf(m, 0) {
		return m
	}
	var s float64
	for _, v := range x {
		s += math.Exp(v - m)
	}
	return m + math.Log(s)
}
