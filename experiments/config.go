package experiments

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/trainers"
)

// Config is an experiment: which data, which task, which trainers with which
// hyperparameter grids, and how to split the data.
type Config struct {
	Name     string        `yaml:"name"`
	Seed     uint64        `yaml:"seed"`
	Datasets []DatasetSpec `yaml:"datasets"`
	Tasks    []string      `yaml:"tasks"`
	Splits   SplitSpec     `yaml:"splits"`
	Features FeatureSpec   `yaml:"features"`
	Trainers []TrainerSpec `yaml:"trainers"`
	// Compare lists trainer pairs for paired t-tests, e.g. [poslearn, margin].
	Compare [][]string `yaml:"compare"`
	// Figures lists the plots to draw (x: training fraction or β).
	Figures []FigureSpec `yaml:"figures"`
	// Paper, if present, holds the numbers the reproduced paper reports,
	// which every report then shows beside ours.
	Paper *PaperSpec `yaml:"paper"`

	file string // where the config was read from, for messages
	root *yaml.Node
}

// DatasetSpec names a dataset; "synthetic" takes generator settings.
type DatasetSpec struct {
	Name      string         `yaml:"name"`
	Synthetic *SyntheticSpec `yaml:"synthetic"`
}

// SyntheticSpec overrides the built-in generator's defaults (zero = default).
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
// choosing hyperparameters.
type SplitSpec struct {
	Kind               string    `yaml:"kind"`
	Count              int       `yaml:"count"`
	TrainFractions     []float64 `yaml:"train_fractions"`
	ValidationFraction float64   `yaml:"validation_fraction"`
}

// FeatureSpec selects the feature templates: "citation" (the default; token
// text, see package features) or "pixels" (binary letter images, with
// Degree 2 adding all pixel pairs: the degree-2 polynomial kernel's map).
type FeatureSpec struct {
	Kind    string `yaml:"kind"`
	Degree  int    `yaml:"degree"`
	Window  *int   `yaml:"window"`
	Affixes *int   `yaml:"affixes"`
	Edges   *bool  `yaml:"edges"`
}

// Feature kinds.
const (
	FeaturesCitation = "citation"
	FeaturesPixels   = "pixels"
)

// Split kinds: random train/test splits, or the dataset's own folds (train
// on fold k, test on all others, as in the OCR experiments).
const (
	SplitRandom = "random"
	SplitFold   = "fold"
)

// TrainerSpec is one trainer and its hyperparameter grid.
type TrainerSpec struct {
	Name string `yaml:"name"`
	// Label names the entry in tables, figures and comparisons; it is
	// needed when one trainer appears more than once (e.g. entropy-margin at
	// several β) and defaults to Name. It is not part of the unit key, so
	// relabelling an entry reuses its cached units.
	Label string `yaml:"label"`
	// C is the grid of regularisation trade-offs; one value means no search.
	C             []float64 `yaml:"C"`
	Epsilon       float64   `yaml:"epsilon"`
	QPTolerance   float64   `yaml:"qp_tolerance"`
	MaxIterations int       `yaml:"max_iterations"`
	// Online trainers (perceptron, mira, subgradient).
	Epochs  int   `yaml:"epochs"`
	K       int   `yaml:"k"`       // MIRA's k best labelings
	Average *bool `yaml:"average"` // default: on for perceptron and mira
	// Log-linear trainers (crf, entropy-margin).
	Beta      float64  `yaml:"beta"`       // inverse temperature; crf: 1
	LossScale *float64 `yaml:"loss_scale"` // weight of Δ; crf: 0, entropy-margin: 1
	Rescaling string   `yaml:"rescaling"`  // margin (default) or slack
}

// FigureSpec declares one figure: a metric of one dataset and task against
// the training fraction (one line per trainer) or against β (one point per
// trainer entry with a beta, one line per method).
type FigureSpec struct {
	Name     string `yaml:"name"`     // file stem, e.g. figure1
	Dataset  string `yaml:"dataset"`  // default: the first dataset
	Task     string `yaml:"task"`     // default: every task, one file per task (NAME-TASK) when there are several
	X        string `yaml:"x"`        // train_fraction (default) | beta
	Y        string `yaml:"y"`        // token_error | span_f1 | segment_error | train_seconds (CPU if every run has it) | cpu_seconds
	Baseline string `yaml:"baseline"` // optional trainer subtracted split by split
	Title    string `yaml:"title"`
}

