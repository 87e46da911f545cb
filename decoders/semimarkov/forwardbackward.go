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

// ForwardBackward returns log Z and the posteriors of the segmentations of
// s, in O(N·(L·K + K²)) time like Viterbi. The result owns its tables; see
// ForwardBackwardTo to reuse them.
//
// It runs a scaled forward-backward pass in exp space (see
// forwardBackwardScaled): every segment score is exponentiated once, against
// a shift that telescopes along any segmentation, and the transitions once
// per call; the recursions are then sums of products, renormalised at every
// boundary, and log Z is the sum of the logs of the normalisers plus the
// shift. That is N·L·K + (K+1)·K calls to exp and N to log, where a log-space
// pass needs an exp per term of every sum. When the score range is too wide
// for float64 (see scaledRange), and for non-finite scores (a −Inf unary
// forbidding a segment, say), the log-space pass, which neither overflows
// nor underflows however large the scores are, is used instead; the two
// agree to rounding wherever both apply.
func ForwardBackward(s *Scores, ws *Workspace) *Posteriors {
	return ForwardBackwardTo(new(Posteriors), s, ws)
}

// ForwardBackwardTo is ForwardBackward writing into dst, whose tables are
// reused when large enough, so that a caller that keeps dst (and ws) does not
// allocate. It returns dst.
func ForwardBackwardTo(dst *Posteriors, s *Scores, ws *Workspace) *Posteriors {
	s.check()
	ws = ws.orNew()
	return forwardBackward(dst, s.N, s.K, s.L, s.Unary, s.trans(ws), ws)
}

// LossAugmentedForwardBackward is ForwardBackward for
// P(y) ∝ exp(s(y) + scale*loss.Of(truth, y)): the loss decomposes over
// predicted segments, so this is ForwardBackward on augmented unary scores.
// Multiplying the scores and scale by β gives the tempered distribution of
// Pletscher et al.'s entropy-and-margin loss. It panics if truth is not a
// segmentation of the N tokens (its segments may be longer than L) or
// loss.K != s.K.
func LossAugmentedForwardBackward(s *Scores, truth []structpred.Segment, loss Loss, scale float64, ws *Workspace) *Posteriors {
	return LossAugmentedForwardBackwardTo(new(Posteriors), s, truth, loss, scale, ws)
}

// LossAugmentedForwardBackwardTo is LossAugmentedForwardBackward writing
// into dst, as ForwardBackwardTo does. It returns dst.
func LossAugmentedForwardBackwardTo(dst *Posteriors, s *Scores, truth []structpred.Segment, loss Loss, scale float64, ws *Workspace) *Posteriors {
	s.check()
	checkLoss(loss, s, truth)
	ws = ws.orNew()
	return forwardBackward(dst, s.N, s.K, s.L, augment(loss, s, truth, scale, ws), s.trans(ws), ws)
}

// forwardBackward sizes dst's tables and runs the scaled pass, or the
// log-space pass if the scores are out of the scaled pass's range.
func forwardBackward(dst *Posteriors, n, k, l int, unary, trans []float64, ws *Workspace) *Posteriors {
	dst.N, dst.K, dst.L, dst.LogZ = n, k, l, 0
	dst.Segment = grow(&dst.Segment, n*l*k)
	dst.Trans = grow(&dst.Trans, (k+1)*k)
	clear(dst.Trans)
	if n == 0 {
		return dst
	}
	if !forwardBackwardScaled(dst, n, k, l, unary, trans, ws) {
		forwardBackwardLog(dst, n, k, l, unary, trans, ws)
	}
	// Segments that would end past N have probability 0.
	for i := max(0, n-l+1); i < n; i++ {
		clear(dst.Segment[(i*l+n-i)*k : (i+1)*l*k])
	}
	return dst
}

// maxScaledRange bounds scaledRange's R + ln(K·L) for the scaled pass. Every
// forward and backward quantity that matters then lies within
// [2^−969, 2^969], so that a term that underflows (below 2^−1022, the
// smallest normal float64) is smaller than what it is compared or added to
// by more than 2^−53, the unit roundoff: it changes nothing beyond rounding.
const maxScaledRange = (1022 - 53) * math.Ln2

