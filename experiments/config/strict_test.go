package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// strictBase has one trainer of each kind whose settings the cases below
// edit; line numbers in the cases refer to it.
const strictBase = `name: strict
seed: 3
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3}
tasks: [sequence]
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 1]
  - name: perceptron
    epochs: 5
  - name: mira
    k: 3
  - name: entropy-margin
    beta: 10
    C: [1]
figures:
  - {name: f1, y: token_error}
compare:
  - [margin, mira]
`

// An explicit invalid value is an error at its file, line and field, never
// a silent default; so are types that do not fit, names that refer to
// nothing, and settings that would be ignored. Each case must fail before
// any training, inside Parse.
func TestParseConfigStrict(t *testing.T) {
	t.Parallel()
	if _, err := Parse([]byte(strictBase), "s.yaml"); err != nil {
		t.Fatalf("base config rejected: %v", err)
	}
	tests := []struct {
		name, old, new string
		want           string // the whole message, or its start
	}{
		{"count 0", "  count: 2", "  count: 0", "s.yaml:8: splits.count: must be at least 1, got 0"},
		{"count negative", "  count: 2", "  count: -3", "s.yaml:8: splits.count: must be at least 1, got -3"},
		{"validation fraction 0", "  count: 2", "  count: 2\n  validation_fraction: 0", "s.yaml:9: splits.validation_fraction: must be in (0, 1), got 0"},
		{"no training fractions", "[0.5]", "[]", "s.yaml:9: splits.train_fractions: at least one training fraction is required"},
		{"fraction twice", "[0.5]", "[0.5, 0.5]", "s.yaml:9: splits.train_fractions[1]: 0.5 listed twice"},
		{"no tasks", "tasks: [sequence]", "tasks: []", "s.yaml:6: tasks: at least one task is required"},
		{"task twice", "tasks: [sequence]", "tasks: [sequence, sequence]", "s.yaml:6: tasks[1]: task \"sequence\" listed twice (first at line 6)"},
		{"non-integer seed", "seed: 3", "seed: 1.5", "s.yaml:2: seed: cannot use 1.5 as a non-negative integer"},
		{"negative seed", "seed: 3", "seed: -1", "s.yaml:2: seed: cannot use -1 as a non-negative integer"},
		{"string for an integer", "    epochs: 5", "    epochs: three", `s.yaml:14: trainers[1].epochs: cannot use "three" as an integer`},
		{"quoted number", "    epochs: 5", `    epochs: "5"`, `s.yaml:14: trainers[1].epochs: cannot use "5" as an integer`},
		{"list for a number", "    beta: 10", "    beta: [10]", "s.yaml:18: trainers[3].beta: expected a number, found a list"},
		{"no value", "    epochs: 5", "    epochs:", "s.yaml:14: trainers[1].epochs: has no value; remove the key to use the default"},
		{"epochs 0", "    epochs: 5", "    epochs: 0", "s.yaml:14: trainers[1].epochs: must not be 0 (omit it for the default, 10)"},
		{"k 0", "    k: 3", "    k: 0", "s.yaml:16: trainers[2].k: must not be 0 (omit it for the default, 5)"},
		{"k negative", "    k: 3", "    k: -2", "s.yaml:16: trainers[2].k: must be at least 1, got -2"},
		{"empty C", "    C: [0.1, 1]", "    C: []", "s.yaml:12: trainers[0].C: trainer \"margin\" needs a non-empty grid"},
		{"empty C for MIRA", "    k: 3", "    k: 3\n    C: []", "s.yaml:17: trainers[2].C: empty grid; omit C for mira's default (bounds each instance's duals Σ_j α_j ≤ C (per instance; absent: hard constraints))"},
		{"C twice", "    C: [0.1, 1]", "    C: [1, 1]", "s.yaml:12: trainers[0].C[1]: C = 1 listed twice"},
		{"negative C", "    C: [0.1, 1]", "    C: [0.1, -1]", "s.yaml:12: trainers[0].C[1]: must be in (0, 1e+12], got -1"},
		{"epsilon 0", "    C: [0.1, 1]", "    C: [0.1, 1]\n    epsilon: 0", "s.yaml:13: trainers[0].epsilon: must not be 0 (omit it for the default, 0.01)"},
		{"max_iterations 0", "    C: [0.1, 1]", "    C: [0.1, 1]\n    max_iterations: 0", "s.yaml:13: trainers[0].max_iterations: must not be 0 (omit it for the default, 500)"},
		{"qp_tolerance 1", "    C: [0.1, 1]", "    C: [0.1, 1]\n    qp_tolerance: 1", "s.yaml:13: trainers[0].qp_tolerance: must be in [0, 1), got 1"},
		{"drop_idle negative", "    C: [0.1, 1]", "    C: [0.1, 1]\n    drop_idle: -1", "s.yaml:13: trainers[0].drop_idle: must be non-negative, got -1"},
		{"drop_idle with one-slack", "    C: [0.1, 1]", "    C: [0.1, 1]\n    solver: one-slack\n    drop_idle: 20", "s.yaml:14: trainers[0].drop_idle: dropping idle constraints is an n-slack option: one-slack drops its inactive joint constraints by itself"},
		{"beta 0", "    beta: 10", "    beta: 0", "s.yaml:18: trainers[3].beta: must be positive, got 0"},
		{"negative loss scale", "    beta: 10", "    beta: 10\n    loss_scale: -1", "s.yaml:19: trainers[3].loss_scale: must be non-negative, got -1"},
		{"epochs on margin", "    C: [0.1, 1]", "    C: [0.1, 1]\n    epochs: 3", `s.yaml:13: trainers[0].epochs: does not apply to trainer "margin" (only to perceptron, mira, subgradient, passive-aggressive)`},
		{"beta on margin", "    C: [0.1, 1]", "    C: [0.1, 1]\n    beta: 3", `s.yaml:13: trainers[0].beta: does not apply to trainer "margin" (only to entropy-margin, latent-lbeta)`},
		{"key twice", "    epochs: 5", "    epochs: 5\n    epochs: 6", "s.yaml:15: trainers[1].epochs: given twice (first at line 14)"},
		{"empty name", "name: strict", `name: ""`, "s.yaml:1: name: must not be empty"},
		{"name with a slash", "name: strict", "name: ../other", `s.yaml:1: name: "../other" starts with '.'`},
		{"window 0 ok, -1 not", "splits:", "features: {window: -1}\nsplits:", "s.yaml:7: features.window: must be in [0, 5], got -1"},
		{"degree 3 on citation", "splits:", "features: {degree: 3}\nsplits:", "s.yaml:7: features.degree: citation features have degree 1 or 2, got 3"},
		{"pixels on synthetic data", "splits:", "features: {kind: pixels}\nsplits:", `s.yaml:4: datasets[0].name: features.kind pixels needs letter images (ocr), not "synthetic"`},
		{"dataset twice", "datasets:\n", "datasets:\n  - name: cora\n  - name: cora\n", `s.yaml:5: datasets[1].name: dataset "cora" listed twice (first at line 4)`},
		{"compare with itself", "[margin, mira]", "[margin, margin]", `s.yaml:23: compare[0]: compares "margin" with itself`},
		{"compare unknown", "[margin, mira]", "[margin, crf]", `s.yaml:23: compare[0][1]: trainer "crf" is not among the config's trainers`},
		{"compare with one split", "  count: 2", "  count: 1", "s.yaml:22: compare: a paired t-test needs at least 2 splits, and splits.count is 1 (fixed splits"},
		{"compare twice", "  - [margin, mira]", "  - [margin, mira]\n  - [mira, margin]", "s.yaml:24: compare[1]: mira vs margin already compared (line 23)"},
		{"two figures one name", "  - {name: f1, y: token_error}", "  - {name: f1, y: token_error}\n  - {name: f1, y: span_f1}", `s.yaml:22: figures[1].name: two figures named "f1" (first at line 21)`},
		{"figure on another task", "{name: f1, y: token_error}", "{name: f1, task: segmentation, y: token_error}", `s.yaml:21: figures[0].task: task "segmentation" is not among the config's tasks`},
		{"figure on another dataset", "{name: f1, y: token_error}", "{name: f1, dataset: cora, y: token_error}", `s.yaml:21: figures[0].dataset: dataset "cora" is not among the config's datasets`},
		{"beta figure without beta", "  - name: entropy-margin\n    beta: 10\n    C: [1]\n", "", `s.yaml:18: figures[0].x: figure "f1" plots by beta, but no trainer with a beta`},
		{"beta figure with two fractions", "[0.5]", "[0.25, 0.5]", `s.yaml:21: figures[0].x: figure "f1" plots by beta, which needs one training fraction`},
		{"curve figure without curves", "{name: f1, y: token_error}", "{name: f1, x: cpu_seconds, y: accuracy}", "s.yaml:21: figures[0].x: x cpu_seconds draws learning curves, which test units record only with curves: true"},
		{"curve figure of a time", "figures:\n  - {name: f1, y: token_error}", "curves: true\nfigures:\n  - {name: f1, x: cpu_seconds, y: cpu_seconds}", "s.yaml:22: figures[0].y: x cpu_seconds draws learning curves, whose y is"},
		{"curve figure with a baseline", "figures:\n  - {name: f1, y: token_error}", "curves: true\nfigures:\n  - {name: f1, x: cpu_seconds, y: span_f1, baseline: margin}", "s.yaml:22: figures[0].baseline: x cpu_seconds draws learning curves, which take no baseline"},
		{"curve figure with two fractions", "[0.5]", "[0.25, 0.5]", `s.yaml:22: figures[0].x: figure "f1" draws learning curves, which need one training fraction; splits.train_fractions has 2`},
		{"log_x by fraction", "{name: f1, y: token_error}", "{name: f1, y: token_error, log_x: true}", "s.yaml:21: figures[0].log_x: log_x is for x: cpu_seconds (x: train_fraction has its own axis)"},
		{"curves not a bool", "seed: 3", "seed: 3\ncurves: 1", "s.yaml:3: curves: "},
		// Without the loss (loss_scale 0) ℓβ is a line of its own: one such
		// point beside ℓβ's at beta 10 is fine, a second is not.
		{"beta figure: no loss is a line of its own", "    C: [1]\n", "    C: [1]\n  - {name: entropy-margin, label: b, beta: 10, loss_scale: 0, C: [1]}\n  - {name: entropy-margin, label: c, beta: 10, loss_scale: 0, C: [1]}\n", `s.yaml:21: trainers[5].beta: figure "f1" (x: beta) would plot two entropy-margin without Δ points at beta 10`},
		{"beta figure with a point twice", "    C: [1]\n", "    C: [1]\n  - {name: entropy-margin, label: b, beta: 10, C: [1]}\n", `s.yaml:20: trainers[4].beta: figure "f1" (x: beta) would plot two entropy-margin points at beta 10`},
		// Slack rescaling and MPM prediction are lines of their own too.
		{"beta figure: slack is a line of its own", "    C: [1]\n", "    C: [1]\n  - {name: entropy-margin, label: b, beta: 10, rescaling: slack, C: [1]}\n  - {name: entropy-margin, label: c, beta: 10, rescaling: slack, C: [1]}\n", `s.yaml:21: trainers[5].beta: figure "f1" (x: beta) would plot two entropy-margin (rescaling=slack) points at beta 10`},
		{"beta figure: MPM is a line of its own", "    C: [1]\n", "    C: [1]\n  - {name: entropy-margin, label: b, beta: 10, predict: mpm, C: [1]}\n  - {name: entropy-margin, label: c, beta: 10, predict: mpm, C: [1]}\n", `s.yaml:21: trainers[5].beta: figure "f1" (x: beta) would plot two entropy-margin (predict=mpm) points at beta 10`},
		{"figure trainer unknown", "{name: f1, y: token_error}", "{name: f1, y: token_error, trainers: [nobody]}", `s.yaml:21: figures[0].trainers[0]: trainer "nobody" is not among the config's trainers`},
		{"figure trainer is the baseline", "{name: f1, y: token_error}", "{name: f1, y: token_error, baseline: mira, trainers: [mira]}", `s.yaml:21: figures[0].trainers[0]: trainer "mira" is the figure's baseline`},
		{"figure trainer twice", "{name: f1, y: token_error}", "{name: f1, y: token_error, trainers: [mira, mira]}", `s.yaml:21: figures[0].trainers[1]: trainer "mira" listed twice`},
		{"baseline that cannot run the task", "{name: f1, y: token_error}", "{name: f1, y: token_error, baseline: nobody}", `s.yaml:21: figures[0].baseline: trainer "nobody" is not among the config's trainers`},
		{"fold without folds", "  count: 2\n  train_fractions: [0.5]", "  kind: fold\n  count: 2", `s.yaml:4: datasets[0].name: splits.kind fold needs a dataset with folds (ocr), not "synthetic"`},
		{"synthetic labels 1", "labels: 3", "labels: 1", "s.yaml:5: datasets[0].synthetic.labels: must be at least 2, got 1"},
		{"synthetic sequences 0", "sequences: 40", "sequences: 0", "s.yaml:5: datasets[0].synthetic.sequences: must be at least 1, got 0"},
		{"synthetic max below min", "labels: 3", "labels: 3, min_len: 5, max_len: 4", "s.yaml:5: datasets[0].synthetic.max_len: 4 is below min_len 5"},
		{"synthetic noise NaN", "labels: 3", "labels: 3, noise: .nan", "s.yaml:5: datasets[0].synthetic.noise: must be a probability in [0, 1], got NaN"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			text := strictBase
			if tt.name == "beta figure without beta" || tt.name == "beta figure with two fractions" || tt.name == "beta figure with a point twice" ||
				strings.HasPrefix(tt.name, "beta figure: ") {
				text = strings.Replace(text, "{name: f1, y: token_error}", "{name: f1, x: beta, y: token_error}", 1)
			}
			if tt.name == "curve figure with two fractions" {
				text = strings.Replace(text, "figures:\n  - {name: f1, y: token_error}", "curves: true\nfigures:\n  - {name: f1, x: cpu_seconds, y: span_f1}", 1)
			}
			bad := strings.Replace(text, tt.old, tt.new, 1)
			if bad == text {
				t.Fatalf("replacement %q not found", tt.old)
			}
			_, err := Parse([]byte(bad), "s.yaml")
			if err == nil {
				t.Fatalf("accepted:\n%s", bad)
			}
			if !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n  %v\nwant it to start with\n  %s", err, tt.want)
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *Error", err)
			}
		})
	}
}

