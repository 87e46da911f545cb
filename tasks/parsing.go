package tasks

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/tree"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// ParsingName is the parsing task's name.
const ParsingName = "parsing"

// Parsing is unlabelled dependency parsing with a first-order model
// (Sarawagi & Gupta, section 4.3.3): CoNLL-X/CoNLL-U treebanks
// (datasets.ReadTreebank), the arc features of McDonald et al. (2005)
// indexed on the training trees' arcs only, as MSTParser builds its
// alphabet (features.Dependency), models/tree, Chu-Liu/Edmonds decoding
// (non-projective, any number of root children, the CoNLL-X convention),
// and the attachment error: the share of words with a wrong head,
// punctuation included, as CoNLL-X scored it.
type Parsing struct{}

// Name returns "parsing".
func (Parsing) Name() string { return ParsingName }

// Supports checks the trainer against an empty tree model: it has no
// loss-count decoding, so slack scaling and ApproxSlack are refused.
func (Parsing) Supports(trainer string, v trainers.Values) error {
	probe, err := tree.New(nil, 1, mst.Decoder{})
	if err != nil {
		return err
	}
	return trainers.Check(trainer, probe, v)
}

// Metrics declares the attachment error.
func (Parsing) Metrics() metrics.TaskMetrics { return metrics.ForTask(ParsingName) }

// NewScorer scores heads as labels: a sentence's labels are its heads, so
// the token error of the heads is the unlabelled attachment error (its
// outcomes are the words' heads, right or wrong).
func (Parsing) NewScorer(c *Corpus, keep func(Outcome)) Scorer {
	return &labelScorer{c: c, keep: keep, metricsOf: func(s *labelScorer) map[string]float64 {
		return map[string]float64{metrics.AttachmentError: s.counts.TokenError()}
	}}
}

// Prepare indexes the arc features of the training trees and builds the
// tree model over them. The corpus's Arcs are used if set (the runner
// extracts them once per dataset with [ArcFeatures]), else made here.
func (Parsing) Prepare(c *Corpus, train []int, s Settings) (Fitting, error) {
	if err := trainers.Validate(s.Trainer, s.Params); err != nil {
		return nil, err
	}
	coarse := HasCoarseTags(c.Sequences)
	arcs := c.Arcs
	if arcs == nil {
		arcs = make([]*features.Dependency, len(c.Sequences))
		for _, i := range train {
			arcs[i] = sentenceArcs(c.Sequences[i], coarse)
		}
	}
	f := &parsingFitting{settings: s, coarse: coarse}
	for _, i := range train {
		arcs[i].IndexTree(&f.index, heads(c.Sequences[i]))
	}
	data := make([]tree.Instance, len(train))
	for j, i := range train {
		data[j] = encodeSentence(arcs[i], &f.index, heads(c.Sequences[i]))
	}
	var err error
	if f.model, err = newTreeModel(data, f.index.Len(), s.Decoder); err != nil {
		return nil, fmt.Errorf("%s model: %w", ParsingName, err)
	}
	return f, nil
}

// TrainFile trains a parser on a CoNLL-X or CoNLL-U treebank.
func (p Parsing) TrainFile(ctx context.Context, path string, s Settings) (Model, *trainers.Result, error) {
	tb, err := datasets.LoadTreebank(path)
	if err != nil {
		return nil, nil, err
	}
	c := treebankCorpus(tb)
	train := make([]int, len(c.Sequences))
	for i := range train {
		train[i] = i
	}
	f, err := p.Prepare(c, train, s)
	if err != nil {
		return nil, nil, err
	}
	m, res, err := f.Fit(ctx)
	if err != nil {
		return nil, nil, err
	}
	parser := m.(*Parser)
	parser.DataHash = tagger.DataHash(&datasets.Corpus{Sequences: c.Sequences})
	return parser, res, nil
}

// Decode reads a parsing model file (see [Parser.Save]).
func (Parsing) Decode(b []byte) (Model, error) { return DecodeParser(b) }

