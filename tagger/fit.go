package tagger

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// DefaultSegmentQuantile sets a segmentation model's maximum segment
// length to the length that covers 99% of the training segments; longer
// true segments stay in the training truth (the model scores them exactly)
// but can never be predicted.
const DefaultSegmentQuantile = 0.99

// Options say what to train: the task, the features and the trainer.
type Options struct {
	// Task is Sequence (the default) or Segmentation.
	Task string
	// Features are the attribute templates; a zero Kind takes the
	// defaults of the data's format (Cora: Citation, CoNLL: NER) in
	// [Train]. Prepare needs them set.
	Features Features
	// Trainer names a trainer of package trainers (trainers.Names) and
	// Params are its params (trainers.Spec), e.g. {"C": 0.1}.
	Trainer string
	Params  trainers.Values
	// SegmentQuantile sets a segmentation model's maximum segment length
	// (0: DefaultSegmentQuantile).
	SegmentQuantile float64
	// SegmentLoss is the segmentation loss (zero: section 4.3.2's unit
	// penalties).
	SegmentLoss semimarkov.Loss
	// Decoder is the sequence model's MAP decoder: "" (Viterbi, exact) or
	// DecoderILP (decoders/ilp: the same argmax as an integer linear
	// program, a slow reference; see docs/ilp.md).
	Decoder string
}

// DecoderILP selects decoders/ilp for a sequence model's MAP and
// loss-augmented MAP (chain.Model.UseILP); the other inference a trainer
// may ask for (loss counts, k-best, marginals) stays exact dynamic
// programming.
const DecoderILP = "ilp"

// checkDecoder refuses a decoder the task's model does not have.
func checkDecoder(task, decoder string) error {
	switch {
	case decoder == "":
		return nil
	case decoder != DecoderILP:
		return fmt.Errorf("unknown decoder %q (known: %s)", decoder, DecoderILP)
	case task != Sequence:
		return fmt.Errorf("decoder %s: the %s model has none (the sequence and parsing models do)", decoder, task)
	}
	return nil
}

// Check reports whether the trainer called trainer can train a model of
// task with params v: the trainer and task are known, the params are the
// trainer's and in range (trainers.Validate), and the task's model serves
// the trainer (Supports). It reads no data, so a command can check its
// arguments first.
func Check(task, trainer string, v trainers.Values) error {
	if err := trainers.Validate(trainer, v); err != nil {
		return err
	}
	return Supports(task, trainer, v)
}

// Supports reports whether the task's model has every capability the
// trainer needs with params v (e.g. slack scaling needs a loss-count
// decoder; see trainers.Check). Unlike Check it leaves ranges and required
// params alone, so that a config can check a trainer before its C is
// chosen.
func Supports(task, trainer string, v trainers.Values) error {
	switch task {
	case Sequence:
		probe, err := chain.New(nil, 1, 2, true, decoders.Hamming(2))
		if err != nil {
			return err
		}
		// Prepare designates the word attributes as an HMM's symbols.
		if err := probe.SetEmissions([]int32{-1}, 0); err != nil {
			return err
		}
		return trainers.Check(trainer, probe, v)
	case Segmentation:
		probe, err := segment.New(nil, 1, 2, 1, true, semimarkov.DefaultLoss(2))
		if err != nil {
			return err
		}
		return trainers.Check(trainer, probe, v)
	}
	return fmt.Errorf("unknown task %q (known: %s, %s)", task, Sequence, Segmentation)
}

// Training is a training ready to run: the attribute index of the
// training sequences and the task's model over them. [Train] prepares and
// fits in one step; the experiment runner prepares, then times Fit alone.
type Training struct {
	opt     Options
	labels  []string
	index   *features.Index
	chain   *chain.Model
	segment *segment.Model
	pairs   *chain.Pairs // the sequence model's pairs with Features.Pairs seen
}