// Unset settings take their defaults; explicit ones keep their value even
// where it equals the zero value (noise: 0 is a noiseless generator).
func TestParseConfigZeroIsNotUnset(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte("datasets: [{name: synthetic, synthetic: {noise: 0, stay: 0}}]\ntrainers: [{name: perceptron}]\n"), "z.yaml")
	if err != nil {
		t.Fatal(err)
	}
	g := cfg.Datasets[0].Synthetic.Generator()
	if g.Noise != 0 || g.Stay != 0 || g.Labels != 5 || g.Sequences != 200 {
		t.Errorf("generator %+v, want noise 0, stay 0 and the default counts", g)
	}
	if s := cfg.Splits; s.Count != 10 || s.ValidationFraction != 0.25 || !reflect.DeepEqual(s.TrainFractions, []float64{0.25}) {
		t.Errorf("splits %+v, want the defaults", s)
	}
	if !reflect.DeepEqual(cfg.Tasks, []string{TaskSequence}) {
		t.Errorf("tasks %v, want [sequence]", cfg.Tasks)
	}
}

// YAML syntax errors carry the 1-based line of the construct at fault;
// yaml.v3 reports parser errors one line early.
func TestParseConfigSyntax(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"empty", "", "e.yaml: the config is empty"},
		{"only comments", "# nothing\n\n", "e.yaml: the config is empty"},
		{"null document", "~\n", "e.yaml: the config is empty"},
		{"a list", "- 1\n", "e.yaml:1: expected a mapping of settings"},
		{"unclosed list", "name: x\nseed: 1\ntrainers:\n  - name: margin\n    C: [0.1, 1\n  - name: poslearn\n", "e.yaml:5: syntax error: a list '[' opened on this line is not closed by ']'"},
		{"unclosed list on line 1", "tasks: [sequence\nseed: 1\n", "e.yaml:1: syntax error: a list '[' opened on this line is not closed"},
		{"unclosed mapping", "name: x\nsplits: {count: 1\nseed: 2\n", "e.yaml:2: syntax error: a mapping '{' opened on this line is not closed by '}'"},
		{"bad indentation", "name: x\n  seed: 2\n", "e.yaml:2: syntax error: mapping values are not allowed in this context"},
		{"two documents", "name: x\n---\nname: y\n", "e.yaml:2: a second YAML document"},
		{"alias cycle", "trainers: &a [*a]\n", "e.yaml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.text), "e.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error %v, want one starting %q", err, tt.want)
			}
		})
	}
}

