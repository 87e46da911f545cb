package experiments

import (
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// TaskSegmentation labels whole segments with a semi-Markov model (Sarawagi
// & Gupta, section 4.3.2).
const TaskSegmentation = "segmentation"

// defaultSegmentQuantile sets the maximum segment length L to the length
// that covers 99% of the training segments; longer true segments stay in
// the training truth (the model scores them exactly) but can never be
// predicted, and their number is recorded with each unit.
const defaultSegmentQuantile = 0.99

// of returns the loss over k labels: the paper's unit penalties (nil), or
// the config's for every label.
func (l *segmentLoss) of(k int) semimarkov.Loss {
	loss := semimarkov.DefaultLoss(k)
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

// segmentationTask binds the semi-Markov model: token error on the induced
// labels, span F1 over exact segments, and the section 4.3.2 segment error
// (see metrics.Counts.SegmentError). The loss is section 4.3.2's (unit
// precision, recall and misclassification penalties), stated here rather
// than left to segment.New's zero-value default.
func segmentationTask() Task {
	type segs = []structpred.Segment
	return binding[segment.Instance, segs]{
		name: TaskSegmentation,
		instance: func(d *preparedData, i int, e encoded) segment.Instance {
			// Attribute values never get here: prepare refuses them for
			// any task but sequence labelling.
			return segment.Instance{Attrs: e.attrs, Segments: d.seqs[i].Segments}
		},
		model: func(train []segment.Instance, numAttrs int, d *preparedData, u unitSpec) (predictor[segment.Instance, segs], error) {
			q := u.SegmentQuantile
			if q == 0 {
				q = defaultSegmentQuantile
			}
			maxLen, err := segment.MaxSegmentLength(train, q, 0)
			if err != nil {
				return nil, err
			}
			return segment.New(train, numAttrs, len(d.labels), maxLen, u.Features.Edges, u.SegmentLoss.of(len(d.labels)))
		},
		score: func(s *scoreSheet, x segment.Instance, pred segs) error {
			return s.segments(x.Segments, pred, len(x.Attrs))
		},
		finish: func(out *unitResult, s *scoreSheet, p predictor[segment.Instance, segs], eval []segment.Instance) {
			m := p.(*segment.Model)
			longEval := 0
			for _, x := range eval {
				for _, s := range x.Segments {
					if s.Len() > m.MaxLen() {
						longEval++
					}
				}
			}
			out.SegmentError = s.counts.SegmentError()
			out.MaxSegmentLength, out.LongTrainSegments, out.LongEvalSegments = m.MaxLen(), m.LongSegments(), longEval
		},
		probe: func() (trainers.Model[segs], error) {
			return segment.New(nil, 1, 2, 1, true, semimarkov.DefaultLoss(2))
		},
	}
}
