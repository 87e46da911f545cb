package experiments

import (
	"context"

	"github.com/maxmargin/repro/structpred"
	tasklib "github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
)

// The tasks a config may name (package tasks has one place for each).
const (
	// TaskSequence labels every token with a linear-chain model (Sarawagi
	// & Gupta, section 4.3.1): token error and span F1 (and on chunk-tagged
	// corpora the token error in the file's label encoding).
	TaskSequence = tasklib.SequenceName
	// TaskSegmentation labels whole segments with a semi-Markov model
	// (section 4.3.2): token error on the induced labels, span F1 over
	// exact segments, and the segment error (metrics.Counts.SegmentError).
	TaskSegmentation = tasklib.SegmentationName
	// TaskParsing is unlabelled dependency parsing with a first-order
	// model (section 4.3.3): the error is the share of words with a wrong
	// head, punctuation included, as CoNLL-X scored it.
	TaskParsing = tasklib.ParsingName
	// TaskMulticlass classifies feature vectors with the Crammer & Singer
	// model and a cost matrix: error rate and average cost.
	TaskMulticlass = tasklib.MulticlassName
)

// boundTasks makes every task of package tasks a runner task: units
// prepare, fit and predict through the task, whose trained model is the
// value its model file stores, so a unit and `repro train` with the same
// data and settings build the same model.
func boundTasks() []Task {
	var out []Task
	for _, t := range tasklib.All() {
		out = append(out, bind(t))
	}
	return out
}

// bind is the binding of one task of package tasks.
func bind(t tasklib.Task) Task {
	return binding[tasklib.Prediction]{
		name: t.Name(),
		prepare: func(d *preparedData, u unitSpec, v trainers.Values, train []int) (fitting[tasklib.Prediction], error) {
			c := d.corpus()
			f, err := t.Prepare(c, train, tasklib.Settings{
				Trainer: u.Trainer, Params: v, Features: u.Features.tagger(d.columns),
				SegmentQuantile: u.SegmentQuantile, SegmentLoss: u.SegmentLoss.of(len(d.labels)), Decoder: u.Decoder,
			})
			if err != nil {
				return nil, err
			}
			return taskFitting{f: f, c: c}, nil
		},
		sheet: func(d *preparedData, u unitSpec, outcomes bool) *scoreSheet {
			return newScoreSheet(t, d, u, outcomes)
		},
		score: func(s *scoreSheet, d *preparedData, i int, pred tasklib.Prediction) error {
			return s.scorer.Add(i, pred)
		},
		metrics:  func(s *scoreSheet) map[string]float64 { return s.scorer.Metrics() },
		finish:   finishSegments,
		supports: t.Supports,
	}
}

// finishSegments adds a segmentation unit's maximum segment length (the
// one covering the unit's quantile of the training segments) and how many
// true segments, of the training and evaluation parts, are longer: of a
// unit whose fitting reports them (SegmentLimits), whatever its task.
func finishSegments(out *unitResult, s *scoreSheet, f fitting[tasklib.Prediction], d *preparedData, eval []int) {
	limits, ok := f.(taskFitting).f.(interface{ SegmentLimits() (int, int) })
	if !ok {
		return
	}
	maxLen, longTrain := limits.SegmentLimits()
	longEval := 0
	for _, i := range eval {
		for _, s := range d.seqs[i].Segments {
			if s.Len() > maxLen {
				longEval++
			}
		}
	}
	out.MaxSegmentLength, out.LongTrainSegments, out.LongEvalSegments = maxLen, longTrain, longEval
}

// taskFitting is a unit's training through its task: units predict with
// the trained model as a saved one would.
type taskFitting struct {
	f tasklib.Fitting
	c *tasklib.Corpus
}

func (f taskFitting) fit(ctx context.Context, opts ...trainers.Option) (func(int) tasklib.Prediction, *trainers.Result, error) {
	m, res, err := f.f.Fit(ctx, opts...)
	if err != nil {
		return nil, nil, err
	}
	return f.predictor(m), res, nil
}

func (f taskFitting) predictAt(w []float64) (func(int) tasklib.Prediction, error) {
	m, err := f.f.ModelAt(w)
	if err != nil {
		return nil, err
	}
	return f.predictor(m), nil
}

func (f taskFitting) predictor(m tasklib.Model) func(int) tasklib.Prediction {
	return func(i int) tasklib.Prediction { return m.Predict(f.c, i) }
}

// corpus is d as a task reads it.
func (d *preparedData) corpus() *tasklib.Corpus {
	return &tasklib.Corpus{Labels: d.labels, Sequences: d.seqs, Attrs: d.attrsOf, Values: d.values, Arcs: d.arcs, Chunked: d.chunked, Scheme: d.scheme, Vectors: d.vectors, Cost: d.cost}
}

// of returns the loss over k labels: the paper's unit penalties (nil), or
// the config's for every label.
func (l *segmentLoss) of(k int) structpred.SegmentLoss {
	loss := structpred.DefaultSegmentLoss(k)
	if l == nil {
		return loss
	}
	for a := range k {
		loss.Precision[a], loss.Recall[a] = l.Precision, l.Recall
		for b := range k {
			if a != b {
				loss.Misclass[a*k+b] = l.Misclass
			}
		}
	}
	return loss
}