// The crashing inputs of issue 14 are refused with an estimate, naming
// the setting to change.
func TestParseConfigSizeBounds(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, text, want string }{
		{"100000 labels", "datasets:\n  - name: synthetic\n    synthetic: {labels: 100000}\ntrainers: [{name: perceptron}]\n",
			"b.yaml:3: datasets[0].synthetic.labels: a unit on synthetic would need about "},
		{"10^8 splits", "datasets: [{name: synthetic}]\nsplits: {count: 100000000}\ntrainers: [{name: perceptron}]\n",
			"b.yaml:2: splits.count: the run would plan more than 100000 units"},
		{"10^6 splits", "datasets: [{name: synthetic}]\nsplits:\n  count: 1000000\ntrainers: [{name: perceptron}]\n",
			"b.yaml:3: splits.count: the run would plan more than 100000 units"},
		{"10^9 sequences", "datasets:\n  - name: synthetic\n    synthetic: {sequences: 1000000000}\ntrainers: [{name: perceptron}]\n",
			"b.yaml:3: datasets[0].synthetic.sequences: a unit on synthetic would need about "},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.text), "b.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Fatalf("error %v, want one starting %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), "at least") {
				t.Errorf("error %q has no time estimate", err)
			}
		})
	}
}

// Every committed config parses, stays well inside the bounds, and its
// effective form parses back to the same settings.
func TestCommittedConfigs(t *testing.T) {
	t.Parallel()
	paths, err := filepath.Glob("../../configs/*.yaml")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no configs: %v", err)
	}
	for _, path := range paths {
		cfg, err := Load(path)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		if e := cfg.Estimate(); e.Units > MaxUnits/10 || e.Units == 0 {
			t.Errorf("%s: %d units, want (0, %d]", path, e.Units, MaxUnits/10)
		}
		checkEffective(t, cfg)
	}
}

