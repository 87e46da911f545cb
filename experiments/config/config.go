package config

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"gopkg.in/yaml.v3"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/readlimit"
	"github.com/maxmargin/repro/internal/strictyaml"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
)

// Config is an experiment: which data, which task, which trainers with which
// hyperparameter grids, and how to split the data.
type Config struct {
	Name     string        `yaml:"name"`
	Seed     uint64        `yaml:"seed"`
	Datasets []DatasetSpec `yaml:"datasets,omitempty"`
	Tasks    []string      `yaml:"tasks,omitempty"`
	Splits   SplitSpec     `yaml:"splits,omitempty"`
	Features FeatureSpec   `yaml:"features,omitempty"`
	Trainers []TrainerSpec `yaml:"trainers,omitempty"`
	// Compare lists trainer pairs for paired t-tests, e.g. [poslearn, margin].
	Compare [][]string `yaml:"compare,omitempty"`
	// Figures lists the plots to draw (x: training fraction, β, dataset
	// or CPU time).
	Figures []FigureSpec `yaml:"figures,omitempty"`
	// Curves has every test unit score the test set at the checkpoints of
	// its training (each epoch of an online trainer, geometrically spaced
	// iterations of a solver, and the end) and keep the learning curve,
	// for figures with x: cpu_seconds. Scoring is left out of the times,
	// and the checkpoints choose nothing. It enters the test units' keys
	// only when set, so other configs keep theirs.
	Curves bool `yaml:"curves,omitempty"`
	// Paper, if present, holds the numbers the reproduced paper reports,
	// which every report then shows beside ours.
	Paper *PaperSpec `yaml:"paper,omitempty"`
	// Loss sets the segmentation task's loss; unset: the paper's.
	Loss *LossSpec `yaml:"loss,omitempty"`
	// Decoder, ilp, has the sequence and parsing models decode (MAP and
	// loss-augmented MAP) with decoders/ilp instead of Viterbi or
	// Chu-Liu/Edmonds: the same argmax, far slower (docs/ilp.md). Unset or
	// exact: the exact combinatorial decoders. It enters the units' keys
	// only when ilp.
	Decoder string `yaml:"decoder,omitempty"`
	// SelectBy names the metric whose validation value chooses C (package
	// metrics; every task of the config must report it); unset: each
	// task's own (metrics.TaskMetrics.SelectBy: token error, attachment
	// error for parsing).
	SelectBy string `yaml:"select_by,omitempty"`

	file string // where the config was read from, for messages
	root *yaml.Node
	// splitFile holds the splits of splits.kind file, read when the
	// config is parsed.
	splitFile *datasets.SplitFile
}

// DatasetSpec declares a dataset: a built-in name alone (cora, ocr,
// conll2003, conll2000, synthetic), or a name with the format and files of
// a corpus of one's own. Paths are relative to the data directory (or
// absolute): they name data, which the repository never holds.
// "synthetic" takes generator settings.
type DatasetSpec struct {
	Name      string         `yaml:"name"`
	Synthetic *SyntheticSpec `yaml:"synthetic,omitempty"`
	// Format is the file format: cora, ocr, conll, conllu or crfsuite
	// (CRFsuite attribute files, whose features are used as given:
	// features.kind given).
	Format string `yaml:"format,omitempty"`
	// Path is one file holding the whole corpus, which the splits divide;
	// Train, Dev and Test are fixed parts (splits: {kind: fixed}).
	Path  string `yaml:"path,omitempty"`
	Train string `yaml:"train,omitempty"`
	Dev   string `yaml:"dev,omitempty"`
	Test  string `yaml:"test,omitempty"`
	// Column files: the columns in file order (word and label named; e.g.
	// [word, pos, chunk, label]), the label encoding (iob1, iob2, ioe1,
	// ioe2, iobes, none) and the text encoding (utf-8, the default, or
	// latin-1).
	Columns  []string `yaml:"columns,omitempty"`
	Encoding string   `yaml:"encoding,omitempty"`
	Charset  string   `yaml:"charset,omitempty"`
	// Repair reads tags that break the encoding's rules as conlleval does,
	// with a warning, instead of failing.
	Repair bool `yaml:"repair,omitempty"`
	// KeepTypes keeps only these chunk types of a chunk-tagged column file
	// and maps every other chunk to O (NP chunking: [NP]).
	KeepTypes []string `yaml:"keep_types,omitempty"`
	// Obtain says where to get the files, shown when one is missing.
	Obtain string `yaml:"obtain,omitempty"`
	// Features, if set, overrides the config's window, affixes, lexicons
	// and edges for this dataset (a feature ablation lists one dataset per
	// feature set, each with its own name).
	Features *FeatureSpec `yaml:"features,omitempty"`
	// Cost is the cost matrix Δ of a vector dataset (format libsvm, or the
	// blobs) for the multiclass task: one row per true class, in sorted
	// label order; unset: 0/1.
	Cost [][]float64 `yaml:"cost,omitempty"`
	// First keeps the first First sequences of the file (path) only.
	First int `yaml:"first,omitempty"`
	// Taxonomy is a class tree over a vector or document dataset's classes
	// (package taxonomy's YAML list): its leaves are the classes, the tree
	// loss the dataset's cost, and the taxonomy task embeds the classes by
	// it (docs/taxonomy.md).
	Taxonomy *yaml.Node `yaml:"taxonomy,omitempty"`
	// MaxWords keeps a treebank's (format ptb) trees of at most this many
	// words after preprocessing (unset: all).
	MaxWords int `yaml:"max_words,omitempty"`
	// Alignment, if set, makes the dataset generated alignment examples
	// for the alignment task (models/align.Generate, docs/alignment.md).
	Alignment *AlignmentSpec `yaml:"alignment,omitempty"`
}

// AlignmentSpec sets the alignment generator: how many examples, from
// which seed (its other settings are the generator's defaults).
type AlignmentSpec struct {
	Examples int    `yaml:"examples"`
	Seed     uint64 `yaml:"seed"`
}

// maxAlignmentExamples bounds a generated alignment dataset.
const maxAlignmentExamples = 100000

// Tree parses the dataset's taxonomy (nil without one); errors name file
// and line.
func (d DatasetSpec) Tree(file string) (*tasks.ClassTree, error) {
	if d.Taxonomy == nil {
		return nil, nil
	}
	return tasks.ParseClassTree(d.Taxonomy, file)
}

// LoadedSplitFile returns the splits of splits.kind file, read when the
// config was resolved (nil for other kinds).
func (c *Config) LoadedSplitFile() *datasets.SplitFile { return c.splitFile }

// Declaration returns the dataset's files and format: the built-in one for
// a bare built-in name, else the config's own.
func (d DatasetSpec) Declaration() datasets.Declaration {
	if b, ok := datasets.Builtin(d.Name); ok && !d.declares() {
		b.Cost = d.Cost
		return b
	}
	return datasets.Declaration{
		Name: d.Name, Format: d.Format, Path: d.Path, Train: d.Train, Dev: d.Dev, Test: d.Test,
		Columns: d.Columns, Scheme: d.Encoding, Charset: d.Charset, Repair: d.Repair, KeepTypes: d.KeepTypes, Obtain: d.Obtain,
		Cost: d.Cost, First: d.First, MaxWords: d.MaxWords,
	}
}

// instances returns the fewest instantiations a dataset of the config
// holds (splits.kind instance), 1 if none has any (validateSplits then
// names the dataset).
func (c *Config) instances() int {
	n := 0
	for _, d := range c.Datasets {
		if k := d.Declaration().Instances(); k > 0 && (n == 0 || k < n) {
			n = k
		}
	}
	return max(n, 1)
}

// declares reports whether the entry declares its own files and format.
func (d DatasetSpec) declares() bool {
	return d.Format != "" || d.Path != "" || d.Train != "" || d.Dev != "" || d.Test != "" ||
		len(d.Columns) > 0 || d.Encoding != "" || d.Charset != "" || d.Repair || len(d.KeepTypes) > 0 || d.Obtain != "" || d.First != 0 || d.MaxWords != 0
}

// SyntheticSpec overrides the built-in generator's defaults. After
// [Parse] every field holds the value the generator uses: what the
// config set, else the default (see [datasets.DefaultSynthetic]).
type SyntheticSpec struct {
	Sequences int     `yaml:"sequences"`
	Labels    int     `yaml:"labels"`
	MinLen    int     `yaml:"min_len"`
	MaxLen    int     `yaml:"max_len"`
	Vocab     int     `yaml:"vocab"`
	Stay      float64 `yaml:"stay"`
	Noise     float64 `yaml:"noise"`
	Seed      uint64  `yaml:"seed"`
}

// SplitSpec is the split scheme: Count random splits per training fraction,
// each training part further divided to hold out ValidationFraction of it for
// choosing hyperparameters; or the splits of a file (Kind file, Path).
type SplitSpec struct {
	Kind               string    `yaml:"kind,omitempty"`
	Count              int       `yaml:"count,omitempty"`
	TrainFractions     []float64 `yaml:"train_fractions,omitempty"`
	ValidationFraction float64   `yaml:"validation_fraction,omitempty"`
	// Path is the split file of kind file (see [datasets.ReadSplitFile]),
	// relative to the config file's directory (or absolute): a split file
	// belongs to the experiment, like the config, and may be committed
	// beside it, whereas dataset paths name data under the data directory.
	Path string `yaml:"path,omitempty"`
	// TrainPerClass are the training items per class of kind per_class
	// (each a row of the tables, as a training fraction is; units hold
	// it as their train_fraction).
	TrainPerClass []int `yaml:"train_per_class,omitempty"`
}

// FeatureSpec selects the feature templates: "citation" (the default; token
// text, see package features) or "pixels" (binary letter images, with
// Degree 2 adding all pixel pairs: the degree-2 polynomial kernel's map;
// for citation and NER features Degree 2 adds the pairs of a token's
// attributes seen min_count times in a unit's training part);
// "ner" and "dependency" for NER and parsing; "given" for the attributes of
// attribute files (format crfsuite), used as they are, no template applied.
type FeatureSpec struct {
	Kind     string `yaml:"kind,omitempty"`
	Degree   int    `yaml:"degree,omitempty"`
	Window   *int   `yaml:"window,omitempty"`
	Affixes  *int   `yaml:"affixes,omitempty"`
	Lexicons *bool  `yaml:"lexicons,omitempty"` // citation features: lexicon classes (default on)
	Edges    *bool  `yaml:"edges,omitempty"`
	// MinCount keeps the attributes seen at least this often in a unit's
	// training part (default 1: all).
	MinCount *int `yaml:"min_count,omitempty"`
	// Pairs is "seen" to keep only the attribute–label pairs of a unit's
	// training part (CRFsuite's default model; the sequence task only), or
	// "all" (the default): every attribute with every label.
	Pairs string `yaml:"pairs,omitempty"`
	// Normalize is "unit" to scale each letter's pixel features to unit
	// norm in the polynomial kernel's feature space (features.PixelValues;
	// pixels and the sequence task only), or "none" (the default).
	Normalize string `yaml:"normalize,omitempty"`
}

// LossSpec sets the segmentation loss of Sarawagi & Gupta's section 4.3.2
// for every label: the penalty for predicting a segment that is not a true
// span (precision), for missing a true segment (recall), and for a true
// span given the wrong label (misclass). Unset values are 1, the paper's.
type LossSpec struct {
	Precision *float64 `yaml:"precision,omitempty"`
	Recall    *float64 `yaml:"recall,omitempty"`
	Misclass  *float64 `yaml:"misclass,omitempty"`
}

