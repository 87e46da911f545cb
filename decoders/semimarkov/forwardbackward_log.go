package semimarkov

import "math"

// forwardBackwardLog is the log-space pass: it fills, with shifted
// log-sum-exps,
//
//	enter(t, y) = log Σ over segmentations of tokens 0..t-1 of exp(score plus
//	              the transition into a segment labelled y at t), with
//	              enter(0, y) = Trans[START, y];
//	α(i, y)     = log Σ_len exp(enter(i-len, y) + Unary(i-len, len, y)), the
//	              prefixes 0..i-1 whose last segment is labelled y;
//	h(i, y)     = log Σ_len exp(Unary(i, len, y) + β(i+len, y)), the suffixes
//	              from i whose first segment is labelled y, without its
//	              transition;
//	β(i, p)     = log Σ_y exp(Trans[p, y] + h(i, y)), β(N, p) = 0,
//
// the sum-product versions of ComputeSpanMarginals' tables, and log Z =
// β(0, START). A segment (t, t+len, y) then has probability exp(enter(t, y) +
// Unary + β(t+len, y) − log Z), and a transition p → y at boundary t > 0
// exp(α(t, p) + Trans[p, y] + h(t, y) − log Z). It neither overflows nor
// underflows however large the scores are, at the price of an exp per term
// of every length sum; forwardBackward uses it only for scores whose range
// the scaled pass cannot represent (see scaledRange).
//
// The length sums need one exp per term, but the K² terms of the label sums
// at each boundary would dominate the cost, so they are factored through the
// transition table: see labelSums. dst's tables are sized and its Trans is
// zero on entry; n ≥ 1.
func forwardBackwardLog(dst *Posteriors, n, k, l int, unary, trans []float64, ws *Workspace) {
	alpha := grow(&ws.fbAlpha, n*k) // rows 1..n-1
	enter := grow(&ws.fbEnter, n*k)
	h := grow(&ws.fbH, n*k)
	beta := grow(&ws.fbBeta, (n+1)*k) // β(i, p) for p < K; β(0, START) is log Z
	mx, sum := grow(&ws.fbMax, k), grow(&ws.fbSum, k)
	ls := newLabelSums(k, trans, ws)

	copy(enter[:k], trans[k*k:])
	for i := 1; i < n; i++ {
		a := alpha[i*k:][:k]
		lens := min(l, i)
		// α(i, ·): a log-sum-exp over lengths, one per label.
		for y := range a {
			mx[y] = math.Inf(-1)
		}
		for ln := 1; ln <= lens; ln++ {
			e, u := enter[(i-ln)*k:][:k], unary[((i-ln)*l+ln-1)*k:][:k]
			for y := range a {
				mx[y] = max(mx[y], e[y]+u[y])
			}
		}
		clear(sum)
		for ln := 1; ln <= lens; ln++ {
			e, u := enter[(i-ln)*k:][:k], unary[((i-ln)*l+ln-1)*k:][:k]
			for y := range a {
				sum[y] += math.Exp(e[y] + u[y] - mx[y])
			}
		}
		finish(a, mx, sum)
		ls.forward(enter[i*k:][:k], a)
	}

	clear(beta[n*k:])
	for i := n - 1; i >= 0; i-- {
		hr := h[i*k:][:k]
		lens := min(l, n-i)
		for y := range hr {
			mx[y] = math.Inf(-1)
		}
		for ln := 1; ln <= lens; ln++ {
			u, b := unary[(i*l+ln-1)*k:][:k], beta[(i+ln)*k:][:k]
			for y := range hr {
				mx[y] = max(mx[y], u[y]+b[y])
			}
		}
		clear(sum)
		for ln := 1; ln <= lens; ln++ {
			u, b := unary[(i*l+ln-1)*k:][:k], beta[(i+ln)*k:][:k]
			for y := range hr {
				sum[y] += math.Exp(u[y] + b[y] - mx[y])
			}
		}
		finish(hr, mx, sum)
		if i > 0 {
			ls.backward(beta[i*k:][:k], hr)
		}
	}
	start := trans[k*k:][:k]
	logZ := math.Inf(-1)
	for y, v := range h[:k] {
		logZ = max(logZ, start[y]+v)
	}
	if !math.IsInf(logZ, -1) {
		var s float64
		for y, v := range h[:k] {
			s += math.Exp(start[y] + v - logZ)
		}
		logZ += math.Log(s)
	}
	dst.LogZ = logZ

	for t := range n {
		e := enter[t*k:][:k]
		for ln := 1; ln <= min(l, n-t); ln++ {
			at := (t*l + ln - 1) * k
			u, b, dst := unary[at:][:k], beta[(t+ln)*k:][:k], dst.Segment[at:][:k]
			for y := range dst {
				dst[y] = math.Exp(e[y] + u[y] + b[y] - logZ)
			}
		}
	}
	for y, v := range h[:k] {
		dst.Trans[k*k+y] = math.Exp(start[y] + v - logZ)
	}
	for t := 1; t < n; t++ {
		ls.pairs(dst.Trans[:k*k], alpha[t*k:][:k], h[t*k:][:k], logZ)
	}
	ls.trans = nil // do not keep the caller's table alive in the workspace
}

