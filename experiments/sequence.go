package experiments

import (
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// TaskSequence labels every token with a linear-chain model (Sarawagi &
// Gupta, section 4.3.1): token error and span F1.
const TaskSequence = "sequence"

// sequenceTask binds the chain model. The loss is the paper's Hamming loss,
// stated here rather than left to chain.New's zero-value default.
func sequenceTask() Task {
	return binding[chain.Instance, []int]{
		name: TaskSequence,
		instance: func(d *preparedData, i int, e encoded) chain.Instance {
			return chain.Instance{Attrs: e.attrs, Values: e.values, Labels: d.seqs[i].Labels}
		},
		model: func(train []chain.Instance, numAttrs int, d *preparedData, u unitSpec) (predictor[chain.Instance, []int], error) {
			return chain.New(train, numAttrs, len(d.labels), u.Features.Edges, decoders.Hamming(len(d.labels)))
		},
		score: func(s *scoreSheet, x chain.Instance, pred []int) error {
			return s.labels(x.Labels, pred)
		},
		probe: func() (trainers.Model[[]int], error) {
			return chain.New(nil, 1, 2, true, decoders.Hamming(2))
		},
	}
}
