package datasets

import "github.com/maxmargin/repro/structpred"

// Corpus is a named set of labelled sequences over a fixed label set.
type Corpus struct {
	Name      string                // canonical dataset name, e.g. "cora"
	Labels    []string              // label index → label name
	Sequences []structpred.Sequence // in file (or generation) order
}

// Select returns the sequences at the given indices, in the given order. The
// sequences share their token and label slices with the corpus.
func (c *Corpus) Select(indices []int) []structpred.Sequence {
	out := make([]structpred.Sequence, len(indices))
	for k, i := range indices {
		out[k] = c.Sequences[i]
	}
	return out
}
