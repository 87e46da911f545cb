// Package metrics scores predicted labelings against the truth: token error
// and span F1, the two numbers of Sarawagi & Gupta's Table 1, and for
// segmentations the segment loss of their section 4.3.2.
//
// Two span F1s live here. [Counts] is the one for Cora and other corpora
// whose labels carry no chunk prefixes: a span is a maximal run of one
// label. [ChunkCounts] is conlleval's, for CoNLL chunking and NER tags: a
// chunk is B-X or I-X followed by I-X, under the script's start and end
// rules (which also read IOB1 and IOE), with precision, recall and F1
// overall and per type and the token accuracy over all tokens. Its
// [ChunkCounts.WriteReport] prints the script's own format. One difference
// from running the script on a CoNLL-2003 file: the script counts a
// -DOCSTART- line left in its input as a token (tagged O on both sides, so
// always right), which raises its accuracy slightly; ChunkCounts scores
// only the sentences it is given.
package metrics

import (
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// Counts accumulates token and span agreement over many sequences; the zero
// value is ready to use. Totals are micro-averaged over all tokens and spans.
type Counts struct {
	Tokens, TokenErrors             int
	TrueSpans, PredSpans, SpanMatch int
	// Segmentations only (AddSegments): the summed section 4.3.2 loss and
	// the number of true plus predicted segments it is normalised by.
	SegmentLoss     float64
	SegmentsCounted int
}

// AddLabels scores one labelled sequence. Spans are the maximal runs of one
// label (structpred.SegmentsFromLabels); a predicted span counts as correct
// only if a true span has exactly the same start, end and label.
func (c *Counts) AddLabels(truth, pred []int) error {
	if len(truth) != len(pred) {
		return fmt.Errorf("truth has %d tokens, prediction %d", len(truth), len(pred))
	}
	for t := range truth {
		if truth[t] != pred[t] {
			c.TokenErrors++
		}
	}
	c.Tokens += len(truth)
	c.addSpans(structpred.SegmentsFromLabels(truth), structpred.SegmentsFromLabels(pred))
	return nil
}

// AddSegments scores one segmentation of n tokens: token errors on the labels
// the segments induce, and span F1 over exact (start, end, label) segments.
// Unlike AddLabels, two adjacent true segments with the same label stay two
// spans.
func (c *Counts) AddSegments(truth, pred []structpred.Segment, n int) error {
	tl, err := induced(truth, n)
	if err != nil {
		return fmt.Errorf("truth: %w", err)
	}
	pl, err := induced(pred, n)
	if err != nil {
		return fmt.Errorf("prediction: %w", err)
	}
	for t := range tl {
		if tl[t] != pl[t] {
			c.TokenErrors++
		}
	}
	c.Tokens += n
	c.addSpans(truth, pred)
	k := 1
	for _, segs := range [][]structpred.Segment{truth, pred} {
		for _, s := range segs {
			k = max(k, s.Label+1)
		}
	}
	c.SegmentLoss += structpred.DefaultSegmentLoss(k).Of(truth, pred) // unit penalties: the paper's
	c.SegmentsCounted += len(truth) + len(pred)
	return nil
}

// induced returns the per-token labels of a segmentation that must cover
// 0..n-1 without gaps or overlaps.
func induced(segs []structpred.Segment, n int) ([]int, error) {
	labels := make([]int, n)
	next := 0
	for _, s := range segs {
		if s.Start != next || s.End <= s.Start || s.End > n {
			return nil, fmt.Errorf("segment %+v does not continue a tiling of %d tokens at %d", s, n, next)
		}
		for t := s.Start; t < s.End; t++ {
			labels[t] = s.Label
		}
		next = s.End
	}
	if next != n {
		return nil, fmt.Errorf("segments cover %d of %d tokens", next, n)
	}
	return labels, nil
}

func (c *Counts) addSpans(truth, pred []structpred.Segment) {
	set := make(map[structpred.Segment]bool, len(truth))
	for _, s := range truth {
		set[s] = true
	}
	for _, s := range pred {
		if set[s] {
			c.SpanMatch++
		}
	}
	c.TrueSpans += len(truth)
	c.PredSpans += len(pred)
}

// TokenError returns the percentage of tokens labelled wrongly.
func (c *Counts) TokenError() float64 {
	if c.Tokens == 0 {
		return 0
	}
	return 100 * float64(c.TokenErrors) / float64(c.Tokens)
}

// SpanF1 returns the span F1 in percent: the harmonic mean of span precision
// (matched / predicted) and recall (matched / true).
func (c *Counts) SpanF1() float64 {
	if c.TrueSpans+c.PredSpans == 0 {
		return 100
	}
	return 100 * 2 * float64(c.SpanMatch) / float64(c.TrueSpans+c.PredSpans)
}

// SegmentError returns Sarawagi & Gupta's segmentation error (section 4.3.2,
// unit precision, recall and misclassification penalties) in percent: the
// summed loss over the summed number of true and predicted segments. That
// sum bounds the loss (each predicted segment costs at most its precision
// penalty plus the recall penalties of the true segments starting inside
// it, and every true segment starts inside exactly one), so the error lies
// in [0, 100]. The paper does not say how it normalises; this reading puts
// its Cora segmentation errors and span F1 on one scale (error ≈ 100 − F1,
// as its Table 1 shows: 17.7/81.8, 16.2/83.1). 0 when nothing was counted.
func (c *Counts) SegmentError() float64 {
	if c.SegmentsCounted == 0 {
		return 0
	}
	return 100 * c.SegmentLoss / float64(c.SegmentsCounted)
}
