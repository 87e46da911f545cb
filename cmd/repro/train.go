package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

const trainUsage = `Usage: repro train --trainer NAME [flags] -o MODEL TRAIN_FILE

Trains a model on a labelled file and saves it to MODEL. For the
sequence and segmentation tasks (--task), the file is a CoNLL column
file (one token per line, a blank line after each sentence; the first
column is the word and the last the label unless --columns says
otherwise), Cora tagged text (detected from its <NEWREFERENCE> lines) or,
with --format crfsuite, a CRFsuite attribute file (LABEL<TAB>ATTR[:VALUE]
per item), whose attributes and values are the features as given.
The label encoding of a column file (iob1, iob2, ioe1, ioe2, iobes, or
none for plain labels) is detected unless --encoding states it; 'repro
tag' writes labels back in it. For --task parsing it is a CoNLL-X or
CoNLL-U treebank (arc features of McDonald et al. 2005); for --task
multiclass a libsvm/svmlight file (the file's features plus a bias
feature of value 1, as liblinear's -B 1; --cost gives a cost matrix over
the classes in sorted label order, default 0/1); for --task cfg a Penn
Treebank bracketed file or a directory of *.mrg files, read through
Johnson's preprocessing (a weighted grammar of its rules; --trainer
generative is the PCFG). Progress goes to stderr (--quiet: none).

  repro train --trainer poslearn --C 0.1 -o ner.repro eng.train
  repro train --trainer perceptron --param epochs=20 -o cora.repro refs.txt
  repro train --trainer crf --C 1 --format crfsuite --pairs seen -o m.repro train.crfsuite.txt
  repro train --task parsing --trainer mira --param k=5 -o sv.repro sv-ud-train.conllu
  repro train --task multiclass --trainer margin --C 1 --cost '0,1,2;1,0,1;2,1,0' -o m.repro train.libsvm
  repro train --task cfg --trainer margin --C 1 --param slack_penalty=quadratic -o g.repro short.mrg

Flags:
`

// trainFlags are the train command's flags.
type trainFlags struct {
	out, trainer, task, features, format, columns, encoding, charset, solver, cost, decoder, pairs string
	c                                                                                              float64
	epochs                                                                                         int
	window, affixes, minCount                                                                      optionalInt
	edges, lexicons, quiet                                                                         bool
	params                                                                                         paramFlags
	maxLine                                                                                        *int
	// flagged lists the params given by their own flags (--C, --solver,
	// --epochs), so that an error names the flag the user typed.
	flagged map[string]bool
}

func (f *trainFlags) register(fs *flag.FlagSet) {
	f.window.key, f.affixes.key, f.minCount.key = "window", "affixes", "min_count"
	fs.StringVar(&f.out, "o", "", "the model file to write (required)")
	fs.StringVar(&f.trainer, "trainer", "", "the trainer, one of "+strings.Join(trainers.Names(), ", ")+" (required)")
	fs.Float64Var(&f.c, "C", 0, "the trainer's regularisation trade-off C (see each trainer below)")
	fs.StringVar(&f.solver, "solver", "", "cutting-plane solver: "+strings.Join(trainers.Solvers(), " or ")+" (default n-slack)")
	fs.IntVar(&f.epochs, "epochs", 0, "passes of an online trainer (default 10)")
	fs.Var(&f.params, "param", "a trainer param KEY=VALUE (repeatable), e.g. --param epsilon=0.001")
	fs.StringVar(&f.task, "task", tagger.Sequence, "sequence (label every token), segmentation (semi-Markov; plain labels only), parsing (dependency trees) or multiclass (libsvm files)")
	fs.StringVar(&f.decoder, "decoder", "", "sequence and parsing: ilp decodes (MAP, loss-augmented MAP) with the integer-linear-program decoder instead of Viterbi or Chu-Liu/Edmonds, a slow reference (docs/ilp.md); stored in the model file")
	fs.StringVar(&f.cost, "cost", "", "multiclass: the cost matrix, rows (true classes, sorted by label) separated by ';', entries by ',' (default 0/1)")
	fs.StringVar(&f.features, "features", "", "feature set: citation or ner (default: citation for Cora text, ner for column files; an attribute file's are its own)")
	fs.StringVar(&f.pairs, "pairs", "", "attribute–label pairs: all (default) or seen (only those of the training file, as CRFsuite's default model; sequence task)")
	fs.Var(&f.window, "window", "neighbours at offsets -`N`..N whose attributes a token sees (default: the feature set's, citation 1, ner 2)")
	fs.Var(&f.affixes, "affixes", "prefixes and suffixes up to `N` characters (default: the feature set's, citation 3, ner 4)")
	fs.Var(&f.minCount, "min-count", "keep attributes seen at least `N` times in the training file (default: all)")
	fs.BoolVar(&f.edges, "edges", true, "label-transition features")
	fs.BoolVar(&f.lexicons, "lexicons", true, "the citation lexicons (citation features only)")
	fs.StringVar(&f.format, "format", "", "conll, cora or crfsuite (an attribute file; default: conll or cora, detected)")
	fs.StringVar(&f.columns, "columns", "", "a column file's column names, comma-separated, e.g. word,pos,chunk,label")
	fs.StringVar(&f.encoding, "encoding", "", "label encoding: iob1, iob2, ioe1, ioe2, iobes or none (default: detected)")
	fs.StringVar(&f.charset, "charset", "", "text encoding of a column file: utf-8 (default) or latin-1")
	fs.BoolVar(&f.quiet, "quiet", false, "no progress or summary on stderr")
	f.maxLine = maxLineFlag(fs)
}