// Prepare indexes the attributes of the training sequences (attrs[i] are
// sequence i's, per token, from opt.Features.Extract; attributes seen
// fewer than opt.Features.MinCount times are dropped) and builds the task's
// model over them, to be trained with opt's trainer and params (checked
// here, before any work). labels are the label names, by the ids the
// sequences' Labels and Segments use.
func Prepare(labels []string, train []structpred.Sequence, attrs [][][]string, opt Options) (*Training, error) {
	return PrepareValues(labels, train, attrs, nil, opt)
}

// PrepareValues is Prepare for attributes with values (CRFsuite attribute
// files): values[i][t][j] scales attribute attrs[i][t][j]'s features. A
// nil values, or a nil values[i] or values[i][t], means every value is 1,
// so PrepareValues with nil values is Prepare. Only the sequence task's
// model uses values; others refuse them rather than read them as 1.
func PrepareValues(labels []string, train []structpred.Sequence, attrs [][][]string, values [][][]float64, opt Options) (*Training, error) {
	if opt.Task == "" {
		opt.Task = Sequence
	}
	if err := Check(opt.Task, opt.Trainer, opt.Params); err != nil {
		return nil, err
	}
	if err := checkDecoder(opt.Task, opt.Decoder); err != nil {
		return nil, err
	}
	if err := opt.Features.Check(); err != nil {
		return nil, err
	}
	if len(attrs) != len(train) {
		return nil, fmt.Errorf("%d sequences but attributes for %d", len(train), len(attrs))
	}
	if len(train) == 0 {
		return nil, fmt.Errorf("no training sequences")
	}
	if values != nil && len(values) != len(train) {
		return nil, fmt.Errorf("%d sequences but values for %d", len(train), len(values))
	}
	if opt.Features.Pairs == PairsAll {
		opt.Features.Pairs = "" // the default, stored as before pairs existed
	}
	if opt.Features.seenPairs() && opt.Task != Sequence {
		return nil, fmt.Errorf("features: pairs %s: only the %s task's model keeps seen attribute–label pairs, not %s (use pairs %s)", PairsSeen, Sequence, opt.Task, PairsAll)
	}
	if values != nil && opt.Task != Sequence {
		return nil, fmt.Errorf("attribute values: only the %s task's model uses them, not %s", Sequence, opt.Task)
	}
	if opt.Features.Degree == 2 {
		if values != nil {
			return nil, fmt.Errorf("features: degree 2 multiplies binary attributes; these attributes have values")
		}
		attrs = features.BuildPairs(attrs, opt.Features.MinCount).ExpandAll(attrs)
	}
	t := &Training{opt: opt, labels: labels, index: features.BuildIndexMinCount(attrs, opt.Features.MinCount)}
	k, numAttrs, edges := len(labels), t.index.Len(), opt.Features.Edges
	if numAttrs == 0 {
		// A model without attributes labels every token alike: an error,
		// not a model (the usual cause is a min count above every count).
		return nil, fmt.Errorf("no attribute of the training data is kept (min count %d): the model could only label every token alike; lower the min count", opt.Features.MinCount)
	}
	var err error
	switch opt.Task {
	case Sequence:
		data := make([]chain.Instance, len(train))
		for i, s := range train {
			data[i] = chain.Instance{Labels: s.Labels}
			data[i].Attrs, data[i].Values = encodeValued(t.index, attrs[i], valuesOf(values, i))
		}
		t.chain, err = chain.New(data, numAttrs, k, edges, decoders.Hamming(k))
		if err == nil {
			t.chain.UseILP(opt.Decoder == DecoderILP)
		}
		if err == nil && opt.Features.seenPairs() {
			t.pairs = chain.SeenPairs(data, numAttrs, k)
			err = t.chain.Restrict(t.pairs)
		}
		if err == nil && opt.Trainer == trainers.HMM {
			if opt.Features.seenPairs() {
				return nil, fmt.Errorf("trainer %s: features pairs %s keep only some word–label weights; an HMM emits every word from every label (pairs %s)", trainers.HMM, PairsSeen, PairsAll)
			}
			err = setEmissions(t.chain, t.index)
		}
	case Segmentation:
		data := make([]segment.Instance, len(train))
		for i, s := range train {
			data[i] = segment.Instance{Attrs: t.index.Encode(attrs[i]), Segments: s.Segments}
		}
		q := opt.SegmentQuantile
		if q == 0 {
			q = DefaultSegmentQuantile
		}
		maxLen, lerr := segment.MaxSegmentLength(data, q, 0)
		if lerr != nil {
			return nil, lerr
		}
		t.segment, err = segment.New(data, numAttrs, k, maxLen, edges, opt.SegmentLoss)
	}
	if err != nil {
		return nil, fmt.Errorf("%s model: %w", opt.Task, err)
	}
	return t, nil
}

