package experiments

import (
	"context"

	tasklib "github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
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
				Trainer: u.Trainer, Params: v, Features: u.Features.Tagger(d.columns),
				SegmentQuantile: u.SegmentQuantile, SegmentLoss: u.SegmentLoss.Of(len(d.labels)), Decoder: u.Decoder,
			})
			if err != nil {
				return nil, err
			}
			return taskFitting{f: f, c: c, trained: new(tasklib.Model)}, nil
		},
		sheet: func(d *preparedData, u unitSpec, outcomes bool) *scoreSheet {
			return newScoreSheet(t, d, u, outcomes)
		},
		score: func(s *scoreSheet, d *preparedData, i int, pred tasklib.Prediction) error {
			return s.scorer.Add(i, pred)
		},
		metrics:  func(s *scoreSheet) map[string]float64 { return s.scorer.Metrics() },
		declared: t.Metrics().Metrics,
		finish: func(out *unitResult, s *scoreSheet, f fitting[tasklib.Prediction], d *preparedData, eval []int) {
			finishSegments(out, s, f, d, eval)
			finishTraining(out, f)
		},
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

// finishTraining adds the metrics a task's fitting reports of the trained
// model on its own training part (cfg: Table 5's training accuracy and
// F1), after the evaluation part's.
func finishTraining(out *unitResult, f fitting[tasklib.Prediction]) {
	tf := f.(taskFitting)
	tm, ok := tf.f.(interface {
		TrainMetrics(tasklib.Model) map[string]float64
	})
	if !ok || *tf.trained == nil {
		return
	}
	for k, v := range tm.TrainMetrics(*tf.trained) {
		out.Metrics[k] = v
	}
}

// taskFitting is a unit's training through its task: units predict with
// the trained model as a saved one would. trained holds the model the
// last fit returned.
type taskFitting struct {
	f       tasklib.Fitting
	c       *tasklib.Corpus
	trained *tasklib.Model
}

func (f taskFitting) fit(ctx context.Context, opts ...trainers.Option) (func(int) tasklib.Prediction, *trainers.Result, error) {
	m, res, err := f.f.Fit(ctx, opts...)
	if err != nil {
		return nil, nil, err
	}
	*f.trained = m
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
	var values func(int) [][]float64 // nil: every value is 1
	if d.valued() {
		values = d.valuesOf
	}
	return &tasklib.Corpus{Labels: d.labels, Sequences: d.seqs, Attrs: d.attrsOf, Values: values, Arcs: d.arcs, Chunked: d.chunked, Scheme: d.scheme, Vectors: d.vectors, Cost: d.cost, Bags: d.bags, Docs: d.docs, Tree: d.tree, Trees: d.trees, Alignments: d.alignments}
}
