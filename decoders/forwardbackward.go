package decoders

import (
	"math"
	"slices"
)

// Marginals are the sum-product quantities of the Gibbs distribution
// P(y) = exp(s(y)) / Z.
type Marginals struct {
	LogZ float64   // log Σ_y exp(s(y))
	Node []float64 // Node[t*K+y] = P(y_t = y)
	Edge []float64 // Edge[a*K+b] = Σ_{t≥1} P(y_{t-1} = a, y_t = b)
}

// ForwardBackward returns log Z and the node and edge marginals of c. For
// N = 0, LogZ is 0 and Node is empty. Edge is K×K and all zero when N ≤ 1.
// The result owns its tables; see ForwardBackwardTo to reuse them.
func ForwardBackward(c *Chain, ws *Workspace) *Marginals {
	return ForwardBackwardTo(new(Marginals), c, ws)
}

// ForwardBackwardTo is ForwardBackward writing into dst, whose Node and Edge
// tables are reused when large enough, so that a caller that keeps dst (and
// ws) does not allocate. It returns dst.
//
// It runs the scaled forward-backward algorithm in exp space, as CRFsuite
// does: the unary scores are exponentiated once per (t, y), shifted by the
// row maximum, and the transitions once per call, shifted by theirs; the
// forward and backward recursions are then sums of products, renormalised at
// every position by the forward mass s_t, so that log Z = Σ_t log s_t plus
// the shifts, and the marginals need no exp or log at all. That costs N·K +
// K² calls to exp instead of the O(N·K²) of log-sum-exp in every cell.
//
// Scaling keeps every forward and backward entry within a factor
// exp(R)·K² of 1, where R is the range of the transition scores plus the
// widest range of unary scores at one position (see scaledRangeOK). When R is
// so large that such entries would leave float64's normal range, and for
// non-finite scores, the log-space pass is used instead; its results agree
// with the scaled pass to rounding wherever both apply.
func ForwardBackwardTo(dst *Marginals, c *Chain, ws *Workspace) *Marginals {
	c.check()
	ws = ws.orNew()
	n, k := c.N, c.K
	trans := c.trans(ws)
	dst.LogZ = 0
	dst.Node = grow(&dst.Node, n*k)
	dst.Edge = grow(&dst.Edge, k*k)
	clear(dst.Edge)
	if n == 0 {
		return dst
	}
	if shift, ok := scaledRangeOK(c.Unary, trans, n, k, ws); ok {
		forwardBackwardScaled(dst, c, trans, shift, ws)
	} else {
		forwardBackwardLog(dst, c, trans, ws)
	}
	return dst
}

// maxScaledRange bounds R + 2·ln K for the scaled pass. Every forward and
// backward entry, and every dominant term of their sums, then lies within
// [2^−969, 2^969]: a term that underflows (below 2^−1022, the smallest normal
// float64) is smaller than the sum it belongs to by more than 2^−53, the unit
// roundoff, so it changes nothing beyond rounding.
const maxScaledRange = (1022 - 53) * math.Ln2

// scaledRangeOK fills ws.shift with each position's maximum unary score and
// reports whether the chain's scores are finite and within maxScaledRange,
// returning the transition maximum.
func scaledRangeOK(unary, trans []float64, n, k int, ws *Workspace) (transMax float64, ok bool) {
	lo, hi := minMax(trans)
	rangeT := hi - lo
	transMax = hi
	shift := grow(&ws.shift, n)
	var rangeU float64
	for t := range n {
		l, h := minMax(unary[t*k : (t+1)*k])
		shift[t] = h
		rangeU = max(rangeU, h-l)
	}
	r := rangeT + rangeU + 2*math.Log(float64(k))
	// r is NaN or +Inf if any score is non-finite.
	return transMax, r <= maxScaledRange
}

