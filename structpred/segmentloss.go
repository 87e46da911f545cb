package structpred

import (
	"errors"
	"fmt"
	"math"
)

// SegmentLoss is the segment loss of Sarawagi & Gupta sec. 4.3.2. Against a true
// segmentation y_i, a predicted segment s = (t, u, y) (u its last token)
// costs
//
//	Misclass[y'*K+y]                          if (t, u, y') ∈ y_i for some y',
//	Precision[y] + Σ_{(t',u',y') ∈ y_i, t ≤ t' ≤ u} Recall[y']   otherwise,
//
// and the loss of a segmentation is the sum over its segments. The recall
// term charges every true segment that starts inside s, exactly as the paper
// writes it; since each true segment starts inside exactly one predicted
// segment, a true span that is not predicted is charged once.
type SegmentLoss struct {
	K         int
	Precision []float64 // p_y, K entries: predicting a segment that is not a true span
	Recall    []float64 // r_y, K entries: missing a true segment labelled y
	Misclass  []float64 // K*K indexed [true*K+pred]: right span, label pred for true
}

// DefaultSegmentLoss returns the loss over k labels with unit precision and recall
// penalties and unit misclassification cost off the diagonal.
func DefaultSegmentLoss(k int) SegmentLoss {
	l := SegmentLoss{K: k, Precision: make([]float64, k), Recall: make([]float64, k), Misclass: make([]float64, k*k)}
	for a := range k {
		l.Precision[a], l.Recall[a] = 1, 1
		for b := range k {
			if a != b {
				l.Misclass[a*k+b] = 1
			}
		}
	}
	return l
}

// Validate reports whether l is well formed: K ≥ 1, tables of K, K and K*K
// entries, all finite and non-negative, and a zero Misclass diagonal (so that
// the truth has loss 0). The decoders only require the shape to match.
func (l SegmentLoss) Validate() error {
	if l.K < 1 {
		return fmt.Errorf("segment loss has K=%d, need K ≥ 1", l.K)
	}
	if len(l.Precision) != l.K || len(l.Recall) != l.K || len(l.Misclass) != l.K*l.K {
		return fmt.Errorf("segment loss tables have %d, %d, %d entries, want K=%d, K=%d, K*K=%d",
			len(l.Precision), len(l.Recall), len(l.Misclass), l.K, l.K, l.K*l.K)
	}
	for _, t := range [][]float64{l.Precision, l.Recall, l.Misclass} {
		for _, v := range t {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("segment loss entry %v is not finite and non-negative", v)
			}
		}
	}
	for a := range l.K {
		if l.Misclass[a*l.K+a] != 0 {
			return errors.New("segment loss has a non-zero Misclass diagonal entry")
		}
	}
	return nil
}

// IsInteger reports whether every penalty is a finite non-negative integer,
// as LossCount requires so that losses can index a table.
func (l SegmentLoss) IsInteger() bool {
	for _, t := range [][]float64{l.Precision, l.Recall, l.Misclass} {
		for _, v := range t {
			if !(v >= 0) || math.IsInf(v, 0) || v != math.Trunc(v) {
				return false
			}
		}
	}
	return true
}

// Of returns L(pred) against truth, the sum of Segment over pred. It panics
// if truth and pred are not segmentations of the same tokens with labels
// below K, or the tables do not match K.
func (l SegmentLoss) Of(truth, pred []Segment) float64 {
	n := l.checkTruth(truth)
	if err := CheckSegmentation(pred, n, l.K, 0); err != nil {
		panic("structpred: SegmentLoss.Of prediction: " + err.Error())
	}
	lab, end := indexTruth(truth, make([]int32, n), make([]int32, n))
	var v float64
	for _, s := range pred {
		v += l.segment(lab, end, s)
	}
	return v
}

// Segment returns the loss L_i(s) of one predicted segment. It panics if
// truth is malformed or s does not lie within its tokens.
func (l SegmentLoss) Segment(truth []Segment, s Segment) float64 {
	n := l.checkTruth(truth)
	if s.Start < 0 || s.End > n || s.End <= s.Start || s.Label < 0 || s.Label >= l.K {
		panic(fmt.Sprintf("structpred: SegmentLoss.Segment of %v with %d tokens and K=%d", s, n, l.K))
	}
	lab, end := indexTruth(truth, make([]int32, n), make([]int32, n))
	return l.segment(lab, end, s)
}

