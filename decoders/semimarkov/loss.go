package semimarkov

import (
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// Loss is the segment loss of Sarawagi & Gupta sec. 4.3.2
// (structpred.SegmentLoss, where metrics and tasks use it without importing
// a decoder). The decoders add it to their scores, since it decomposes over
// predicted segments.
type Loss = structpred.SegmentLoss

// DefaultLoss returns the loss over k labels with unit precision and recall
// penalties and unit misclassification cost off the diagonal
// (structpred.DefaultSegmentLoss).
func DefaultLoss(k int) Loss { return structpred.DefaultSegmentLoss(k) }

// lossTable writes the loss of every segment of n tokens with length
// 1..maxLen into ws.loss, laid out like Scores.Unary.
func lossTable(l Loss, truth []structpred.Segment, n, maxLen int, ws *Workspace) []float64 {
	tab := grow(&ws.loss, n*maxLen*l.K)
	l.Table(tab, truth, n, maxLen, grow(&ws.tLabel, n), grow(&ws.tEnd, n))
	return tab
}

// augment writes Unary + scale*loss into ws.aug. Because the loss decomposes
// over predicted segments, loss-augmented inference is plain inference on
// these unaries.
func augment(l Loss, s *Scores, truth []structpred.Segment, scale float64, ws *Workspace) []float64 {
	tab := lossTable(l, truth, s.N, s.L, ws)
	aug := grow(&ws.aug, len(s.Unary))
	for i, u := range s.Unary {
		aug[i] = u + scale*tab[i]
	}
	return aug
}

// checkLossShape panics unless the tables have K, K and K*K entries.
func checkLossShape(l Loss) {
	if err := l.CheckShape(); err != nil {
		panic("semimarkov: " + err.Error())
	}
}

// checkLoss panics unless the loss matches the scores and truth is a
// segmentation of their N tokens (of any segment lengths).
func checkLoss(l Loss, s *Scores, truth []structpred.Segment) {
	checkLossShape(l)
	if l.K != s.K {
		panic(fmt.Sprintf("semimarkov: loss has K=%d, scores have K=%d", l.K, s.K))
	}
	if err := CheckSegmentation(truth, s.N, s.K, 0); err != nil {
		panic("semimarkov: truth: " + err.Error())
	}
}