// minMax returns the smallest and largest of xs (NaN if any is NaN, through
// the comparison-free min and max builtins).
func minMax(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, v := range xs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// forwardBackwardScaled is the exp-space pass; scaledRangeOK has filled
// ws.shift and returned transMax. With ũ_t(y) = exp(u_t(y) − shift_t) and
// T(a, b) = exp(trans(a, b) − transMax):
//
//	α_0 = ũ_0 / s_0,  α_t(y) = ũ_t(y) Σ_p α_{t−1}(p) T(p, y) / s_t,  s_t making Σ_y α_t(y) = 1,
//	β_{N−1} = 1,      β_t(y) = Σ_q T(y, q) ν_{t+1}(q),  ν_t(q) = ũ_t(q) β_t(q) / s_t,
//
// so that P(y_t = y) = α_t(y) β_t(y), P(y_{t−1} = a, y_t = b) =
// α_{t−1}(a) T(a, b) ν_t(b), and log Z = Σ_t (log s_t + shift_t) +
// (N−1)·transMax. The edge sums Σ_t α_{t−1}(a) ν_t(b) are accumulated first
// and multiplied by T(a, b) once at the end. dst's tables are sized and Edge
// is zero on entry; n ≥ 1.
func forwardBackwardScaled(dst *Marginals, c *Chain, trans []float64, transMax float64, ws *Workspace) {
	n, k := c.N, c.K
	shift := ws.shift[:n]
	eu := grow(&ws.eu, n*k)
	scale := grow(&ws.scale, n)
	alpha := grow(&ws.a, n*k)
	beta := grow(&ws.b, n*k)
	nu := grow(&ws.tmp, k)
	for t := range n {
		row, out, m := c.Unary[t*k:(t+1)*k], eu[t*k:(t+1)*k], shift[t]
		for y, v := range row {
			out[y] = math.Exp(v - m)
		}
	}
	et, etT := ws.expTransitions(trans, transMax, k)

	logZ := float64(n-1) * transMax
	for t := range n {
		cur, u := alpha[t*k:(t+1)*k], eu[t*k:(t+1)*k]
		if t == 0 {
			copy(cur, u)
		} else {
			mulVec(cur, alpha[(t-1)*k:t*k], et, u)
		}
		var s float64
		for _, v := range cur {
			s += v
		}
		scale[t] = s
		inv := 1 / s
		for y := range cur {
			cur[y] *= inv
		}
		logZ += math.Log(s) + shift[t]
	}
	dst.LogZ = logZ

	last := beta[(n-1)*k:]
	for y := range last {
		last[y] = 1
	}
	edge := dst.Edge
	for t := n - 2; t >= 0; t-- {
		next, u, inv := beta[(t+1)*k:(t+2)*k], eu[(t+1)*k:(t+2)*k], 1/scale[t+1]
		for q := range nu {
			nu[q] = u[q] * next[q] * inv
		}
		// β_t = T·ν_{t+1}, as a sum of columns of T (rows of its
		// transpose), each output element its own chain of additions.
		mulVec(beta[t*k:(t+1)*k], nu, etT, nil)
		addOuter(edge, alpha[t*k:(t+1)*k], nu)
	}
	if n > 1 {
		for j, v := range et {
			edge[j] *= v
		}
	}
	for i, a := range alpha {
		dst.Node[i] = a * beta[i]
	}
}

// expTransitions returns T = exp(trans − transMax) and its transpose. A CRF
// pass scores every instance with one transition table, so the tables of
// the previous call are kept and reused while trans is the same (K² exps an
// instance saved; the values are those a fresh computation gives).
// transMax is the maximum of trans, so equal tables have equal maxima.
func (ws *Workspace) expTransitions(trans []float64, transMax float64, k int) (et, etT []float64) {
	if len(ws.etFor) == k*k && slices.Equal(ws.etFor, trans) {
		return ws.et[:k*k], ws.etT[:k*k]
	}
	et, etT = grow(&ws.et, k*k), grow(&ws.etT, k*k)
	for j, v := range trans {
		et[j] = math.Exp(v - transMax)
	}
	for a := range k {
		for b := range k {
			etT[b*k+a] = et[a*k+b]
		}
	}
	ws.etFor = append(ws.etFor[:0], trans...)
	return et, etT
}
