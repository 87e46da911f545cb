package chain

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// The slack-rescaled loss sums, for every loss level l, a chain over
// (position t, label y, loss so far c) at temperature τ_l. In log space
// (slackDP.forward, backward, marginals) every cell costs K exps and a log;
// this file computes the same sums in exp space, as decoders'
// forward-backward does, where a cell costs K multiply-adds. That is what
// makes slack-rescaled ℓ_β affordable on OCR (26 labels, words of up to 14
// letters): the log-space pass took minutes per L-BFGS run's worth of
// evaluations where this takes seconds.
//
// Scaling. The entries of one (t, c) slice, α_t(·, c), are kept relative to
// a log scale A_t(c) of their own, the slice's largest entry being 1; so are
// β_t(·, c) with B_t(c). Every labeling completing a slice's prefixes does so
// through the same suffixes, whose weight depends on the prefix's last label
// y only through the transition out of y. An entry that underflows within
// its slice is therefore negligible (below 2^−1022 of the slice's largest)
// unless the transitions differ by more than float64's range, and so is a
// term of a sum over the previous label. scaledSlackOK bounds τ times the
// score ranges, as decoders' scaledRangeOK does; beyond it (large β at
// large l) the log-space pass is used.

// maxSlackScaledRange bounds τ·(transition range + widest unary range) +
// 2·ln K for the exp-space pass, as decoders' maxScaledRange does for
// forward-backward.
const maxSlackScaledRange = (1022 - 53) * math.Ln2

// slackScaled holds the exp-space tables of one instance: the
// exponentiated scores at temperature τ (shifted by each position's, and
// the transitions', maximum) and, for one loss level l, the scaled
// forward and backward tables, slice (t, c) at [(t·(l+1) + c)·K, … + K).
type slackScaled struct {
	tau       float64
	eu        []float64 // eu[t·K+y] = exp(τ(unary_t(y) − max_y unary_t(y)))
	et        []float64 // et[p·K+y] = exp(τ(trans(p, y) − max trans))
	shift     []float64 // shift[t] = τ(max unary_t + max trans) (t ≥ 1), τ·max unary_0 (t = 0)
	alpha, ab []float64 // scaled α and its log scales A_t(c)
	beta, bb  []float64 // scaled β and its log scales B_t(c)
	prod      []float64 // K-sized scratch
	prods     []float64 // forward: α̃_{t−1}(·, c)·T for every c
	fac       []float64 // one factor per loss increment
	edge      []float64 // K×K edge sums before the factor et
}

// scoreRange returns the transition range plus the widest range of unary
// scores at one position (NaN or +Inf if a score is not finite).
func (d *slackDP) scoreRange() float64 {
	n, k := d.n, d.k
	lo, hi := d.trans[0], d.trans[0]
	for _, v := range d.trans {
		lo, hi = min(lo, v), max(hi, v)
	}
	r := hi - lo
	var ru float64
	for t := range n {
		row := d.unary[t*k : (t+1)*k]
		l, h := row[0], row[0]
		for _, v := range row {
			l, h = min(l, v), max(h, v)
		}
		ru = max(ru, h-l)
	}
	return r + ru
}

// scaledSlackOK reports whether the exp-space pass is accurate at τ for
// scores of range r (scoreRange).
func scaledSlackOK(tau, r float64, k int) bool {
	return tau*r+2*math.Log(float64(k)) <= maxSlackScaledRange // false for NaN and +Inf
}

// scaledTerm returns x·e^f without overflowing e^f where x is small.
func scaledTerm(x, f float64) float64 {
	if f < 700 {
		return x * math.Exp(f)
	}
	if x == 0 {
		return 0
	}
	return math.Exp(f + math.Log(x))
}

// prepare exponentiates the scores at τ.
func (s *slackScaled) prepare(d *slackDP, tau float64) {
	n, k := d.n, d.k
	s.tau = tau
	s.eu = grow(s.eu, n*k)
	s.shift = grow(s.shift, n)
	s.et = grow(s.et, k*k)
	tmax := d.trans[0]
	for _, v := range d.trans {
		tmax = max(tmax, v)
	}
	for j, v := range d.trans {
		s.et[j] = math.Exp(tau * (v - tmax))
	}
	for t := range n {
		row, out := d.unary[t*k:(t+1)*k], s.eu[t*k:(t+1)*k]
		m := row[0]
		for _, v := range row {
			m = max(m, v)
		}
		for y, v := range row {
			out[y] = math.Exp(tau * (v - m))
		}
		s.shift[t] = tau * m
		if t > 0 {
			s.shift[t] += tau * tmax
		}
	}
	s.prod = grow(s.prod, k)
}