// trainerParams returns the trainer's params from --C, --solver, --epochs
// and --param, or a usage error naming what is wrong.
func (f *trainFlags) trainerParams(fs *flag.FlagSet) (trainers.Values, error) {
	v, err := trainerValues(f.trainer, f.params)
	if err != nil {
		return nil, usageError{err}
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	f.flagged = map[string]bool{}
	for key, val := range map[string]any{trainers.ParamC: f.c, "solver": f.solver, "epochs": f.epochs} {
		if !set[key] {
			continue
		}
		if _, dup := v[key]; dup {
			return nil, usagef("--%s and --param %s=... both given", key, key)
		}
		v[key], f.flagged[key] = val, true
	}
	return v, nil
}

// options returns the tagger's options and the file format from the flags.
func (f *trainFlags) options(fs *flag.FlagSet) (tagger.Options, tagger.Format, error) {
	v, err := f.trainerParams(fs)
	if err != nil {
		return tagger.Options{}, tagger.Format{}, err
	}
	opt := tagger.Options{Task: f.task, Trainer: f.trainer, Params: v, Decoder: f.decoder}
	if err := tagger.Check(f.task, f.trainer, v); err != nil {
		var ue usageError
		if err = paramFlagError(err, f.flagged); !errors.As(err, &ue) {
			err = usageError{err}
		}
		return opt, tagger.Format{}, err
	}
	if err := checkMaxLine(*f.maxLine); err != nil {
		return opt, tagger.Format{}, err
	}
	format := tagger.Format{Kind: f.format, Scheme: f.encoding, Charset: f.charset, MaxLine: *f.maxLine}
	if f.columns != "" {
		format.Columns = strings.Split(f.columns, ",")
	}
	if f.features != "" {
		if opt.Features, err = tagger.DefaultFeatures(f.features); err != nil {
			return opt, format, usageError{err}
		}
	}
	return opt, format, nil
}

// featureFlags applies --window, --affixes, --min-count, --edges and
// --lexicons to the feature set the data calls for.
func (f *trainFlags) featureFlags(kind string) (tagger.Features, error) {
	feats, err := tagger.DefaultFeatures(kind)
	if err != nil {
		return feats, usageError{err}
	}
	if f.window.set {
		feats.Window = f.window.v
	}
	if f.affixes.set {
		feats.Affixes = f.affixes.v
	}
	if !f.lexicons && kind != tagger.Citation {
		return feats, usagef("--lexicons applies to citation features only")
	}
	if kind == tagger.Given && (f.window.set || f.affixes.set) {
		return feats, usagef("--window and --affixes do not apply to an attribute file's own features")
	}
	feats.MinCount, feats.Edges, feats.NoLexicons, feats.Pairs = f.minCount.v, f.edges, !f.lexicons, f.pairs
	if err := feats.Check(); err != nil {
		return feats, usageError{fmt.Errorf("--pairs: %w", err)}
	}
	return feats, nil
}

func trainCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("train", flag.ContinueOnError)
	var f trainFlags
	f.register(fs)
	args, help, err := parseFlags(fs, args, trainUsage, stdout)
	if help {
		fmt.Fprint(stdout, "\nTrainers and their params (--param KEY=VALUE):\n\n"+trainers.Help())
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case len(args) != 1:
		return usagef("train takes exactly one training file, got %d arguments %q", len(args), args)
	case f.out == "":
		return usagef("train needs -o MODEL, the model file to write")
	case f.trainer == "":
		return usagef("train needs --trainer NAME (known: %s)", strings.Join(trainers.Names(), ", "))
	case f.task != tagger.Sequence && f.task != tagger.Segmentation:
		return trainTask(ctx, fs, &f, args[0], stderr)
	}
	if f.cost != "" {
		return usagef("--cost applies to the multiclass task only, not %s", f.task)
	}
	opt, format, err := f.options(fs)
	if err != nil {
		return err
	}
	if err := checkOutputFile("-o", f.out, args[0]); err != nil {
		return err
	}
	data, err := tagger.ReadDataContext(ctx, args[0], format)
	if err != nil {
		return lineHint(err)
	}
	kind := tagger.NER
	switch data.Format.Kind {
	case tagger.FormatCora:
		kind = tagger.Citation
	case tagger.FormatCRFsuite:
		kind = tagger.Given
		if opt.Features.Kind != "" {
			return usagef("--features %s: an attribute file's attributes are its features", opt.Features.Kind)
		}
	}
	if opt.Features.Kind != "" {
		kind = opt.Features.Kind
	}
	if opt.Features, err = f.featureFlags(kind); err != nil {
		return err
	}
	if !f.quiet {
		describeData(stderr, args[0], data, format)
		ctx = trainers.WithProgress(ctx, newTrainingProgress(stderr, f.trainer).report)
	}
	start := time.Now()
	m, res, err := tagger.Train(ctx, data, opt)
	if err != nil {
		return err
	}
	if err := m.SaveFile(f.out); err != nil {
		return err
	}
	if !f.quiet {
		size := int64(0)
		if st, err := os.Stat(f.out); err == nil {
			size = st.Size()
		}
		fmt.Fprintf(stderr, "repro: trained %s on %d sequences (%d labels, %d attributes) in %s: %s; wrote %s (%s)\n",
			describeTrainer(m), len(data.Corpus.Sequences), len(m.Labels), m.NumAttributes(), time.Since(start).Round(time.Millisecond),
			describeResult(res), f.out, formatBytes(size))
	}
	return nil
}