// SegmentLoss is a LossSpec with its defaults resolved, as unit keys hold it.
type SegmentLoss struct {
	Precision float64 `json:"precision"`
	Recall    float64 `json:"recall"`
	Misclass  float64 `json:"misclass"`
}

// Resolved returns the loss's penalties, or nil for the paper's (all 1),
// so that spelling the default out leaves unit keys as they were.
func (l *LossSpec) Resolved() *SegmentLoss {
	if l == nil {
		return nil
	}
	one := 1.0
	r := SegmentLoss{*cmp.Or(l.Precision, &one), *cmp.Or(l.Recall, &one), *cmp.Or(l.Misclass, &one)}
	if r == (SegmentLoss{1, 1, 1}) {
		return nil
	}
	return &r
}

// Of returns the loss over k labels: the paper's unit penalties (nil), or
// the config's for every label.
func (l *SegmentLoss) Of(k int) structpred.SegmentLoss {
	loss := structpred.DefaultSegmentLoss(k)
	if l == nil {
		return loss
	}
	for a := range k {
		loss.Precision[a], loss.Recall[a] = l.Precision, l.Recall
		for b := range k {
			if a != b {
				loss.Misclass[a*k+b] = l.Misclass
			}
		}
	}
	return loss
}

// overriddenBy returns f with the settings o sets (a dataset's own
// features: window, affixes, lexicons, edges).
func (f FeatureSpec) overriddenBy(o *FeatureSpec) FeatureSpec {
	if o == nil {
		return f
	}
	f.Window = cmp.Or(o.Window, f.Window)
	f.Affixes = cmp.Or(o.Affixes, f.Affixes)
	f.Lexicons = cmp.Or(o.Lexicons, f.Lexicons)
	f.Edges = cmp.Or(o.Edges, f.Edges)
	f.MinCount = cmp.Or(o.MinCount, f.MinCount)
	f.Pairs = cmp.Or(o.Pairs, f.Pairs)
	return f
}

// Resolved returns the settings a unit trains with, defaults filled in.
func (f FeatureSpec) Resolved() UnitFeatures {
	fs := UnitFeatures{Window: features.DefaultOptions().Window, Affixes: features.DefaultOptions().Affixes, Edges: true}
	switch f.Kind {
	case FeaturesPixels:
		fs = UnitFeatures{Kind: FeaturesPixels, Degree: f.Degree, Edges: true}
	case FeaturesNER:
		d := features.DefaultNEROptions()
		fs = UnitFeatures{Kind: FeaturesNER, Window: d.Window, Affixes: d.Affixes, Edges: true}
	case FeaturesDependency:
		fs = UnitFeatures{Kind: FeaturesDependency, Edges: true}
	case FeaturesChunking:
		fs = UnitFeatures{Kind: FeaturesChunking, Edges: true}
	case FeaturesGiven:
		fs = UnitFeatures{Kind: FeaturesGiven, Edges: true}
	}
	if f.MinCount != nil && *f.MinCount > 1 {
		fs.MinCount = *f.MinCount
	}
	if f.Degree == 2 && (fs.Kind == "" || fs.Kind == FeaturesNER) {
		fs.Degree = 2 // degree 1 stays unset: those units keep their keys
	}
	if f.Window != nil && fs.Kind == "" {
		fs.Window = *f.Window
	}
	if f.Affixes != nil && fs.Kind == "" {
		fs.Affixes = *f.Affixes
	}
	if f.Window != nil && fs.Kind == FeaturesNER {
		fs.Window = *f.Window
	}
	if f.Affixes != nil && fs.Kind == FeaturesNER {
		fs.Affixes = *f.Affixes
	}
	if f.Lexicons != nil && fs.Kind == "" {
		fs.NoLexicons = !*f.Lexicons
	}
	if f.Edges != nil {
		fs.Edges = *f.Edges
	}
	if f.Pairs == pairsSeen {
		fs.Pairs = f.Pairs
	}
	if f.Normalize == NormalizeUnit && fs.Kind == FeaturesPixels {
		fs.Normalize = f.Normalize
	}
	return fs
}

// UnitFeatures is FeatureSpec with defaults resolved. Kind and Degree are
// omitted for citation features, so those units keep their keys. Given
// attributes (kind given) have no window or affixes: those stay 0.
type UnitFeatures struct {
	Kind    string `json:"kind,omitempty"`
	Degree  int    `json:"degree,omitempty"`
	Window  int    `json:"window"`
	Affixes int    `json:"affixes"`
	Edges   bool   `json:"edges"`
	// NoLexicons drops the citation lexicon attributes; omitted when
	// false, so units with lexicons keep their keys.
	NoLexicons bool `json:"no_lexicons,omitempty"`
	// MinCount is the attribute frequency cut-off (0 or 1: none).
	MinCount int `json:"min_count,omitempty"`
	// Pairs is "seen" for seen attribute–label pairs; omitted for all
	// (the default), so those units keep their keys.
	Pairs string `json:"pairs,omitempty"`
	// Normalize is "unit" for pixel features scaled to unit norm; omitted
	// for none (the default), so those units keep their keys.
	Normalize string `json:"normalize,omitempty"`
}

// Tagger returns the settings as package tagger states them, for citation,
// NER and chunking features; columns names the declared extra columns.
func (f UnitFeatures) Tagger(columns []string) tagger.Features {
	kind := tagger.Citation
	switch f.Kind {
	case FeaturesNER:
		kind = tagger.NER
	case FeaturesChunking:
		kind = tagger.Chunking
	}
	// Pixel features carry their own degree (features.Pixels builds the
	// pairs); the tagger's sparse pairs are for templates only.
	degree := 0
	if f.Kind == "" || f.Kind == FeaturesNER {
		degree = f.Degree
	}
	return tagger.Features{
		Kind: kind, Window: f.Window, Affixes: f.Affixes, NoLexicons: f.NoLexicons,
		Columns: columns, MinCount: f.MinCount, Edges: f.Edges, Pairs: f.Pairs, Degree: degree,
	}
}

// FeaturesOf returns dataset i's features: the config's, with the
// dataset's own settings on top.
func (c *Config) FeaturesOf(i int) FeatureSpec {
	return c.Features.overriddenBy(c.Datasets[i].Features)
}

// The tasks a config may name (package tasks has one place for each).
const (
	// TaskSequence labels every token with a linear-chain model (Sarawagi
	// & Gupta, section 4.3.1): token error and span F1 (and on chunk-tagged
	// corpora the token error in the file's label encoding).
	TaskSequence = tasks.SequenceName
	// TaskSegmentation labels whole segments with a semi-Markov model
	// (section 4.3.2): token error on the induced labels, span F1 over
	// exact segments, and the segment error (metrics.Counts.SegmentError).
	TaskSegmentation = tasks.SegmentationName
	// TaskParsing is unlabelled dependency parsing with a first-order
	// model (section 4.3.3): the error is the share of words with a wrong
	// head, punctuation included, as CoNLL-X scored it.
	TaskParsing = tasks.ParsingName
	// TaskMulticlass classifies feature vectors with the Crammer & Singer
	// model and a cost matrix: error rate and average cost.
	TaskMulticlass = tasks.MulticlassName
	// TaskMIL is multiple-instance learning with a latent-variable model
	// (Pletscher et al. 2010, section 8.3): bag accuracy.
	TaskMIL = tasks.MILName
	// TaskTaxonomy is the multiclass task over a dataset's class tree
	// (Tsochantaridis et al. 2004, section 5.2).
	TaskTaxonomy = tasks.TaxonomyName
	// TaskCFG parses with a weighted context-free grammar (section 5.5):
	// exact-tree accuracy and bracket F1, on the test and training parts.
	TaskCFG = tasks.CFGName
	// TaskAlignment selects homologues by learned local alignment
	// (section 5.4): the error rate on the test and training examples.
	TaskAlignment = tasks.AlignmentName
)

// KnownTasks lists the task names a config may use.
func KnownTasks() []string {
	var names []string
	for _, t := range tasks.All() {
		names = append(names, t.Name())
	}
	slices.Sort(names)
	return names
}

// KnownTrainers lists the trainer names a config may use.
func KnownTrainers() []string {
	return trainers.Names()
}

// KnownDatasets lists the dataset names a config may use.
func KnownDatasets() []string { return datasets.BuiltinNames() }

// UnsupportedPairs returns the (trainer, task) pairs that are not run. A
// trainer that serves none of the tasks is a mistake; one that serves some
// is skipped for the others, which show as "-" in the table (as in the
// paper, where slack scaling has no dependency-parsing cell).
func (cfg *Config) UnsupportedPairs(log io.Writer) (map[[2]string]bool, error) {
	unsupported := map[[2]string]bool{}
	for i, t := range cfg.Trainers {
		var reasons []string
		for _, name := range cfg.Tasks {
			if err := supports(name, t); err != nil {
				unsupported[[2]string{t.Name, name}] = true
				reasons = append(reasons, fmt.Sprintf("trainer %q cannot serve task %q: %v", t.Name, name, err))
			}
		}
		switch {
		case len(reasons) == len(cfg.Tasks):
			return nil, cfg.errorf(cfg.line("trainers", i, "name"), "trainers.name", "%s", strings.Join(reasons, "; "))
		case len(reasons) > 0 && log != nil:
			for _, r := range reasons {
				fmt.Fprintf(log, "repro: %s:%d: %s; skipped, shown as \"-\"\n", cfg.file, cfg.line("trainers", i, "name"), r)
			}
		}
	}
	return unsupported, nil
}

// supports reports whether task runs trainer t (package tasks decides).
func supports(task string, t TrainerSpec) error {
	tk, err := tasks.Lookup(task)
	if err != nil {
		return err
	}
	return tk.Supports(t.Name, t.Values())
}

// Feature kinds.
const (
	FeaturesCitation = "citation"
	FeaturesPixels   = "pixels"
	FeaturesNER      = "ner" // features.NER: word, sub-word, shape, extra columns, window, bigrams
	// FeaturesChunking are Sha & Pereira's (2003) NP chunking predicates
	// (features.Chunking): words and POS tags (the column named pos) in a
	// ±2 window, word bigrams, POS bigrams and trigrams.
	FeaturesChunking = "chunking"
	// FeaturesDependency are the arc features of parsing (features.Dependency).
	FeaturesDependency = "dependency"
	// FeaturesGiven are the attributes an attribute file gives (format
	// crfsuite), used as given: no template of ours is applied, so repro
	// and the tool the file was made for train on identical features
	// (label transitions still come from the model: edges).
	FeaturesGiven = "given"
)

// featureKinds lists the feature kinds, sorted.
func featureKinds() []string {
	return []string{FeaturesChunking, FeaturesCitation, FeaturesDependency, FeaturesGiven, FeaturesNER, FeaturesPixels}
}

// Split kinds: random train/test splits, the dataset's own folds (train
// on fold k, test on all others, as in the OCR experiments), a corpus's
// fixed parts (train on train, choose on dev, test once on test, as shared
// tasks distribute them), the explicit splits of a split file (published
// splits, or those another tool ran on), or random splits with a number
// of training items per class (Table 1 of Tsochantaridis et al. 2004).
const (
	SplitRandom = "random"
	SplitFold   = "fold"
	SplitFixed  = "fixed"
	SplitFile   = "file"
	// SplitInstance trains on instantiation k's training draw of a
	// generated dataset and tests on its test draw (Synth1–3: fresh data
	// per split, as Pletscher et al. average over instantiations).
	SplitInstance = "instance"
	// SplitPerClass draws train_per_class training items of every class
	// at random, the rest for testing.
	SplitPerClass = "per_class"
)