// PaperSpec is what a paper reports for this experiment: where the numbers
// come from and the numbers themselves.
type PaperSpec struct {
	Source string           `yaml:"source"` // e.g. "Sarawagi & Gupta (ICML 2008), Table 1"; required
	Note   string           `yaml:"note"`   // how values were read or converted; optional
	Values []PaperValueSpec `yaml:"values"`
}

// PaperValueSpec is one published result. Dataset, task and trainer must
// be among the config's (the trainer by its display name, see
// [TrainerSpec.Display]), so that a typo is caught here rather than shown
// as a value we never ran. The metrics are pointers because a paper that
// does not report one is not reporting 0.
type PaperValueSpec struct {
	Dataset    string   `yaml:"dataset"`
	Task       string   `yaml:"task"`
	Trainer    string   `yaml:"trainer"`
	TokenError *float64 `yaml:"token_error"` // percent
	SpanF1     *float64 `yaml:"span_f1"`     // percent
	// SegmentError is the section 4.3.2 segment error (percent), compared
	// with ours only (report.PaperValue.SegmentError).
	SegmentError *float64 `yaml:"segment_error"`
}

// Display returns the name the entry goes by in results: its label, or
// its trainer name.
func (t TrainerSpec) Display() string {
	if t.Label != "" {
		return t.Label
	}
	return t.Name
}

// Canonical task names.
const (
	TaskSequence = "sequence"
)

// ConfigError is a problem in a config file, located by line and field.
type ConfigError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *ConfigError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, e.Field, e.Msg)
	}
	return fmt.Sprintf("%s: %s", loc, e.Msg)
}

// LoadConfig reads and validates a config file.
func LoadConfig(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return ParseConfig(data, path)
}

// ParseConfig decodes and validates a config; file names it in errors and,
// when the config has no name, gives it one (the file's base name).
func ParseConfig(data []byte, file string) (*Config, error) {
	var root yaml.Node
	dec := yaml.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&root); err != nil {
		return nil, &ConfigError{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	}
	if err := checkKeys(&root, reflect.TypeFor[Config](), file, ""); err != nil {
		return nil, err
	}
	cfg := &Config{file: file, root: &root}
	if err := root.Decode(cfg); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) && len(te.Errors) > 0 {
			return nil, &ConfigError{File: file, Msg: strings.Join(te.Errors, "; ")}
		}
		return nil, &ConfigError{File: file, Msg: err.Error()}
	}
	if cfg.Name == "" {
		cfg.Name = strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	}
	cfg.applyDefaults()
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	return cfg, nil
}

// File returns the path the config was read from.
func (c *Config) File() string { return c.file }

func (c *Config) applyDefaults() {
	if c.Splits.Kind == "" {
		c.Splits.Kind = SplitRandom
	}
	if c.Features.Kind == "" {
		c.Features.Kind = FeaturesCitation
	}
	if c.Features.Kind == FeaturesPixels && c.Features.Degree == 0 {
		c.Features.Degree = 1
	}
	if c.Splits.Kind == SplitFold {
		// A fold split fixes its own training set; 0 marks "by fold".
		if len(c.Splits.TrainFractions) == 0 {
			c.Splits.TrainFractions = []float64{0}
		}
	}
	if c.Splits.Count == 0 {
		c.Splits.Count = 10
	}
	if len(c.Splits.TrainFractions) == 0 {
		c.Splits.TrainFractions = []float64{0.25}
	}
	if c.Splits.ValidationFraction == 0 {
		c.Splits.ValidationFraction = 0.25
	}
	if len(c.Tasks) == 0 {
		c.Tasks = []string{TaskSequence}
	}
}

