package tasks

import (
	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/metrics"
)

// Scorer accumulates one evaluation of a task's predictions, item by
// item, and reports it under the metric names the task declares
// ([Task.Metrics], from the metrics registry). A task's [Task.NewScorer]
// makes one; the runner needs to know nothing else of how a task scores.
type Scorer interface {
	// Add scores the prediction of corpus item i against its truth.
	Add(i int, p Prediction) error
	// Metrics returns the scores so far by metric name, in the units the
	// registry declares (percent for errors and F1). A metric that does
	// not apply to the corpus (token_error_file on plain labels) is
	// absent.
	Metrics() map[string]float64
}

// Outcome is one item's result as the paired significance tests on one
// fixed split compare them (report.Outcomes): whether each of its tokens
// (words, or the one class of a multiclass item) is right, for McNemar's
// test, and its span counts, for the paired bootstrap of span F1.
type Outcome struct {
	TokenOK                       []bool
	TrueSpans, PredSpans, Matched int
}

// labelScorer scores labels token by token: token error, span F1 (maximal
// runs of one label, or conlleval's typed chunks on chunk-tagged corpora)
// and, on those, the token error in the file's encoding. metricsOf names
// what the task reports of it.
type labelScorer struct {
	c         *Corpus
	keep      func(Outcome)
	counts    metrics.Counts
	chunks    metrics.ChunkCounts
	metricsOf func(s *labelScorer) map[string]float64
	// fileTokens and fileErrors count the token error with both labelings
	// written in the chunk-tagged corpus's file encoding
	// (metrics.TokenErrorFile).
	fileTokens, fileErrors int
}

func (s *labelScorer) Add(i int, p Prediction) error {
	return s.labels(s.c.Sequences[i].Labels, p.Labels)
}

func (s *labelScorer) Metrics() map[string]float64 { return s.metricsOf(s) }

// labels scores one labelled sequence.
func (s *labelScorer) labels(truth, pred []int) error {
	before := s.counts
	if err := s.counts.AddLabels(truth, pred); err != nil {
		return err
	}
	trueSpans, predSpans, matched := s.counts.TrueSpans-before.TrueSpans, s.counts.PredSpans-before.PredSpans, s.counts.SpanMatch-before.SpanMatch
	if s.c.Chunked {
		var c metrics.ChunkCounts
		if err := c.AddLabels(truth, pred, s.c.Labels); err != nil {
			return err
		}
		s.chunks.Merge(c)
		trueSpans, predSpans, matched = c.All.True, c.All.Pred, c.All.Correct
		if err := s.inFileEncoding(truth, pred); err != nil {
			return err
		}
	}
	if s.keep != nil {
		ok := make([]bool, len(truth))
		for t := range truth {
			ok[t] = truth[t] == pred[t]
		}
		s.keep(Outcome{TokenOK: ok, TrueSpans: trueSpans, PredSpans: predSpans, Matched: matched})
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
func (s *labelScorer) inFileEncoding(truth, pred []int) error {
	var enc [2][]string
	for k, labels := range [][]int{truth, pred} {
		tags := make([]string, len(labels))
		for t, id := range labels {
			tags[t] = s.c.Labels[id]
		}
		chunks, _, err := datasets.IOB2.Decode(tags)
		if err != nil {
			return err
		}
		if enc[k], err = s.c.Scheme.Encode(chunks, len(tags)); err != nil {
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

// spanF1 is the span F1 in percent: over conlleval's chunks on a
// chunk-tagged corpus, over maximal runs otherwise.
func (s *labelScorer) spanF1() float64 {
	if s.c.Chunked {
		return s.chunks.All.F1()
	}
	return s.counts.SpanF1()
}

// sequenceMetrics are the sequence task's metrics: token error and span
// F1, and on chunk-tagged corpora the token error in the file's label
// encoding.
func sequenceMetrics(s *labelScorer) map[string]float64 {
	m := map[string]float64{metrics.TokenError: s.counts.TokenError(), metrics.SpanF1: s.spanF1()}
	if s.c.Chunked && s.fileTokens > 0 {
		m[metrics.TokenErrorFile] = 100 * float64(s.fileErrors) / float64(s.fileTokens)
	}
	return m
}

// segmentScorer scores segmentations: the section 4.3.2 segment error,
// span F1 over exact segments and the token error of the labels the
// segments induce. It keeps no outcomes (no fixed-split segmentation
// corpus exists yet).
type segmentScorer struct {
	c      *Corpus
	counts metrics.Counts
}

func (s *segmentScorer) Add(i int, p Prediction) error {
	seq := s.c.Sequences[i]
	return s.counts.AddSegments(seq.Segments, p.Segments, len(seq.Tokens))
}

func (s *segmentScorer) Metrics() map[string]float64 {
	return map[string]float64{metrics.SegmentError: s.counts.SegmentError(), metrics.SpanF1: s.counts.SpanF1(), metrics.TokenError: s.counts.TokenError()}
}
