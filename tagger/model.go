package tagger

import (
	"fmt"
	"math"
	"sync"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Tasks a model can be trained for.
const (
	// Sequence labels every token with a linear-chain model (Sarawagi &
	// Gupta, section 4.3.1).
	Sequence = "sequence"
	// Segmentation labels whole segments with a semi-Markov model (section
	// 4.3.2); it needs plain labels whose runs tile each sequence (Cora, or
	// a column file with label encoding none).
	Segmentation = "segmentation"
)

// maxSegmentLength bounds the maximum segment length a model may declare:
// the semi-Markov decoder's tables grow with it, so a corrupt file must
// not set it beyond what any corpus has (Cora's longest field is under a
// hundred tokens).
const maxSegmentLength = 1 << 12

// minLabelTable is the K×K table size the decoders may allocate for any
// model, however few its weights (so that a model without attributes still
// loads).
const minLabelTable = 1 << 16

// Model is a trained model: what a model file stores, and what the
// experiment runner's sequence and segmentation units predict with. Its
// methods are safe for concurrent use; its fields must not change once
// it predicts.
type Model struct {
	Task     string
	Features Features
	// Format is the training file's layout: tagging reads its columns and
	// writes labels in its label encoding.
	Format Format
	// Labels are the label names by id: for chunk encodings "O", "B-T" and
	// "I-T" per type T (datasets.BIOLabels), whatever the file's encoding.
	Labels []string
	// Trainer and Params (defaults resolved) are how it was trained.
	Trainer string
	Params  trainers.Values
	// DataHash is the SHA-256 of the training data (see [DataHash]).
	DataHash string
	// Version is the repro version that trained it (internal/version).
	Version string
	// MaxSegmentLength is the longest segment a segmentation model
	// predicts.
	MaxSegmentLength int
	// Decoder is the sequence model's MAP decoder: "" (Viterbi) or
	// DecoderILP.
	Decoder string
	// Weights is the weight vector, laid out as models/chain and
	// models/segment lay it out over the attribute ids.
	Weights []float64

	index    *features.Index
	pairs    *chain.Pairs // Features.Pairs seen: the pairs Weights are for
	decoders sync.Pool    // of *decoder: scratch space, one per concurrent call
}

// decoder holds one task model without training data: its Predict needs
// only the weights, and its scratch buffers are reused between calls.
type decoder struct {
	chain   *chain.Model
	segment *segment.Model
}

// Prediction is a model's output for one sequence.
type Prediction struct {
	// Labels holds a label id (into Model.Labels) per token.
	Labels []int
	// Segments are the predicted segments: the decoded ones of a
	// segmentation model, the maximal runs of one label of a sequence
	// model.
	Segments []structpred.Segment
}

// NumAttributes returns the number of attributes the model has weights for.
func (m *Model) NumAttributes() int { return m.index.Len() }

// Attribute returns the attribute string with id a.
func (m *Model) Attribute(a int) string { return m.index.Name(int32(a)) }

// Predict labels one sequence: its tokens and, for column files, its extra
// columns (columns[c][t] is column c of token t, as datasets.Sequence
// holds them).
func (m *Model) Predict(tokens []string, columns [][]string) Prediction {
	return m.PredictAttributes(m.Features.Extract(tokens, columns))
}

// PredictAttributes labels one sequence given the attribute strings of its
// tokens (as Features.Extract returns them); attributes the training data
// did not have are ignored. The experiment runner extracts a corpus's
// attributes once and predicts with it.
func (m *Model) PredictAttributes(attrs [][]string) Prediction {
	return m.PredictValues(attrs, nil)
}

// PredictValues is PredictAttributes for attributes with values (see
// PrepareValues); nil values means every value is 1. Values scale the
// sequence task's features only: a segmentation model reads them as 1.
// A sequence model predicts by its trainer's rule: the MAP labeling, or
// with a log-linear trainer's predict: mpm the maximum posterior marginals
// (trainers.MPM).
func (m *Model) PredictValues(attrs [][]string, values [][]float64) Prediction {
	if m.Features.Degree == 2 {
		attrs = expandPairs(m.index, attrs)
	}
	ids, vals := encodeValued(m.index, attrs, values)
	d := m.decoder()
	defer m.decoders.Put(d)
	if d.segment != nil {
		segs := d.segment.Predict(segment.Instance{Attrs: ids}, m.Weights)
		labels := make([]int, len(attrs))
		for _, s := range segs {
			for t := s.Start; t < s.End; t++ {
				labels[t] = s.Label
			}
		}
		return Prediction{Labels: labels, Segments: segs}
	}
	x := chain.Instance{Attrs: ids, Values: vals}
	var labels []int
	if beta, ok := trainers.MPM(m.Trainer, m.Params); ok {
		labels = d.chain.PredictMPM(x, m.Weights, beta) // the trainer's predict: mpm
	} else {
		labels = d.chain.Predict(x, m.Weights)
	}
	return Prediction{Labels: labels, Segments: structpred.SegmentsFromLabels(labels)}
}

// Tag labels one sequence and returns its labels as the training file
// wrote them: in its label encoding (IOB1, IOBES, ...) for chunk tags.
func (m *Model) Tag(tokens []string, columns [][]string) ([]string, error) {
	return m.tags(m.Predict(tokens, columns).Labels)
}

// tags returns the names of labels in the model's label encoding. Chunk
// labels are read as conlleval reads them (an I-X after O starts a chunk)
// and written in the encoding's rules.
func (m *Model) tags(labels []int) ([]string, error) {
	names := make([]string, len(labels))
	for t, id := range labels {
		names[t] = m.Labels[id]
	}
	if !m.Format.chunked() {
		return names, nil
	}
	chunks, _, err := datasets.IOB2.Decode(names)
	if err != nil {
		return nil, err
	}
	return datasets.Scheme(m.Format.Scheme).Encode(chunks, len(names))
}

// decoder returns a decoder from the pool, or a new one.
func (m *Model) decoder() *decoder {
	if d, ok := m.decoders.Get().(*decoder); ok {
		return d
	}
	d, err := m.newDecoder()
	if err != nil {
		panic(fmt.Sprintf("tagger: a checked model has no decoder: %v", err)) // check() rules this out
	}
	if d.chain != nil {
		d.chain.UseILP(m.Decoder == DecoderILP)
	}
	return d
}

// newDecoder builds a task model over no training data, with the shape of
// the trained one (the loss is irrelevant to prediction).
func (m *Model) newDecoder() (*decoder, error) {
	numAttrs, k, maxLen, edges := m.index.Len(), len(m.Labels), m.MaxSegmentLength, m.Features.Edges
	task := m.Task
	switch task {
	case Sequence:
		c, err := chain.New(nil, numAttrs, k, edges, decoders.Hamming(k))
		if err == nil && m.pairs != nil {
			err = c.Restrict(m.pairs)
		}
		return &decoder{chain: c}, err
	case Segmentation:
		s, err := segment.New(nil, numAttrs, k, maxLen, edges, semimarkov.DefaultLoss(k))
		return &decoder{segment: s}, err
	}
	return nil, fmt.Errorf("unknown task %q (known: %s, %s)", task, Sequence, Segmentation)
}

// check validates a model before it predicts: the task, features, format
// and label set are known and the weights have the task model's size.
func (m *Model) check() error {
	if m.index == nil {
		return fmt.Errorf("model has no attribute index")
	}
	if err := m.Features.Check(); err != nil {
		return err
	}
	if err := m.Format.check(); err != nil {
		return err
	}
	if err := checkDecoder(m.Task, m.Decoder); err != nil {
		return err
	}
	if len(m.Labels) == 0 {
		return fmt.Errorf("model has no labels")
	}
	seen := make(map[string]bool, len(m.Labels))
	for _, l := range m.Labels {
		if seen[l] {
			return fmt.Errorf("label %q appears twice", l)
		}
		seen[l] = true
	}
	if m.Task == Segmentation && (m.MaxSegmentLength < 1 || m.MaxSegmentLength > maxSegmentLength) {
		return fmt.Errorf("maximum segment length %d outside [1, %d]", m.MaxSegmentLength, maxSegmentLength)
	}
	if m.Task == Sequence && m.MaxSegmentLength != 0 {
		return fmt.Errorf("a %s model has no maximum segment length, got %d", Sequence, m.MaxSegmentLength)
	}
	if m.Task == Segmentation && m.Format.chunked() {
		return fmt.Errorf("a %s model needs plain labels, not label encoding %s", Segmentation, m.Format.Scheme)
	}
	if (m.pairs != nil) != m.Features.seenPairs() {
		return fmt.Errorf("features: pairs %q, but the model has %s attribute–label pairs", m.Features.Pairs, map[bool]string{true: "a table of", false: "no table of"}[m.pairs != nil])
	}
	if m.Features.seenPairs() && m.Task != Sequence {
		return fmt.Errorf("features: pairs %s belong to the %s task, not %s", PairsSeen, Sequence, m.Task)
	}
	a, k := m.index.Len(), len(m.Labels)
	dim := chain.Dim(a, k, m.Features.Edges)
	if m.Task == Segmentation {
		dim = segment.Dim(a, k, m.Features.Edges)
	}
	if m.pairs != nil {
		if err := m.pairs.Check(a, k); err != nil {
			return err
		}
		dim = chain.DimPairs(m.pairs, k, m.Features.Edges)
	}
	if len(m.Weights) != dim {
		return fmt.Errorf("%d weights, but a %s model of %d attributes and %d labels has %d", len(m.Weights), m.Task, a, k, dim)
	}
	// The decoders hold K×K tables. A trained model has far more weights
	// than that (every attribute has K), so this refuses only a file whose
	// labels and weights disagree, before it could allocate without bound.
	if k*k > max(dim, minLabelTable) {
		return fmt.Errorf("%d labels, but only %d weights", k, dim)
	}
	d, err := m.newDecoder()
	if err != nil {
		return err
	}
	if d.chain != nil {
		d.chain.UseILP(m.Decoder == DecoderILP)
	}
	for j, w := range m.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v", j, w)
		}
	}
	m.decoders.Put(d)
	return nil
}