// Max returns the largest loss of any segmentation of truth's tokens into
// segments of length 1..maxLen (the L_max of sec. 3.1). It panics if truth
// is malformed or maxLen < 1.
func (l SegmentLoss) Max(truth []Segment, maxLen int) float64 {
	n := l.checkTruth(truth)
	if maxLen < 1 {
		panic(fmt.Sprintf("structpred: SegmentLoss.Max with maxLen=%d", maxLen))
	}
	tab := make([]float64, n*maxLen*l.K)
	l.Table(tab, truth, n, maxLen, make([]int32, n), make([]int32, n))
	suf := make([]float64, n+1)
	for i := n - 1; i >= 0; i-- {
		suf[i] = math.Inf(-1)
		for ln := 1; ln <= min(maxLen, n-i); ln++ {
			row := tab[(i*maxLen+ln-1)*l.K:][:l.K]
			for _, v := range row {
				suf[i] = max(suf[i], v+suf[i+ln])
			}
		}
	}
	return suf[0]
}

// segment is the loss of s given the truth index. The recall terms are summed
// left to right from zero and then added to the precision penalty, the order
// table uses too, so both give bit-identical values.
func (l SegmentLoss) segment(lab, end []int32, s Segment) float64 {
	if int(end[s.Start]) == s.End {
		return l.Misclass[int(lab[s.Start])*l.K+s.Label]
	}
	var r float64
	for i := s.Start; i < s.End; i++ {
		if c := lab[i]; c >= 0 {
			r += l.Recall[c]
		}
	}
	return l.Precision[s.Label] + r
}

// checkTruth panics unless the loss is well shaped and truth is a
// segmentation of tokens 0..n-1 for some n, which it returns.
func (l SegmentLoss) checkTruth(truth []Segment) int {
	if err := l.CheckShape(); err != nil {
		panic("structpred: " + err.Error())
	}
	n := 0
	if len(truth) > 0 {
		n = truth[len(truth)-1].End
	}
	if err := CheckSegmentation(truth, n, l.K, 0); err != nil {
		panic("structpred: segment loss truth: " + err.Error())
	}
	return n
}

// Table writes into tab (n*maxLen*K entries) the loss of every segment of n
// tokens with length 1..maxLen, at (start*maxLen+length-1)*K+label: the
// layout of a semi-Markov decoder's unary scores, to which loss-augmented
// decoding adds it. lab and end are scratch of n entries. The recall terms
// are summed as Segment sums them, so both give bit-identical values.
func (l SegmentLoss) Table(tab []float64, truth []Segment, n, maxLen int, lab, end []int32) {
	k := l.K
	indexTruth(truth, lab, end)
	for i := range n {
		var r float64
		for ln := 1; ln <= min(maxLen, n-i); ln++ {
			if c := lab[i+ln-1]; c >= 0 {
				r += l.Recall[c]
			}
			row := tab[(i*maxLen+ln-1)*k:][:k]
			if int(end[i]) == i+ln {
				copy(row, l.Misclass[int(lab[i])*k:][:k])
				continue
			}
			for y := range row {
				row[y] = l.Precision[y] + r
			}
		}
	}
}

// indexTruth writes, for every token t, the label and end of the true
// segment starting at t, or -1 for both, into lab and end, and returns them.
func indexTruth(truth []Segment, lab, end []int32) ([]int32, []int32) {
	for i := range lab {
		lab[i], end[i] = -1, -1
	}
	for _, g := range truth {
		lab[g.Start], end[g.Start] = int32(g.Label), int32(g.End)
	}
	return lab, end
}

// CheckShape reports whether the tables have K ≥ 1, K, K and K*K entries,
// all a decoder needs of the loss.
func (l SegmentLoss) CheckShape() error {
	if l.K < 1 || len(l.Precision) != l.K || len(l.Recall) != l.K || len(l.Misclass) != l.K*l.K {
		return fmt.Errorf("segment loss with K=%d has tables of %d, %d, %d entries",
			l.K, len(l.Precision), len(l.Recall), len(l.Misclass))
	}
	return nil
}

// CheckSegmentation reports whether segs is a segmentation of n tokens: its
// segments are non-empty, start at 0, follow each other without gaps and end
// at n, have labels in [0, k) and, if maxLen > 0, length at most maxLen.
func CheckSegmentation(segs []Segment, n, k, maxLen int) error {
	pos := 0
	for j, g := range segs {
		switch {
		case g.Start != pos:
			return fmt.Errorf("segment %d %v starts at %d, want %d", j, g, g.Start, pos)
		case g.End <= g.Start:
			return fmt.Errorf("segment %d %v is empty", j, g)
		case maxLen > 0 && g.End-g.Start > maxLen:
			return fmt.Errorf("segment %d %v is longer than L=%d", j, g, maxLen)
		case g.Label < 0 || g.Label >= k:
			return fmt.Errorf("segment %d %v has label out of range [0,%d)", j, g, k)
		}
		pos = g.End
	}
	if pos != n {
		return fmt.Errorf("segmentation covers %d tokens, want %d", pos, n)
	}
	return nil
}
