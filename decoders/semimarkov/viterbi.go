package semimarkov

import (
	"math"

	"github.com/maxmargin/repro/structpred"
)

// Viterbi returns argmax_y s(y), the smallest in [Compare] order among ties,
// in O(N·(L·K + K²)) time. With a reused Workspace the only allocation is the
// returned segmentation.
func Viterbi(s *Scores, ws *Workspace) Result {
	s.check()
	ws = ws.orNew()
	return viterbi(s.N, s.K, s.L, s.Unary, s.trans(ws), ws)
}

// LossAugmented returns argmax_y s(y) + scale*loss.Of(truth, y), the
// margin-scaling inference problem; the loss decomposes over predicted
// segments, so it is one more term per segment. Score is the augmented value
// (summed along the segmentation, so it equals s.Score(y)+scale*loss.Of(truth,
// y) up to rounding). Ties go to the smallest segmentation in [Compare]
// order. It panics if truth is not a segmentation of the N tokens (its
// segments may be longer than L) or loss.K != s.K.
func LossAugmented(s *Scores, truth []structpred.Segment, loss Loss, scale float64, ws *Workspace) Result {
	s.check()
	checkLoss(loss, s, truth)
	ws = ws.orNew()
	return viterbi(s.N, s.K, s.L, augment(loss, s, truth, scale, ws), s.trans(ws), ws)
}

// BestExcluding returns argmax over y ≠ truth of s(y) + scale*loss.Of(truth, y)
// (the smallest in [Compare] order among ties), the top-2 step of
// ApproxSlack. ok is false when truth is the only segmentation.
//
// Rather than keeping two entries per state, it uses that every y ≠ truth
// leaves the truth at a first segment: for each prefix of the truth and each
// different next segment, the best completion is read off the backward
// Viterbi table, so the cost is one Viterbi pass plus O(N·L·K). A truth with a
// segment longer than L is not a segmentation of the model, and then the
// answer is simply the loss-augmented MAP.
func BestExcluding(s *Scores, truth []structpred.Segment, loss Loss, scale float64, ws *Workspace) (best Result, ok bool) {
	s.check()
	checkLoss(loss, s, truth)
	ws = ws.orNew()
	n, k, l := s.N, s.K, s.L
	u, trans := augment(loss, s, truth, scale, ws), s.trans(ws)
	if CheckSegmentation(truth, n, k, l) != nil {
		return viterbi(n, k, l, u, trans, ws), true
	}
	backward(n, k, l, u, trans, ws)
	b := ws.b

	// The deviation (j, y, ln): truth[:j], then [truth[j].Start, +ln) labelled y.
	var (
		found  bool
		bestV  = math.Inf(-1)
		bj, by int
		bln    int
		above  bool // the best's deviating segment is after truth[bj] in Compare order
		pre    float64
		prev   = k
	)
	for j, g := range truth {
		i := g.Start
		for y := range k {
			tr := trans[prev*k+y]
			for ln := 1; ln <= min(l, n-i); ln++ {
				if y == g.Label && i+ln == g.End {
					continue
				}
				v := pre + (tr + (u[(i*l+ln-1)*k+y] + b[(i+ln)*(k+1)+y]))
				// Within one j candidates come in Compare order, so the
				// first of equals wins. A later j follows truth[bj], so
				// it is smaller exactly when the best's segment is
				// after truth[bj].
				if !found || v > bestV || (v == bestV && j != bj && above) {
					found, bestV, bj, by, bln = true, v, j, y, ln
					above = compareSeg(structpred.Segment{Start: i, End: i + ln, Label: y}, g) > 0
				}
			}
		}
		pre += trans[prev*k+g.Label] + u[(i*l+g.End-i-1)*k+g.Label]
		prev = g.Label
	}
	if !found {
		return Result{}, false
	}
	segs := append(ws.segs[:0], truth[:bj]...)
	start := truth[bj].Start
	segs = append(segs, structpred.Segment{Start: start, End: start + bln, Label: by})
	segs = decode(n, k, start+bln, by, ws, segs)
	ws.segs = segs
	return result(u, trans, k, l, segs), true
}

// viterbi runs the backward pass and decodes from the start.
func viterbi(n, k, l int, unary, trans []float64, ws *Workspace) Result {
	backward(n, k, l, unary, trans, ws)
	ws.segs = decode(n, k, 0, k, ws, ws.segs[:0])
	return result(unary, trans, k, l, ws.segs)
}

// result copies segs into a fresh exactly sized slice (non-nil even when
// empty) and scores it.
func result(unary, trans []float64, k, l int, segs []structpred.Segment) Result {
	out := make([]structpred.Segment, len(segs))
	copy(out, segs)
	return Result{Segments: out, Score: pathScore(unary, trans, k, l, out)}
}

// backward fills, in ws, the backward max-product tables
//
//	h[i*K+y]     = best score of tokens i..N-1 whose first segment has label y,
//	               excluding that segment's transition score,
//	b[i*(K+1)+p] = best score of tokens i..N-1 after a segment labelled p
//	               (p = K: START), with b[N*(K+1)+p] = 0,
//
// and the back-pointers first[i*K+y] (length of that first segment) and
// next[i*(K+1)+p] (its label). Splitting the max over (length, label) in two
// is what makes a pass O(N·(L·K + K²)). Ties go to the lowest label and then
// the shortest length, so following the pointers from (0, START) yields the
// smallest optimum in Compare order; decoding forwards after a backward pass
// is what makes that possible.
func backward(n, k, l int, unary, trans []float64, ws *Workspace) {
	h := grow(&ws.h, n*k)
	b := grow(&ws.b, (n+1)*(k+1))
	first := grow(&ws.first, n*k)
	next := grow(&ws.next, n*(k+1))
	clear(b[n*(k+1):])
	for i := n - 1; i >= 0; i-- {
		hr, fr := h[i*k:(i+1)*k], first[i*k:(i+1)*k]
		for ln := 1; ln <= min(l, n-i); ln++ {
			ur := unary[(i*l+ln-1)*k:][:k]
			br := b[(i+ln)*(k+1):][:k]
			for y := range hr {
				// Strict > keeps the shortest length among ties.
				if v := ur[y] + br[y]; ln == 1 || v > hr[y] {
					hr[y], fr[y] = v, int32(ln)
				}
			}
		}
		for p := range k + 1 {
			tr := trans[p*k:][:k]
			bi, bv := 0, tr[0]+hr[0]
			for y := 1; y < k; y++ {
				if v := tr[y] + hr[y]; v > bv {
					bi, bv = y, v
				}
			}
			b[i*(k+1)+p], next[i*(k+1)+p] = bv, int32(bi)
		}
	}
}

// decode appends to dst the segments chosen by the back-pointers of the last
// backward pass, from token i after a segment labelled prev.
func decode(n, k, i, prev int, ws *Workspace, dst []structpred.Segment) []structpred.Segment {
	for i < n {
		y := int(ws.next[i*(k+1)+prev])
		e := i + int(ws.first[i*k+y])
		dst = append(dst, structpred.Segment{Start: i, End: e, Label: y})
		i, prev = e, y
	}
	return dst
}
