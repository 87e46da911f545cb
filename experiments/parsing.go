package experiments

import (
	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/models/tree"
	"github.com/maxmargin/repro/trainers"
)

// TaskParsing is unlabelled dependency parsing with a first-order model
// (Sarawagi & Gupta, section 4.3.3): the error is the share of words with a
// wrong head, punctuation included, as CoNLL-X scored it.
const TaskParsing = "parsing"

// parsingTask binds the tree model to a treebank: arc features of McDonald
// et al. (2005) indexed on the training trees' arcs, as MSTParser builds
// its alphabet, Chu-Liu/Edmonds decoding (non-projective, any number of
// root children, the CoNLL-X convention).
func parsingTask() Task {
	return binding[tree.Instance, []int]{
		name: TaskParsing,
		index: func(d *preparedData, train []int, _ unitSpec) (func(i int) encoded, int) {
			var x features.HashIndex
			for _, i := range train {
				d.arcs[i].IndexTree(&x, d.heads(i))
			}
			return func(i int) encoded { return encoded{attrs: d.arcs[i].EncodeArcs(&x)} }, x.Len()
		},
		instance: func(d *preparedData, i int, e encoded) tree.Instance {
			return tree.Instance{N: len(d.seqs[i].Tokens), Arcs: e.attrs, Heads: d.heads(i)}
		},
		model: func(train []tree.Instance, numAttrs int, _ *preparedData, _ unitSpec) (predictor[tree.Instance, []int], error) {
			return tree.New(train, numAttrs, mst.Decoder{})
		},
		score: func(s *scoreSheet, x tree.Instance, pred []int) error {
			return s.labels(x.Heads[1:], pred[1:])
		},
		probe: func() (trainers.Model[[]int], error) {
			return tree.New(nil, 1, mst.Decoder{})
		},
	}
}

// heads returns treebank item i's gold heads in decoders/mst's layout
// (index 0 is the root, -1).
func (d *preparedData) heads(i int) []int {
	return append([]int{-1}, d.seqs[i].Labels...)
}
