package semimarkov

import (
	"errors"
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// Loss is the segment loss of Sarawagi & Gupta sec. 4.3.2. Against a true
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
type Loss struct {
	K         int
	Precision []float64 // p_y, K entries: predicting a segment that is not a true span
	Recall    []float64 // r_y, K entries: missing a true segment labelled y
	Misclass  []float64 // K*K indexed [true*K+pred]: right span, label pred for true
}

// DefaultLoss returns the loss over k labels with unit precision and recall
// penalties and unit misclassification cost off the diagonal.
func DefaultLoss(k int) Loss {
	l := Loss{K: k, Precision: make([]float64, k), Recall: make([]float64, k), Misclass: make([]float64, k*k)}
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
func (l Loss) Validate() error {
	if l.K < 1 {
		return fmt.Errorf("semimarkov: loss has K=%d, need K ≥ 1", l.K)
	}
	if len(l.Precision) != l.K || len(l.Recall) != l.K || len(l.Misclass) != l.K*l.K {
		return fmt.Errorf("semimarkov: loss tables have %d, %d, %d entries, want K=%d, K=%d, K*K=%d",
			len(l.Precision), len(l.Recall), len(l.Misclass), l.K, l.K, l.K*l.K)
	}
	for _, t := range [][]float64{l.Precision, l.Recall, l.Misclass} {
		for _, v := range t {
			if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
				return fmt.Errorf("semimarkov: loss entry %v is not finite and non-negative", v)
			}
		}
	}
	for a := range l.K {
		if l.Misclass[a*l.K+a] != 0 {
			return errors.New("semimarkov: loss has a non-zero Misclass diagonal entry")
		}
	}
	return nil
}

// IsInteger reports whether every penalty is a finite non-negative integer,
// as LossCount requires so that losses can index a table.
func (l Loss) IsInteger() bool {
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
func (l Loss) Of(truth, pred []structpred.Segment) float64 {
	n := l.checkTruth(truth)
	if err := CheckSegmentation(pred, n, l.K, 0); err != nil {
		panic("semimarkov: Loss.Of prediction: " + err.Error())
	}
	lab, end := indexTruth(truth, n, nil)
	var v float64
	for _, s := range pred {
		v += l.segment(lab, end, s)
	}
	return v
}

// Segment returns the loss L_i(s) of one predicted segment. It panics if
// truth is malformed or s does not lie within its tokens.
func (l Loss) Segment(truth []structpred.Segment, s structpred.Segment) float64 {
	n := l.checkTruth(truth)
	if s.Start < 0 || s.End > n || s.End <= s.Start || s.Label < 0 || s.Label >= l.K {
		panic(fmt.Sprintf("semimarkov: Loss.Segment of %v with %d tokens and K=%d", s, n, l.K))
	}
	lab, end := indexTruth(truth, n, nil)
	return l.segment(lab, end, s)
}

// Max returns the largest loss of any segmentation of truth's tokens into
// segments of length 1..maxLen (the L_max of sec. 3.1). It panics if truth
// is malformed or maxLen < 1.
func (l Loss) Max(truth []structpred.Segment, maxLen int) float64 {
	n := l.checkTruth(truth)
	if maxLen < 1 {
		panic(fmt.Sprintf("semimarkov: Loss.Max with maxLen=%d", maxLen))
	}
	ws := new(Workspace)
	tab := l.table(truth, n, maxLen, ws)
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
func (l Loss) segment(lab, end []int32, s structpred.Segment) float64 {
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

// table writes the loss of every segment of n tokens with length 1..maxLen
// into ws.loss, laid out like Scores.Unary.
func (l Loss) table(truth []structpred.Segment, n, maxLen int, ws *Workspace) []float64 {
	k := l.K
	lab, end := indexTruth(truth, n, ws)
	tab := grow(&ws.loss, n*maxLen*k)
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
	return tab
}

// augment writes Unary + scale*loss into ws.aug. Because the loss decomposes
// over predicted segments, loss-augmented inference is plain inference on
// these unaries.
func (l Loss) augment(s *Scores, truth []structpred.Segment, scale float64, ws *Workspace) []float64 {
	tab := l.table(truth, s.N, s.L, ws)
	aug := grow(&ws.aug, len(s.Unary))
	for i, u := range s.Unary {
		aug[i] = u + scale*tab[i]
	}
	return aug
}

// indexTruth returns, for every token t, the label and end of the true
// segment starting at t, or -1 for both. The slices come from ws, or are
// allocated if ws is nil.
func indexTruth(truth []structpred.Segment, n int, ws *Workspace) (lab, end []int32) {
	if ws == nil {
		lab, end = make([]int32, n), make([]int32, n)
	} else {
		lab, end = grow(&ws.tLabel, n), grow(&ws.tEnd, n)
	}
	for i := range lab {
		lab[i], end[i] = -1, -1
	}
	for _, g := range truth {
		lab[g.Start], end[g.Start] = int32(g.Label), int32(g.End)
	}
	return lab, end
}

// checkShape panics unless the tables have K, K and K*K entries.
func (l Loss) checkShape() {
	if l.K < 1 || len(l.Precision) != l.K || len(l.Recall) != l.K || len(l.Misclass) != l.K*l.K {
		panic(fmt.Sprintf("semimarkov: loss with K=%d has tables of %d, %d, %d entries",
			l.K, len(l.Precision), len(l.Recall), len(l.Misclass)))
	}
}

// checkTruth panics unless the loss is well shaped and truth is a
// segmentation of tokens 0..n-1 for some n, which it returns.
func (l Loss) checkTruth(truth []structpred.Segment) int {
	l.checkShape()
	n := 0
	if len(truth) > 0 {
		n = truth[len(truth)-1].End
	}
	if err := CheckSegmentation(truth, n, l.K, 0); err != nil {
		panic("semimarkov: truth: " + err.Error())
	}
	return n
}

// check panics unless the loss matches the scores and truth is a
// segmentation of their N tokens (of any segment lengths).
func (l Loss) check(s *Scores, truth []structpred.Segment) {
	l.checkShape()
	if l.K != s.K {
		panic(fmt.Sprintf("semimarkov: loss has K=%d, scores have K=%d", l.K, s.K))
	}
	if err := CheckSegmentation(truth, s.N, s.K, 0); err != nil {
		panic("semimarkov: truth: " + err.Error())
	}
}
