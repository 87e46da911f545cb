package semimarkov

import (
	"cmp"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// KBest returns the k highest-scoring segmentations in decreasing order of
// score, or all of them if there are fewer, each with Score = s.Score of it.
// Ties are ordered by [Compare], smaller segmentation first, so KBest(s, 1,
// ws)[0] is Viterbi(s, ws). It returns nil if k < 1.
//
// It is list Viterbi over segment boundaries: for every boundary i and label
// y it keeps the k best suffixes of tokens i..N-1 whose first segment is
// labelled y, and for every boundary and previous label the k best suffixes
// after it, in O(N·(L·K + K²)·k) time and O(N·K·k) memory. With a reused
// Workspace the only allocations are the returned list and one array backing
// all its segmentations.
func KBest(s *Scores, k int, ws *Workspace) []Result {
	s.check()
	ws = ws.orNew()
	return kbest(s.N, s.K, s.L, k, s.Unary, s.trans(ws), ws)
}

// LossAugmentedKBest returns the k best segmentations under
// s(y) + scale*loss.Of(truth, y), ordered as in KBest; Score is the augmented
// value, summed along the segmentation as in LossAugmented, whose result is
// the first entry. This is the k-best MIRA oracle: the loss decomposes over
// predicted segments, so it is KBest on augmented unary scores. It panics if
// truth is not a segmentation of the N tokens (its segments may be longer
// than L) or loss.K != s.K.
func LossAugmentedKBest(s *Scores, truth []structpred.Segment, loss Loss, scale float64, k int, ws *Workspace) []Result {
	s.check()
	checkLoss(loss, s, truth)
	ws = ws.orNew()
	return kbest(s.N, s.K, s.L, k, augment(loss, s, truth, scale, ws), s.trans(ws), ws)
}

// kbest runs list Viterbi backwards, so that ties can follow Compare order as
// in viterbi (Compare reads segmentations from the left, so the suffix lists
// must be built from the right). With m the list length, it keeps
//
//	H(i, y): the m best suffixes of tokens i..N-1 whose first segment is
//	         labelled y, excluding that segment's transition score; entry
//	         (score, length of the first segment, rank in B(i+length, y));
//	B(i, p): the m best suffixes of tokens i..N-1 after a segment labelled p
//	         (p = K: START, only at i = 0); entry (score, first label, rank
//	         in H(i, label)); B(N, p) is the single empty suffix.
//
// Each list is sorted by score and then by suffix in Compare order. H(i, y)
// merges the lists B(i+len, y), len = 1..L, with ties to the shorter first
// segment; B(i, p) merges the lists H(i, y), ties to the lower label. Since a
// suffix's first segment is compared by label and then end, and the rest by
// its rank in the list it came from, both merges keep that order. The values
// are the very expressions backward compares, so rank 0 of every list is
// viterbi's choice.
func kbest(n, k, l, m int, unary, trans []float64, ws *Workspace) []Result {
	if m < 1 {
		return nil
	}
	if n == 0 {
		return []Result{{Segments: []structpred.Segment{}}}
	}
	// No list can be longer than the number of segmentations, so a k far
	// beyond it costs nothing.
	m = countSegmentations(n, k, l, m, &ws.kTotal)
	hSize, bSize := n*k*m, (n+1)*(k+1)*m
	hScore, hLen, hRank := grow(&ws.khScore, hSize), grow(&ws.khLen, hSize), grow(&ws.khRank, hSize)
	bScore, bNext, bRank := grow(&ws.kbScore, bSize), grow(&ws.kbNext, bSize), grow(&ws.kbRank, bSize)
	hCount, bCount := grow(&ws.khCount, n*k), grow(&ws.kbCount, (n+1)*(k+1))
	heads, lefts, vals := grow(&ws.kHeads, max(k, l)), grow(&ws.kLeft, max(k, l)), grow(&ws.kVals, max(k, l))

	for p := range k {
		j := (n*(k+1) + p) * m
		bScore[j], bNext[j], bRank[j] = 0, -1, -1
		bCount[n*(k+1)+p] = 1
	}
	for i := n - 1; i >= 0; i-- {
		lens := min(l, n-i)
		for y := range k {
			// Merge the lists B(i+len, y), len = 1..lens, keeping each
			// list's head value u + score in val and its rank in hd.
			hd, left, val := heads[:lens], lefts[:lens], vals[:lens]
			for ln := range hd {
				at := (i+ln+1)*(k+1) + y
				hd[ln], left[ln] = 0, bCount[at]
				val[ln] = unary[(i*l+ln)*k+y] + bScore[at*m]
			}
			base := (i*k + y) * m
			r := 0
			for ; r < m; r++ {
				best, bv := bestHead(val, left) // the shortest among ties
				if best < 0 {
					break
				}
				hScore[base+r], hLen[base+r], hRank[base+r] = bv, int32(best+1), hd[best]
				hd[best]++
				if left[best]--; left[best] > 0 {
					at := (i+best+1)*(k+1) + y
					val[best] = unary[(i*l+best)*k+y] + bScore[at*m+int(hd[best])]
				}
			}
			hCount[i*k+y] = int32(r)
		}
		// B(i, p) for the previous labels that can occur at i.
		pFrom, pTo := 0, k
		if i == 0 {
			pFrom, pTo = k, k+1
		}
		for p := pFrom; p < pTo; p++ {
			// Merge the lists H(i, y), y < K, likewise; the lowest label
			// wins ties.
			row := trans[p*k:][:k]
			hd, left, val := heads[:k], lefts[:k], vals[:k]
			for y := range hd {
				hd[y], left[y] = 0, hCount[i*k+y]
				val[y] = row[y] + hScore[(i*k+y)*m]
			}
			base := (i*(k+1) + p) * m
			r := 0
			for ; r < m; r++ {
				best, bv := bestHead(val, left)
				if best < 0 {
					break
				}
				bScore[base+r], bNext[base+r], bRank[base+r] = bv, int32(best), hd[best]
				hd[best]++
				if left[best]--; left[best] > 0 {
					val[best] = row[best] + hScore[(i*k+best)*m+int(hd[best])]
				}
			}
			bCount[i*(k+1)+p] = int32(r)
		}
	}

	// Decode every entry of B(0, START) into ws.segs, one after the other,
	// then copy them into a single exactly sized backing array.
	count := int(bCount[k])
	ends := grow(&ws.kEnds, count)
	segs := ws.segs[:0]
	for r := range count {
		i, p, rank := 0, k, r
		for i < n {
			j := (i*(k+1)+p)*m + rank
			y := int(bNext[j])
			hj := (i*k+y)*m + int(bRank[j])
			e := i + int(hLen[hj])
			segs = append(segs, structpred.Segment{Start: i, End: e, Label: y})
			i, p, rank = e, y, int(hRank[hj])
		}
		ends[r] = len(segs)
	}
	ws.segs = segs
	buf := make([]structpred.Segment, len(segs))
	copy(buf, segs)
	out := make([]Result, count)
	from := 0
	for r, to := range ends {
		y := buf[from:to:to]
		out[r] = Result{Segments: y, Score: pathScore(unary, trans, k, l, y)}
		from = to
	}
	// Re-sort on the reported scores: summing along the segmentation can
	// differ from the backward sums in the last bit, and the order must agree
	// with the Score fields it shows.
	slices.SortFunc(out, func(a, b Result) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return Compare(a.Segments, b.Segments)
	})
	return out
}

// bestHead returns the list whose head value val is largest among the lists
// with entries left, the first among ties, and that value; -1 if every list
// is exhausted.
func bestHead(val []float64, left []int32) (int, float64) {
	best, bv := -1, 0.0
	for j, v := range val {
		if left[j] > 0 && (best < 0 || v > bv) {
			best, bv = j, v
		}
	}
	return best, bv
}

// countSegmentations returns the number of segmentations of n tokens into
// segments of length 1..l over k labels, c(i) = k·Σ_len c(i−len), or limit if
// it is larger (saturating, so no step overflows). c is scratch.
func countSegmentations(n, k, l, limit int, c *[]int) int {
	cs := grow(c, n+1)
	cs[0] = min(1, limit)
	for i := 1; i <= n; i++ {
		s := 0
		for ln := 1; ln <= min(l, i); ln++ {
			if s > limit-cs[i-ln] {
				s = limit
				break
			}
			s += cs[i-ln]
		}
		if s > limit/k {
			s = limit
		} else {
			s = min(s*k, limit)
		}
		cs[i] = s
	}
	return cs[n]
}