// scaledRange computes the shift of the scaled pass and its range. The shift
// is a potential over boundaries, the best score of a prefix when every
// segment scores the best of its labels plus the best transition:
//
//	Φ(0) = 0,  Φ(j) = max_len [Φ(j−len) + max_y Unary(j−len, len, y)] + Tmax,
//
// so that, with ψ(i, len, y) = Unary(i, len, y) + Tmax + Φ(i) − Φ(i+len) and
// T(p, y) = Trans[p, y] − Tmax, the score of any segmentation is Σ (ψ + T)
// + Φ(N): the shifts telescope whatever the segmentation, and every ψ and T
// is at most 0. Its range is R = R_T + R_ψ, R_T the range of the transition
// scores and R_ψ = max −ψ over the segments that fit in the N tokens (how far
// below the best segmentations any segment can score).
//
// Why R bounds the scaled pass (see forwardBackwardScaled for the
// quantities): the normalised forward row α̂(i) sums to 1, so enter̂(i, y) =
// Σ_p α̂(i, p)·e^T(p, y) is in [e^−R_T, 1]; the terms of α̂(i, y) for one
// length differ between labels by at most e^R, so α̂(i, y) ≥ e^−R/K; every
// segmentation of the first j tokens extends by one segment to i ≤ j + L, so
// the ratio of prefix sums ρ = C_j/C_i is at most e^R/K. The backward
// quantities are probabilities divided by forward ones: β̂(i, p) ≤
// 1/α̂(i, p) ≤ K·e^R and ĥ(i, y) ≤ 1/enter̂(i, y) ≤ e^R_T, and a length sum
// has at most L terms. So nothing exceeds K·L·e^R, and an absolute error δ
// anywhere (an underflow) changes a forward entry by at most δ·K·e^R
// relatively and a probability by at most δ absolutely.
//
// scaledRange fills ws.fbPhi with Φ and returns R + ln(K·L) and Tmax,
// stopping early (Φ then incomplete) once the range exceeds maxScaledRange,
// so that scores for the log-space pass cost no exp here. The range is NaN
// or +Inf if a score is not finite.
func scaledRange(n, k, l int, unary, trans []float64, ws *Workspace) (r, transMax float64) {
	lo, hi := minMax(trans)
	r = hi - lo + math.Log(float64(k*l))
	base := r
	phi := grow(&ws.fbPhi, n+1)
	rowMin := grow(&ws.fbMax, l) // per length, of the segments ending at j
	phi[0] = 0
	for j := 1; j <= n && r <= maxScaledRange; j++ {
		best := math.Inf(-1)
		for ln := 1; ln <= min(l, j); ln++ {
			rlo, rhi := minMax(unary[((j-ln)*l+ln-1)*k:][:k])
			rowMin[ln-1] = rlo
			best = max(best, phi[j-ln]+rhi)
		}
		phi[j] = best + hi
		for ln := 1; ln <= min(l, j); ln++ {
			r = max(r, base-(rowMin[ln-1]+phi[j-ln]+hi-phi[j]))
		}
	}
	return r, hi
}

// exponentiate fills dst with exp(ψ) for the segments that fit in the N
// tokens and ws.fbTrans with exp(T), from scaledRange's Φ and Tmax.
func exponentiate(dst, unary, trans []float64, n, k, l int, transMax float64, ws *Workspace) {
	et := grow(&ws.fbTrans, (k+1)*k)
	for j, v := range trans {
		et[j] = math.Exp(v - transMax)
	}
	phi := ws.fbPhi[:n+1]
	for i := range n {
		for ln := 1; ln <= min(l, n-i); ln++ {
			at := (i*l + ln - 1) * k
			shift := phi[i] + transMax - phi[i+ln]
			out := dst[at:][:k]
			for y, v := range unary[at:][:k] {
				out[y] = math.Exp(v + shift)
			}
		}
	}
}

// minMax returns the smallest and largest of xs (NaN if any is NaN, through
// the min and max builtins).
func minMax(xs []float64) (lo, hi float64) {
	lo, hi = xs[0], xs[0]
	for _, v := range xs[1:] {
		lo, hi = min(lo, v), max(hi, v)
	}
	return lo, hi
}

// forwardBackwardScaled is the exp-space pass. It reports false, leaving dst
// to the log-space pass, if scaledRange is beyond maxScaledRange. With
// Ψ(i, len, y) = exp(ψ(i, len, y)) and E(p, y) = exp(T(p, y)) (scaledRange's
// shifted scores, all at most 1) it computes, for the boundaries i = 1..N,
//
//	a_i(y)        = Σ_len enter̂(i−len, y)·Ψ(i−len, len, y)·C_{i−len}/C_{i−1},
//	c_i           = Σ_y a_i(y),  C_i = c_1···c_i,  α̂(i, y) = a_i(y)/c_i,
//	enter̂(i, y)  = Σ_p α̂(i, p)·E(p, y),  enter̂(0, y) = E(START, y),
//
// the sums over the segmentations of the first i tokens, α̂ ending in a
// segment labelled y and enter̂ about to enter one, divided by C_i, their
// total: the ratios C_j/C_{i−1} over at most L − 1 boundaries are products
// of the 1/c kept from the forward pass. So log Z = Σ_i log c_i + Φ(N).
// Backwards, with β̂(N, p) = 1,
//
//	ĥ(i, y) = Σ_len Ψ(i, len, y)·β̂(i+len, y)·C_i/C_{i+len},
//	β̂(i, p) = Σ_y E(p, y)·ĥ(i, y),
//
// the sums over the suffixes from i (ĥ: starting with a segment labelled y,
// β̂: after a segment labelled p) times C_i/Z, so that forward times backward
// is a probability: segment (i, i+len, y) has enter̂(i, y) times its term
// of ĥ(i, y), a transition p → y at boundary i > 0 has α̂(i, p)·E(p, y)·
// ĥ(i, y), and the first label y has E(START, y)·ĥ(0, y). Ψ is kept in
// dst.Segment, each entry overwritten by its probability once the backward
// pass has used it; the transition sums Σ_i α̂(i, p)·ĥ(i, y) are accumulated
// in dst.Trans and multiplied by E once at the end. dst's tables are sized
// and its Trans is zero on entry; n ≥ 1.
func forwardBackwardScaled(dst *Posteriors, n, k, l int, unary, trans []float64, ws *Workspace) bool {
	r, transMax := scaledRange(n, k, l, unary, trans, ws)
	if !(r <= maxScaledRange) {
		return false
	}
	exponentiate(dst.Segment, unary, trans, n, k, l, transMax, ws)
	dst.LogZ = scaledForward(dst.Segment, n, k, l, ws)
	scaledBackward(dst, n, k, l, ws)
	return true
}

