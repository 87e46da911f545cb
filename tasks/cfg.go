package tasks

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/cfg"
	"github.com/maxmargin/repro/trainers"
)

// CFGName is the weighted-grammar parsing task's name.
const CFGName = "cfg"

// CFG is phrase-structure parsing with a weighted context-free grammar
// (Tsochantaridis et al. 2004, section 5.5; models/cfg) in Johnson
// (1999)'s set-up: Penn Treebank trees (format ptb) through
// datasets.JohnsonPreprocess, the part-of-speech tags as terminals, the
// grammar every rule of the training part's trees, CKY for the argmax.
// The task's loss is Δ = 1 − F1 over labelled brackets (delta_loss:
// zero-one trains on the 0/1 loss instead; the generative trainer is the
// PCFG by maximum likelihood). A sentence the grammar cannot parse gets
// the fallback parse (a flat tree), which counts in every metric; the
// metrics are exact-tree accuracy and bracket F1 on the test part and on
// the training part, and the coverage.
type CFG struct{}

// probeTree is a one-rule treebank for the empty model Supports checks.
var probeTree = datasets.PhraseTree{ID: "probe", Root: &datasets.PhraseNode{Label: "S", Children: []*datasets.PhraseNode{{Label: "NN", Word: "x"}}}}

// Name returns "cfg".
func (CFG) Name() string { return CFGName }

// Supports checks the trainer against a model of a one-tree grammar:
// every decoder is exact, so every cutting-plane trainer runs.
func (CFG) Supports(trainer string, v trainers.Values) error {
	g, err := cfg.NewGrammar([]datasets.PhraseTree{probeTree})
	if err != nil {
		return err
	}
	probe, err := cfg.New(g, nil, cfg.BracketF1)
	if err != nil {
		return err
	}
	return trainers.Check(trainer, probe, v)
}

// Metrics declares exact-tree accuracy, bracket F1, their training-set
// values and the coverage.
func (CFG) Metrics() metrics.TaskMetrics { return metrics.ForTask(CFGName) }

// NewScorer scores parses against the corpus's gold trees; each sentence
// is one decision (parsed exactly or not) for McNemar's test, and its
// bracket counts go to the paired bootstrap of F1.
func (CFG) NewScorer(c *Corpus, keep func(Outcome)) Scorer {
	return &treeScorer{c: c, keep: keep}
}

// Prepare reads the grammar off the training trees and encodes them.
func (CFG) Prepare(c *Corpus, train []int, s Settings) (Fitting, error) {
	if err := trainers.Validate(s.Trainer, s.Params); err != nil {
		return nil, err
	}
	if s.Decoder != "" {
		return nil, fmt.Errorf("decoder %s: the %s model decodes by CKY only", s.Decoder, CFGName)
	}
	if c.Trees == nil {
		return nil, fmt.Errorf("the %s task needs phrase-structure trees (a dataset of format %s)", CFGName, datasets.FormatPTB)
	}
	trees := make([]datasets.PhraseTree, len(train))
	for j, i := range train {
		trees[j] = c.Trees[i]
	}
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		return nil, err
	}
	data := make([]cfg.Instance, len(trees))
	for j, t := range trees {
		sent, gold, err := g.Encode(t)
		if err != nil {
			return nil, fmt.Errorf("training tree %s: %w", t.ID, err)
		}
		if len(sent) > cky.MaxWords {
			return nil, fmt.Errorf("training tree %s has %d words, beyond the parser's %d (set the dataset's max_words)", t.ID, len(sent), cky.MaxWords)
		}
		data[j] = cfg.NewInstance(g, sent, gold)
	}
	model, err := cfg.New(g, data, cfg.BracketF1)
	if err != nil {
		return nil, err
	}
	return &cfgFitting{settings: s, trees: trees, grammar: g, model: model}, nil
}