// fastRange bounds the exponents that labelSums lets a factored product
// absorb: e^±300 is far inside float64's range (about e^±708), so a product
// of factors in [e^-300, 1] never reaches a subnormal, and whatever does
// underflow is smaller than e^-300 relative to what it is added to.
const fastRange = 300

// labelSums computes the sums over label pairs at one boundary, the K²
// terms exp(a[p] + Trans[p, y] + b[y]), without an exp per term. With
// column maxima c[y] = max_p Trans[p, y] and E[p, y] = exp(Trans[p, y] −
// c[y]) computed once per call (and likewise row maxima r[p] and F[p, y] =
// exp(Trans[p, y] − r[p])), a sum over p is
//
//	log Σ_p exp(a[p] + Trans[p, y]) = A + c[y] + log Σ_p exp(a[p] − A)·E[p, y],  A = max_p a[p],
//
// K exps and K² multiplications instead of K² exps. The product sum is at
// least E[p_A, y] for p_A the argmax of a; as long as that is above
// e^-fastRange, nothing that matters underflows and the result is exact to
// rounding. Otherwise (transition scores that differ by hundreds, as with
// huge scores) that column falls back to the shifted log-sum-exp. Sums over
// y use F symmetrically.
type labelSums struct {
	k     int
	trans []float64 // K×K part, without START
	e, f  []float64 // E and F, 0 where the column or row is all −Inf
	c, r  []float64 // column and row maxima
	u, v  []float64 // K-sized scratch
	sum   []float64
}

func newLabelSums(k int, trans []float64, ws *Workspace) *labelSums {
	ls := &ws.fbLabels
	*ls = labelSums{
		k: k, trans: trans[:k*k],
		e: grow(&ls.e, k*k), f: grow(&ls.f, k*k), c: grow(&ls.c, k), r: grow(&ls.r, k),
		u: grow(&ls.u, k), v: grow(&ls.v, k), sum: grow(&ls.sum, k),
	}
	for y := range k {
		ls.c[y] = math.Inf(-1)
	}
	for p := range k {
		row := ls.trans[p*k:][:k]
		ls.r[p] = math.Inf(-1)
		for y, v := range row {
			ls.c[y] = max(ls.c[y], v)
			ls.r[p] = max(ls.r[p], v)
		}
	}
	for p := range k {
		row, e, f := ls.trans[p*k:][:k], ls.e[p*k:][:k], ls.f[p*k:][:k]
		for y, v := range row {
			e[y], f[y] = 0, 0
			if !math.IsInf(ls.c[y], -1) {
				e[y] = math.Exp(v - ls.c[y])
			}
			if !math.IsInf(ls.r[p], -1) {
				f[y] = math.Exp(v - ls.r[p])
			}
		}
	}
	return ls
}

// shifted sets dst[i] = exp(x[i] − max x) and returns the max and its first
// index; the max is −Inf (and dst all 0) if every x[i] is.
func shifted(dst, x []float64) (top float64, at int) {
	top, at = math.Inf(-1), 0
	for i, v := range x {
		if v > top {
			top, at = v, i
		}
	}
	for i, v := range x {
		dst[i] = 0
		if !math.IsInf(top, -1) {
			dst[i] = math.Exp(v - top)
		}
	}
	return top, at
}

