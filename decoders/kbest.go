package decoders

import (
	"cmp"
	"slices"
)

// KBest returns the k highest-scoring distinct labelings in decreasing order
// of score, or all K^N of them if there are fewer. Ties are ordered
// lexicographically, smaller labeling first. It returns nil if k < 1.
//
// It is list Viterbi: for every (t, y) it keeps the k best suffixes starting
// with y_t = y, in O(N·K²·k) time.
func KBest(c *Chain, k int, ws *Workspace) []Scored {
	c.check()
	ws = ws.orNew()
	return kbest(c.N, c.K, k, c.Unary, c.trans(ws), ws)
}

// LossAugmentedKBest returns the k best labelings under
// s(y) + scale*cost.Loss(truth, y), ordered as in KBest; Score is the
// augmented value. It panics if truth is not a labeling of c or
// cost.K != c.K.
func LossAugmentedKBest(c *Chain, truth []int, cost Cost, scale float64, k int, ws *Workspace) []Scored {
	c.check()
	cost.check(c, truth)
	ws = ws.orNew()
	return kbest(c.N, c.K, k, cost.augment(c, truth, scale, ws), c.trans(ws), ws)
}

// BestExcluding returns argmax over y ≠ truth of s(y) + scale*cost.Loss(truth, y)
// (the lexicographically smallest among ties), taken from the 2-best list: if
// the best labeling is the truth the answer is the runner-up. ok is false when
// truth is the only labeling (K^N = 1).
func BestExcluding(c *Chain, truth []int, cost Cost, scale float64, ws *Workspace) (best Scored, ok bool) {
	for _, s := range LossAugmentedKBest(c, truth, cost, scale, 2, ws) {
		if !slices.Equal(s.Labels, truth) {
			return s, true
		}
	}
	return Scored{}, false
}

// kbest runs list Viterbi backwards so that, as in viterbi, ties can be
// ordered lexicographically: each (t, y) list is sorted by score and then by
// suffix, and merging the K successor lists by (score, next label, rank)
// keeps that order.
func kbest(n, k, m int, unary, trans []float64, ws *Workspace) []Scored {
	return kbestWith(n, k, m, unary, trans, ws, m == 2)
}

// kbestWith is kbest; top2 (for m = 2 only) builds each (t, y) list in one
// scan of the successors instead of two merges, with the same result for
// scores without NaN (with NaN the two rules may pick different labels).
func kbestWith(n, k, m int, unary, trans []float64, ws *Workspace, top2 bool) []Scored {
	if m < 1 {
		return nil
	}
	if n == 0 {
		return []Scored{{Labels: []int{}}}
	}
	size := n * k * m
	score := grow(&ws.lScore, size)
	next := grow(&ws.lNext, size)
	rank := grow(&ws.lRank, size)
	count := grow(&ws.lCount, n*k)
	heads := grow(&ws.heads, k)

	last := (n - 1) * k
	for y := range k {
		i := (last + y) * m
		score[i], next[i], rank[i] = unary[last+y], -1, 0
		count[last+y] = 1
	}
	for t := n - 2; t >= 0; t-- {
		succ := (t + 1) * k
		for y := range k {
			base := (t*k + y) * m
			row := trans[y*k : (y+1)*k]
			u := unary[t*k+y]
			if top2 {
				count[t*k+y] = listTop2(row, score[succ*2:(succ+k)*2], count[succ:succ+k], u, score[base:base+2], next[base:base+2], rank[base:base+2])
				continue
			}
			clear(heads)
			r := 0
			for ; r < m; r++ {
				y2, v := mergeHead(row, score, count[succ:succ+k], heads, succ, m)
				if y2 < 0 {
					break
				}
				score[base+r] = u + v
				next[base+r] = int32(y2)
				rank[base+r] = heads[y2]
				heads[y2]++
			}
			count[t*k+y] = int32(r)
		}
	}

	// Merge the K lists of position 0 into the answer.
	clear(heads)
	type pick struct{ y, r int32 }
	picks := make([]pick, 0, m)
	for len(picks) < m {
		y, _ := mergeHead(nil, score, count[:k], heads, 0, m)
		if y < 0 {
			break
		}
		picks = append(picks, pick{int32(y), heads[y]})
		heads[y]++
	}

	out := make([]Scored, len(picks))
	buf := make([]int, len(picks)*n)
	for i, p := range picks {
		labels := buf[i*n : (i+1)*n : (i+1)*n]
		y, r := p.y, p.r
		for t := range n {
			labels[t] = int(y)
			j := (t*k+int(y))*m + int(r)
			y, r = next[j], rank[j]
		}
		out[i] = Scored{Labels: labels, Score: pathScore(unary, trans, k, labels)}
	}
	// Re-sort on the reported scores: summing along the path can differ from
	// the backward sums in the last bit, and the output order must agree with
	// the Score fields it shows.
	slices.SortFunc(out, func(a, b Scored) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return slices.Compare(a.Labels, b.Labels)
	})
	return out
}

// listTop2 fills the 2-best list of one (t, y) for m = 2: the two best of
// u + row[y'] + the successor lists' entries, which is what two mergeHead
// calls choose, in one scan. succ holds the K successor lists (2 slots
// each), count their lengths (at least 1). Among the rank-0 heads, it
// keeps the best and the best of the others, each by mergeHead's rule
// (largest value, lowest label on ties); the runner-up is then the better
// of the second head and the best list's rank-1 entry. It returns the
// list's length.
func listTop2(row, succ []float64, count []int32, u float64, score []float64, next, rank []int32) int32 {
	y1, v1, y2, v2 := -1, 0.0, -1, 0.0
	for y, r := range row {
		v := succ[2*y] + r
		switch {
		case y1 < 0 || v > v1:
			y2, v2 = y1, v1
			y1, v1 = y, v
		case y2 < 0 || v > v2:
			y2, v2 = y, v
		}
	}
	score[0], next[0], rank[0] = u+v1, int32(y1), 0
	if count[y1] > 1 {
		// The best list's second entry competes with the other heads; on a
		// tie the lower label wins, as in mergeHead.
		if c := succ[2*y1+1] + row[y1]; y2 < 0 || c > v2 || (c == v2 && y1 < y2) {
			y2, v2 = y1, c
		}
	}
	if y2 < 0 {
		return 1
	}
	score[1], next[1], rank[1] = u+v2, int32(y2), 0
	if y2 == y1 {
		rank[1] = 1
	}
	return 2
}

// mergeHead returns the label y whose current list head (at rank heads[y] of
// list (succ+y)) maximises row[y] + score, with the lowest y winning ties, and
// that value; y = -1 if every list is exhausted. A nil row counts as zeros.
func mergeHead(row, score []float64, count, heads []int32, succ, m int) (int, float64) {
	best, bv := -1, 0.0
	for y, h := range heads {
		if h >= count[y] {
			continue
		}
		v := score[(succ+y)*m+int(h)]
		if row != nil {
			v += row[y]
		}
		if best < 0 || v > bv {
			best, bv = y, v
		}
	}
	return best, bv
}
