package semimarkov

import (
	"errors"
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// maxLossCountCells bounds the tables of LossCount, so that a loss with huge
// integer penalties returns an error instead of exhausting memory.
const maxLossCountCells = 1 << 27

// LossCount is the exact slack-scaling inference of Sarawagi & Gupta (the
// algorithm that finds the MAP for each possible error value): a semi-Markov
// Viterbi over (token, label, loss so far). For every loss value
// v = 0..loss.Max(truth, L) it returns in out[v] the highest-scoring
// segmentation whose loss against truth is exactly v, the smallest in
// [Compare] order among ties. Scores are plain s(y), not augmented. When no
// segmentation has loss v, out[v] has nil Segments and Score -Inf.
//
// Time is O(N·(L·K + K²)·Lmax) and memory O(N·K·Lmax). It returns an error if
// the loss is not integer valued (IsInteger) or the tables would exceed 2^27
// cells. It panics if truth is not a segmentation of the N tokens (its
// segments may be longer than L) or loss.K != s.K.
func LossCount(s *Scores, truth []structpred.Segment, loss Loss, ws *Workspace) ([]Result, error) {
	s.check()
	checkLoss(loss, s, truth)
	if !loss.IsInteger() {
		return nil, errors.New("semimarkov: LossCount needs a loss with non-negative integer penalties")
	}
	ws = ws.orNew()
	n, k, l := s.N, s.K, s.L
	trans := s.trans(ws)

	// lossOf[idx] is the integer loss of a segment; suf[i] is the largest loss
	// of tokens i..n-1 and bounds the loops to reachable values.
	tab := lossTable(loss, truth, n, l, ws)
	lossOf := grow(&ws.lcLoss, len(tab))
	suf := grow(&ws.lcSuf, n+1)
	suf[n] = 0
	for i := n - 1; i >= 0; i-- {
		best := 0
		for ln := 1; ln <= min(l, n-i); ln++ {
			for y := range k {
				idx := (i*l+ln-1)*k + y
				if tab[idx] > maxLossCountCells {
					return nil, fmt.Errorf("semimarkov: LossCount segment loss %v is too large", tab[idx])
				}
				lossOf[idx] = int(tab[idx])
				best = max(best, lossOf[idx]+suf[i+ln])
			}
		}
		suf[i] = best
	}
	width := suf[0] + 1
	if float64(n*k+(n+1)*(k+1))*float64(width) > maxLossCountCells {
		return nil, fmt.Errorf("semimarkov: LossCount tables of %d×%d×%d cells are too large", n+1, k+1, width)
	}

	// As in backward, with a loss dimension:
	//   hh[(i*k+y)*width+v]     best score of tokens i..n-1, first label y, loss v,
	//                           excluding the first transition;
	//   bb[(i*(k+1)+p)*width+v] best score of tokens i..n-1 after label p, loss v.
	hh := grow(&ws.lcH, n*k*width)
	bb := grow(&ws.lcB, (n+1)*(k+1)*width)
	inf := math.Inf(-1)
	for i := range hh {
		hh[i] = inf
	}
	for i := range bb {
		bb[i] = inf
	}
	for p := range k + 1 {
		bb[(n*(k+1)+p)*width] = 0
	}
	for i := n - 1; i >= 0; i-- {
		for ln := 1; ln <= min(l, n-i); ln++ {
			for y := range k {
				idx := (i*l+ln-1)*k + y
				u, off := s.Unary[idx], lossOf[idx]
				src := bb[((i+ln)*(k+1)+y)*width:][:suf[i+ln]+1]
				dst := hh[(i*k+y)*width+off:][:len(src)]
				for v, x := range src {
					if c := u + x; c > dst[v] {
						dst[v] = c
					}
				}
			}
		}
		for p := range k + 1 {
			dst := bb[(i*(k+1)+p)*width:][:suf[i]+1]
			for y := range k {
				tr := trans[p*k+y]
				src := hh[(i*k+y)*width:][:len(dst)]
				for v, x := range src {
					if c := tr + x; c > dst[v] {
						dst[v] = c
					}
				}
			}
		}
	}

	out := make([]Result, width)
	for v := range out {
		out[v] = Result{Score: inf}
		if math.IsInf(bb[k*width+v], -1) {
			continue
		}
		// Decode forwards, taking the lowest label and then the shortest
		// length that still reach an optimum with the remaining loss; the
		// expressions are the table's own, so the comparisons are exact.
		segs := ws.segs[:0]
		i, prev, rem := 0, k, v
		for i < n {
			by, bv := -1, inf
			for y := range k {
				if c := trans[prev*k+y] + hh[(i*k+y)*width+rem]; by < 0 || c > bv {
					by, bv = y, c
				}
			}
			bln, bv := 0, inf
			for ln := 1; ln <= min(l, n-i); ln++ {
				idx := (i*l+ln-1)*k + by
				r := rem - lossOf[idx]
				if r < 0 || r > suf[i+ln] {
					continue
				}
				if c := s.Unary[idx] + bb[((i+ln)*(k+1)+by)*width+r]; bln == 0 || c > bv {
					bln, bv = ln, c
				}
			}
			segs = append(segs, structpred.Segment{Start: i, End: i + bln, Label: by})
			rem -= lossOf[(i*l+bln-1)*k+by]
			i, prev = i+bln, by
		}
		ws.segs = segs
		out[v] = result(s.Unary, trans, k, l, segs)
	}
	return out, nil
}
