package tagger

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
)

// Evaluation scores a model on labelled data as the experiment units score
// it, so that the numbers compare with theirs: the token error on the
// model's labels (for chunk tags the O, B-X, I-X labels it predicts: an
// I-X where the truth starts a chunk with B-X is an error, though tagging
// writes both as the same tag), and span precision, recall and F1 overall
// and per label, where a span is a conlleval chunk for chunk tags, a
// segment for segmentation models, and a maximal run of one label
// otherwise.
type Evaluation struct {
	Sentences   int
	Tokens      int
	TokenErrors int
	// Spans counts the spans as conlleval does (metrics.ChunkCounts, whose
	// WriteReport prints the script's format); its token accuracy compares
	// IOB2 tags, so for plain labels it is not the token error.
	Spans metrics.ChunkCounts
	// Chunked reports that the spans are conlleval's chunks of chunk tags.
	Chunked bool
	// Segments holds the section 4.3.2 segment error of a segmentation
	// model (nil otherwise).
	Segments *metrics.Counts
	// Unseen counts, per label of the data that is not one of the model's,
	// the tokens that carry it: each is an error whatever the model does.
	Unseen map[string]int
}

// UnseenTokens is the number of tokens whose label the model does not know.
func (e *Evaluation) UnseenTokens() int {
	n := 0
	for _, k := range e.Unseen {
		n += k
	}
	return n
}

// TokenError returns the percentage of tokens labelled wrongly.
func (e *Evaluation) TokenError() float64 {
	if e.Tokens == 0 {
		return 0
	}
	return 100 * float64(e.TokenErrors) / float64(e.Tokens)
}

// Evaluate labels every sequence of d and scores the prediction against
// d's labels, matched by name (a label the model does not know is always
// an error). d must be in the model's format (read it with Model.Format).
func (m *Model) Evaluate(ctx context.Context, d *Data) (*Evaluation, error) {
	e := &Evaluation{Chunked: m.Format.chunked()}
	if m.Task == Segmentation {
		e.Segments = &metrics.Counts{}
	}
	ids := make(map[string]int, len(m.Labels)) // gold names to model ids; unknown ones after them
	for i, l := range m.Labels {
		ids[l] = i
	}
	for _, l := range d.Corpus.Labels {
		if _, ok := ids[l]; !ok {
			ids[l] = len(ids)
		}
	}
	names := make([]string, len(ids))
	for l, i := range ids {
		names[i] = l
	}
	for i, s := range d.Corpus.Sequences {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		truth := make([]int, len(s.Labels))
		for t, l := range s.Labels {
			truth[t] = ids[d.Corpus.Labels[l]]
		}
		var pred Prediction
		if a := d.Attributes; a != nil {
			pred = m.PredictValues(a.Names[i], valuesOf(a.Values, i))
		} else {
			pred = m.Predict(s.Tokens, s.Columns)
		}
		e.Sentences++
		e.Tokens += len(truth)
		for t := range truth {
			if truth[t] != pred.Labels[t] {
				e.TokenErrors++
			}
			if truth[t] >= len(m.Labels) {
				if e.Unseen == nil {
					e.Unseen = map[string]int{}
				}
				e.Unseen[names[truth[t]]]++
			}
		}
		var err error
		switch {
		case e.Chunked:
			err = e.Spans.AddLabels(truth, pred.Labels, names)
		case e.Segments != nil:
			gold := relabel(s.Segments, d.Corpus.Labels, ids)
			if err = e.Segments.AddSegments(gold, pred.Segments, len(truth)); err == nil {
				err = e.Spans.AddTags(spanTags(gold, len(truth), names), spanTags(pred.Segments, len(truth), names))
			}
		default:
			err = e.Spans.AddTags(spanTags(structpred.SegmentsFromLabels(truth), len(truth), names),
				spanTags(pred.Segments, len(truth), names))
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", s.ID, err)
		}
	}
	return e, nil
}

// relabel maps segments labelled by the ids of names onto ids.
func relabel(segs []structpred.Segment, names []string, ids map[string]int) []structpred.Segment {
	out := make([]structpred.Segment, len(segs))
	for k, s := range segs {
		s.Label = ids[names[s.Label]]
		out[k] = s
	}
	return out
}

// spanTags writes spans as IOB2 tags (B- on every span's first token), so
// that conlleval's counting sees exactly these spans.
func spanTags(spans []structpred.Segment, n int, names []string) []string {
	out := make([]string, n)
	for t := range out {
		out[t] = "O"
	}
	for _, s := range spans {
		for t := s.Start; t < s.End; t++ {
			out[t] = "I-" + names[s.Label]
		}
		out[s.Start] = "B-" + names[s.Label]
	}
	return out
}

// WriteReport writes the evaluation: sentences and tokens, the token
// error, span precision, recall and F1 overall, then one line per label.
func (e *Evaluation) WriteReport(w io.Writer) error {
	var b strings.Builder
	span := "spans (maximal runs of one label)"
	switch {
	case e.Chunked:
		span = "chunks (conlleval)"
	case e.Segments != nil:
		span = "segments"
	}
	fmt.Fprintf(&b, "sentences: %d, tokens: %d\n", e.Sentences, e.Tokens)
	fmt.Fprintf(&b, "token error: %.2f%% (%d of %d tokens)\n", e.TokenError(), e.TokenErrors, e.Tokens)
	if e.Segments != nil {
		fmt.Fprintf(&b, "segment error: %.2f%% (section 4.3.2)\n", e.Segments.SegmentError())
	}
	a := e.Spans.All
	fmt.Fprintf(&b, "%s: precision %.2f%%, recall %.2f%%, F1 %.2f (true %d, predicted %d, correct %d)\n",
		span, a.Precision(), a.Recall(), a.F1(), a.True, a.Pred, a.Correct)
	fmt.Fprintf(&b, "%-16s %9s %9s %7s %6s %6s %7s\n", "label", "precision", "recall", "F1", "true", "pred", "correct")
	for _, typ := range e.Spans.Types() {
		x := e.Spans.ByType[typ]
		fmt.Fprintf(&b, "%-16s %8.2f%% %8.2f%% %7.2f %6d %6d %7d\n", typ, x.Precision(), x.Recall(), x.F1(), x.True, x.Pred, x.Correct)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
