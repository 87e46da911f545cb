package experiments

import (
	"context"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
)

// TaskSegmentation labels whole segments with a semi-Markov model (Sarawagi
// & Gupta, section 4.3.2).
const TaskSegmentation = "segmentation"

// defaultSegmentQuantile sets the maximum segment length L to the length
// that covers 99% of the training segments; longer true segments stay in
// the training truth (the model scores them exactly) but can never be
// predicted, and their number is recorded with each unit.
const defaultSegmentQuantile = 0.99

// runSegmentationUnit trains a semi-Markov model on the train indices and
// scores the eval indices: token error on the induced labels, span F1 over
// exact segments, and the section 4.3.2 segment error (see
// metrics.Counts.SegmentError).
func runSegmentationUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	idx := features.BuildIndex(pick(d.attrs, train))
	instance := func(attrs [][]int32, s structpred.Sequence) segment.Instance {
		return segment.Instance{Attrs: attrs, Segments: s.Segments}
	}
	trainSet := encode(d, idx, train, instance)
	q := u.SegmentQuantile
	if q == 0 {
		q = defaultSegmentQuantile
	}
	maxLen, err := segment.MaxSegmentLength(trainSet, q, 0)
	if err != nil {
		return unitResult{}, err
	}
	// The loss is section 4.3.2's: unit precision, recall and
	// misclassification penalties, stated here rather than left to
	// segment.New's zero-value default.
	m, err := segment.New(trainSet, idx.Len(), len(d.labels), maxLen, u.Features.Edges, semimarkov.DefaultLoss(len(d.labels)))
	if err != nil {
		return unitResult{}, err
	}
	res, cost, err := trainUnit(ctx, m, u)
	if err != nil {
		return unitResult{}, err
	}
	var counts metrics.Counts
	longEval := 0
	for _, x := range encode(d, idx, eval, instance) {
		for _, s := range x.Segments {
			if s.Len() > maxLen {
				longEval++
			}
		}
		if err := counts.AddSegments(x.Segments, m.Predict(x, res.W), len(x.Attrs)); err != nil {
			return unitResult{}, err
		}
	}
	out := scored(train, eval, &counts, res, cost)
	out.SegmentError = counts.SegmentError()
	out.MaxSegmentLength, out.LongTrainSegments, out.LongEvalSegments = maxLen, m.LongSegments(), longEval
	return out, nil
}

// checkTrainerSupportsSegmentation refuses, at config time, a trainer the
// semi-Markov model cannot serve.
func checkTrainerSupportsSegmentation(t TrainerSpec) error {
	probe, err := segment.New(nil, 1, 2, 1, true, semimarkov.DefaultLoss(2))
	if err != nil {
		return err
	}
	return canTrain[[]structpred.Segment](t, probe)
}