// checkEffective checks that cfg's effective config names its source and
// parses back to a config with the same effective form.
func checkEffective(t *testing.T, cfg *Config) {
	t.Helper()
	eff, err := cfg.Effective()
	if err != nil {
		t.Fatalf("%s: %v", cfg.File(), err)
	}
	if !strings.HasPrefix(string(eff), "# The effective config of "+cfg.File()) {
		t.Errorf("%s: effective config lacks the source header:\n%s", cfg.File(), eff)
	}
	again, err := Parse(eff, cfg.File())
	if err != nil {
		t.Fatalf("%s: the effective config does not parse: %v\n%s", cfg.File(), err, eff)
	}
	eff2, err := again.Effective()
	if err != nil {
		t.Fatal(err)
	}
	if string(eff) != string(eff2) {
		t.Errorf("%s: effective config is not a fixed point:\n%s\n---\n%s", cfg.File(), eff, eff2)
	}
}

// The effective config shows the defaults a run uses, not what was typed.
func TestEffective(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(strictBase), "configs/s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eff, err := cfg.Effective()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# The effective config of configs/s.yaml",
		"validation_fraction: 0.25",
		"window: 1", "affixes: 3", "edges: true",
		"solver: n-slack", "epsilon: 0.01", "max_iterations: 500", // margin (qp_tolerance unset: the true-gap rule)
		"epochs: 10", "k: 3", "average: true", // mira: k as typed, epochs by default
		"loss_scale: 1", "rescaling: margin", "max_iterations: 1000", // entropy-margin
		"noise: 0.3", "stay: 0.8", "min_len: 8", "max_len: 20", "vocab: 50",
		"x: train_fraction", "dataset: synthetic", "task: sequence",
	} {
		if !strings.Contains(string(eff), want) {
			t.Errorf("effective config lacks %q:\n%s", want, eff)
		}
	}
	checkEffective(t, cfg)
}