// newTreeModel is the tree model over data with Chu-Liu/Edmonds decoding,
// or decoders/ilp's if decoder is DecoderILP.
func newTreeModel(data []tree.Instance, numFeatures int, decoder string) (*tree.Model, error) {
	if decoder != "" && decoder != DecoderILP {
		return nil, fmt.Errorf("unknown decoder %q (known: %s)", decoder, DecoderILP)
	}
	m, err := tree.New(data, numFeatures, mst.Decoder{})
	if err != nil {
		return nil, err
	}
	return m, m.UseILP(decoder == DecoderILP)
}

// HasCoarseTags reports whether a treebank's sentences carry coarse tags
// (their second column) that differ from the fine ones (the first) for
// some word: only then do arc features get the coarse templates, which
// would otherwise repeat the fine ones (Danish DDT's XPOS is "_", read as
// its UPOS).
func HasCoarseTags(seqs []structpred.Sequence) bool {
	for _, s := range seqs {
		if len(s.Columns) > 1 && !slices.Equal(s.Columns[0], s.Columns[1]) {
			return true
		}
	}
	return false
}

// ArcFeatures prepares the arc features of a treebank's sentences (as
// datasets.TreeSequence lays them out), with the coarse templates if
// [HasCoarseTags]. Cancelling ctx stops it between sentences.
func ArcFeatures(ctx context.Context, seqs []structpred.Sequence) ([]*features.Dependency, error) {
	coarse := HasCoarseTags(seqs)
	out := make([]*features.Dependency, len(seqs))
	for i, s := range seqs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[i] = sentenceArcs(s, coarse)
	}
	return out, nil
}

// sentenceArcs prepares one sentence's arc features: its fine tags, and
// its coarse tags if coarse.
func sentenceArcs(s structpred.Sequence, coarse bool) *features.Dependency {
	var ctags []string
	if coarse {
		ctags = s.Columns[1]
	}
	return features.NewDependency(s.Tokens, s.Columns[0], ctags)
}

// heads returns a sentence's gold heads in decoders/mst's layout (index 0
// is the root, -1).
func heads(s structpred.Sequence) []int {
	return append([]int{-1}, s.Labels...)
}

// encodeSentence encodes a sentence's arcs through the index.
func encodeSentence(f *features.Dependency, x *features.HashIndex, gold []int) tree.Instance {
	start, ids := f.EncodeArcs(x)
	return tree.Instance{N: f.Len(), Start: start, IDs: ids, Heads: gold}
}

// treebankCorpus is a treebank as the runner's corpus holds it.
func treebankCorpus(tb *datasets.Treebank) *Corpus {
	c := &Corpus{Sequences: make([]structpred.Sequence, len(tb.Trees))}
	for i, t := range tb.Trees {
		c.Sequences[i] = datasets.TreeSequence(t)
	}
	return c
}

// parsingFitting is a parsing training: the arc index of the training
// trees and the tree model over them.
type parsingFitting struct {
	settings Settings
	coarse   bool
	index    features.HashIndex
	model    *tree.Model
}

func (f *parsingFitting) Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error) {
	res, err := trainers.Train(ctx, f.settings.Trainer, f.model, f.settings.Params, opts...)
	if err != nil {
		return nil, nil, err
	}
	m, err := f.ModelAt(res.W)
	return m, res, err
}

func (f *parsingFitting) ModelAt(w []float64) (Model, error) {
	params, err := trainers.Resolve(f.settings.Trainer, f.settings.Params)
	if err != nil {
		return nil, err
	}
	return &Parser{
		Trainer: f.settings.Trainer, Params: params, Version: version.String(),
		CoarseTags: f.coarse, Decoder: f.settings.Decoder, Weights: w, index: &f.index,
	}, nil
}

// Parser is a trained parsing model: what a parsing model file stores,
// and what parsing units predict with. Its methods are safe for
// concurrent use; its fields must not change once it parses.
type Parser struct {
	// Trainer and Params (defaults resolved) are how it was trained.
	Trainer string
	Params  trainers.Values
	// DataHash is the SHA-256 of the training treebank (tagger.DataHash
	// of its sentences); Version the repro that trained it.
	DataHash, Version string
	// CoarseTags says that the arc features have the coarse-tag templates
	// (the training treebank's coarse tags differ from its fine ones).
	CoarseTags bool
	// Decoder is "" (Chu-Liu/Edmonds) or DecoderILP.
	Decoder string
	// Weights has one weight per indexed arc feature.
	Weights []float64

	index  *features.HashIndex
	models sync.Pool // of *tree.Model: decoding scratch, one per concurrent call
}