// scaledForward fills ws's α̂, enter̂ and 1/c tables from Ψ (psi) and E and
// returns log Z.
func scaledForward(psi []float64, n, k, l int, ws *Workspace) float64 {
	et := ws.fbTrans[:(k+1)*k]
	alpha := grow(&ws.fbAlpha, (n+1)*k) // rows 1..n
	enter := grow(&ws.fbEnter, n*k)
	inv := grow(&ws.fbInv, n+1) // 1/c_i for i = 1..n
	copy(enter[:k], et[k*k:])
	logZ := ws.fbPhi[n]
	for i := 1; i <= n; i++ {
		a := alpha[i*k:][:k]
		clear(a)
		rho := 1.0 // C_{i−len}/C_{i−1}
		for ln := 1; ln <= min(l, i); ln++ {
			if ln > 1 {
				rho *= inv[i-ln+1]
			}
			e, p := enter[(i-ln)*k:][:k], psi[((i-ln)*l+ln-1)*k:][:k]
			for y := range a {
				a[y] += rho * e[y] * p[y]
			}
		}
		var c float64
		for _, v := range a {
			c += v
		}
		inv[i] = 1 / c
		for y := range a {
			a[y] *= inv[i]
		}
		logZ += math.Log(c)
		if i < n {
			addRows(enter[i*k:][:k], a, et, k)
		}
	}
	return logZ
}

// scaledBackward runs the backward recursion over scaledForward's tables,
// turning dst.Segment from Ψ into the segment probabilities and filling
// dst.Trans.
func scaledBackward(dst *Posteriors, n, k, l int, ws *Workspace) {
	psi, et := dst.Segment, ws.fbTrans[:(k+1)*k]
	alpha, enter, inv := ws.fbAlpha[:(n+1)*k], ws.fbEnter[:n*k], ws.fbInv[:n+1]
	// E transposed, so that β̂(i) = E·ĥ(i) is a sum of its columns.
	etT := grow(&ws.fbTransT, k*k)
	for p := range k {
		for y := range k {
			etT[y*k+p] = et[p*k+y]
		}
	}
	h := grow(&ws.fbH, n*k)
	beta := grow(&ws.fbBeta, (n+1)*k)
	last := beta[n*k:][:k]
	for p := range last {
		last[p] = 1
	}
	for i := n - 1; i >= 0; i-- {
		hr, e := h[i*k:][:k], enter[i*k:][:k]
		clear(hr)
		rho := 1.0 // C_i/C_{i+len}
		for ln := 1; ln <= min(l, n-i); ln++ {
			rho *= inv[i+ln]
			b, seg := beta[(i+ln)*k:][:k], psi[(i*l+ln-1)*k:][:k]
			for y := range hr {
				t := seg[y] * b[y] * rho
				hr[y] += t
				seg[y] = t * e[y]
			}
		}
		if i > 0 {
			addRows(beta[i*k:][:k], hr, etT, k)
			addOuter(dst.Trans[:k*k], alpha[i*k:][:k], hr)
		}
	}
	for j, v := range et[:k*k] {
		dst.Trans[j] *= v
	}
	for y, v := range h[:k] {
		dst.Trans[k*k+y] = et[k*k+y] * v
	}
}

// addRows sets dst = Σ_p x[p]·m[p*K:(p+1)*K], a vector-matrix product as a
// sum of rows, so that the inner loop carries no dependency between entries.
func addRows(dst, x, m []float64, k int) {
	clear(dst)
	for p, v := range x {
		if v == 0 {
			continue
		}
		row := m[p*k:][:k]
		for y := range dst {
			dst[y] += v * row[y]
		}
	}
}

// addOuter adds the outer product of x and y into the K×K table dst.
func addOuter(dst, x, y []float64) {
	k := len(y)
	for p, v := range x {
		if v == 0 {
			continue
		}
		row := dst[p*k:][:k]
		for q, w := range y {
			row[q] += v * w
		}
	}
}
