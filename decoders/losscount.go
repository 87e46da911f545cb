package decoders

import (
	"errors"
	"fmt"
	"math"
)

// maxLossCountCells bounds the N·K·(MaxLoss+1) table of LossCount, so that a
// cost with huge integer entries returns an error instead of exhausting
// memory.
const maxLossCountCells = 1 << 27

// LossCount is the exact slack-scaling inference of Sarawagi & Gupta (the
// "quadratic" algorithm that finds the MAP for each possible error value): a
// Viterbi over (position, label, loss so far). For every loss value
// l = 0..MaxLoss(truth) it returns in out[l] the highest-scoring labeling
// whose loss against truth is exactly l, the lexicographically smallest among
// ties. Scores are plain s(y), not augmented. When no labeling has loss l,
// out[l] has nil Labels and Score -Inf.
//
// Time is O(N·K²·MaxLoss) and memory O(N·K·MaxLoss), quadratic in N for
// Hamming loss. It returns an error if the cost is not integer valued
// (IsInteger) or the table would exceed 2^27 cells. It panics if truth is not
// a labeling of c or cost.K != c.K.
func LossCount(c *Chain, truth []int, cost Cost, ws *Workspace) ([]Scored, error) {
	c.check()
	cost.check(c, truth)
	if !cost.IsInteger() {
		return nil, errors.New("decoders: LossCount needs a cost with non-negative integer entries")
	}
	ws = ws.orNew()
	n, k := c.N, c.K
	maxLoss := cost.MaxLoss(truth)
	if float64(n*k)*(maxLoss+1) > maxLossCountCells {
		return nil, fmt.Errorf("decoders: LossCount table of %d×%d×%v cells is too large", n, k, maxLoss+1)
	}
	width := int(maxLoss) + 1
	trans := c.trans(ws)

	// loss[t*k+y] is the loss of labeling position t as y; suf[t] bounds the
	// loss of positions t..n-1 and limits the loops to reachable values.
	loss := grow(&ws.lcLoss, n*k)
	suf := grow(&ws.lcSuf, n+1)
	suf[n] = 0
	for t := n - 1; t >= 0; t-- {
		row := cost.M[truth[t]*k : (truth[t]+1)*k]
		mx := 0
		for y, v := range row {
			loss[t*k+y] = int(v)
			mx = max(mx, int(v))
		}
		suf[t] = suf[t+1] + mx
	}

	// tab[(t*k+y)*width+l] = best score of positions t..n-1 with y_t = y and
	// loss exactly l over those positions (-Inf if impossible). As in viterbi
	// the pass runs backwards so decoding can break ties lexicographically.
	tab := grow(&ws.lcTab, n*k*width)
	for i := range tab {
		tab[i] = math.Inf(-1)
	}
	for y := range k {
		if n > 0 {
			tab[((n-1)*k+y)*width+loss[(n-1)*k+y]] = c.Unary[(n-1)*k+y]
		}
	}
	for t := n - 2; t >= 0; t-- {
		for y := range k {
			dst := tab[(t*k+y)*width : (t*k+y+1)*width]
			off := loss[t*k+y]
			for y2 := range k {
				tr := trans[y*k+y2]
				src := tab[((t+1)*k+y2)*width : ((t+1)*k+y2)*width+suf[t+1]+1]
				d := dst[off : off+len(src)]
				for l, v := range src {
					d[l] = max(d[l], tr+v)
				}
			}
			u := c.Unary[t*k+y]
			for l := range dst {
				dst[l] += u
			}
		}
	}

	out := make([]Scored, width)
	for l := range out {
		out[l] = Scored{Score: math.Inf(-1)}
	}
	if n == 0 {
		out[0] = Scored{Labels: []int{}}
		return out, nil
	}
	w := grow(&ws.tmp, k)
	for l := range out {
		for y := range k {
			w[y] = tab[y*width+l]
		}
		y := argmaxPlus(nil, w)
		if math.IsInf(w[y], -1) {
			continue
		}
		labels := make([]int, n)
		labels[0] = y
		rem := l - loss[y]
		for t := 1; t < n; t++ {
			for y2 := range k {
				if rem >= 0 {
					w[y2] = tab[(t*k+y2)*width+rem]
				} else {
					w[y2] = math.Inf(-1)
				}
			}
			p := labels[t-1]
			labels[t] = argmaxPlus(trans[p*k:(p+1)*k], w)
			rem -= loss[t*k+labels[t]]
		}
		out[l] = Scored{Labels: labels, Score: pathScore(c.Unary, trans, k, labels)}
	}
	return out, nil
}