// TaskName returns "parsing".
func (p *Parser) TaskName() string { return ParsingName }

// Describe names the trainer with its params.
func (p *Parser) Describe() string { return describe(p.Trainer, p.Params) }

// NumFeatures returns the number of indexed arc features.
func (p *Parser) NumFeatures() int { return p.index.Len() }

// Predict parses corpus sentence i (its arc features if the corpus has
// them): Labels are its words' heads.
func (p *Parser) Predict(c *Corpus, i int) Prediction {
	var f *features.Dependency
	if c.Arcs != nil {
		f = c.Arcs[i]
	} else {
		f = sentenceArcs(c.Sequences[i], p.CoarseTags)
	}
	return Prediction{Labels: p.Parse(f)[1:]}
}

// Parse returns the best tree of a sentence, in decoders/mst's layout
// (heads[d] for word d ≥ 1, heads[0] = -1).
func (p *Parser) Parse(f *features.Dependency) []int {
	m, ok := p.models.Get().(*tree.Model)
	if !ok {
		var err error
		if m, err = newTreeModel(nil, p.index.Len(), p.Decoder); err != nil {
			panic(fmt.Sprintf("tasks: a tree model over no data: %v", err)) // New checks only the data
		}
	}
	defer p.models.Put(m)
	return m.Predict(encodeSentence(f, p.index, nil), p.Weights)
}

// parseTree parses one sentence of a treebank.
func (p *Parser) parseTree(t datasets.Tree) []int {
	return p.Predict(&Corpus{Sequences: []structpred.Sequence{datasets.TreeSequence(t)}}, 0).Labels
}

// Tag parses every sentence of a CoNLL-X or CoNLL-U text and writes it
// back with the HEAD column filled in; every other column, comment and
// multiword or empty-node line is written as read. HEAD may be "_".
func (p *Parser) Tag(ctx context.Context, r io.Reader, w io.Writer, name string) ([]string, error) {
	tb, err := datasets.ReadUnparsed(r, name)
	if err != nil {
		return nil, err
	}
	out := make([][]int, len(tb.Trees))
	for s, t := range tb.Trees {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		out[s] = append([]int{-1}, p.parseTree(t)...)
	}
	return nil, datasets.WriteTreebank(w, tb, out)
}

// Evaluate parses a treebank and scores the heads as parsing units do:
// the attachment error over every word, punctuation included.
func (p *Parser) Evaluate(ctx context.Context, path string) (Evaluation, []string, error) {
	tb, err := datasets.LoadTreebank(path)
	if err != nil {
		return nil, nil, err
	}
	e := &ParsingEvaluation{Sentences: len(tb.Trees)}
	for _, t := range tb.Trees {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := e.Counts.AddLabels(t.Heads[1:], p.parseTree(t)); err != nil {
			return nil, nil, fmt.Errorf("%s: %w", t.ID, err)
		}
	}
	return e, nil, nil
}

// ParsingEvaluation is a parser's score on a treebank.
type ParsingEvaluation struct {
	Sentences int
	// Counts holds the words (Tokens) and those with a wrong head
	// (TokenErrors), counted as units count them.
	Counts metrics.Counts
}

// AttachmentError is the percentage of words with a wrong head, as a
// parsing unit reports it.
func (e *ParsingEvaluation) AttachmentError() float64 { return e.Counts.TokenError() }

// WriteReport writes the sentences, words and the attachment error.
func (e *ParsingEvaluation) WriteReport(w io.Writer) error {
	c := &e.Counts
	_, err := fmt.Fprintf(w, "sentences: %d, words: %d\nattachment error: %.2f%% (%d of %d words with a wrong head; unlabelled, punctuation included)\n",
		e.Sentences, c.Tokens, e.AttachmentError(), c.TokenErrors, c.Tokens)
	return err
}
