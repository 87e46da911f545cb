package experiments

import (
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// TaskSequence labels every token with a linear-chain model (Sarawagi &
// Gupta, section 4.3.1): token error and span F1 (and on chunk-tagged
// corpora the token error in the file's label encoding).
const TaskSequence = tagger.Sequence

// sequenceTask binds package tagger's sequence model (models/chain with
// the paper's Hamming loss): units train and predict as `repro train` and
// `repro tag` do.
func sequenceTask() Task {
	return binding[tagger.Prediction]{
		name:    TaskSequence,
		prepare: prepareTagger(TaskSequence),
		score: func(s *scoreSheet, d *preparedData, i int, pred tagger.Prediction) error {
			return s.labels(d.seqs[i].Labels, pred.Labels)
		},
		metrics:  (*scoreSheet).sequenceMetrics,
		supports: func(trainer string, v trainers.Values) error { return tagger.Supports(TaskSequence, trainer, v) },
	}
}