// splitKinds lists the split kinds, sorted.
func splitKinds() []string {
	return []string{SplitFile, SplitFixed, SplitFold, SplitInstance, SplitPerClass, SplitRandom}
}

// TrainerSpec is one trainer and its hyperparameter grid.
type TrainerSpec struct {
	Name string `yaml:"name"`
	// Label names the entry in tables, figures and comparisons; it is
	// needed when one trainer appears more than once (e.g. entropy-margin at
	// several β) and defaults to Name. It is not part of the unit key, so
	// relabelling an entry reuses its cached units.
	Label string `yaml:"label,omitempty"`
	// C is the grid of regularisation trade-offs; one value means no search.
	C []float64 `yaml:"C,omitempty"`
	// Grid, if set, widens the C grid while validation chooses its edge.
	Grid *GridSpec `yaml:"grid,omitempty"`
	// Params are the entry's other keys, written beside name and C: the
	// trainer's params as its registry entry declares them (trainers.Spec:
	// e.g. epochs, solver, beta, threads), each decoded as the param's
	// kind. Which apply to which trainer, their ranges and defaults are the
	// registry's; nothing here lists them.
	Params TrainerParams `yaml:",inline"`
}

// TrainerParams are a trainer entry's params (trainers.Values), read inline
// from the entry's mapping.
type TrainerParams trainers.Values

// InlineKeys lists every param key of every trainer (C and the seed are
// the run's) with a zero value of its kind, so that strictyaml decodes an
// entry's params strictly and suggests a key for a misspelt one.
func (TrainerParams) InlineKeys() map[string]any {
	out := map[string]any{}
	for _, s := range trainers.Specs() {
		for _, p := range s.Params {
			if p.Key == trainers.ParamC || p.Key == trainers.ParamSeed {
				continue
			}
			if _, seen := out[p.Key]; !seen {
				out[p.Key] = ZeroOfKind(p.Kind)
			}
		}
	}
	return out
}

// ZeroOfKind is the Go zero value a param of kind decodes into.
func ZeroOfKind(kind string) any {
	switch kind {
	case "float":
		return 0.0
	case "int":
		return 0
	case "uint":
		return uint64(0)
	case "bool":
		return false
	}
	return ""
}

// Values returns the params the entry states, as the registry takes them
// (a copy: the caller may add C).
func (t TrainerSpec) Values() trainers.Values {
	v := make(trainers.Values, len(t.Params)+1)
	for k, x := range t.Params {
		v[k] = x
	}
	return v
}

// GridSpec widens a trainer's C grid where validation chooses one of its
// ends: with Extend, a split whose best C is the smallest (largest) value
// tried gets one more validation unit a decade below (above) it, until its
// choice is interior or MaxSteps decades were added on that side. Each split
// is extended on its own, so the others cost nothing.
type GridSpec struct {
	Extend   bool `yaml:"extend"`
	MaxSteps int  `yaml:"max_steps,omitempty"` // decades per side; default 3
}

// defaultGridSteps bounds grid extension when max_steps is unset.
const defaultGridSteps = 3

// Steps returns the number of decades the grid may grow per side (0: none).
func (g *GridSpec) Steps() int {
	switch {
	case g == nil || !g.Extend:
		return 0
	case g.MaxSteps > 0:
		return g.MaxSteps
	}
	return defaultGridSteps
}

// FigureSpec declares one figure: a metric of one dataset and task against
// the training fraction (one line per trainer), against β (one point per
// trainer entry with a beta, one line per method), against the datasets,
// or against training CPU time (learning curves: one line per trainer
// through its checkpoints; needs curves: true).
type FigureSpec struct {
	Name    string `yaml:"name"`              // file stem, e.g. figure1
	Dataset string `yaml:"dataset,omitempty"` // default: the first dataset
	Task    string `yaml:"task,omitempty"`    // default: every task, one file per task (NAME-TASK) when there are several
	X       string `yaml:"x,omitempty"`       // train_fraction (default) | beta | dataset | cpu_seconds
	// Datasets, for x: dataset, lists the datasets in x order (e.g. the
	// feature sets of an ablation).
	Datasets []string `yaml:"datasets,omitempty"`
	Y        string   `yaml:"y,omitempty"`        // a metric (token_error, span_f1, segment_error, ...) | accuracy (100 − token error) | train_seconds (CPU if every run has it) | cpu_seconds
	LogX     bool     `yaml:"log_x,omitempty"`    // x: cpu_seconds on a logarithmic axis
	Baseline string   `yaml:"baseline,omitempty"` // optional trainer subtracted split by split
	// Z makes the figure a contour of Z (what y otherwise is) over x: beta
	// and y: C, each trainer entry with a beta and one C a grid point.
	Z     string `yaml:"z,omitempty"`
	Title string `yaml:"title,omitempty"`
	// Trainers, if set, draws only these trainers (names or labels; the
	// baseline is subtracted, not listed): e.g. MAP and MPM prediction in
	// two panels of one config.
	Trainers []string `yaml:"trainers,omitempty"`
}

// PaperSpec is what a paper reports for this experiment: where the numbers
// come from and the numbers themselves.
type PaperSpec struct {
	Source string           `yaml:"source,omitempty"` // e.g. "Sarawagi & Gupta (ICML 2008), Table 1"; required
	Note   string           `yaml:"note,omitempty"`   // how values were read or converted; optional
	Values []PaperValueSpec `yaml:"values,omitempty"`
}

// PaperValueSpec is one published result. Dataset, task and trainer must
// be among the config's (the trainer by its display name, see
// [TrainerSpec.Display]), so that a typo is caught here rather than shown
// as a value we never ran. The metrics sit beside them under their names
// (package metrics), each one the value's task declares; a metric the
// paper does not report is left out, which is not reporting 0. Configs
// from before metrics were data name parsing's attachment error
// token_error, which is read as it (metrics.TaskMetrics.Legacy).
type PaperValueSpec struct {
	Dataset string `yaml:"dataset,omitempty"`
	Task    string `yaml:"task,omitempty"`
	Trainer string `yaml:"trainer,omitempty"`
	// TrainFraction ties the value to our rows of one train fraction (for
	// per-class splits, the training items per class), when the paper
	// reports several training sizes; unset: every row.
	TrainFraction float64            `yaml:"train_fraction,omitempty"`
	Metrics       map[string]float64 `yaml:",inline"`
}

// metrics returns v's metrics under their current names.
func (v PaperValueSpec) metrics() map[string]float64 {
	legacy := metrics.ForTask(v.Task).Legacy
	out := make(map[string]float64, len(v.Metrics))
	for k, x := range v.Metrics {
		if now, ok := legacy[k]; ok && now != "" {
			k = now
		}
		out[k] = x
	}
	return out
}

// SelectionMetric is the metric that chooses C for task.
func (c *Config) SelectionMetric(task string) string {
	if c.SelectBy != "" {
		return c.SelectBy
	}
	return metrics.ForTask(task).SelectBy
}

// checkSelectBy refuses a select_by that is no metric, or one a task of
// the config does not report.
func (c *Config) checkSelectionMetric() error {
	if c.SelectBy == "" {
		return nil
	}
	if _, ok := metrics.Lookup(c.SelectBy); !ok {
		return c.fail(at{"select_by"}, "unknown metric %q%s (known: %s)", c.SelectBy, suggest(c.SelectBy, metrics.Names()), strings.Join(metrics.Names(), ", "))
	}
	for _, task := range c.Tasks {
		if declared := metrics.ForTask(task).Metrics; !slices.Contains(declared, c.SelectBy) {
			return c.fail(at{"select_by"}, "the %s task does not report %s (it reports %s)", task, c.SelectBy, strings.Join(declared, ", "))
		}
	}
	return nil
}

// Display returns the name the entry goes by in results: its label, or
// its trainer name.
func (t TrainerSpec) Display() string {
	if t.Label != "" {
		return t.Label
	}
	return t.Name
}

// Error is a problem in a config file, located by line and field.
type Error = strictyaml.Error

// Load reads and validates a config file.
func Load(path string) (*Config, error) {
	data, err := readlimit.ReadFile(context.Background(), path, readlimit.ConfigBytes, "config")
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(data, path)
}