// TrainFile trains a parser on a bracketed treebank file (or a directory
// of *.mrg files), read through Johnson's preprocessing; every tree must
// fit the parser (cky.MaxWords).
func (t CFG) TrainFile(ctx context.Context, path string, s Settings) (Model, *trainers.Result, error) {
	raw, err := datasets.LoadPhraseTrees(path)
	if err != nil {
		return nil, nil, err
	}
	trees := datasets.PreprocessPhraseTrees(raw, 0)
	if len(trees) == 0 {
		return nil, nil, fmt.Errorf("%s: no tree left after preprocessing", path)
	}
	c := &Corpus{Trees: trees}
	train := make([]int, len(trees))
	for i := range train {
		train[i] = i
	}
	f, err := t.Prepare(c, train, s)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	m, res, err := f.Fit(ctx)
	if err != nil {
		return nil, nil, err
	}
	p := m.(*GrammarParser)
	p.DataHash = treesHash(trees)
	return p, res, nil
}

// Decode reads a cfg model file (see [GrammarParser.Save]).
func (CFG) Decode(b []byte) (Model, error) { return DecodeGrammarParser(b) }

// treeScorer sums the outcomes of parses (models/cfg.Evaluate).
type treeScorer struct {
	c        *Corpus
	keep     func(Outcome)
	outcomes []cfg.Outcome
}

func (s *treeScorer) Add(i int, p Prediction) error {
	if p.Tree.Root == nil {
		return fmt.Errorf("item %d: no parse", i)
	}
	o := cfg.Evaluate(s.c.Trees[i], p.Tree, p.Fallback)
	s.outcomes = append(s.outcomes, o)
	if s.keep != nil {
		s.keep(Outcome{TokenOK: []bool{o.Exact}, TrueSpans: o.Gold, PredSpans: o.Predicted, Matched: o.Matched})
	}
	return nil
}

func (s *treeScorer) Metrics() map[string]float64 {
	sum := cfg.Summarize(s.outcomes)
	return map[string]float64{
		metrics.TreeAccuracy: 100 * sum.Accuracy(),
		metrics.BracketF1:    100 * sum.F1(),
		metrics.Coverage:     100 * (1 - float64(sum.Fallbacks)/float64(max(sum.Sentences, 1))),
	}
}

// cfgFitting is a grammar training: the training trees, their grammar
// and the model over them.
type cfgFitting struct {
	settings Settings
	trees    []datasets.PhraseTree
	grammar  *cfg.Grammar
	model    *cfg.Model
}

func (f *cfgFitting) Fit(ctx context.Context, opts ...trainers.Option) (Model, *trainers.Result, error) {
	res, err := trainers.Train(ctx, f.settings.Trainer, f.model, f.settings.Params, opts...)
	if err != nil {
		return nil, nil, err
	}
	m, err := f.ModelAt(res.W)
	return m, res, err
}

func (f *cfgFitting) ModelAt(w []float64) (Model, error) {
	params, err := trainers.Resolve(f.settings.Trainer, f.settings.Params)
	if err != nil {
		return nil, err
	}
	return &GrammarParser{Trainer: f.settings.Trainer, Params: params, Version: version.String(), Trees: f.trees, Weights: w, grammar: f.grammar}, nil
}

// TrainMetrics scores m on the training trees it was read off: Table 5's
// training accuracy and F1 (the runner adds them to the unit's metrics).
func (f *cfgFitting) TrainMetrics(m Model) map[string]float64 {
	p, ok := m.(*GrammarParser)
	if !ok {
		return nil
	}
	var outs []cfg.Outcome
	for _, t := range f.trees {
		parse, fb := p.Parse(t)
		outs = append(outs, cfg.Evaluate(t, parse, fb))
	}
	sum := cfg.Summarize(outs)
	return map[string]float64{metrics.TrainTreeAcc: 100 * sum.Accuracy(), metrics.TrainBracketF1: 100 * sum.F1()}
}

// GrammarParser is a trained weighted grammar: what a cfg model file stores. Its
// grammar is the one read off Trees, rebuilt when the file is read. Its
// methods are safe for concurrent use.
type GrammarParser struct {
	Trainer string
	Params  trainers.Values
	// DataHash is the SHA-256 of the training trees; Version the repro
	// that trained it.
	DataHash, Version string
	// Trees are the training trees, preprocessed: the grammar's rules.
	Trees []datasets.PhraseTree
	// Weights has one weight per rule of the grammar.
	Weights []float64

	grammar    *cfg.Grammar
	workspaces sync.Pool // of *cky.Workspace
}