func (c *Config) errorf(line int, field, format string, args ...any) error {
	return &ConfigError{File: c.file, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (c *Config) validate() error {
	if len(c.Datasets) == 0 {
		return c.errorf(c.line("datasets"), "datasets", "at least one dataset is required")
	}
	for i, d := range c.Datasets {
		if !slices.Contains(KnownDatasets(), d.Name) {
			return c.errorf(c.line("datasets", i, "name"), "datasets.name", "unknown dataset %q%s (known: %s)", d.Name, suggest(d.Name, KnownDatasets()), strings.Join(KnownDatasets(), ", "))
		}
		if d.Synthetic != nil && d.Name != "synthetic" {
			return c.errorf(c.line("datasets", i, "synthetic"), "datasets.synthetic", "generator settings are only for the synthetic dataset, not %q", d.Name)
		}
	}
	for i, t := range c.Tasks {
		if !slices.Contains(KnownTasks(), t) {
			return c.errorf(c.line("tasks", i), "tasks", "unknown task %q%s (known: %s)", t, suggest(t, KnownTasks()), strings.Join(KnownTasks(), ", "))
		}
	}
	s := c.Splits
	switch {
	case s.Kind != SplitRandom && s.Kind != SplitFold:
		return c.errorf(c.line("splits", "kind"), "splits.kind", "unknown split kind %q (known: %s, %s)", s.Kind, SplitRandom, SplitFold)
	case s.Kind == SplitFold && (len(s.TrainFractions) != 1 || s.TrainFractions[0] != 0):
		return c.errorf(c.line("splits", "train_fractions"), "splits.train_fractions", "fold splits train on one fold; remove train_fractions")
	case s.Count < 1:
		return c.errorf(c.line("splits", "count"), "splits.count", "must be at least 1, got %d", s.Count)
	case !(s.ValidationFraction > 0 && s.ValidationFraction < 1):
		return c.errorf(c.line("splits", "validation_fraction"), "splits.validation_fraction", "must be in (0, 1), got %v", s.ValidationFraction)
	}
	for i, f := range s.TrainFractions {
		if s.Kind == SplitRandom && !(f > 0 && f < 1) {
			return c.errorf(c.line("splits", "train_fractions", i), "splits.train_fractions", "must be in (0, 1), got %v", f)
		}
	}
	switch f := c.Features; {
	case f.Kind != FeaturesCitation && f.Kind != FeaturesPixels:
		return c.errorf(c.line("features", "kind"), "features.kind", "unknown feature kind %q (known: %s, %s)", f.Kind, FeaturesCitation, FeaturesPixels)
	case f.Kind == FeaturesPixels && f.Degree != 1 && f.Degree != 2:
		return c.errorf(c.line("features", "degree"), "features.degree", "pixel features have degree 1 or 2, got %d", f.Degree)
	case f.Kind == FeaturesCitation && f.Degree != 0:
		return c.errorf(c.line("features", "degree"), "features.degree", "degree applies to pixel features only")
	}
	if w := c.Features.Window; w != nil && (*w < 0 || *w > 5) {
		return c.errorf(c.line("features", "window"), "features.window", "must be in [0, 5], got %d", *w)
	}
	if a := c.Features.Affixes; a != nil && (*a < 0 || *a > 10) {
		return c.errorf(c.line("features", "affixes"), "features.affixes", "must be in [0, 10], got %d", *a)
	}
	if len(c.Trainers) == 0 {
		return c.errorf(c.line("trainers"), "trainers", "at least one trainer is required")
	}
	seen := map[string]bool{}
	for i, t := range c.Trainers {
		if !slices.Contains(KnownTrainers(), t.Name) {
			return c.errorf(c.line("trainers", i, "name"), "trainers.name", "unknown trainer %q%s (known: %s)", t.Name, suggest(t.Name, KnownTrainers()), strings.Join(KnownTrainers(), ", "))
		}
		if t.Label != "" && (strings.TrimSpace(t.Label) != t.Label || strings.ContainsAny(t.Label, "\n\t|")) {
			return c.errorf(c.line("trainers", i, "label"), "trainers.label", "label %q has surrounding spaces, a tab, a newline or '|'", t.Label)
		}
		if seen[t.Display()] {
			if t.Label == "" {
				return c.errorf(c.line("trainers", i, "name"), "trainers.name", "trainer %q listed twice; give each entry a distinct label", t.Name)
			}
			return c.errorf(c.line("trainers", i, "label"), "trainers.label", "label %q used twice", t.Label)
		}
		seen[t.Display()] = true
		switch {
		case t.Name == trainers.PerceptronName && len(t.C) > 0:
			return c.errorf(c.line("trainers", i, "C"), "trainers.C", "the perceptron has no C; remove the grid")
		case len(t.C) == 0 && t.Name != trainers.PerceptronName && t.Name != trainers.MIRAName:
			return c.errorf(c.line("trainers", i, "C"), "trainers.C", "trainer %q needs a non-empty grid of C values", t.Name)
		case t.Name == trainers.EntropyMarginName && !(t.Beta > 0):
			return c.errorf(c.line("trainers", i), "trainers.beta", "entropy-margin needs beta > 0 (the inverse temperature)")
		case t.Name == trainers.CRFName && (t.Beta != 0 || t.LossScale != nil || t.Rescaling != ""):
			return c.errorf(c.line("trainers", i), "trainers", "crf is entropy-margin with beta 1 and no loss term; use entropy-margin to set beta, loss_scale or rescaling")
		case t.Rescaling != "" && t.Rescaling != trainers.Margin && t.Rescaling != trainers.Slack:
			return c.errorf(c.line("trainers", i, "rescaling"), "trainers.rescaling", "must be margin or slack, got %q", t.Rescaling)
		case t.Epochs < 0 || t.K < 0 || t.Beta < 0:
			return c.errorf(c.line("trainers", i), "trainers", "epochs, k and beta must not be negative")
		}
		for j, v := range t.C {
			if !(v > 0) || v > 1e12 {
				return c.errorf(c.line("trainers", i, "C", j), "trainers.C", "C must be positive and finite, got %v", v)
			}
		}
		if t.Epsilon < 0 || t.QPTolerance < 0 || t.MaxIterations < 0 {
			return c.errorf(c.line("trainers", i), "trainers", "epsilon, qp_tolerance and max_iterations must not be negative")
		}
	}
	for i := range c.Figures {
		f := &c.Figures[i]
		if f.Dataset == "" {
			f.Dataset = c.Datasets[0].Name
		}
		if f.Task == "" && len(c.Tasks) == 1 {
			f.Task = c.Tasks[0] // else every task: report.ExpandFigures
		}
		if f.X == "" {
			f.X = report.XTrainFraction
		}
		if err := f.reportSpec().Validate(); err != nil {
			return c.errorf(c.line("figures", i), "figures", "%v", err)
		}
		if f.Baseline != "" && !seen[f.Baseline] {
			return c.errorf(c.line("figures", i, "baseline"), "figures.baseline", "trainer %q is not among the config's trainers%s", f.Baseline, suggest(f.Baseline, trainerNames(c.Trainers)))
		}
	}
	for i, pair := range c.Compare {
		if len(pair) != 2 {
			return c.errorf(c.line("compare", i), "compare", "each comparison is a pair of trainers, got %v", pair)
		}
		for _, name := range pair {
			if !seen[name] {
				return c.errorf(c.line("compare", i), "compare", "trainer %q is not among the config's trainers%s", name, suggest(name, trainerNames(c.Trainers)))
			}
		}
	}
	if c.Paper != nil {
		return c.validatePaper()
	}
	return nil
}

// validatePaper checks the paper block. The report package checks the
// same rules again when it reads report.json; here each error points at
// the line and field to fix, and names must also be the config's own.
func (c *Config) validatePaper() error {
	p := c.Paper
	if strings.TrimSpace(p.Source) == "" {
		return c.errorf(c.line("paper", "source"), "paper.source", "required: name the paper and table the values come from")
	}
	if len(p.Values) == 0 {
		return c.errorf(c.line("paper", "values"), "paper.values", "at least one value is required")
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
			line, field := c.line("paper", "values", i, n.key), "paper.values."+n.key
			switch name := n.value(v); {
			case name == "":
				return c.errorf(line, field, "required; one of the config's %ss: %s", n.key, strings.Join(n.known, ", "))
			case !slices.Contains(n.known, name):
				return c.errorf(line, field, "%s %q is not among the config's %ss%s", n.key, name, n.key, suggest(name, n.known))
			}
		}
		if v.TokenError == nil && v.SpanF1 == nil && v.SegmentError == nil {
			return c.errorf(c.line("paper", "values", i), "paper.values", "give token_error, segment_error, span_f1 or several")
		}
		for _, m := range []struct {
			key string
			x   *float64
		}{{"token_error", v.TokenError}, {"segment_error", v.SegmentError}, {"span_f1", v.SpanF1}} {
			if m.x != nil && !(*m.x >= 0 && *m.x <= 100) {
				return c.errorf(c.line("paper", "values", i, m.key), "paper.values."+m.key, "must be a percentage in [0, 100], got %v", *m.x)
			}
		}
		for j, w := range p.Values[:i] {
			if w.Dataset == v.Dataset && w.Task == v.Task && w.Trainer == v.Trainer {
				return c.errorf(c.line("paper", "values", i), "paper.values", "%s/%s %s listed twice (first at line %d)", v.Dataset, v.Task, v.Trainer, c.line("paper", "values", j))
			}
		}
	}
	return nil
}

func (f FigureSpec) reportSpec() report.FigureSpec {
	return report.FigureSpec{Name: f.Name, Dataset: f.Dataset, Task: f.Task, X: f.X, Y: f.Y, Baseline: f.Baseline, Title: f.Title}
}

// ReportSpec is what the report package needs to render this experiment's
// results without the config: trainer order, t-tests, figures and the
// paper's numbers.
func (c *Config) ReportSpec() report.Spec {
	s := report.Spec{Title: c.Name, Trainers: trainerNames(c.Trainers)}
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

// reportReference copies p, metrics included, so that the spec shares no
// memory with the config.
func (p *PaperSpec) reportReference() *report.PaperReference {
	clone := func(x *float64) *float64 {
		if x == nil {
			return nil
		}
		v := *x
		return &v
	}
	ref := &report.PaperReference{Source: p.Source, Note: p.Note}
	for _, v := range p.Values {
		ref.Values = append(ref.Values, report.PaperValue{
			Dataset: v.Dataset, Task: v.Task, Trainer: v.Trainer,
			TokenError: clone(v.TokenError), SpanF1: clone(v.SpanF1), SegmentError: clone(v.SegmentError),
		})
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

// line returns the line of the YAML node at path (string elements are
// mapping keys, int elements list indices), or of its deepest existing
// ancestor, so an error points at the offending key whenever it is written.
func (c *Config) line(path ...any) int {
	n := c.root
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	line := 0
	for _, p := range path {
		if n == nil {
			break
		}
		var next *yaml.Node
		switch p := p.(type) {
		case string:
			if n.Kind == yaml.MappingNode {
				for i := 0; i+1 < len(n.Content); i += 2 {
					if n.Content[i].Value == p {
						line, next = n.Content[i].Line, n.Content[i+1]
					}
				}
			}
		case int:
			if n.Kind == yaml.SequenceNode && p < len(n.Content) {
				next = n.Content[p]
				line = next.Line
			}
		}
		n = next
	}
	return line
}

// checkKeys walks the YAML tree beside the Go type it decodes into and
// rejects keys the type does not have, suggesting the nearest valid one. (The
// decoder's own KnownFields check names neither the file nor a fix.)
func checkKeys(n *yaml.Node, t reflect.Type, file, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch n.Kind {
	case yaml.DocumentNode:
		for _, c := range n.Content {
			if err := checkKeys(c, t, file, path); err != nil {
				return err
			}
		}
	case yaml.MappingNode:
		switch t.Kind() {
		case reflect.Struct:
			fields := yamlFields(t)
			var names []string
			for name := range fields {
				names = append(names, name)
			}
			slices.Sort(names)
			for i := 0; i+1 < len(n.Content); i += 2 {
				k := n.Content[i]
				ft, ok := fields[k.Value]
				if !ok {
					return &ConfigError{File: file, Line: k.Line, Field: joinPath(path, k.Value),
						Msg: fmt.Sprintf("unknown key%s (valid keys here: %s)", suggest(k.Value, names), strings.Join(names, ", "))}
				}
				if err := checkKeys(n.Content[i+1], ft, file, joinPath(path, k.Value)); err != nil {
					return err
				}
			}
		case reflect.Map:
			for i := 0; i+1 < len(n.Content); i += 2 {
				if err := checkKeys(n.Content[i+1], t.Elem(), file, joinPath(path, n.Content[i].Value)); err != nil {
					return err
				}
			}
		default:
			return &ConfigError{File: file, Line: n.Line, Field: path, Msg: fmt.Sprintf("expected %s, found a mapping", kindName(t))}
		}
	case yaml.SequenceNode:
		if t.Kind() != reflect.Slice {
			return &ConfigError{File: file, Line: n.Line, Field: path, Msg: fmt.Sprintf("expected %s, found a list", kindName(t))}
		}
		for _, c := range n.Content {
			if err := checkKeys(c, t.Elem(), file, path); err != nil {
				return err
			}
		}
	case yaml.ScalarNode:
		if k := t.Kind(); k == reflect.Struct || k == reflect.Slice || k == reflect.Map {
			if n.Tag == "!!null" {
				return nil
			}
			return &ConfigError{File: file, Line: n.Line, Field: path, Msg: fmt.Sprintf("expected %s, found %q", kindName(t), n.Value)}
		}
	}
	return nil
}

func kindName(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice:
		return "a list"
	}
	return "a " + t.Kind().String()
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func yamlFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = strings.ToLower(f.Name)
		}
		out[name] = f.Type
	}
	return out
}

// suggest returns ` (did you mean "x"?)` for the closest candidate within a
// small edit distance, or "".
func suggest(got string, candidates []string) string {
	best, bestD := "", 3
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(got), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	if best == "" {
		return ""
	}
	return fmt.Sprintf(" (did you mean %q?)", best)
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
