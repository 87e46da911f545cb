package experiments

import (
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// TaskSegmentation labels whole segments with a semi-Markov model (Sarawagi
// & Gupta, section 4.3.2).
const TaskSegmentation = tagger.Segmentation

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

// segmentationTask binds package tagger's segmentation model: token error
// on the induced labels, span F1 over exact segments, and the section
// 4.3.2 segment error (see metrics.Counts.SegmentError). The loss is
// section 4.3.2's (unit precision, recall and misclassification
// penalties) unless the config sets one; the maximum segment length covers
// the unit's quantile of the training segments (tagger.DefaultSegmentQuantile
// unless set), and the longer ones are counted with each unit.
func segmentationTask() Task {
	return binding[tagger.Prediction]{
		name:    TaskSegmentation,
		prepare: prepareTagger(TaskSegmentation),
		score: func(s *scoreSheet, d *preparedData, i int, pred tagger.Prediction) error {
			return s.segments(d.seqs[i].Segments, pred.Segments, len(d.seqs[i].Tokens))
		},
		metrics: func(s *scoreSheet) map[string]float64 {
			return map[string]float64{metrics.SegmentError: s.counts.SegmentError(), metrics.SpanF1: s.spanF1(), metrics.TokenError: s.counts.TokenError()}
		},
		finish: func(out *unitResult, s *scoreSheet, f fitting[tagger.Prediction], d *preparedData, eval []int) {
			t := f.(taggerFitting).t
			maxLen := t.MaxSegmentLength()
			longEval := 0
			for _, i := range eval {
				for _, s := range d.seqs[i].Segments {
					if s.Len() > maxLen {
						longEval++
					}
				}
			}
			out.MaxSegmentLength, out.LongTrainSegments, out.LongEvalSegments = maxLen, t.LongSegments(), longEval
		},
		supports: func(trainer string, v trainers.Values) error { return tagger.Supports(TaskSegmentation, trainer, v) },
	}
}