// MaxSegmentLength returns the longest segment a segmentation model
// predicts (0 for sequence models).
func (t *Training) MaxSegmentLength() int {
	if t.segment == nil {
		return 0
	}
	return t.segment.MaxLen()
}

// LongSegments returns the number of true training segments longer than a
// segmentation model's maximum segment length (0 for sequence models).
func (t *Training) LongSegments() int {
	if t.segment == nil {
		return 0
	}
	return t.segment.LongSegments()
}

// Fit trains the model with the trainer and params of the options, through
// the trainers' registry; ctx cancels it, and carries a progress observer
// if the caller set one (trainers.WithProgress); opts are the trainers'
// options (e.g. trainers.WithCheckpoints). The model it returns
// holds the result's weights; Format and DataHash are the caller's to set
// (Train sets them).
func (t *Training) Fit(ctx context.Context, opts ...trainers.Option) (*Model, *trainers.Result, error) {
	var res *trainers.Result
	var err error
	if t.chain != nil {
		res, err = trainers.Train(ctx, t.opt.Trainer, t.chain, t.opt.Params, opts...)
	} else {
		res, err = trainers.Train(ctx, t.opt.Trainer, t.segment, t.opt.Params, opts...)
	}
	if err != nil {
		return nil, nil, err
	}
	m, err := t.ModelAt(res.W)
	if err != nil {
		return nil, nil, err
	}
	return m, res, nil
}

// ModelAt returns the model with weights w, as Fit returns it for the
// trained weights: for a checkpoint's weights (trainers.WithCheckpoints),
// the model training would have returned had it stopped there.
func (t *Training) ModelAt(w []float64) (*Model, error) {
	params, err := trainers.Resolve(t.opt.Trainer, t.opt.Params)
	if err != nil {
		return nil, err
	}
	m := &Model{
		Task: t.opt.Task, Features: t.opt.Features, Labels: t.labels,
		Trainer: t.opt.Trainer, Params: params, Version: version.String(),
		Weights: w, index: t.index, Decoder: t.opt.Decoder, pairs: t.pairs,
	}
	m.MaxSegmentLength = t.MaxSegmentLength()
	return m, nil
}

