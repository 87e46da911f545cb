package tasks

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// tagging is sequence labelling (a linear-chain model, Sarawagi & Gupta
// section 4.3.1) or segmentation (semi-Markov, section 4.3.2), both
// implemented by package tagger: CoNLL column files and Cora text, the
// citation and NER templates, models/chain and models/segment, the model
// file of tagger's format versions 1 and 2.
type tagging struct{ name string }

func (t tagging) Name() string { return t.name }

func (t tagging) Supports(trainer string, v trainers.Values) error {
	return tagger.Supports(t.name, trainer, v)
}

func (t tagging) Metrics() metrics.TaskMetrics { return metrics.ForTask(t.name) }

// NewScorer scores segmentations by their segments, labelings token by
// token.
func (t tagging) NewScorer(c *Corpus, keep func(Outcome)) Scorer {
	if t.name == tagger.Segmentation {
		return &segmentScorer{c: c}
	}
	return &labelScorer{c: c, keep: keep, metricsOf: sequenceMetrics}
}

func (t tagging) Prepare(c *Corpus, train []int, s Settings) (Fitting, error) {
	opt := tagger.Options{
		Task: t.name, Features: s.Features, Trainer: s.Trainer, Params: s.Params,
		SegmentQuantile: s.SegmentQuantile, SegmentLoss: s.SegmentLoss, Decoder: s.Decoder,
	}
	seqs := make([]structpred.Sequence, len(train))
	attrs := make([][][]string, len(train))
	var values [][][]float64 // nil: every value is 1
	if c.Values != nil {
		values = make([][][]float64, len(train))
	}
	for j, i := range train {
		seqs[j], attrs[j] = c.Sequences[i], c.Attrs(i)
		if values != nil {
			values[j] = c.Values(i)
		}
	}
	tr, err := tagger.PrepareValues(c.Labels, seqs, attrs, values, opt)
	if err != nil {
		return nil, err
	}
	return taggerFitting{tr}, nil
}

func (t tagging) TrainFile(ctx context.Context, path string, s Settings) (Model, *trainers.Result, error) {
	d, err := tagger.ReadData(path, tagger.Format{})
	if err != nil {
		return nil, nil, err
	}
	m, res, err := tagger.Train(ctx, d, tagger.Options{
		Task: t.name, Features: s.Features, Trainer: s.Trainer, Params: s.Params,
		SegmentQuantile: s.SegmentQuantile, SegmentLoss: s.SegmentLoss, Decoder: s.Decoder,
	})
	if err != nil {
		return nil, nil, err
	}
	return TaggerModel{m}, res, nil
}

func (t tagging) Decode(b []byte) (Model, error) {
	m, err := tagger.Decode(b)
	if err != nil {
		return nil, err
	}
	if m.Task != t.name {
		return nil, fmt.Errorf("%w: a %s model, not %s", tagger.ErrFormat, m.Task, t.name)
	}
	return TaggerModel{m}, nil
}

// taggerFitting is a training through package tagger. It reports the
// segmentation model's maximum segment length (SegmentLimits).
type taggerFitting struct{ t *tagger.Training }

func (f taggerFitting) Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error) {
	m, res, err := f.t.Fit(ctx, opts...)
	if err != nil {
		return nil, nil, err
	}
	return TaggerModel{m}, res, nil
}

func (f taggerFitting) ModelAt(w []float64) (Model, error) {
	m, err := f.t.ModelAt(w)
	if err != nil {
		return nil, err
	}
	return TaggerModel{m}, nil
}

// SegmentLimits returns the longest segment the model predicts and the
// number of training segments longer than that (0, 0 for sequence
// labelling).
func (f taggerFitting) SegmentLimits() (maxLen, longTrain int) {
	return f.t.MaxSegmentLength(), f.t.LongSegments()
}

// TaggerModel is a sequence or segmentation model as a [Model].
type TaggerModel struct{ *tagger.Model }

// TaskName returns the model's task.
func (m TaggerModel) TaskName() string { return m.Task }

// Describe names the model's trainer with its params.
func (m TaggerModel) Describe() string { return describe(m.Trainer, m.Params) }

// Predict labels corpus item i from its attributes (and values).
func (m TaggerModel) Predict(c *Corpus, i int) Prediction {
	var p tagger.Prediction
	if c.Values != nil {
		p = m.PredictValues(c.Attrs(i), c.Values(i))
	} else {
		p = m.PredictAttributes(c.Attrs(i))
	}
	return Prediction{Labels: p.Labels, Segments: p.Segments}
}

// Tag labels text in the training file's layout (or bare tokens),
// appending the label in its encoding.
func (m TaggerModel) Tag(ctx context.Context, r io.Reader, w io.Writer, name string) ([]string, error) {
	st, err := m.TagText(ctx, r, w, name)
	if err != nil || len(st.MissingColumns) == 0 {
		return nil, err
	}
	return []string{fmt.Sprintf("%s has bare tokens, but the model was trained with the columns %s: their features are missing, so accuracy suffers; give the input in the training file's columns",
		name, strings.Join(st.MissingColumns, ", "))}, nil
}

// Evaluate scores the model on a labelled file in the training file's
// format.
func (m TaggerModel) Evaluate(ctx context.Context, path string) (Evaluation, []string, error) {
	d, err := tagger.ReadData(path, m.Format)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	if n := len(d.Repairs); n > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %d tags break the label encoding's rules and were read as conlleval reads them, first: %v", path, n, d.Repairs[0]))
	}
	e, err := m.Model.Evaluate(ctx, d)
	if err != nil {
		return nil, warnings, err
	}
	return TaggerEvaluation{e}, warnings, nil
}

// TaggerEvaluation is a sequence or segmentation model's [Evaluation].
type TaggerEvaluation struct{ *tagger.Evaluation }

// WriteConlleval writes conlleval's own report of the spans.
func (e TaggerEvaluation) WriteConlleval(w io.Writer) error { return e.Spans.WriteReport(w) }

// describe names a trainer with its params, sorted by key.
func describe(trainer string, params trainers.Values) string {
	keys := slices.Sorted(maps.Keys(params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, params[k])
	}
	return fmt.Sprintf("%s (%s)", trainer, strings.Join(parts, ", "))
}