// TaskName returns "cfg".
func (p *GrammarParser) TaskName() string { return CFGName }

// Describe names the trainer with its params.
func (p *GrammarParser) Describe() string { return describe(p.Trainer, p.Params) }

// Parse returns the best parse of t's tags, or the fallback (a flat tree)
// when the grammar has none.
func (p *GrammarParser) Parse(t datasets.PhraseTree) (datasets.PhraseTree, bool) {
	ws, _ := p.workspaces.Get().(*cky.Workspace)
	if ws == nil {
		ws = new(cky.Workspace)
	}
	defer p.workspaces.Put(ws)
	return p.grammar.Parse(t, p.Weights, ws)
}

// Predict parses corpus item i.
func (p *GrammarParser) Predict(c *Corpus, i int) Prediction {
	t, fb := p.Parse(c.Trees[i])
	return Prediction{Tree: t, Fallback: fb}
}

// Tag parses every tree of a bracketed file (its own brackets ignored:
// only the words and tags are read, after Johnson's preprocessing) and
// writes the parses in bracketed form; it warns of fallback parses.
func (p *GrammarParser) Tag(ctx context.Context, r io.Reader, w io.Writer, name string) ([]string, error) {
	raw, err := datasets.ReadPhraseTrees(r, name)
	if err != nil {
		return nil, err
	}
	var out []datasets.PhraseTree
	fallbacks := 0
	for _, t := range datasets.PreprocessPhraseTrees(raw, 0) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		parse, fb := p.Parse(t)
		if fb {
			fallbacks++
		}
		out = append(out, parse)
	}
	var b bytes.Buffer
	if err := datasets.WritePhraseTrees(&b, out); err != nil {
		return nil, err
	}
	if _, err := w.Write(b.Bytes()); err != nil {
		return nil, err
	}
	var warnings []string
	if fallbacks > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: %d of %d sentences have no parse under the grammar and got the fallback (a flat tree)", name, fallbacks, len(out)))
	}
	return warnings, nil
}

// Evaluate parses a bracketed file and scores it against its trees as
// units do.
func (p *GrammarParser) Evaluate(ctx context.Context, path string) (Evaluation, []string, error) {
	raw, err := datasets.LoadPhraseTrees(path)
	if err != nil {
		return nil, nil, err
	}
	c := &Corpus{Trees: datasets.PreprocessPhraseTrees(raw, 0)}
	s := CFG{}.NewScorer(c, nil)
	for i := range c.Trees {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		if err := s.Add(i, p.Predict(c, i)); err != nil {
			return nil, nil, err
		}
	}
	return &TreeEvaluation{Summary: cfg.Summarize(s.(*treeScorer).outcomes), Metrics: s.Metrics()}, nil, nil
}

// TreeEvaluation is a parser's score on a bracketed file.
type TreeEvaluation struct {
	Summary cfg.Summary
	// Metrics are exact-tree accuracy, bracket F1 and coverage, as a
	// unit reports them.
	Metrics map[string]float64
}

// WriteReport writes the counts and the metrics.
func (e *TreeEvaluation) WriteReport(w io.Writer) error {
	s := e.Summary
	_, err := fmt.Fprintf(w, "sentences: %d\nexact trees: %.2f%% (%d)\nbrackets: %d matched of %d predicted, %d gold\nprecision %.2f%%, recall %.2f%%, F1 %.2f%%\ncoverage: %.2f%% (%d fallback parses)\n",
		s.Sentences, e.Metrics[metrics.TreeAccuracy], s.Exact, s.Matched, s.Predicted, s.Gold,
		100*s.Precision(), 100*s.Recall(), e.Metrics[metrics.BracketF1], e.Metrics[metrics.Coverage], s.Fallbacks)
	return err
}

// treesHash is the SHA-256 of trees in bracketed form.
func treesHash(trees []datasets.PhraseTree) string {
	h := sha256.New()
	if err := datasets.WritePhraseTrees(h, trees); err != nil {
		panic(err) // preprocessed trees hold valid atoms
	}
	return hex.EncodeToString(h.Sum(nil))
}
