package experiments

import (
	"context"

	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// taggerFitting is a unit's training through package tagger.
type taggerFitting struct {
	t *tagger.Training
	d *preparedData
}

// prepareTagger prepares a unit of a tagger task: the training part's
// attributes (extracted once per dataset) indexed with the unit's cut-off,
// the model over them with the unit's edges and segmentation settings.
func prepareTagger(task string) func(d *preparedData, u unitSpec, v trainers.Values, train []int) (fitting[tagger.Prediction], error) {
	return func(d *preparedData, u unitSpec, v trainers.Values, train []int) (fitting[tagger.Prediction], error) {
		opt := tagger.Options{
			Task: task, Features: u.Features.tagger(d.columns), Trainer: u.Trainer, Params: v,
			SegmentQuantile: u.SegmentQuantile, SegmentLoss: u.SegmentLoss.of(len(d.labels)),
		}
		var values [][][]float64 // given attributes' values (nil: all 1)
		if d.values != nil {
			values = pick(d.values, train)
		}
		t, err := tagger.PrepareValues(d.labels, pick(d.seqs, train), d.pickAttrs(train), values, opt)
		if err != nil {
			return nil, err
		}
		return taggerFitting{t: t, d: d}, nil
	}
}

func (f taggerFitting) fit(ctx context.Context, opts ...trainers.Option) (func(int) tagger.Prediction, *trainers.Result, error) {
	m, res, err := f.t.Fit(ctx, opts...)
	if err != nil {
		return nil, nil, err
	}
	return f.predictor(m), res, nil
}

func (f taggerFitting) predictAt(w []float64) (func(int) tagger.Prediction, error) {
	m, err := f.t.ModelAt(w)
	if err != nil {
		return nil, err
	}
	return f.predictor(m), nil
}

func (f taggerFitting) predictor(m *tagger.Model) func(int) tagger.Prediction {
	if f.d.values != nil {
		return func(i int) tagger.Prediction { return m.PredictValues(f.d.attrsOf(i), f.d.values[i]) }
	}
	return func(i int) tagger.Prediction { return m.PredictAttributes(f.d.attrsOf(i)) }
}
