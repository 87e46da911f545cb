package experiments

import (
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/structpred"
)

// scoreSheet accumulates one unit's evaluation: token error and span F1
// (conlleval's typed chunks where the labels carry chunk prefixes, maximal
// runs of one label otherwise), the segment error of segmentations, and,
// where kept, the per-sentence outcomes that McNemar's test and the paired
// bootstrap compare.
type scoreSheet struct {
	counts metrics.Counts
	// chunkTags, when set, are the label names (O, B-X, I-X): spans are
	// conlleval's chunks.
	chunkTags []string
	chunks    metrics.ChunkCounts
	outcomes  *report.Outcomes // nil: not kept
}

func newScoreSheet(d *preparedData, u unitSpec) *scoreSheet {
	s := &scoreSheet{}
	if d.chunked {
		s.chunkTags = d.labels
	}
	if (u.SplitKind == SplitFixed || u.SplitKind == SplitFile) && u.Phase == phaseTest {
		s.outcomes = &report.Outcomes{}
	}
	return s
}

// labels scores one labelled sequence.
func (s *scoreSheet) labels(truth, pred []int) error {
	before := s.counts
	if err := s.counts.AddLabels(truth, pred); err != nil {
		return err
	}
	trueSpans, predSpans, matched := s.counts.TrueSpans-before.TrueSpans, s.counts.PredSpans-before.PredSpans, s.counts.SpanMatch-before.SpanMatch
	if s.chunkTags != nil {
		var c metrics.ChunkCounts
		if err := c.AddLabels(truth, pred, s.chunkTags); err != nil {
			return err
		}
		s.chunks.Merge(c)
		trueSpans, predSpans, matched = c.All.True, c.All.Pred, c.All.Correct
	}
	if s.outcomes != nil {
		ok := make([]bool, len(truth))
		for t := range truth {
			ok[t] = truth[t] == pred[t]
		}
		s.outcomes.Add(ok, trueSpans, predSpans, matched)
	}
	return nil
}

// segments scores one segmentation of n tokens. Its outcomes are not kept
// (no fixed-split segmentation corpus exists yet).
func (s *scoreSheet) segments(truth, pred []structpred.Segment, n int) error {
	return s.counts.AddSegments(truth, pred, n)
}

// spanF1 is the unit's span F1 in percent.
func (s *scoreSheet) spanF1() float64 {
	if s.chunkTags != nil {
		return s.chunks.All.F1()
	}
	return s.counts.SpanF1()
}