// The config example in docs/config.md is a valid config.
func TestConfigDocsExample(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/config.md")
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "## Example\n")
	if !ok {
		t.Fatal("docs/config.md has no Example section")
	}
	_, rest, ok = strings.Cut(rest, "```yaml\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("docs/config.md's Example section has no yaml block")
	}
	if _, err := Parse([]byte(example), "docs/config.md"); err != nil {
		t.Errorf("docs/config.md's config example: %v", err)
	}
}

// contourBase draws a contour over a complete 2 × 2 grid of entropy-margin
// entries, beside an LR entry without a beta; line numbers in the cases
// of TestParseContourFigure refer to it.
const contourBase = `name: contour
datasets:
  - name: blobs
tasks: [multiclass]
features: {kind: given}
splits: {count: 2}
trainers:
  - {name: entropy-margin, label: a, beta: 1, C: [0.1]}
  - {name: entropy-margin, label: b, beta: 1, C: [1]}
  - {name: entropy-margin, label: c, beta: 10, C: [0.1]}
  - {name: entropy-margin, label: d, beta: 10, C: [1]}
  - {name: crf, C: [1]}
figures:
  - {name: f3, x: beta, y: C, z: error_rate}
`

// A contour figure needs a complete grid of one method, each entry at one
// C; the config says which entry or point is wrong before any training.
func TestParseContourFigure(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(contourBase), "c.yaml")
	if err != nil {
		t.Fatalf("base config rejected: %v", err)
	}
	if f := c.ReportSpec().Figures[0]; f.Z != "error_rate" || f.X != "beta" || f.Y != "C" {
		t.Errorf("report figure %+v", f)
	}
	// A figure drawn without numbers: the paper block is its source and a
	// note, no values; without the note it is an error.
	figureOnly := contourBase + "paper: {source: \"Pletscher et al., Figure 3\", note: \"contours only\"}\n"
	if c, err := Parse([]byte(figureOnly), "c.yaml"); err != nil || c.ReportSpec().Paper == nil {
		t.Errorf("figure-only paper block: %v", err)
	}
	noNote := contourBase + "paper: {source: \"Pletscher et al., Figure 3\"}\n"
	if _, err := Parse([]byte(noNote), "c.yaml"); err == nil || !strings.Contains(err.Error(), "paper.values: at least one value is required, or") {
		t.Errorf("paper block without values or note: %v", err)
	}
	for _, tt := range []struct {
		name, old, new, want string
	}{
		{"missing point", "  - {name: entropy-margin, label: d, beta: 10, C: [1]}\n", "", `c.yaml:13: figures[0].z: figure "f3" draws a contour over beta and C, and no entry has beta 10 with C 1`},
		{"a C grid", "label: d, beta: 10, C: [1]", "label: d, beta: 10, C: [1, 2]", `c.yaml:11: trainers[3].C: figure "f3" draws a contour over beta and C: each entry with a beta needs one C`},
		{"two methods", "label: d, beta: 10, C: [1]", "label: d, beta: 10, loss_scale: 0, C: [1]", `c.yaml:11: trainers[3]: figure "f3" draws a contour of one method`},
		{"a point twice", "label: d, beta: 10, C: [1]", "label: d, beta: 10, C: [0.1]", `c.yaml:11: trainers[3]: figure "f3" would draw two points at beta 10, C 0.1 (entries at lines 10 and 11)`},
		{"one beta", "  - {name: entropy-margin, label: c, beta: 10, C: [0.1]}\n  - {name: entropy-margin, label: d, beta: 10, C: [1]}\n", "", `c.yaml:12: figures[0].z: figure "f3" draws a contour over beta and C, which needs entries at two or more betas`},
		{"y C without z", "y: C, z: error_rate", "y: C", `c.yaml:14: figures[0]: report: figure "f3": y "C" is the second axis of a contour figure: set z`},
		{"z by fraction", "x: beta, y: C", "y: C", `c.yaml:14: figures[0]: report: figure "f3": a contour (z "error_rate") is drawn over x "beta" and y "C"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(contourBase, tt.old, tt.new, 1)
			if bad == contourBase {
				t.Fatalf("replacement %q not found", tt.old)
			}
			_, err := Parse([]byte(bad), "c.yaml")
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error\n  %v\nwant it to start with\n  %s", err, tt.want)
			}
		})
	}
}

// A figure's trainers choose what it draws: two entries at one β are
// fine when it draws one of them, and the report spec carries the list.
func TestFigureTrainers(t *testing.T) {
	t.Parallel()
	text := strings.Replace(strictBase, "    C: [1]\n", "    C: [1]\n  - {name: entropy-margin, label: mpm, beta: 10, C: [1], predict: mpm}\n  - {name: entropy-margin, label: other, beta: 10, C: [1]}\n", 1)
	text = strings.Replace(text, "{name: f1, y: token_error}", "{name: f1, x: beta, y: token_error, trainers: [entropy-margin, mpm]}", 1)
	c, err := Parse([]byte(text), "s.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := c.ReportSpec().Figures[0].Trainers; !slices.Equal(got, []string{"entropy-margin", "mpm"}) {
		t.Errorf("report spec trainers %v", got)
	}
	bad := strings.Replace(text, "trainers: [entropy-margin, mpm]", "trainers: [entropy-margin, other]", 1)
	if _, err := Parse([]byte(bad), "s.yaml"); err == nil || !strings.Contains(err.Error(), "two entropy-margin points at beta 10") {
		t.Errorf("drawing both margin entries at beta 10: %v", err)
	}
}
