package decoders

import "math"

// forwardBackwardLog is the log-space pass: log-sum-exp in every cell, so it
// neither overflows nor underflows however large the scores are, at the price
// of O(N·K²) calls to exp. ForwardBackwardTo uses it only for chains whose
// score ranges the scaled pass cannot represent (see scaledRangeOK). dst's
// tables are sized and Edge is zero on entry; n ≥ 1.
func forwardBackwardLog(dst *Marginals, c *Chain, trans []float64, ws *Workspace) {
	n, k := c.N, c.K
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
	dst.LogZ = logZ

	for i := range dst.Node {
		dst.Node[i] = math.Exp(alpha[i] + beta[i] - logZ)
	}
	for t := 1; t < n; t++ {
		prev := alpha[(t-1)*k : t*k]
		for a := range k {
			for b := range k {
				dst.Edge[a*k+b] += math.Exp(prev[a] + trans[a*k+b] + c.Unary[t*k+b] + beta[t*k+b] - logZ)
			}
		}
	}
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
