package experiments

import (
	"github.com/maxmargin/repro/datasets"
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
	// scheme is the corpus file's label encoding, when chunkTags are set:
	// fileTokens and fileErrors count the token error with both labelings
	// written in it (metrics.TokenErrorFile).
	scheme                 datasets.Scheme
	fileTokens, fileErrors int
	outcomes               *report.Outcomes // nil: not kept
}

func newScoreSheet(d *preparedData, u unitSpec) *scoreSheet {
	s := &scoreSheet{}
	if d.chunked {
		s.chunkTags, s.scheme = d.labels, d.scheme
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
		if err := s.inFileEncoding(truth, pred); err != nil {
			return err
		}
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

// inFileEncoding adds the token errors of one sentence with both labelings
// written in the file's label encoding: each is read as conlleval reads
// IOB2 tags (an I-X that cannot continue a chunk starts one), and its
// chunks are written in the file's scheme, as `repro tag` writes its
// output. It differs from the token error on the internal IOB2 labels
// where a prediction breaks IOB2's rules (an I-X after O, written out as
// the B-X conlleval reads), and on an IOB1 file also where a true B-X
// after O is written I-X.
func (s *scoreSheet) inFileEncoding(truth, pred []int) error {
	var enc [2][]string
	for k, labels := range [][]int{truth, pred} {
		tags := make([]string, len(labels))
		for t, id := range labels {
			tags[t] = s.chunkTags[id]
		}
		chunks, _, err := datasets.IOB2.Decode(tags)
		if err != nil {
			return err
		}
		if enc[k], err = s.scheme.Encode(chunks, len(tags)); err != nil {
			return err
		}
	}
	for t := range enc[0] {
		if enc[0][t] != enc[1][t] {
			s.fileErrors++
		}
	}
	s.fileTokens += len(enc[0])
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

// sequenceMetrics are the sequence task's metrics (metrics.ForTask): token
// error and span F1, and on chunk-tagged corpora the token error in the
// file's label encoding.
func (s *scoreSheet) sequenceMetrics() map[string]float64 {
	m := map[string]float64{metrics.TokenError: s.counts.TokenError(), metrics.SpanF1: s.spanF1()}
	if s.chunkTags != nil && s.fileTokens > 0 {
		m[metrics.TokenErrorFile] = 100 * float64(s.fileErrors) / float64(s.fileTokens)
	}
	return m
}