// Train trains a model on labelled data: extract every sequence's
// attributes, prepare, fit, and record the data's format and hash in the
// model.
func Train(ctx context.Context, d *Data, opt Options) (*Model, *trainers.Result, error) {
	if opt.Task == "" {
		opt.Task = Sequence
	}
	if err := Check(opt.Task, opt.Trainer, opt.Params); err != nil {
		return nil, nil, err
	}
	if opt.Features.Kind == "" {
		kind := NER
		switch d.Format.Kind {
		case FormatCora:
			kind = Citation
		case FormatCRFsuite:
			kind = Given
		}
		f, err := DefaultFeatures(kind)
		if err != nil {
			return nil, nil, err
		}
		opt.Features = f
	}
	if (opt.Features.Kind == NER || opt.Features.Kind == Chunking) && len(opt.Features.Columns) == 0 && d.Format.Kind == FormatCoNLL {
		opt.Features.Columns = datasets.CoNLLFormat{Columns: d.Format.Columns}.ExtraColumns()
	}
	if opt.Task == Segmentation && d.Format.chunked() {
		return nil, nil, fmt.Errorf("the %s task needs plain labels whose runs tile each sequence; these labels are chunk tags (label encoding %s): train the %s task, or read the labels as plain (label encoding none)", Segmentation, d.Format.Scheme, Sequence)
	}
	if given := d.Attributes != nil; given != (opt.Features.Kind == Given) {
		return nil, nil, fmt.Errorf("features %s: an attribute file (format %s) brings its own features (%s), and only it does", opt.Features.Kind, FormatCRFsuite, Given)
	}
	seqs := d.Corpus.Sequences
	var attrs [][][]string
	var values [][][]float64
	if d.Attributes != nil {
		attrs, values = d.Attributes.Names, d.Attributes.Values
	} else {
		attrs = make([][][]string, len(seqs))
		for i, s := range seqs {
			if err := ctx.Err(); err != nil {
				return nil, nil, err
			}
			attrs[i] = opt.Features.Extract(s.Tokens, s.Columns)
		}
	}
	t, err := PrepareValues(d.Corpus.Labels, seqs, attrs, values, opt)
	if err != nil {
		return nil, nil, err
	}
	m, res, err := t.Fit(ctx)
	if err != nil {
		return nil, nil, err
	}
	m.Format, m.DataHash = d.Format, DataHash(d.Corpus)
	if d.Attributes != nil {
		m.DataHash = attributesHash(d.Corpus, d.Attributes)
	}
	return m, res, nil
}

// attributesHash is DataHash for an attribute file: the labels, and per
// sequence its labels and every token's attributes with their values.
func attributesHash(c *datasets.Corpus, a *datasets.Attributes) string {
	h := sha256.New()
	fmt.Fprintf(h, "labels %q\n", c.Labels)
	for i, s := range c.Sequences {
		fmt.Fprintf(h, "labels %v\n", s.Labels)
		for t, names := range a.Names[i] {
			fmt.Fprintf(h, "attributes %q\n", names)
			for j := range names {
				fmt.Fprintf(h, "%v ", a.Value(i, t, j))
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// DataHash returns the hex SHA-256 of a corpus's content: its label names
// and, per sequence, the tokens, extra columns and labels. It names the
// training data in a model (the same data read from any file gives the
// same hash).
func DataHash(c *datasets.Corpus) string {
	h := sha256.New()
	fmt.Fprintf(h, "labels %q\n", c.Labels)
	for _, s := range c.Sequences {
		fmt.Fprintf(h, "tokens %q\ncolumns %q\nlabels %v\nsegments %v\n", s.Tokens, s.Columns, s.Labels, s.Segments)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// Attribute names of the citation and NER templates that an HMM emits
// from: the word ("w=<word>"), one per token, and the always-on bias.
const (
	wordPrefix = "w="
	biasAttr   = "bias"
)

// setEmissions designates a chain's word attributes (the index's "w="
// attributes, not pairs of them) as an HMM's emission symbols, and its
// "bias" attribute as the carrier of the unknown-word emission.
func setEmissions(m *chain.Model, x *features.Index) error {
	bias, ok := x.Lookup(biasAttr)
	if !ok {
		return fmt.Errorf("trainer %s: the attributes have no %q (the citation and NER templates' always-on attribute), which carries the unknown-word emission", trainers.HMM, biasAttr)
	}
	symbol := make([]int32, x.Len())
	next := int32(0)
	for a := range symbol {
		name := x.Name(int32(a))
		symbol[a] = -1
		if strings.HasPrefix(name, wordPrefix) && !features.IsPair(name) {
			symbol[a] = next
			next++
		}
	}
	if next == 0 {
		return fmt.Errorf("trainer %s: the attributes have no word attribute %q<word> (the citation and NER templates' word) to emit", trainers.HMM, wordPrefix)
	}
	if err := m.SetEmissions(symbol, bias); err != nil {
		return fmt.Errorf("trainer %s: %w", trainers.HMM, err)
	}
	return nil
}
