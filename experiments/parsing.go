package experiments

import (
	"context"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/metrics"
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
// root children, the CoNLL-X convention). Parsing models have no model
// file (yet): the trained tree model predicts with its weights directly.
func parsingTask() Task {
	return binding[[]int]{
		name: TaskParsing,
		prepare: func(d *preparedData, u unitSpec, v trainers.Values, train []int) (fitting[[]int], error) {
			f := &parsingFitting{d: d, trainer: u.Trainer, params: v}
			for _, i := range train {
				d.arcs[i].IndexTree(&f.index, d.heads(i))
			}
			data := make([]tree.Instance, len(train))
			for j, i := range train {
				data[j] = f.instance(i)
			}
			var err error
			f.model, err = tree.New(data, f.index.Len(), mst.Decoder{})
			return f, err
		},
		score: func(s *scoreSheet, d *preparedData, i int, pred []int) error {
			return s.labels(d.seqs[i].Labels, pred[1:])
		},
		// A word's label is its head: the token error of the heads is the
		// unlabelled attachment error.
		metrics: func(s *scoreSheet) map[string]float64 {
			return map[string]float64{metrics.AttachmentError: s.counts.TokenError()}
		},
		supports: func(trainer string, v trainers.Values) error {
			probe, err := tree.New(nil, 1, mst.Decoder{})
			if err != nil {
				return err
			}
			return trainers.Check(trainer, probe, v)
		},
	}
}

// parsingFitting is a parsing unit's training: the arc index of the
// training trees and the tree model over them.
type parsingFitting struct {
	d       *preparedData
	index   features.HashIndex
	model   *tree.Model
	trainer string
	params  trainers.Values
}

// instance encodes treebank item i's arcs through the index.
func (f *parsingFitting) instance(i int) tree.Instance {
	start, ids := f.d.arcs[i].EncodeArcs(&f.index)
	return tree.Instance{N: len(f.d.seqs[i].Tokens), Start: start, IDs: ids, Heads: f.d.heads(i)}
}

func (f *parsingFitting) fit(ctx context.Context, opts ...trainers.Option) (func(int) []int, *trainers.Result, error) {
	res, err := trainers.Train(ctx, f.trainer, f.model, f.params, opts...)
	if err != nil {
		return nil, nil, err
	}
	predict, err := f.predictAt(res.W)
	return predict, res, err
}

func (f *parsingFitting) predictAt(w []float64) (func(int) []int, error) {
	return func(i int) []int { return f.model.Predict(f.instance(i), w) }, nil
}

// heads returns treebank item i's gold heads in decoders/mst's layout
// (index 0 is the root, -1).
func (d *preparedData) heads(i int) []int {
	return append([]int{-1}, d.seqs[i].Labels...)
}