// Parse decodes and validates a config; file names it in errors and,
// when the config has no name, gives it one (the file's base name).
//
// Decoding is strict: an unknown or repeated key, a value of the wrong type
// (1.5 for an integer), and an explicit value that is out of range are
// errors naming the file, line and field; only a key that is absent takes
// its default, so `count: 0` is an error, not 10 splits. The config's size
// is bounded too: see [Config.Estimate].
func Parse(data []byte, file string) (*Config, error) {
	root, err := parseYAML(data, file)
	if err != nil {
		return nil, err
	}
	if top := root.Content[0]; top.Kind != yaml.MappingNode {
		return nil, &Error{File: file, Line: top.Line, Msg: fmt.Sprintf("expected a mapping of settings (datasets:, trainers:, ...), found %s", nodeKindName(top))}
	}
	cfg := &Config{file: file, root: root}
	if err := decodeConfig(root, cfg); err != nil {
		return nil, err
	}
	if err := cfg.resolve(); err != nil {
		return nil, err
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	if err := cfg.checkSize(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// File returns the path the config was read from.
func (c *Config) File() string { return c.file }

// resolve sets the defaults of the settings the config leaves out. A
// setting that is present keeps its value, however invalid, for validate
// to report.
func (c *Config) resolve() error {
	if !c.has("name") {
		c.Name = strings.TrimSuffix(filepath.Base(c.file), filepath.Ext(c.file))
	}
	if !c.has("splits", "kind") {
		c.Splits.Kind = SplitRandom
	}
	if !c.has("features", "kind") {
		c.Features.Kind = FeaturesCitation
	}
	if c.Features.Kind == FeaturesPixels && !c.has("features", "degree") {
		c.Features.Degree = 1
	}
	if c.Splits.Kind == SplitPerClass && !c.has("splits", "train_fractions") {
		c.Splits.TrainFractions = nil
		for _, n := range c.Splits.TrainPerClass {
			c.Splits.TrainFractions = append(c.Splits.TrainFractions, float64(n))
		}
	} else if !c.has("splits", "train_fractions") {
		c.Splits.TrainFractions = []float64{0.25}
		switch c.Splits.Kind {
		case SplitFold:
			// A fold split fixes its own training set; 0 marks "by fold".
			c.Splits.TrainFractions = []float64{0}
		case SplitFixed, SplitFile, SplitInstance:
			// The part (or the file's train part) is the training set.
			c.Splits.TrainFractions = []float64{1}
		}
	}
	if c.Splits.Kind == SplitFile && c.Splits.Path != "" {
		sf, err := datasets.ReadSplitFile(c.splitPath())
		if err != nil {
			return c.fail(at{"splits", "path"}, "%v", err)
		}
		c.splitFile = sf
	}
	if !c.has("splits", "count") {
		c.Splits.Count = 10
		switch c.Splits.Kind {
		case SplitFixed:
			c.Splits.Count = 1
		case SplitInstance:
			c.Splits.Count = c.instances()
		case SplitFile:
			if c.splitFile != nil {
				c.Splits.Count = len(c.splitFile.Splits)
			}
		}
	}
	if !c.has("splits", "validation_fraction") {
		c.Splits.ValidationFraction = 0.25
	}
	if !c.has("tasks") {
		c.Tasks = []string{TaskSequence}
	}
	for i := range c.Datasets {
		if err := c.resolveSynthetic(i); err != nil {
			return err
		}
	}
	for i := range c.Figures {
		f := &c.Figures[i]
		switch {
		case f.X == report.XDataset && len(f.Datasets) > 0 && !c.has("figures", i, "dataset"):
			f.Dataset = f.Datasets[0] // the report's convention
		case !c.has("figures", i, "dataset") && len(c.Datasets) > 0:
			f.Dataset = c.Datasets[0].Name
		}
		if !c.has("figures", i, "task") && len(c.Tasks) == 1 {
			f.Task = c.Tasks[0] // else every task: report.ExpandFigures
		}
		if !c.has("figures", i, "x") {
			f.X = report.XTrainFraction
		}
	}
	return nil
}

// resolveSynthetic gives a synthetic dataset its complete generator
// settings: the config's, else the defaults; an explicit 0 stays 0 (valid
// for stay and noise, an error for the counts).
func (c *Config) resolveSynthetic(i int) error {
	d := &c.Datasets[i]
	if d.Name != datasetSynthetic {
		return nil
	}
	if d.Synthetic == nil {
		d.Synthetic = &SyntheticSpec{}
	}
	def, s := datasets.DefaultSynthetic(), d.Synthetic
	set := func(key string) bool { return c.has("datasets", i, "synthetic", key) }
	for _, f := range []struct {
		key      string
		dst      *int
		fallback int
	}{
		{"sequences", &s.Sequences, def.Sequences}, {"labels", &s.Labels, def.Labels},
		{"min_len", &s.MinLen, def.MinLen}, {"max_len", &s.MaxLen, def.MaxLen}, {"vocab", &s.Vocab, def.Vocab},
	} {
		if !set(f.key) {
			*f.dst = f.fallback
		}
	}
	if !set("stay") {
		s.Stay = def.Stay
	}
	if !set("noise") {
		s.Noise = def.Noise
	}
	if !set("seed") {
		s.Seed = def.Seed
	}
	if err := s.Generator().Validate(); err != nil {
		var se *datasets.SettingError
		if errors.As(err, &se) {
			return c.fail(at{"datasets", i, "synthetic", se.Setting}, "%s", se.Msg)
		}
		return c.fail(at{"datasets", i, "synthetic"}, "%v", err)
	}
	return nil
}

// Generator returns the generator settings s stands for.
func (s *SyntheticSpec) Generator() datasets.SyntheticConfig {
	return datasets.SyntheticConfig{
		Sequences: s.Sequences, Labels: s.Labels, MinLen: s.MinLen, MaxLen: s.MaxLen,
		Vocab: s.Vocab, Stay: s.Stay, Noise: s.Noise, Seed: s.Seed,
	}
}

// datasetSynthetic is the generated dataset's name.
const datasetSynthetic = "synthetic"

func (c *Config) errorf(line int, field, format string, args ...any) error {
	return &Error{File: c.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

// at is a path into the config: string elements are mapping keys, int
// elements list indices; e.g. at{"trainers", 0, "C", 1}.
type at []any

// field spells a path as errors show it: trainers[0].C[1].
func (p at) field() string {
	var b strings.Builder
	for _, e := range p {
		switch e := e.(type) {
		case string:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(e)
		case int:
			fmt.Fprintf(&b, "[%d]", e)
		}
	}
	return b.String()
}

// fail returns a Error at path p: its line (or its nearest written
// ancestor's) and its field name.
func (c *Config) fail(p at, format string, args ...any) error {
	return c.errorf(c.line(p...), p.field(), format, args...)
}

// validate checks every setting and the relations between them (names that
// must refer to trainers, datasets and tasks of the config, settings that
// apply only to some trainers, figures that must have something to plot),
// so that nothing the run or the report would reject after training gets
// that far.
func (c *Config) validate() error {
	if c.has("name") {
		if err := validName(c.Name); err != nil {
			return c.fail(at{"name"}, "%v", err)
		}
	}
	if err := c.validateData(); err != nil {
		return err
	}
	if err := c.validateSplits(); err != nil {
		return err
	}
	if err := c.validateFeatures(); err != nil {
		return err
	}
	if err := c.validateTrainers(); err != nil {
		return err
	}
	if err := c.validateFigures(); err != nil {
		return err
	}
	if err := c.validateLoss(); err != nil {
		return err
	}
	if err := c.validateDecoder(); err != nil {
		return err
	}
	if err := c.checkSelectionMetric(); err != nil {
		return err
	}
	if err := c.validateCompare(); err != nil {
		return err
	}
	if c.Paper != nil {
		if err := c.validatePaper(); err != nil {
			return err
		}
	}
	// The report package's own check, in case it knows a rule this file
	// does not; its messages have no line.
	if err := c.ReportSpec().Validate(); err != nil {
		return &Error{File: c.file, Msg: err.Error()}
	}
	return nil
}

// MaxNameBytes is the longest config name accepted: the longest file
// name most file systems allow.
const MaxNameBytes = 255

// validName accepts names that are safe as one directory name under
// results/: the output directory is results/<name>.
func validName(name string) error {
	switch {
	case name == "":
		return errors.New("must not be empty (omit it to use the file name)")
	case strings.HasPrefix(name, "."):
		return fmt.Errorf("%q starts with '.'", name)
	case len(name) > MaxNameBytes:
		return fmt.Errorf("%d bytes long; the name is a directory name under results/, of at most %d bytes", len(name), MaxNameBytes)
	}
	for _, r := range name {
		if r == '/' || r == '\\' || unicode.IsControl(r) || unicode.IsSpace(r) {
			return fmt.Errorf("%q has a %q; the name is a directory name under results/", name, r)
		}
	}
	return nil
}

func (c *Config) validateData() error {
	if len(c.Datasets) == 0 {
		return c.fail(at{"datasets"}, "at least one dataset is required")
	}
	for i, d := range c.Datasets {
		if d.Alignment != nil {
			switch {
			case d.declares() || d.Synthetic != nil || d.Taxonomy != nil || d.Cost != nil:
				return c.fail(at{"datasets", i, "alignment"}, "alignment examples are generated: no files, format or other data settings")
			case d.Alignment.Examples < 2 || d.Alignment.Examples > maxAlignmentExamples:
				return c.fail(at{"datasets", i, "alignment", "examples"}, "must be in [2, %d], got %d", maxAlignmentExamples, d.Alignment.Examples)
			}
		} else if d.declares() {
			if d.Name == datasetSynthetic {
				return c.fail(at{"datasets", i, "format"}, "the synthetic dataset is generated: it takes generator settings, no files")
			}
			if c.has("datasets", i, "synthetic") {
				return c.fail(at{"datasets", i, "synthetic"}, "generator settings are only for the synthetic dataset, not %q", d.Name)
			}
			if d.Format == "" {
				return c.fail(at{"datasets", i, "format"}, "a declared dataset needs its format (known: %s)", strings.Join(datasets.Formats(), ", "))
			}
			var fe *datasets.FieldError
			if err := d.Declaration().Check(); errors.As(err, &fe) {
				field := fe.Field
				if !c.has("datasets", i, field) {
					field = "format"
				}
				return c.fail(at{"datasets", i, field}, "%s", fe.Reason)
			} else if err != nil {
				return c.fail(at{"datasets", i}, "%v", err)
			}
		} else if !slices.Contains(KnownDatasets(), d.Name) {
			return c.fail(at{"datasets", i, "name"}, "unknown dataset %q%s (known: %s; or declare your own with format: and path:)", d.Name, suggest(d.Name, KnownDatasets()), strings.Join(KnownDatasets(), ", "))
		}
		if c.has("datasets", i, "synthetic") && d.Name != datasetSynthetic {
			return c.fail(at{"datasets", i, "synthetic"}, "generator settings are only for the synthetic dataset, not %q", d.Name)
		}
		if j := slices.IndexFunc(c.Datasets[:i], func(e DatasetSpec) bool { return e.Name == d.Name }); j >= 0 {
			return c.fail(at{"datasets", i, "name"}, "dataset %q listed twice (first at line %d)", d.Name, c.line("datasets", j, "name"))
		}
	}
	if len(c.Tasks) == 0 {
		return c.fail(at{"tasks"}, "at least one task is required (omit tasks: for [%s])", TaskSequence)
	}
	for i, t := range c.Tasks {
		if !slices.Contains(KnownTasks(), t) {
			return c.fail(at{"tasks", i}, "unknown task %q%s (known: %s)", t, suggest(t, KnownTasks()), strings.Join(KnownTasks(), ", "))
		}
		if j := slices.Index(c.Tasks[:i], t); j >= 0 {
			return c.fail(at{"tasks", i}, "task %q listed twice (first at line %d)", t, c.line("tasks", j))
		}
	}
	return nil
}

// splitPath is the split file's path: as written if absolute, else
// relative to the config file's directory.
func (c *Config) splitPath() string {
	if filepath.IsAbs(c.Splits.Path) {
		return c.Splits.Path
	}
	return filepath.Join(filepath.Dir(c.file), c.Splits.Path)
}

func (c *Config) validateSplits() error {
	s := c.Splits
	switch {
	case !slices.Contains(splitKinds(), s.Kind):
		return c.fail(at{"splits", "kind"}, "unknown split kind %q%s (known: %s)", s.Kind, suggest(s.Kind, splitKinds()), strings.Join(splitKinds(), ", "))
	case s.Kind == SplitFile:
		return c.validateSplitFile()
	case c.has("splits", "path"):
		return c.fail(at{"splits", "path"}, "a split file is read by splits.kind %s; remove path or set the kind", SplitFile)
	case s.Kind == SplitFold && c.has("splits", "train_fractions"):
		return c.fail(at{"splits", "train_fractions"}, "fold splits train on one fold; remove train_fractions")
	case s.Kind == SplitPerClass && c.has("splits", "train_fractions"):
		return c.fail(at{"splits", "train_fractions"}, "per-class splits take train_per_class, not train_fractions")
	case s.Kind == SplitPerClass && len(s.TrainPerClass) == 0:
		return c.fail(at{"splits", "train_per_class"}, "per-class splits need the training items per class, e.g. [2, 4]")
	case s.Kind != SplitPerClass && c.has("splits", "train_per_class"):
		return c.fail(at{"splits", "train_per_class"}, "applies to splits.kind %s only", SplitPerClass)
	case (s.Kind == SplitFixed || s.Kind == SplitInstance) && c.has("splits", "train_fractions"):
		return c.fail(at{"splits", "train_fractions"}, "%s splits train on the train part; remove train_fractions", s.Kind)
	case s.Kind == SplitFixed && s.Count != 1:
		return c.fail(at{"splits", "count"}, "fixed splits have one split, got count %d", s.Count)
	case s.Count < 1:
		return c.fail(at{"splits", "count"}, "must be at least 1, got %d", s.Count)
	case s.Kind == SplitFold && s.Count > datasets.OCRFoldCount:
		return c.fail(at{"splits", "count"}, "fold splits: the data has %d folds, got count %d", datasets.OCRFoldCount, s.Count)
	case !(s.ValidationFraction > 0 && s.ValidationFraction < 1):
		return c.fail(at{"splits", "validation_fraction"}, "must be in (0, 1), got %v", s.ValidationFraction)
	case len(s.TrainFractions) == 0:
		return c.fail(at{"splits", "train_fractions"}, "at least one training fraction is required (omit the key for [0.25])")
	}
	if s.Kind == SplitFold {
		for i, d := range c.Datasets {
			if d.Name != "ocr" {
				return c.fail(at{"datasets", i, "name"}, "splits.kind fold needs a dataset with folds (ocr), not %q", d.Name)
			}
		}
		return nil
	}
	if s.Kind == SplitInstance {
		for i, d := range c.Datasets {
			if n := d.Declaration().Instances(); d.Synthetic != nil || n == 0 {
				return c.fail(at{"datasets", i, "name"}, "splits.kind %s needs a generated dataset with instantiations (synth1, synth2, synth3, mil-p1, mil-p25), not %q", SplitInstance, d.Name)
			} else if s.Count > n {
				return c.fail(at{"splits", "count"}, "dataset %q has %d instantiations, got count %d", d.Name, n, s.Count)
			}
		}
		return nil
	}
	if s.Kind == SplitFixed {
		for i, d := range c.Datasets {
			if d.Synthetic != nil || !d.Declaration().Fixed() {
				return c.fail(at{"datasets", i, "name"}, "splits.kind fixed needs a dataset with train and test files (e.g. conll2003, or train:/test: in the entry), not %q", d.Name)
			}
		}
		return nil
	}
	if s.Kind == SplitPerClass {
		for i, n := range s.TrainPerClass {
			if n < 1 {
				return c.fail(at{"splits", "train_per_class", i}, "must be at least 1, got %d", n)
			}
			if j := slices.Index(s.TrainPerClass[:i], n); j >= 0 {
				return c.fail(at{"splits", "train_per_class", i}, "%d listed twice", n)
			}
		}
		return nil
	}
	for i, f := range s.TrainFractions {
		if !(f > 0 && f < 1) {
			return c.fail(at{"splits", "train_fractions", i}, "must be in (0, 1), got %v", f)
		}
		if j := slices.Index(s.TrainFractions[:i], f); j >= 0 {
			return c.fail(at{"splits", "train_fractions", i}, "%v listed twice", f)
		}
	}
	return nil
}

// validateSplitFile checks splits.kind file: a path, the file's splits
// (read by resolve) against count, and datasets whose sequences a file of
// indices can name.
func (c *Config) validateSplitFile() error {
	s := c.Splits
	switch {
	case s.Path == "":
		return c.fail(at{"splits"}, "splits.kind %s needs path: the split file (JSON or CSV, relative to this config's directory)", SplitFile)
	case c.has("splits", "train_fractions"):
		return c.fail(at{"splits", "train_fractions"}, "a split file gives the training parts; remove train_fractions")
	case s.Count != len(c.splitFile.Splits):
		return c.fail(at{"splits", "count"}, "count is %d, but split file %s has %d splits", s.Count, c.splitFile.Name, len(c.splitFile.Splits))
	case !(s.ValidationFraction > 0 && s.ValidationFraction < 1):
		return c.fail(at{"splits", "validation_fraction"}, "must be in (0, 1), got %v", s.ValidationFraction)
	}
	for i, d := range c.Datasets {
		if d.Synthetic == nil && d.Declaration().Fixed() {
			return c.fail(at{"datasets", i, "name"}, "a split file names the sequences of one file; dataset %q has fixed train/test files (use path, or splits.kind %s)", d.Name, SplitFixed)
		}
	}
	return nil
}

// decoderExact is the decoder a config states by default.
const decoderExact = "exact"

// validateDecoder accepts decoder: exact or ilp, the latter for the
// sequence and parsing tasks only.
func (c *Config) validateDecoder() error {
	switch c.Decoder {
	case "", decoderExact:
		return nil
	case tasks.DecoderILP:
	default:
		return c.fail(at{"decoder"}, "unknown decoder %q (known: %s, %s)", c.Decoder, decoderExact, tasks.DecoderILP)
	}
	for i, task := range c.Tasks {
		if task != TaskSequence && task != TaskParsing {
			return c.fail(at{"tasks", i}, "decoder %s: the %s model has no ILP decoder (the %s and %s models do)", c.Decoder, task, TaskSequence, TaskParsing)
		}
	}
	return nil
}

// UnitDecoder is the decoder as units hold it: empty for the exact one.
func (c *Config) UnitDecoder() string {
	if c.Decoder == decoderExact {
		return ""
	}
	return c.Decoder
}

func (c *Config) validateLoss() error {
	if c.Loss == nil {
		return nil
	}
	if !slices.Contains(c.Tasks, TaskSegmentation) {
		return c.fail(at{"loss"}, "sets the segmentation loss, and the config has no segmentation task")
	}
	for key, v := range map[string]*float64{"precision": c.Loss.Precision, "recall": c.Loss.Recall, "misclass": c.Loss.Misclass} {
		if v != nil && !(*v >= 0 && *v <= 1e6) {
			return c.fail(at{"loss", key}, "must be in [0, 1e6], got %v", *v)
		}
	}
	if r := c.Loss.Resolved(); r != nil && r.Precision+r.Recall == 0 {
		return c.fail(at{"loss"}, "precision and recall penalties are both 0: no segmentation would cost anything")
	}
	return nil
}

func (c *Config) validateFeatures() error {
	f := c.Features
	switch {
	case !slices.Contains(featureKinds(), f.Kind):
		return c.fail(at{"features", "kind"}, "unknown feature kind %q%s (known: %s)", f.Kind, suggest(f.Kind, featureKinds()), strings.Join(featureKinds(), ", "))
	case f.Kind == FeaturesChunking && (f.Window != nil || f.Affixes != nil || f.Lexicons != nil):
		return c.fail(at{"features", templateKey(f)}, "chunking features are Sha & Pereira's fixed set (a ±2 window, no affixes): window, affixes and lexicons do not apply (edges and min_count do)")
	case f.Kind == FeaturesGiven && (f.Window != nil || f.Affixes != nil || f.Lexicons != nil):
		return c.fail(at{"features", templateKey(f)}, "given attributes are used as they are: window, affixes and lexicons do not apply (edges and min_count do)")
	case f.Kind == FeaturesDependency && (f.Window != nil || f.Affixes != nil || f.Lexicons != nil || f.MinCount != nil || f.Edges != nil || f.Pairs != ""):
		return c.fail(at{"features"}, "dependency arc features have no settings (window, affixes, lexicons, min_count, edges, pairs)")
	case (f.Kind == FeaturesDependency) != slices.Contains(c.Tasks, TaskParsing):
		return c.fail(at{"features", "kind"}, "the parsing task and features.kind %s go together (and parsing cannot share a config with other tasks)", FeaturesDependency)
	case f.Kind == FeaturesDependency && len(c.Tasks) > 1:
		return c.fail(at{"tasks"}, "the parsing task cannot share a config with other tasks (its datasets are treebanks)")
	case f.Kind == FeaturesPixels && f.Degree != 1 && f.Degree != 2:
		return c.fail(at{"features", "degree"}, "pixel features have degree 1 or 2, got %d", f.Degree)
	case (f.Kind == FeaturesCitation || f.Kind == FeaturesNER) && c.has("features", "degree") && f.Degree != 1 && f.Degree != 2:
		return c.fail(at{"features", "degree"}, "%s features have degree 1 or 2, got %d", f.Kind, f.Degree)
	case f.Kind != FeaturesPixels && f.Kind != FeaturesCitation && f.Kind != FeaturesNER && c.has("features", "degree"):
		return c.fail(at{"features", "degree"}, "degree applies to pixel, citation and NER features only")
	case f.Kind == FeaturesNER && f.Lexicons != nil:
		return c.fail(at{"features", "lexicons"}, "applies to citation features only (kind: %s)", FeaturesCitation)
	case f.Kind == FeaturesPixels && (f.Window != nil || f.Affixes != nil || f.Lexicons != nil):
		return c.fail(at{"features", templateKey(f)}, "applies to citation and NER features only (kind: %s or %s)", FeaturesCitation, FeaturesNER)
	case f.Normalize != "" && f.Normalize != NormalizeNone && f.Normalize != NormalizeUnit:
		return c.fail(at{"features", "normalize"}, "unknown normalisation %q (known: %s, %s)", f.Normalize, NormalizeNone, NormalizeUnit)
	case f.Normalize == NormalizeUnit && f.Kind != FeaturesPixels:
		return c.fail(at{"features", "normalize"}, "applies to pixel features only (kind: %s)", FeaturesPixels)
	case f.Normalize == NormalizeUnit && !slices.Equal(c.Tasks, []string{TaskSequence}):
		// The values scale the chain model's features; the other models
		// read every attribute as 1 and would train unnormalised.
		return c.fail(at{"features", "normalize"}, "scaled pixel features are the %s task's model only, and the config's tasks are %v", TaskSequence, c.Tasks)
	}
	for i, d := range c.Datasets {
		if (d.Alignment != nil) != slices.Contains(c.Tasks, TaskAlignment) || d.Alignment != nil && len(c.Tasks) > 1 {
			return c.fail(at{"datasets", i}, "dataset %q: generated alignment examples (alignment:) go with the %s task alone, and only they do", d.Name, TaskAlignment)
		}
		if d.Alignment != nil {
			continue
		}
		phrases := d.Synthetic == nil && d.Declaration().Format == datasets.FormatPTB
		if phrases != slices.Contains(c.Tasks, TaskCFG) || phrases && len(c.Tasks) > 1 {
			return c.fail(at{"datasets", i}, "dataset %q: phrase-structure treebanks (format %s) go with the %s task alone, and only they do", d.Name, datasets.FormatPTB, TaskCFG)
		}
		if phrases {
			continue
		}
		if treebank := d.Synthetic == nil && d.Declaration().Format == datasets.FormatCoNLLU; treebank != (f.Kind == FeaturesDependency) {
			return c.fail(at{"datasets", i}, "dataset %q: treebanks (format %s) go with the parsing task and features.kind %s, and only they do", d.Name, datasets.FormatCoNLLU, FeaturesDependency)
		}
		decl := d.Declaration()
		vectors := d.Synthetic == nil && (decl.Vectorial() || decl.Format == datasets.FormatBrown)
		if d.Taxonomy != nil && !vectors {
			return c.fail(at{"datasets", i, "taxonomy"}, "a taxonomy applies to feature vectors or documents (format %s, %s) only", datasets.FormatLibSVM, datasets.FormatBrown)
		}
		if d.Taxonomy != nil && d.Cost != nil {
			return c.fail(at{"datasets", i, "cost"}, "a dataset with a taxonomy has its tree loss as its cost: remove cost")
		}
		if _, err := d.Tree(c.file); err != nil {
			return err
		}
		if d.Taxonomy == nil && slices.Contains(c.Tasks, TaskTaxonomy) {
			return c.fail(at{"datasets", i}, "dataset %q: the %s task needs a class tree: give the dataset a taxonomy", d.Name, TaskTaxonomy)
		}
		if d.Cost != nil && !vectors {
			return c.fail(at{"datasets", i, "cost"}, "a cost matrix applies to feature vectors (format %s, blobs) only", datasets.FormatLibSVM)
		}
		if bags := d.Synthetic == nil && decl.Format == datasets.FormatMIL; bags != slices.Contains(c.Tasks, TaskMIL) || bags && (len(c.Tasks) > 1 || f.Kind != FeaturesGiven) {
			return c.fail(at{"datasets", i}, "dataset %q: bags of instances (mil-p1, mil-p25) go with the %s task alone and features.kind %s, and only they do", d.Name, TaskMIL, FeaturesGiven)
		}
		if given := d.Synthetic == nil && (decl.Format == datasets.FormatCRFsuite || decl.Format == datasets.FormatMIL) || vectors; given != (f.Kind == FeaturesGiven) {
			if vectors {
				return c.fail(at{"datasets", i}, "dataset %q: feature vectors (format %s, blobs) go with features.kind %s (their features come with the data)", d.Name, datasets.FormatLibSVM, FeaturesGiven)
			}
			return c.fail(at{"datasets", i}, "dataset %q: attribute files (format %s) go with features.kind %s (their attributes are the features), and only they do (or feature vectors, format %s)", d.Name, datasets.FormatCRFsuite, FeaturesGiven, datasets.FormatLibSVM)
		}
		vectorTasks := !slices.ContainsFunc(c.Tasks, func(t string) bool { return t != TaskMulticlass && t != TaskTaxonomy })
		if vectors != vectorTasks {
			return c.fail(at{"datasets", i}, "dataset %q: feature vectors and documents (format %s, blobs, %s) go with the %s and %s tasks alone, and only they do", d.Name, datasets.FormatLibSVM, datasets.FormatBrown, TaskMulticlass, TaskTaxonomy)
		}
	}
	if err := c.validatePairs(f.Pairs, "features", "pairs"); err != nil {
		return err
	}
	for i, d := range c.Datasets {
		o := d.Features
		if o == nil {
			continue
		}
		if err := c.validatePairs(o.Pairs, "datasets", i, "features", "pairs"); err != nil {
			return err
		}
		for _, key := range []string{"kind", "degree", "normalize"} {
			if c.has("datasets", i, "features", key) {
				return c.fail(at{"datasets", i, "features", key}, "a dataset's features may set window, affixes, lexicons and edges; the kind, degree and normalisation are the config's (features.%s)", key)
			}
		}
		if (f.Kind == FeaturesPixels || f.Kind == FeaturesGiven || f.Kind == FeaturesChunking) && (o.Window != nil || o.Affixes != nil || o.Lexicons != nil) {
			return c.fail(at{"datasets", i, "features"}, "window, affixes and lexicons apply to citation features only (kind: %s)", FeaturesCitation)
		}
		if f.Kind == FeaturesNER && o.Lexicons != nil {
			return c.fail(at{"datasets", i, "features", "lexicons"}, "applies to citation features only (kind: %s)", FeaturesCitation)
		}
		if err := c.checkSettings(*o, "datasets", i, "features"); err != nil {
			return err
		}
	}
	if f.Kind == FeaturesChunking {
		for i, d := range c.Datasets {
			decl := d.Declaration()
			if d.Synthetic != nil || decl.Format != datasets.FormatCoNLL || !slices.Contains(datasets.CoNLLFormat{Columns: decl.Columns}.ExtraColumns(), tagger.ColumnPOS) {
				return c.fail(at{"datasets", i, "name"}, "features.kind %s reads part-of-speech tags: dataset %q needs format %s with a column named %s", FeaturesChunking, d.Name, datasets.FormatCoNLL, tagger.ColumnPOS)
			}
		}
	}
	if f.Kind == FeaturesPixels {
		for i, d := range c.Datasets {
			if d.Name != "ocr" {
				return c.fail(at{"datasets", i, "name"}, "features.kind pixels needs letter images (ocr), not %q", d.Name)
			}
		}
	}
	return c.checkSettings(f, "features")
}

// The values of features.normalize: pixel features as 0/1 indicators (the
// default), or scaled to unit norm (features.PixelValues).
const (
	NormalizeNone = "none"
	NormalizeUnit = "unit"
)

// The values of features.pairs (package tagger's PairsSeen and PairsAll).
const (
	pairsAll  = "all"
	pairsSeen = "seen"
)

// validatePairs checks a pairs setting at path: seen or all, and seen
// with the sequence task alone (no other model keeps seen pairs).
func (c *Config) validatePairs(pairs string, path ...any) error {
	switch {
	case pairs != "" && pairs != pairsSeen && pairs != pairsAll:
		return c.fail(at(path), "unknown pairs %q (known: %s, %s)", pairs, pairsAll, pairsSeen)
	case pairs == pairsSeen && !slices.Equal(c.Tasks, []string{TaskSequence}):
		return c.fail(at(path), "seen attribute–label pairs are the sequence task's model only, and the config's tasks are %v (use pairs: %s)", c.Tasks, pairsAll)
	}
	return nil
}

// checkSettings checks the bounded template settings f states (window,
// affixes, min_count) against their one declaration (features.Settings),
// which the command line's flags share; path leads to f in the config.
func (c *Config) checkSettings(f FeatureSpec, path ...any) error {
	for _, s := range []struct {
		key string
		v   *int
	}{{"window", f.Window}, {"affixes", f.Affixes}, {"min_count", f.MinCount}} {
		if s.v == nil {
			continue
		}
		if err := features.CheckSetting(s.key, *s.v); err != nil {
			return c.fail(append(at(slices.Clone(path)), s.key), "%v", err)
		}
	}
	return nil
}

// templateKey names the first template setting f sets (window, affixes,
// lexicons), for an error about it.
func templateKey(f FeatureSpec) string {
	switch {
	case f.Window != nil:
		return "window"
	case f.Affixes != nil:
		return "affixes"
	}
	return "lexicons"
}

// trainerSettings maps each trainer setting to the trainers it applies to,
// as the trainers' registry describes their params (C and the seed are the
// run's, not settings); a setting given to another trainer would be
// silently ignored, so it is an error.
func trainerSettings() map[string][]string {
	out := map[string][]string{}
	for _, s := range trainers.Specs() {
		for _, p := range s.Params {
			if p.Key != trainers.ParamC && p.Key != trainers.ParamSeed {
				out[p.Key] = append(out[p.Key], s.Name)
			}
		}
	}
	return out
}

func (c *Config) validateTrainers() error {
	if len(c.Trainers) == 0 {
		return c.fail(at{"trainers"}, "at least one trainer is required")
	}
	applies := trainerSettings()
	for i, t := range c.Trainers {
		p := func(key string, rest ...any) at { return append(at{"trainers", i, key}, rest...) }
		if !slices.Contains(KnownTrainers(), t.Name) {
			return c.fail(p("name"), "unknown trainer %q%s (known: %s)", t.Name, suggest(t.Name, KnownTrainers()), strings.Join(KnownTrainers(), ", "))
		}
		if c.has("trainers", i, "label") && (t.Label == "" || strings.TrimSpace(t.Label) != t.Label || strings.ContainsAny(t.Label, "\n\t|")) {
			return c.fail(p("label"), "label %q is empty or has surrounding spaces, a tab, a newline or '|'", t.Label)
		}
		for j, u := range c.Trainers[:i] {
			if u.Display() != t.Display() {
				continue
			}
			if t.Label == "" {
				return c.fail(p("name"), "trainer %q listed twice (first at line %d); give each entry a distinct label", t.Name, c.line("trainers", j, "name"))
			}
			return c.fail(p("label"), "label %q used twice (first at line %d)", t.Label, c.line("trainers", j))
		}
		for _, key := range slices.Sorted(maps.Keys(t.Params)) {
			if !slices.Contains(applies[key], t.Name) {
				return c.fail(p(key), "does not apply to trainer %q (only to %s)", t.Name, strings.Join(applies[key], ", "))
			}
		}
		if err := c.validateGrid(i, t); err != nil {
			return err
		}
		if solver, ok := t.Params["solver"].(string); ok && !slices.Contains(trainers.Solvers(), solver) {
			return c.fail(p("solver"), "unknown solver %q%s (known: %s)", solver, suggest(solver, trainers.Solvers()), strings.Join(trainers.Solvers(), ", "))
		}
		if err := c.validateParams(i, t); err != nil {
			return err
		}
	}
	return nil
}

// validateParams checks trainer i's settings as the trainer itself does
// (trainers.Validate: ranges, required params, a 0 that would silently mean
// the default), and reports a bad one at its line. The C grid is checked
// by validateGrid; a grid value stands in for C here.
func (c *Config) validateParams(i int, t TrainerSpec) error {
	spec, err := trainers.SpecOf(t.Name)
	if err != nil {
		return c.fail(at{"trainers", i, "name"}, "%v", err)
	}
	v := t.Values()
	if _, ok := spec.Param(trainers.ParamC); ok && len(t.C) > 0 {
		v[trainers.ParamC] = t.C[0]
	}
	err = trainers.Validate(t.Name, v)
	var pe *trainers.ParamError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &pe) && pe.Key != trainers.ParamC && c.has("trainers", i, pe.Key):
		return c.fail(at{"trainers", i, pe.Key}, "%s", pe.Msg)
	default:
		return c.fail(at{"trainers", i}, "%v", err)
	}
}

// validateGrid checks trainer i's C grid.
func (c *Config) validateGrid(i int, t TrainerSpec) error {
	p := at{"trainers", i, "C"}
	spec, err := trainers.SpecOf(t.Name)
	if err != nil {
		return c.fail(at{"trainers", i, "name"}, "%v", err)
	}
	param, hasC := spec.Param(trainers.ParamC)
	switch {
	case !hasC && c.has("trainers", i, "C"):
		return c.fail(p, "the %s has no C; remove the grid", t.Name)
	case hasC && !param.Required && c.has("trainers", i, "C") && len(t.C) == 0:
		return c.fail(p, "empty grid; omit C for %s's default (%s)", t.Name, spec.C)
	case len(t.C) == 0 && param.Required:
		return c.fail(p, "trainer %q needs a non-empty grid of C values", t.Name)
	}
	if c.has("trainers", i, "grid") {
		switch {
		case len(t.C) < 2:
			return c.fail(at{"trainers", i, "grid"}, "grid extension needs a C grid of at least two values, got %d", len(t.C))
		case c.has("trainers", i, "grid", "max_steps") && (t.Grid.MaxSteps < 1 || t.Grid.MaxSteps > 6):
			return c.fail(at{"trainers", i, "grid", "max_steps"}, "must be in [1, 6], got %d", t.Grid.MaxSteps)
		}
	}
	for j, v := range t.C {
		if err := param.Range.Check(v); err != nil {
			return c.fail(append(p, j), "%v", err)
		}
		if slices.Contains(t.C[:j], v) {
			return c.fail(append(p, j), "C = %v listed twice", v)
		}
	}
	return nil
}

// validateFigures checks each figure against the config, so that a figure
// the report cannot draw fails here rather than after training.
func (c *Config) validateFigures() error {
	var datasetNames []string
	for _, d := range c.Datasets {
		datasetNames = append(datasetNames, d.Name)
	}
	for i, f := range c.Figures {
		p := func(key string) at { return at{"figures", i, key} }
		switch {
		case f.X == report.XDataset && c.has("figures", i, "dataset") && (len(f.Datasets) == 0 || f.Dataset != f.Datasets[0]):
			return c.fail(p("dataset"), "x dataset draws the datasets listed in datasets; remove dataset (or make it the first of them)")
		case f.X == report.XDataset && len(f.Datasets) < 2:
			return c.fail(at{"figures", i}, "x dataset needs datasets: a list of at least two of the config's datasets")
		case f.X != report.XDataset && c.has("figures", i, "datasets"):
			return c.fail(p("datasets"), "datasets are for x: dataset (one point per dataset); use dataset for one")
		case f.X == report.XCPUSeconds && !c.Curves:
			return c.fail(p("x"), "x %s draws learning curves, which test units record only with curves: true (a top-level setting)", report.XCPUSeconds)
		case f.X == report.XCPUSeconds && (f.Y == report.YTrainSeconds || f.Y == report.YCPUSeconds):
			return c.fail(p("y"), "x %s draws learning curves, whose y is a metric (%s) or %s, not a time", report.XCPUSeconds, strings.Join(metrics.Names(), ", "), report.YAccuracy)
		case f.X == report.XCPUSeconds && c.has("figures", i, "baseline"):
			return c.fail(p("baseline"), "x %s draws learning curves, which take no baseline", report.XCPUSeconds)
		case c.has("figures", i, "log_x") && f.X != report.XCPUSeconds:
			return c.fail(p("log_x"), "log_x is for x: %s (x: %s has its own axis)", report.XCPUSeconds, f.X)
		case f.X == report.XCPUSeconds && len(c.Splits.TrainFractions) > 1:
			return c.fail(p("x"), "figure %q draws learning curves, which need one training fraction; splits.train_fractions has %d", f.Name, len(c.Splits.TrainFractions))
		}
		for j, d := range f.Datasets {
			if !slices.Contains(datasetNames, d) {
				return c.fail(at{"figures", i, "datasets", j}, "dataset %q is not among the config's datasets%s", d, suggest(d, datasetNames))
			}
			if slices.Contains(f.Datasets[:j], d) {
				return c.fail(at{"figures", i, "datasets", j}, "dataset %q listed twice", d)
			}
		}
		names := trainerNames(c.Trainers)
		for j, t := range f.Trainers {
			switch {
			case !slices.Contains(names, t):
				return c.fail(at{"figures", i, "trainers", j}, "trainer %q is not among the config's trainers%s", t, suggest(t, names))
			case slices.Contains(f.Trainers[:j], t):
				return c.fail(at{"figures", i, "trainers", j}, "trainer %q listed twice", t)
			case t == f.Baseline:
				return c.fail(at{"figures", i, "trainers", j}, "trainer %q is the figure's baseline, which is subtracted from the others, not drawn", t)
			}
		}
		if err := f.reportSpec().Validate(); err != nil {
			return c.fail(at{"figures", i}, "%v", err)
		}
		if j := slices.IndexFunc(c.Figures[:i], func(g FigureSpec) bool { return g.Name == f.Name }); j >= 0 {
			return c.fail(p("name"), "two figures named %q (first at line %d)", f.Name, c.line("figures", j, "name"))
		}
		if !slices.Contains(datasetNames, f.Dataset) {
			return c.fail(p("dataset"), "dataset %q is not among the config's datasets%s", f.Dataset, suggest(f.Dataset, datasetNames))
		}
		figTasks := c.Tasks // no task: one figure per task
		if f.Task != "" {
			if !slices.Contains(c.Tasks, f.Task) {
				return c.fail(p("task"), "task %q is not among the config's tasks%s", f.Task, suggest(f.Task, c.Tasks))
			}
			figTasks = []string{f.Task}
		}
		for _, task := range figTasks {
			g := f
			g.Task = task
			if err := c.validateFigureTask(i, g); err != nil {
				return err
			}
		}
	}
	return nil
}

// validateFigureTask checks figure i's baseline and lines on one task.
func (c *Config) validateFigureTask(i int, f FigureSpec) error {
	if f.Baseline != "" {
		j := slices.IndexFunc(c.Trainers, func(t TrainerSpec) bool { return t.Display() == f.Baseline })
		if j < 0 {
			return c.fail(at{"figures", i, "baseline"}, "trainer %q is not among the config's trainers%s", f.Baseline, suggest(f.Baseline, trainerNames(c.Trainers)))
		}
		if err := supports(f.Task, c.Trainers[j]); err != nil {
			return c.fail(at{"figures", i, "baseline"}, "trainer %q does not run on task %q: %v", f.Baseline, f.Task, err)
		}
	}
	return c.validateFigureLines(i, f)
}

// validateFigureLines checks that figure i has something to plot: a trainer
// other than the baseline that runs on its task and, for x: beta, has a β,
// with one point per (method, β).
func (c *Config) validateFigureLines(i int, f FigureSpec) error {
	if f.Z != "" {
		return c.validateContourGrid(i, f)
	}
	seen := map[[2]string]int{}
	lines := 0
	for j, t := range c.Trainers {
		if t.Display() == f.Baseline || supports(f.Task, t) != nil || (len(f.Trainers) > 0 && !slices.Contains(f.Trainers, t.Display())) {
			continue
		}
		if f.X != report.XBeta {
			lines++
			continue
		}
		beta, ok := t.Params[report.XBeta].(float64) // x: beta plots the trainers' beta param
		if !ok {
			continue
		}
		line := t.betaLine()
		k := [2]string{line, strconv.FormatFloat(beta, 'g', -1, 64)}
		if first, dup := seen[k]; dup {
			return c.fail(at{"trainers", j, "beta"}, "figure %q (x: beta) would plot two %s points at beta %v (entries at lines %d and %d); give them different betas or drop one",
				f.Name, line, beta, c.line("trainers", first), c.line("trainers", j))
		}
		seen[k] = j
		lines++
	}
	switch {
	case lines == 0 && f.X == report.XBeta:
		return c.fail(at{"figures", i, "x"}, "figure %q plots by beta, but no trainer with a beta (entropy-margin) runs on %s/%s besides the baseline", f.Name, f.Dataset, f.Task)
	case lines == 0:
		return c.fail(at{"figures", i}, "figure %q has no trainer to plot on %s/%s besides the baseline", f.Name, f.Dataset, f.Task)
	case f.X == report.XBeta && len(c.Splits.TrainFractions) > 1:
		return c.fail(at{"figures", i, "x"}, "figure %q plots by beta, which needs one training fraction; splits.train_fractions has %d", f.Name, len(c.Splits.TrainFractions))
	}
	return nil
}

// validateContourGrid checks that contour figure i has a complete β × C
// grid to draw on its task: the trainer entries with a beta, each of one C
// value, all of one method, at most one per (β, C), and one at every pair
// of the β and C values they use.
func (c *Config) validateContourGrid(i int, f FigureSpec) error {
	type point struct{ beta, c float64 }
	seen := map[point]int{}
	var betas, cs []float64
	line := ""
	for j, t := range c.Trainers {
		if supports(f.Task, t) != nil || (len(f.Trainers) > 0 && !slices.Contains(f.Trainers, t.Display())) {
			continue
		}
		beta, ok := t.Params[report.XBeta].(float64)
		if !ok {
			continue
		}
		name := t.betaLine()
		switch {
		case line != "" && name != line:
			return c.fail(at{"trainers", j}, "figure %q draws a contour of one method over beta and C, and the entries with a beta are of %q and %q", f.Name, line, name)
		case len(t.C) != 1:
			return c.fail(at{"trainers", j, "C"}, "figure %q draws a contour over beta and C: each entry with a beta needs one C, not a grid of %d (C chosen by validation would differ by split)", f.Name, len(t.C))
		}
		line = name
		p := point{beta, t.C[0]}
		if first, dup := seen[p]; dup {
			return c.fail(at{"trainers", j}, "figure %q would draw two points at beta %v, C %v (entries at lines %d and %d)", f.Name, beta, t.C[0], c.line("trainers", first), c.line("trainers", j))
		}
		seen[p] = j
		betas, cs = append(betas, beta), append(cs, t.C[0])
	}
	slices.Sort(betas)
	slices.Sort(cs)
	betas, cs = slices.Compact(betas), slices.Compact(cs)
	if len(betas) < 2 || len(cs) < 2 {
		return c.fail(at{"figures", i, "z"}, "figure %q draws a contour over beta and C, which needs entries at two or more betas and Cs on %s/%s; found %d and %d", f.Name, f.Dataset, f.Task, len(betas), len(cs))
	}
	for _, beta := range betas {
		for _, cv := range cs {
			if _, ok := seen[point{beta, cv}]; !ok {
				return c.fail(at{"figures", i, "z"}, "figure %q draws a contour over beta and C, and no entry has beta %v with C %v: the grid of %d betas × %d Cs must be complete", f.Name, beta, cv, len(betas), len(cs))
			}
		}
	}
	if len(c.Splits.TrainFractions) > 1 {
		return c.fail(at{"figures", i, "z"}, "figure %q draws a contour, which needs one training fraction; splits.train_fractions has %d", f.Name, len(c.Splits.TrainFractions))
	}
	return nil
}

func (c *Config) validateCompare() error {
	names := trainerNames(c.Trainers)
	if len(c.Compare) > 0 && c.Splits.Count < 2 && c.Splits.Kind != SplitFixed && c.Splits.Kind != SplitFile {
		return c.fail(at{"compare"}, "a paired t-test needs at least 2 splits, and splits.count is %d (fixed splits, and a split file of one split, compare by McNemar's test and a paired bootstrap instead)", c.Splits.Count)
	}
	for i, pair := range c.Compare {
		if len(pair) != 2 {
			return c.fail(at{"compare", i}, "each comparison is a pair of trainers, got %v", pair)
		}
		for j, name := range pair {
			if !slices.Contains(names, name) {
				return c.fail(at{"compare", i, j}, "trainer %q is not among the config's trainers%s", name, suggest(name, names))
			}
		}
		if pair[0] == pair[1] {
			return c.fail(at{"compare", i}, "compares %q with itself", pair[0])
		}
		for j, q := range c.Compare[:i] {
			if len(q) == 2 && ((q[0] == pair[0] && q[1] == pair[1]) || (q[0] == pair[1] && q[1] == pair[0])) {
				return c.fail(at{"compare", i}, "%s vs %s already compared (line %d)", pair[0], pair[1], c.line("compare", j))
			}
		}
	}
	return nil
}

// validatePaper checks the paper block. The report package checks the
// same rules again when it reads report.json; here each error points at
// the line and field to fix, and names must also be the config's own.
func (c *Config) validatePaper() error {
	p := c.Paper
	if strings.TrimSpace(p.Source) == "" {
		return c.fail(at{"paper", "source"}, "required: name the paper and table the values come from")
	}
	if len(p.Values) == 0 && strings.TrimSpace(p.Note) == "" {
		return c.fail(at{"paper", "values"}, "at least one value is required, or, for a figure the paper gives without numbers, a note saying what it shows")
	}
	var datasetNames []string
	for _, d := range c.Datasets {
		datasetNames = append(datasetNames, d.Name)
	}
	names := []struct {
		key   string
		known []string
		value func(PaperValueSpec) string
	}{
		{"dataset", datasetNames, func(v PaperValueSpec) string { return v.Dataset }},
		{"task", c.Tasks, func(v PaperValueSpec) string { return v.Task }},
		{"trainer", trainerNames(c.Trainers), func(v PaperValueSpec) string { return v.Trainer }},
	}
	for i, v := range p.Values {
		for _, n := range names {
			path := at{"paper", "values", i, n.key}
			switch name := n.value(v); {
			case name == "":
				return c.fail(path, "required; one of the config's %ss: %s", n.key, strings.Join(n.known, ", "))
			case !slices.Contains(n.known, name):
				return c.fail(path, "%s %q is not among the config's %ss%s", n.key, name, n.key, suggest(name, n.known))
			}
		}
		declared := metrics.ForTask(v.Task).Metrics
		if len(v.Metrics) == 0 {
			return c.fail(at{"paper", "values", i}, "give one or more of the %s task's metrics: %s", v.Task, strings.Join(declared, ", "))
		}
		for _, key := range slices.Sorted(maps.Keys(v.Metrics)) {
			x, name := v.Metrics[key], key
			if now, ok := metrics.ForTask(v.Task).Legacy[key]; ok && now != "" {
				name = now
			}
			d, known := metrics.Lookup(name)
			switch {
			case !known || !slices.Contains(declared, name):
				return c.fail(at{"paper", "values", i, key}, "unknown key%s: dataset, task, trainer or a metric of the %s task (%s)", suggest(key, declared), v.Task, strings.Join(declared, ", "))
			case d.Unit == "%" && !(x >= 0 && x <= 100):
				return c.fail(at{"paper", "values", i, key}, "must be a percentage in [0, 100], got %v", x)
			}
		}
		for j, w := range p.Values[:i] {
			if w.Dataset == v.Dataset && w.Task == v.Task && w.Trainer == v.Trainer && w.TrainFraction == v.TrainFraction {
				return c.fail(at{"paper", "values", i}, "%s/%s %s listed twice (first at line %d)", v.Dataset, v.Task, v.Trainer, c.line("paper", "values", j))
			}
		}
	}
	return nil
}
func (f FigureSpec) reportSpec() report.FigureSpec {
	return report.FigureSpec{Name: f.Name, Dataset: f.Dataset, Datasets: f.Datasets, Task: f.Task, X: f.X, Y: f.Y, LogX: f.LogX, Baseline: f.Baseline, Z: f.Z, Title: f.Title,
		Trainers: slices.Clone(f.Trainers)}
}

// ReportSpec is what the report package needs to render this experiment's
// results without the config: trainer order, t-tests, figures, the
// paper's numbers and, for the pooled sign tests, the folds.
func (c *Config) ReportSpec() report.Spec {
	s := report.Spec{Title: c.Name, Trainers: trainerNames(c.Trainers), Folds: c.folds()}
	for _, p := range c.Compare {
		s.Comparisons = append(s.Comparisons, report.Comparison{A: p[0], B: p[1]})
	}
	for _, f := range c.Figures {
		s.Figures = append(s.Figures, f.reportSpec())
	}
	if c.Paper != nil {
		s.Paper = c.Paper.reportReference()
	}
	return s
}

// folds are the sizes of the test parts of a split file whose test parts
// are disjoint (no sequence tested twice), so that the report may pool
// per-item outcomes over them; nil for other splits (random draws may test
// an item twice, and only fixed splits and split files keep outcomes).
// Only configs with a task whose metrics declare such a test
// (metrics.Sign) get them, so that the report.json of every other
// config stays as it was.
func (c *Config) folds() *report.Folds {
	if c.Splits.Kind != SplitFile || c.splitFile == nil || c.splitFile.TestsDisjoint() != nil {
		return nil
	}
	signed := false
	for _, task := range c.Tasks {
		for _, m := range metrics.ForTask(task).Metrics {
			if d, _ := metrics.Lookup(m); d.Has(metrics.Sign) {
				signed = true
			}
		}
	}
	if !signed {
		return nil
	}
	f := &report.Folds{}
	for _, s := range c.splitFile.Splits {
		f.TestItems = append(f.TestItems, len(s.Test))
	}
	return f
}

// reportReference copies p, metrics included, so that the spec shares no
// memory with the config.
func (p *PaperSpec) reportReference() *report.PaperReference {
	ref := &report.PaperReference{Source: p.Source, Note: p.Note}
	for _, v := range p.Values {
		ref.Values = append(ref.Values, report.PaperValue{Dataset: v.Dataset, Task: v.Task, Trainer: v.Trainer, TrainFraction: v.TrainFraction, Metrics: v.metrics()})
	}
	return ref
}

func trainerNames(ts []TrainerSpec) []string {
	var out []string
	for _, t := range ts {
		out = append(out, t.Display())
	}
	return out
}

// node returns the YAML node at path (string elements are mapping keys,
// int elements list indices), following aliases, and the line of the
// deepest element found: the key for a mapping entry, the item for a list
// element. The node is nil if the path is not written in the config.
func (c *Config) node(path ...any) (*yaml.Node, int) {
	return strictyaml.Find(c.root, path...)
}

// has reports whether the config writes the setting at path, so that an
// explicit value (even 0 or []) is told apart from an absent one.
func (c *Config) has(path ...any) bool {
	n, _ := c.node(path...)
	return n != nil
}

// line returns the line of the setting at path, or of its deepest written
// ancestor, so an error points at the offending key whenever it is written.
func (c *Config) line(path ...any) int {
	_, line := c.node(path...)
	return line
}

// Effective returns the config as YAML with every default resolved: what a
// run actually uses, where the config file shows only what was typed. A
// header comment names the source file. The result parses back (with
// [Parse]) to the same settings.
func (c *Config) Effective() ([]byte, error) {
	e := *c
	e.Datasets = slices.Clone(c.Datasets)
	for i, d := range e.Datasets {
		if d.Synthetic != nil {
			s := *d.Synthetic
			e.Datasets[i].Synthetic = &s
		}
	}
	if e.Splits.Kind == SplitFold || e.Splits.Kind == SplitFixed || e.Splits.Kind == SplitFile || e.Splits.Kind == SplitInstance || e.Splits.Kind == SplitPerClass {
		e.Splits.TrainFractions = nil // by fold or part; the key is not allowed
	}
	if e.Features.Kind == FeaturesCitation {
		opt := features.DefaultOptions()
		window, affixes, edges, lexicons := opt.Window, opt.Affixes, true, true
		e.Features.Window = cmp.Or(e.Features.Window, &window)
		e.Features.Affixes = cmp.Or(e.Features.Affixes, &affixes)
		e.Features.Lexicons = cmp.Or(e.Features.Lexicons, &lexicons)
		e.Features.Edges = cmp.Or(e.Features.Edges, &edges)
	} else if e.Features.Kind != FeaturesDependency { // arcs have no edge features
		edges := true
		e.Features.Edges = cmp.Or(e.Features.Edges, &edges)
	}
	if e.Features.Kind == FeaturesNER {
		opt := features.DefaultNEROptions()
		window, affixes := opt.Window, opt.Affixes
		e.Features.Window = cmp.Or(e.Features.Window, &window)
		e.Features.Affixes = cmp.Or(e.Features.Affixes, &affixes)
	}
	e.Trainers = make([]TrainerSpec, len(c.Trainers))
	for i, t := range c.Trainers {
		var err error
		if e.Trainers[i], err = t.effective(); err != nil {
			return nil, fmt.Errorf("trainer %s: %w", t.Display(), err)
		}
	}
	var doc yaml.Node
	if err := doc.Encode(&e); err != nil {
		return nil, fmt.Errorf("encoding the effective config: %w", err)
	}
	flowScalarLists(&doc)
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# The effective config of %s: every setting it leaves out is shown\n# with its default value.\n", c.file)
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&doc); err != nil {
		return nil, fmt.Errorf("encoding the effective config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encoding the effective config: %w", err)
	}
	return buf.Bytes(), nil
}

// flowScalarLists writes lists of scalars on one line ([0.1, 1, 10]), as
// configs are written by hand.
func flowScalarLists(n *yaml.Node) {
	if n.Kind == yaml.SequenceNode && !slices.ContainsFunc(n.Content, func(c *yaml.Node) bool { return c.Kind != yaml.ScalarNode }) {
		n.Style = yaml.FlowStyle
	}
	for _, c := range n.Content {
		flowScalarLists(c)
	}
}

// effective returns the entry with every param that applies to the
// trainer at the value training uses (see resolved), so the effective
// config shows what training uses.
func (t TrainerSpec) effective() (TrainerSpec, error) {
	v, err := t.resolved()
	if err != nil {
		return t, err
	}
	t.C = slices.Clone(t.C)
	t.Params = TrainerParams(v)
	return t, nil
}

// resolved returns the params the entry trains with, as the trainer's
// registry entry resolves them (trainers.Resolve), without C (a grid here)
// and the seed (the run's). A 0 the trainer reads as unset is left out (it
// is the default), so that spelling a default out changes nothing; an
// optional param's 0 (loss_scale: 0) is a value and stays. A cutting-plane
// qp_tolerance thus stays unset: unset selects the solver's true-gap
// stopping rule.
func (t TrainerSpec) resolved() (trainers.Values, error) {
	spec, err := trainers.SpecOf(t.Name)
	if err != nil {
		return nil, err
	}
	all, err := trainers.Resolve(t.Name, t.Values())
	if err != nil {
		return nil, err
	}
	out := trainers.Values{}
	for _, p := range spec.Params {
		x, ok := all[p.Key]
		if !ok || p.Key == trainers.ParamC || p.Key == trainers.ParamSeed || (!p.Optional && isZeroValue(x)) {
			continue
		}
		out[p.Key] = x
	}
	return out, nil
}

// betaLine names the line of an x: beta figure (or the method of a
// contour) that the entry's runs lie on (report.BetaLine).
func (t TrainerSpec) betaLine() string {
	var hyper map[string]float64
	if ls, ok := t.Params["loss_scale"].(float64); ok {
		hyper = map[string]float64{"loss_scale": ls}
	}
	return report.BetaLine(t.Name, hyper, t.settings())
}

// settings are the entry's text hyperparameters away from the trainer's
// defaults (trainers.Spec.Settings), as its runs will record them; nil if
// the entry does not resolve (validation reports why elsewhere).
func (t TrainerSpec) settings() map[string]string {
	spec, err := trainers.SpecOf(t.Name)
	if err != nil {
		return nil
	}
	v, err := t.resolved()
	if err != nil {
		return nil
	}
	return spec.Settings(v)
}

// isZeroValue reports whether x is its type's zero value (0, false, "").
func isZeroValue(x any) bool { return x == nil || reflect.ValueOf(x).IsZero() }

// MarshalYAML writes the entry as a config spells it: name, label, C and
// grid, then its params inline in the order the trainer declares them.
func (t TrainerSpec) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v any) error {
		var val yaml.Node
		if err := val.Encode(v); err != nil {
			return fmt.Errorf("trainer %s: %s: %w", t.Name, key, err)
		}
		n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: key}, &val)
		return nil
	}
	if err := add("name", t.Name); err != nil {
		return nil, err
	}
	if t.Label != "" {
		if err := add("label", t.Label); err != nil {
			return nil, err
		}
	}
	if len(t.C) > 0 {
		if err := add(trainers.ParamC, t.C); err != nil {
			return nil, err
		}
	}
	if t.Grid != nil {
		if err := add("grid", t.Grid); err != nil {
			return nil, err
		}
	}
	var order []string
	if spec, err := trainers.SpecOf(t.Name); err == nil {
		for _, p := range spec.Params {
			order = append(order, p.Key)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(t.Params)) {
		if !slices.Contains(order, k) {
			order = append(order, k) // not the trainer's: shown, for validation to name
		}
	}
	for _, k := range order {
		if x, ok := t.Params[k]; ok {
			if err := add(k, x); err != nil {
				return nil, err
			}
		}
	}
	return n, nil
}

// UnitParams splits the entry's resolved params into those that identify a
// unit's result (its key) and the execution params, which do not.
func (t TrainerSpec) UnitParams() (key, execution trainers.Values, err error) {
	spec, err := trainers.SpecOf(t.Name)
	if err != nil {
		return nil, nil, err
	}
	all, err := t.resolved()
	if err != nil {
		return nil, nil, err
	}
	key, execution = trainers.Values{}, trainers.Values{}
	for k, x := range all {
		if p, _ := spec.Param(k); p.Execution {
			execution[k] = x
		} else {
			key[k] = x
		}
	}
	return key, execution, nil
}