// forward sets dst[y] = log Σ_p exp(a[p] + Trans[p, y]).
func (ls *labelSums) forward(dst, a []float64) {
	k, u, s := ls.k, ls.u, ls.sum
	top, pa := shifted(u, a)
	if math.IsInf(top, -1) {
		for y := range dst {
			dst[y] = top
		}
		return
	}
	clear(s)
	for p, up := range u {
		if up == 0 {
			continue
		}
		for y, e := range ls.e[p*k:][:k] {
			s[y] += up * e
		}
	}
	slow := false
	for y := range dst {
		if ls.trans[pa*k+y]-ls.c[y] > -fastRange {
			dst[y] = top + ls.c[y] + math.Log(s[y])
		} else {
			slow = true
		}
	}
	if slow {
		// The exact log-sum-exp for the columns the factoring cannot
		// represent, in the same column-by-column layout.
		for y := range dst {
			if ls.trans[pa*k+y]-ls.c[y] > -fastRange {
				continue
			}
			m := math.Inf(-1)
			for p, av := range a {
				m = max(m, av+ls.trans[p*k+y])
			}
			if math.IsInf(m, -1) {
				dst[y] = m
				continue
			}
			var t float64
			for p, av := range a {
				t += math.Exp(av + ls.trans[p*k+y] - m)
			}
			dst[y] = m + math.Log(t)
		}
	}
}

// backward sets dst[p] = log Σ_y exp(Trans[p, y] + b[y]) for p < K.
func (ls *labelSums) backward(dst, b []float64) {
	k, v := ls.k, ls.v
	top, yb := shifted(v, b)
	for p := range dst {
		row := ls.trans[p*k:][:k]
		if math.IsInf(top, -1) {
			dst[p] = top
			continue
		}
		if row[yb]-ls.r[p] > -fastRange {
			var s float64
			for y, f := range ls.f[p*k:][:k] {
				s += f * v[y]
			}
			dst[p] = top + ls.r[p] + math.Log(s)
			continue
		}
		m := math.Inf(-1)
		for y, bv := range b {
			m = max(m, row[y]+bv)
		}
		if math.IsInf(m, -1) {
			dst[p] = m
			continue
		}
		var s float64
		for y, bv := range b {
			s += math.Exp(row[y] + bv - m)
		}
		dst[p] = m + math.Log(s)
	}
}

// pairs adds exp(a[p] + Trans[p, y] + b[y] − logZ) into dst[p*K+y]. With A
// and B the maxima of a and b, the term is u[p]·E[p, y]·v[y]·exp(c[y] + G),
// G = A + B − logZ, u and v the shifted exps of a and b. Every factor but the
// last is at most 1, and the last is at most e^fastRange, so any product
// that underflows stands for a probability below e^(fastRange−708); columns
// with c[y] + G > fastRange fall back to an exp per term. (A probability is
// at most 1, so c[y] + G ≤ max Trans − min Trans: the fallback needs
// transition scores hundreds apart.)
func (ls *labelSums) pairs(dst, a, b []float64, logZ float64) {
	k, u, v, s := ls.k, ls.u, ls.v, ls.sum
	ta, _ := shifted(u, a)
	tb, _ := shifted(v, b)
	if math.IsInf(ta, -1) || math.IsInf(tb, -1) {
		return
	}
	g := ta + tb - logZ
	for y := range s {
		s[y] = 0
		if f := ls.c[y] + g; f <= fastRange {
			s[y] = v[y] * math.Exp(f) // 0 for an all −Inf column
		}
	}
	for p, up := range u {
		if up == 0 {
			continue
		}
		row, e := dst[p*k:][:k], ls.e[p*k:][:k]
		for y, sy := range s {
			row[y] += up * e[y] * sy
		}
	}
	for y := range s {
		if ls.c[y]+g <= fastRange {
			continue
		}
		for p, av := range a {
			dst[p*k+y] += math.Exp(av + ls.trans[p*k+y] + b[y] - logZ)
		}
	}
}

// finish sets dst[y] = mx[y] + log sum[y], the last step of a shifted
// log-sum-exp; an all −Inf sum (mx = −Inf, whose shifted terms are NaN)
// stays −Inf.
func finish(dst, mx, sum []float64) {
	for y := range dst {
		if math.IsInf(mx[y], -1) {
			dst[y] = mx[y]
			continue
		}
		dst[y] = mx[y] + math.Log(sum[y])
	}
}