// describeData says what was read and how: sequences, tokens, the format
// and which of its settings were detected; and warns of repaired tags.
func describeData(w io.Writer, path string, d *tagger.Data, stated tagger.Format) {
	tokens := 0
	for _, s := range d.Corpus.Sequences {
		tokens += len(s.Tokens)
	}
	how := func(given string) string {
		if given == "" {
			return " (detected)"
		}
		return ""
	}
	layout := "Cora tagged text" + how(stated.Kind)
	if d.Format.Kind == tagger.FormatCoNLL {
		layout = fmt.Sprintf("columns %s, label encoding %s%s, %s", strings.Join(d.Format.Columns, " "), d.Format.Scheme, how(stated.Scheme), d.Format.Charset)
	}
	if d.Format.Kind == tagger.FormatCRFsuite {
		layout = "CRFsuite attribute file"
	}
	if d.Detection != nil {
		layout = fmt.Sprintf("columns %s, label encoding %s (%s), %s", strings.Join(d.Format.Columns, " "), d.Format.Scheme, d.Detection, d.Format.Charset)
	}
	fmt.Fprintf(w, "repro: %s: %d sequences, %d tokens, %d labels; %s\n", path, len(d.Corpus.Sequences), tokens, len(d.Corpus.Labels), layout)
	if n := len(d.Repairs); n > 0 {
		fmt.Fprintf(w, "repro: warning: %s: %d tags break the label encoding's rules and were read as conlleval reads them, first: %v\n", path, n, d.Repairs[0])
	}
}

// describeTrainer names a model's trainer with its params.
func describeTrainer(m *tagger.Model) string {
	keys := slices.Sorted(maps.Keys(m.Params))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%v", k, m.Params[k])
	}
	return fmt.Sprintf("%s (%s)", m.Trainer, strings.Join(parts, ", "))
}

// describeResult summarises a training's statistics.
func describeResult(r *trainers.Result) string {
	s := fmt.Sprintf("%d iterations", r.Iterations)
	if r.Primal != 0 {
		s += fmt.Sprintf(", objective %.6g", r.Primal)
	}
	if r.Gap != 0 {
		s += fmt.Sprintf(", gap %.3g", r.Gap)
	}
	if r.Converged {
		s += ", converged"
	}
	return s
}

// formatBytes renders a file size.
func formatBytes(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return formatMiB(float64(n))
}
