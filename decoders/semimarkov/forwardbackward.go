package semimarkov

import (
	"math"

	"github.com/maxmargin/repro/structpred"
)

// Posteriors are the sum-product quantities of the Gibbs distribution
// P(y) = exp(s(y)) / Z over the segmentations into segments of length 1..L:
// what the gradient of a log-linear (CRF) objective needs, since the
// expected feature vector of a model whose features decompose over segments
// and label pairs is a sum of the segments' features weighted by Segment and
// of the pair features weighted by Trans.
type Posteriors struct {
	N, K, L int
	// LogZ is log Σ_y exp(s(y)); 0 for N = 0 (the empty segmentation).
	LogZ float64
	// Segment[i] is the probability that the segment with Unary index i
	// ([Scores.Index]) is part of y, laid out like Scores.Unary; entries of
	// segments that would end past N are 0.
	Segment []float64
	// Trans[p*K+y] is the expected number of segments labelled y whose
	// previous segment is labelled p, laid out like Scores.Trans: row K
	// (START) holds the distribution of the first label and sums to 1 when
	// N > 0, and the whole table sums to the expected number of segments.
	Trans []float64
}

// ForwardBackward runs the semi-Markov forward-backward algorithm in log
// space, with shifted log-sum-exps, so it neither overflows nor underflows
// however large the scores are. Like Viterbi it splits every step into a sum
// over segment lengths and a sum over labels, in O(N·(L·K + K²)) time; the
// length sums take one exp per term, while the K² terms of a label sum are
// factored through exps of the transition table taken once per call, K exps
// per boundary (falling back to one per term only where transition scores
// differ by hundreds). The result owns its tables; with a reused Workspace
// they are its only allocations.
func ForwardBackward(s *Scores, ws *Workspace) *Posteriors {
	s.check()
	ws = ws.orNew()
	return forwardBackward(s.N, s.K, s.L, s.Unary, s.trans(ws), ws)
}

// LossAugmentedForwardBackward is ForwardBackward for
// P(y) ∝ exp(s(y) + scale*loss.Of(truth, y)): the loss decomposes over
// predicted segments, so this is ForwardBackward on augmented unary scores.
// Multiplying the scores and scale by β gives the tempered distribution of
// Pletscher et al.'s entropy-and-margin loss. It panics if truth is not a
// segmentation of the N tokens (its segments may be longer than L) or
// loss.K != s.K.
func LossAugmentedForwardBackward(s *Scores, truth []structpred.Segment, loss Loss, scale float64, ws *Workspace) *Posteriors {
	s.check()
	loss.check(s, truth)
	ws = ws.orNew()
	return forwardBackward(s.N, s.K, s.L, loss.augment(s, truth, scale, ws), s.trans(ws), ws)
}

// forwardBackward fills, in log space,
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
// exp(α(t, p) + Trans[p, y] + h(t, y) − log Z).
//
// The length sums need one exp per term, but the K² terms of the label sums
// at each boundary would dominate the cost, so they are factored through the
// transition table: see labelSums.
func forwardBackward(n, k, l int, unary, trans []float64, ws *Workspace) *Posteriors {
	nu, nt := n*l*k, (k+1)*k
	tab := make([]float64, nu+nt)
	out := &Posteriors{N: n, K: k, L: l, Segment: tab[:nu:nu], Trans: tab[nu:]}
	if n == 0 {
		return out
	}
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
	out.LogZ = logZ

	for t := range n {
		e := enter[t*k:][:k]
		for ln := 1; ln <= min(l, n-t); ln++ {
			at := (t*l + ln - 1) * k
			u, b, dst := unary[at:][:k], beta[(t+ln)*k:][:k], out.Segment[at:][:k]
			for y := range dst {
				dst[y] = math.Exp(e[y] + u[y] + b[y] - logZ)
			}
		}
	}
	for y, v := range h[:k] {
		out.Trans[k*k+y] = math.Exp(start[y] + v - logZ)
	}
	for t := 1; t < n; t++ {
		ls.pairs(out.Trans[:k*k], alpha[t*k:][:k], h[t*k:][:k], logZ)
	}
	ls.trans = nil // do not keep the caller's table alive in the workspace
	return out
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