// factors returns n floats of scratch (one per loss increment).
func (s *slackScaled) factors(n int) []float64 {
	s.fac = grow(s.fac, n)
	return s.fac
}

// normalize divides a slice by its largest entry and returns the log of
// that entry (−Inf, and the slice left zero, if every entry is 0).
func normalize(slice []float64) float64 {
	top := floats.Max(slice)
	if top == 0 {
		return math.Inf(-1)
	}
	floats.Scale(1/top, slice)
	return math.Log(top)
}

// forward fills the scaled α for loss level l and returns log Z_l (−Inf if
// no labeling has loss l). Slices from which loss l cannot be reached are
// left empty.
func (s *slackScaled) forward(d *slackDP, l int) float64 {
	n, k, w := d.n, d.k, l+1
	s.alpha = grow(s.alpha, n*w*k)
	s.ab = grow(s.ab, n*w)
	clear(s.alpha)
	for j := range s.ab[:n*w] {
		s.ab[j] = math.Inf(-1)
	}
	a, ab := s.alpha, s.ab
	for y := range k {
		if c := d.inc[y]; c <= l && c >= l-d.remain[0] {
			a[c*k+y] = s.eu[y]
		}
	}
	for c := range w {
		ab[c] = normalize(a[c*k:(c+1)*k]) + s.shift[0]
	}
	s.prods = grow(s.prods, w*k)
	prods := s.prods
	for t := 1; t < n; t++ {
		// prod(c') = α̃_{t−1}(·, c')·T, once per c', shared by every c that
		// some label reaches from c'.
		for c := range w {
			row := prods[c*k : (c+1)*k]
			clear(row)
			if math.IsInf(ab[(t-1)*w+c], -1) {
				continue
			}
			for p, x := range a[((t-1)*w+c)*k : ((t-1)*w+c+1)*k] {
				if x != 0 {
					floats.AddScaled(row, x, s.et[p*k:(p+1)*k])
				}
			}
		}
		lo := max(0, l-d.remain[t])
		for c := lo; c < w; c++ {
			out := a[(t*w+c)*k : (t*w+c+1)*k]
			// Each label y takes from slice c − inc_t(y), scaled by that
			// slice's A: bring them to the largest scale, then normalise.
			// fac[i] rescales slice c − i (i = inc_t(y) ≤ most) to top.
			most := d.upto[t] - d.upto[t-1]
			top := math.Inf(-1)
			for i := range min(most, c) + 1 {
				top = max(top, ab[(t-1)*w+c-i])
			}
			if math.IsInf(top, -1) {
				continue
			}
			fac := s.factors(most + 1)
			for i := range fac {
				if fac[i] = 0; i <= c {
					fac[i] = math.Exp(ab[(t-1)*w+c-i] - top) // 0 for an empty slice
				}
			}
			for y := range k {
				i := d.inc[t*k+y]
				if f := fac[i]; f != 0 {
					out[y] = s.eu[t*k+y] * prods[(c-i)*k+y] * f
				}
			}
			ab[t*w+c] = normalize(out) + top + s.shift[t]
		}
	}
	last := a[((n-1)*w+l)*k : ((n-1)*w+l+1)*k]
	sum := floats.Sum(last)
	if sum == 0 {
		return math.Inf(-1)
	}
	return ab[(n-1)*w+l] + math.Log(sum)
}

// backward fills the scaled β for loss level l: β_t(y, c) sums the
// suffixes after t that bring the loss from c to exactly l.
func (s *slackScaled) backward(d *slackDP, l int) {
	n, k, w := d.n, d.k, l+1
	s.beta = grow(s.beta, n*w*k)
	s.bb = grow(s.bb, n*w)
	clear(s.beta)
	for j := range s.bb[:n*w] {
		s.bb[j] = math.Inf(-1)
	}
	b, bb := s.beta, s.bb
	for y := range k {
		b[((n-1)*w+l)*k+y] = 1
	}
	bb[(n-1)*w+l] = 0
	v := s.prod
	for t := n - 2; t >= 0; t-- {
		// Slices the prefix cannot have reached, or from which l cannot be
		// reached, stay empty.
		for c := max(0, l-d.remain[t]); c <= min(l, d.upto[t]); c++ {
			// fac[i] rescales slice c + i (i = inc_{t+1}(q) ≤ most) to top.
			most := d.upto[t+1] - d.upto[t]
			top := math.Inf(-1)
			for i := range min(most, l-c) + 1 {
				top = max(top, bb[(t+1)*w+c+i])
			}
			if math.IsInf(top, -1) {
				continue
			}
			fac := s.factors(most + 1)
			for i := range fac {
				if fac[i] = 0; c+i <= l {
					fac[i] = math.Exp(bb[(t+1)*w+c+i] - top)
				}
			}
			for q := range k {
				i := d.inc[(t+1)*k+q]
				v[q] = 0
				if f := fac[i]; f != 0 {
					v[q] = s.eu[(t+1)*k+q] * b[((t+1)*w+c+i)*k+q] * f
				}
			}
			out := b[(t*w+c)*k : (t*w+c+1)*k]
			for y := range k {
				out[y] = floats.Dot(s.et[y*k:(y+1)*k], v)
			}
			bb[t*w+c] = normalize(out) + top + s.shift[t+1]
		}
	}
}

// marginals adds weight·P_l(y_t = y) into node and weight·Σ_t P_l(y_{t−1} =
// a, y_t = b) into edge, from the scaled tables of loss level l.
func (s *slackScaled) marginals(d *slackDP, l int, logZ, weight float64, node, edge []float64) {
	n, k, w := d.n, d.k, l+1
	a, ab, b, bb := s.alpha, s.ab, s.beta, s.bb
	for t := range n {
		row := node[t*k : (t+1)*k]
		for c := range w {
			j := t*w + c
			f := ab[j] + bb[j] - logZ
			if math.IsInf(f, -1) || math.IsNaN(f) {
				continue
			}
			as, bs := a[j*k:(j+1)*k], b[j*k:(j+1)*k]
			if f < 700 {
				e := weight * math.Exp(f)
				for y := range row {
					row[y] += e * as[y] * bs[y]
				}
				continue
			}
			for y := range row {
				row[y] += weight * scaledTerm(as[y]*bs[y], f)
			}
		}
	}
	if n < 2 {
		return
	}
	acc := grow(s.edge, k*k)
	s.edge = acc
	clear(acc)
	v := s.prod
	for t := 1; t < n; t++ {
		for c := range w {
			if math.IsInf(ab[(t-1)*w+c], -1) {
				continue
			}
			// v(y) = E_t(y)·β̃_t(y, c + inc_t(y)) at the scale of (t−1, c):
			// the scale's exponent ex[i] for each increment i, and its exp
			// where that cannot overflow (else scaledTerm, per entry).
			most := d.upto[t] - d.upto[t-1]
			ex := s.factors(2*most + 2)
			ex, e := ex[:most+1], ex[most+1:]
			some := false
			for i := range ex {
				ex[i] = math.Inf(-1)
				if c+i <= l {
					ex[i] = ab[(t-1)*w+c] + s.shift[t] + bb[t*w+c+i] - logZ
				}
				e[i] = math.Exp(ex[i])
				some = some || e[i] != 0
			}
			if !some {
				continue
			}
			for y := range k {
				i := d.inc[t*k+y]
				v[y] = 0
				if c+i > l {
					continue
				}
				x := s.eu[t*k+y] * b[(t*w+c+i)*k+y]
				if ex[i] < 700 {
					v[y] = x * e[i]
				} else {
					v[y] = scaledTerm(x, ex[i])
				}
			}
			for p, x := range a[((t-1)*w+c)*k : ((t-1)*w+c+1)*k] {
				if x != 0 {
					floats.AddScaled(acc[p*k:(p+1)*k], x, v)
				}
			}
		}
	}
	for j, e := range s.et {
		edge[j] += weight * acc[j] * e
	}
}
