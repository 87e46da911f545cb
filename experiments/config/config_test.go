package config

import (
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
)

const validConfig = `name: t
seed: 3
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 1]
  - name: poslearn
    C: [1]
compare:
  - [poslearn, margin]
`

func TestParseConfigValid(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(validConfig), "valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Name != "t" || cfg.Splits.Count != 2 || cfg.Splits.ValidationFraction != 0.25 || len(cfg.Trainers) != 2 {
		t.Errorf("unexpected config %+v", cfg)
	}
	if cfg.Tasks[0] != TaskSequence || cfg.Datasets[0].Synthetic.Sequences != 40 {
		t.Errorf("defaults or nested values not applied: %+v", cfg)
	}
}

func TestParseConfigNameDefaultsToFile(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(strings.Replace(validConfig, "name: t\n", "", 1)), "configs/my-exp.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Name != "my-exp" {
		t.Errorf("name = %q, want my-exp", cfg.Name)
	}
}

// Each bad config must fail with the file, the line of the offending entry,
// the field, and (for misspellings) a suggestion.
func TestParseConfigErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		old     string // replaced in validConfig
		new     string
		wantAll []string
	}{
		{"unknown top-level key", "seed: 3", "seeds: 3", []string{"bad.yaml:2:", "seeds", `did you mean "seed"`}},
		{"unknown nested key", "  count: 2", "  cuont: 2", []string{"bad.yaml:7:", "splits.cuont", `did you mean "count"`}},
		{"unknown trainer key", "    C: [0.1, 1]", "    c: [0.1, 1]", []string{"bad.yaml:11:", "trainers[0].c", `did you mean "C"`}},
		{"wrong type", "seed: 3", "seed: three", []string{`bad.yaml:2: seed: cannot use "three" as a non-negative integer`}},
		{"list expected", "  train_fractions: [0.5]", "  train_fractions: {a: 1}", []string{"bad.yaml:8:", "train_fractions", "expected a list"}},
		{"unknown trainer", "  - name: margin", "  - name: margn", []string{"bad.yaml:10:", "trainers[0].name", `did you mean "margin"`}},
		{"unknown dataset", "  - name: synthetic", "  - name: coraa", []string{"bad.yaml:4:", "datasets[0].name", `did you mean "cora"`}},
		{"empty grid", "    C: [0.1, 1]", "    C: []", []string{"bad.yaml:11:", "trainers[0].C", "non-empty grid"}},
		{"non-positive C", "    C: [0.1, 1]", "    C: [0, 1]", []string{"bad.yaml:11:", "C[0]: must be in (0, 1e+12], got 0"}},
		{"train fraction outside (0,1)", "[0.5]", "[1.5]", []string{"bad.yaml:8:", "splits.train_fractions", "(0, 1)"}},
		{"validation fraction", "  count: 2", "  count: 2\n  validation_fraction: 1", []string{"splits.validation_fraction"}},
		{"unknown task", "splits:", "tasks: [sequense]\nsplits:", []string{"bad.yaml:6:", "tasks", `did you mean "sequence"`}},
		{"comparison of absent trainer", "[poslearn, margin]", "[poslearn, slack]", []string{"bad.yaml:15:", "compare", `"slack"`}},
		{"threads on an online trainer", "  - name: poslearn\n    C: [1]", "  - name: perceptron\n    threads: 2", []string{"bad.yaml:13:", "trainers[1].threads", `does not apply to trainer "perceptron"`}},
		{"zero threads", "    C: [0.1, 1]", "    C: [0.1, 1]\n    threads: 0", []string{"bad.yaml:12:", "trainers[0].threads", "must not be 0 (omit it for the default, 1)"}},
		{"negative threads", "    C: [0.1, 1]", "    C: [0.1, 1]\n    threads: -2", []string{"bad.yaml:12:", "trainers[0].threads", "at least 1"}},
		{"setting the new trainer lacks", "  - name: poslearn\n    C: [1]", "  - name: passive-aggressive\n    k: 3", []string{"bad.yaml:13:", "trainers[1].k", `does not apply to trainer "passive-aggressive"`}},
		{"passive-aggressive: empty grid", "  - name: poslearn\n    C: [1]", "  - name: passive-aggressive\n    C: []", []string{"bad.yaml:13:", "trainers[1].C", "empty grid; omit C for passive-aggressive's default"}},
		{"duplicate trainer", "  - name: poslearn", "  - name: margin", []string{"bad.yaml:12:", "listed twice", "distinct label"}},
		{"duplicate label", "  - name: poslearn", "  - name: poslearn\n    label: margin", []string{"bad.yaml:13:", "trainers[1].label", `label "margin" used twice (first at line 10)`}},
		{"label with a bar", "  - name: poslearn", "  - name: poslearn\n    label: \"a|b\"", []string{"bad.yaml:13:", "trainers[1].label"}},
		{"figure baseline unknown", "compare:", "figures:\n  - {name: f, y: token_error, baseline: margn}\ncompare:", []string{"bad.yaml:15:", "figures[0].baseline", `did you mean "margin"`}},
		{"figure x unknown", "compare:", "figures:\n  - {name: f, x: C, y: token_error}\ncompare:", []string{"bad.yaml:15:", `unknown x "C"`}},
		{"synthetic settings on cora", "  - name: synthetic", "  - name: cora", []string{"only for the synthetic dataset"}},
		{"not YAML", "seed: 3", "seed: [3", []string{"bad.yaml"}},
		{"x dataset without datasets", "compare:", "figures:\n  - {name: f, x: dataset, y: token_error}\ncompare:", []string{"bad.yaml:15:", "figures[0]", "at least two"}},
		{"x dataset unknown dataset", "compare:", "figures:\n  - {name: f, x: dataset, y: token_error, datasets: [synthetic, synthetik]}\ncompare:", []string{"bad.yaml:15:", "figures[0].datasets[1]", `did you mean "synthetic"`}},
		{"datasets without x dataset", "compare:", "figures:\n  - {name: f, y: token_error, datasets: [synthetic, synthetic]}\ncompare:", []string{"bad.yaml:15:", "figures[0].datasets", "x: dataset"}},

		{"loss without segmentation", "compare:", "loss: {precision: 2}\ncompare:", []string{"bad.yaml:14:", "loss", "no segmentation task"}},
		{"negative loss", "splits:", "tasks: [segmentation]\nloss: {recall: -1}\nsplits:", []string{"bad.yaml:7:", "loss.recall", "[0, 1e6]"}},
		{"zero loss", "splits:", "tasks: [segmentation]\nloss: {recall: 0, precision: 0}\nsplits:", []string{"bad.yaml:7:", "loss", "both 0"}},
		{"loss unknown key", "splits:", "tasks: [segmentation]\nloss: {recal: 0}\nsplits:", []string{"bad.yaml:7:", "loss.recal", `did you mean "recall"`}},

		{"unknown pairs", "splits:", "features: {pairs: some}\nsplits:", []string{"bad.yaml:6:", "features.pairs", `unknown pairs "some"`}},
		{"seen pairs and segmentation", "splits:", "tasks: [sequence, segmentation]\nfeatures: {pairs: seen}\nsplits:", []string{"bad.yaml:7:", "features.pairs", "sequence task's model only"}},
		{"dataset seen pairs and segmentation", "    synthetic: {sequences: 40, labels: 3}", "    synthetic: {sequences: 40, labels: 3}\n    features: {pairs: seen}\ntasks: [segmentation]", []string{"datasets[0].features.pairs", "sequence task's model only"}},
		{"dataset features kind", "    synthetic: {sequences: 40, labels: 3}", "    synthetic: {sequences: 40, labels: 3}\n    features: {kind: pixels}", []string{"bad.yaml:6:", "datasets[0].features.kind", "window, affixes, lexicons and edges"}},
		{"dataset features window", "    synthetic: {sequences: 40, labels: 3}", "    synthetic: {sequences: 40, labels: 3}\n    features:\n      window: 9", []string{"bad.yaml:7:", "datasets[0].features.window", "[0, 5]"}},
		{"dataset features unknown key", "    synthetic: {sequences: 40, labels: 3}", "    synthetic: {sequences: 40, labels: 3}\n    features: {lexicon: false}", []string{"bad.yaml:6:", "datasets[0].features.lexicon", `did you mean "lexicons"`}},

		{"declared dataset without format", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    path: mine.txt", []string{"bad.yaml:4:", "datasets[0].format", "needs its format", "conll, conllu, cora, crfsuite, libsvm, mnist, ocr"}},
		{"declared dataset unknown format", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conl\n    path: mine.txt", []string{"bad.yaml:5:", "datasets[0].format", `unknown format "conl"`}},
		{"declared dataset path and train", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conll\n    encoding: iob2\n    path: a.txt\n    train: b.txt\n    test: c.txt", []string{"bad.yaml:7:", "datasets[0].path", "not both"}},
		{"declared dataset train without test", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conll\n    encoding: iob2\n    train: b.txt", []string{"bad.yaml:7:", "datasets[0].train", "both train and test"}},
		{"declared column file without encoding", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conll\n    path: a.txt", []string{"bad.yaml:5:", "datasets[0]", "label encoding is required"}},
		{"declared column file bad encoding", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conll\n    encoding: iob3\n    path: a.txt", []string{"bad.yaml:6:", "datasets[0].encoding", `unknown label encoding "iob3"`}},
		{"declared column file bad charset", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: conll\n    encoding: iob2\n    charset: ebcdic\n    path: a.txt", []string{"bad.yaml:7:", "datasets[0].charset"}},
		{"columns on a cora file", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mine\n    format: cora\n    path: a.txt\n    columns: [word, label]", []string{"bad.yaml:7:", "datasets[0].columns", "applies to format conll only"}},
		{"fixed splits on one file", "  count: 2\n  train_fractions: [0.5]", "  kind: fixed", []string{"bad.yaml:4:", "splits.kind fixed needs a dataset with train and test files"}},
		{"fixed splits with fractions", "  count: 2\n", "  kind: fixed\n", []string{"bad.yaml:8:", "fixed splits train on the train part; remove train_fractions"}},
		{"unknown split kind", "  count: 2\n", "  kind: fixd\n", []string{"bad.yaml:7:", "splits.kind", "known: file, fixed, fold, instance, per_class, random"}},
		{"bags without the mil task", "  - name: synthetic\n    synthetic: {sequences: 40, labels: 3}", "  - name: mil-p1", []string{"bad.yaml:4:", "datasets[0]", "bags of instances (mil-p1, mil-p25) go with the mil task alone"}},
		{"instance splits on data without instantiations", "  count: 2\n  train_fractions: [0.5]", "  kind: instance", []string{"bad.yaml:4:", "splits.kind instance needs a generated dataset with instantiations (synth1, synth2, synth3, mil-p1, mil-p25), not \"synthetic\""}},
		{"instance splits with fractions", "  count: 2\n", "  kind: instance\n", []string{"bad.yaml:8:", "instance splits train on the train part; remove train_fractions"}},

		{"perceptron with C", "  - name: poslearn\n    C: [1]", "  - name: perceptron\n    C: [1]", []string{"bad.yaml:13:", "perceptron has no C"}},
		{"entropy-margin without beta", "  - name: poslearn", "  - name: entropy-margin", []string{"bad.yaml:12:", "beta: is required and missing"}},
		{"setting for another trainer", "    C: [1]\n", "    C: [1]\n    rescaling: margin\n", []string{"bad.yaml:14:", "trainers[1].rescaling", `does not apply to trainer "poslearn"`}},
		{"bad rescaling", "  - name: poslearn\n    C: [1]\n", "  - name: entropy-margin\n    beta: 1\n    C: [1]\n    rescaling: both\n", []string{"bad.yaml:15:", "trainers[1].rescaling", "margin or slack"}},
		// A paper block goes in at line 14, before compare:; its first
		// value is on line 17.
		{"paper without source", "compare:", "paper:\n  values:\n    - {dataset: synthetic, task: sequence, trainer: margin, token_error: 1}\ncompare:", []string{"bad.yaml:14:", "paper.source", "required"}},
		{"paper with blank source", "compare:", "paper:\n  source: \" \"\n  values:\n    - {dataset: synthetic, task: sequence, trainer: margin, token_error: 1}\ncompare:", []string{"bad.yaml:15:", "paper.source", "required"}},
		{"paper without values", "compare:", "paper:\n  source: x\ncompare:", []string{"bad.yaml:14:", "paper.values", "at least one value"}},
		{"paper unknown key", "compare:", "paper:\n  sources: x\ncompare:", []string{"bad.yaml:15:", "paper.sources", `did you mean "source"`}},
		{"paper value unknown key", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, span_f: 1}"), []string{"bad.yaml:17:", "paper.values[0].span_f", `did you mean "span_f1"`}},
		{"paper value wrong type", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, token_error: high}"), []string{`bad.yaml:17: paper.values[0].token_error: cannot use "high" as a number`}},
		{"paper unknown trainer", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margn, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].trainer", `trainer "margn" is not among the config's trainers`, `did you mean "margin"`}},
		{"paper trainer not in config", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: slack, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].trainer", `trainer "slack" is not among the config's trainers`}},
		{"paper unknown dataset", "compare:", paperBlock("{dataset: synthetc, task: sequence, trainer: margin, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].dataset", `did you mean "synthetic"`}},
		{"paper dataset not in config", "compare:", paperBlock("{dataset: cora, task: sequence, trainer: margin, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].dataset", `dataset "cora" is not among the config's datasets`}},
		{"paper unknown task", "compare:", paperBlock("{dataset: synthetic, task: sequense, trainer: margin, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].task", `did you mean "sequence"`}},
		{"paper task not in config", "compare:", paperBlock("{dataset: synthetic, task: segmentation, trainer: margin, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].task", `task "segmentation" is not among the config's tasks`}},
		{"paper value without trainer", "compare:", paperBlock("{dataset: synthetic, task: sequence, token_error: 1}"), []string{"bad.yaml:17:", "paper.values[0].trainer", "required; one of the config's trainers: margin, poslearn"}},
		{"paper value without metrics", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin}"), []string{"bad.yaml:17:", "paper.values", "give one or more of the sequence task's metrics: token_error, span_f1, token_error_file"}},
		{"paper value negative", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, token_error: -1}"), []string{"bad.yaml:17:", "paper.values[0].token_error", "[0, 100], got -1"}},
		{"paper value above 100", "compare:", paperBlock("dataset: synthetic\n      task: sequence\n      trainer: margin\n      token_error: 12\n      span_f1: 100.5"), []string{"bad.yaml:21:", "paper.values[0].span_f1", "[0, 100], got 100.5"}},
		{"paper value NaN", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, span_f1: .nan}"), []string{"bad.yaml:17:", "paper.values[0].span_f1", "got NaN"}},
		{"paper segment error above 100", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, token_error: 101}"), []string{"bad.yaml:17:", "paper.values[0].token_error", "[0, 100], got 101"}},
		{"paper metric the task lacks", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, segment_error: 10}"), []string{"bad.yaml:17:", "paper.values[0].segment_error", "unknown key", "a metric of the sequence task (token_error, span_f1, token_error_file, train_error, constraints, support_loss)"}},
		{"paper value twice", "compare:", paperBlock("{dataset: synthetic, task: sequence, trainer: margin, token_error: 1}\n    - {dataset: synthetic, task: sequence, trainer: poslearn, token_error: 1}\n    - {dataset: synthetic, task: sequence, trainer: margin, span_f1: 2}"), []string{"bad.yaml:19:", "paper.values", "synthetic/sequence margin listed twice (first at line 17)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(validConfig, tt.old, tt.new, 1)
			if bad == validConfig {
				t.Fatalf("replacement %q not found", tt.old)
			}
			_, err := Parse([]byte(bad), "bad.yaml")
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tt.wantAll {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			var ce *Error
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *Error", err)
			}
		})
	}
}

// paperBlock is a paper block with one value (YAML for a list item),
// inserted before compare:, so that the value starts at line 17 of
// validConfig.
func paperBlock(value string) string {
	return "paper:\n  source: x\n  values:\n    - " + value + "\ncompare:"
}

// A config's paper block reaches the report spec whole: every value, by
// the trainer's label, with absent metrics left absent.
func TestParseConfigPaper(t *testing.T) {
	t.Parallel()
	const cfgText = `datasets: [{name: synthetic}]
tasks: [sequence, segmentation]
trainers:
  - {name: margin, C: [1]}
  - {name: entropy-margin, label: "beta=10", beta: 10, C: [1]}
paper:
  source: "Sarawagi & Gupta (ICML 2008), Table 1"
  note: "token error = 100 - 100*accuracy"
  values:
    - {dataset: synthetic, task: sequence, trainer: margin, token_error: 12.3, span_f1: 74.9}
    - {dataset: synthetic, task: segmentation, trainer: margin, span_f1: 0, segment_error: 17.7}
    - {dataset: synthetic, task: sequence, trainer: "beta=10", token_error: 100}
`
	cfg, err := Parse([]byte(cfgText), "paper.yaml")
	if err != nil {
		t.Fatal(err)
	}
	want := &report.PaperReference{
		Source: "Sarawagi & Gupta (ICML 2008), Table 1",
		Note:   "token error = 100 - 100*accuracy",
		Values: []report.PaperValue{
			{Dataset: "synthetic", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 12.3, "span_f1": 74.9}},
			{Dataset: "synthetic", Task: "segmentation", Trainer: "margin", Metrics: map[string]float64{"span_f1": 0, "segment_error": 17.7}},
			{Dataset: "synthetic", Task: "sequence", Trainer: "beta=10", Metrics: map[string]float64{"token_error": 100}},
		},
	}
	spec := cfg.ReportSpec()
	if !reflect.DeepEqual(spec.Paper, want) {
		t.Errorf("ReportSpec().Paper = %+v, want %+v", spec.Paper, want)
	}
	if err := spec.Validate(); err != nil {
		t.Errorf("the report package rejects the spec: %v", err)
	}
	cfg.Paper.Values[0].Metrics["token_error"] = 50
	if spec.Paper.Values[0].Metrics["token_error"] != 12.3 {
		t.Error("the report spec shares its values with the config")
	}

	// A labelled entry goes by its label only.
	bad := strings.Replace(cfgText, `trainer: "beta=10"`, "trainer: entropy-margin", 1)
	_, err = Parse([]byte(bad), "paper.yaml")
	if err == nil || !strings.Contains(err.Error(), "paper.yaml:12: paper.values[2].trainer: trainer \"entropy-margin\" is not among the config's trainers") {
		t.Errorf("error %v, want one about entropy-margin at line 12", err)
	}

	// Without a paper block there is no reference.
	plain, err := Parse([]byte(validConfig), "valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if plain.ReportSpec().Paper != nil {
		t.Error("ReportSpec has a paper reference for a config without one")
	}
}

func TestEditDistance(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		a, b string
		want int
	}{{"", "", 0}, {"a", "", 1}, {"kitten", "sitting", 3}, {"margn", "margin", 1}} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzParseConfig: arbitrary bytes give a *Error or a valid config
// whose run is plannable within bounds (and whose effective form parses
// back), never a panic. The seed corpus holds the inputs that crashed or
// ran away before (issue 14).
func FuzzParse(f *testing.F) {
	f.Add([]byte(validConfig))
	f.Add([]byte(strictBase))
	f.Add([]byte("datasets: [{name: cora}]\ntrainers: [{name: margin, C: [1]}]\n"))
	f.Add([]byte("trainers: 3"))
	f.Add([]byte("splits: {count: -1}"))
	f.Add([]byte("- - -"))
	f.Add([]byte("datasets:\n  - name: synthetic\n    synthetic: {labels: 0}\n"))
	f.Add([]byte("&a [*a]"))
	f.Add([]byte("compare: &a [*a]\n"))
	f.Add([]byte(""))
	f.Add([]byte("seed: 1.5\n"))
	f.Add([]byte("trainers:\n  - name: margin\n    C: [0.1, 1\n  - name: perceptron\n"))
	f.Add([]byte("trainers:\n  - name: perceptron\n    epochs: three\n"))
	f.Add([]byte("datasets:\n  - name: synthetic\n    synthetic: {labels: 100000}\ntrainers: [{name: perceptron}]\n"))
	f.Add([]byte("datasets: [{name: synthetic}]\nsplits: {count: 100000000}\ntrainers: [{name: perceptron}]\n"))
	f.Add([]byte("datasets: [{name: synthetic}]\nsplits: {count: 1000000}\ntrainers: [{name: margin, C: [1, 2]}]\n"))
	f.Add([]byte("datasets: [{name: synthetic, synthetic: {sequences: 1000000000, max_len: 1000000000}}]\ntrainers: [{name: perceptron}]\n"))
	f.Add([]byte("datasets: [{name: ocr}]\nfeatures: {kind: pixels, degree: 2}\nsplits: {kind: fold, count: 11}\ntrainers: [{name: crf, C: [1]}]\n"))
	f.Add([]byte("tasks: []\nsplits: {count: 0, validation_fraction: 0}\ntrainers: [{name: mira, k: 0, epochs: 0, C: []}]\n"))
	f.Add([]byte("datasets: [{name: synthetic}]\ntrainers: [{name: margin, C: [1]}]\nfigures: [{name: f, x: beta, y: token_error}, {name: f, y: span_f1}]\ncompare: [[margin, margin]]\n"))
	f.Add([]byte("a: &x [*x, *x]\nb: &y [*x, *x, *x, *x]\nc: [*y, *y, *y, *y]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := Parse(data, "fuzz.yaml")
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "fuzz.yaml") {
				t.Fatalf("error %q (%T) is not a Error naming the file", err, err)
			}
			return
		}
		if len(cfg.Datasets) == 0 || len(cfg.Trainers) == 0 || len(cfg.Tasks) == 0 || cfg.Splits.Count < 1 {
			t.Fatalf("accepted a config without datasets, trainers, tasks or splits: %q", data)
		}
		limit, _ := MemoryLimit()
		if e := cfg.Estimate(); e.Units > MaxUnits || e.DataBytes+e.UnitBytes > float64(limit) {
			t.Fatalf("accepted a config beyond the bounds (%+v): %q", e, data)
		}
		eff, err := cfg.Effective()
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Parse(eff, "fuzz.yaml"); err != nil {
			t.Fatalf("effective config of %q does not parse: %v\n%s", data, err, eff)
		}
	})
}

// Labels let one trainer appear several times; results, comparisons and
// figures refer to the labels.
func TestParseConfigLabels(t *testing.T) {
	t.Parallel()
	cfg, err := Parse([]byte(`datasets: [{name: synthetic}]
trainers:
  - {name: crf, C: [1]}
  - {name: entropy-margin, label: "beta=1", beta: 1, C: [1]}
  - {name: entropy-margin, label: "beta=10", beta: 10, C: [1]}
compare:
  - ["beta=10", crf]
figures:
  - {name: f4, x: beta, y: token_error, baseline: crf}
`), "labels.yaml")
	if err != nil {
		t.Fatal(err)
	}
	spec := cfg.ReportSpec()
	if want := []string{"crf", "beta=1", "beta=10"}; !slices.Equal(spec.Trainers, want) {
		t.Errorf("report trainers %v, want %v", spec.Trainers, want)
	}
	if f := spec.Figures[0]; f.X != "beta" || f.Baseline != "crf" {
		t.Errorf("figure %+v", f)
	}
}

// A figure without task: in a multi-task config is drawn once per task, so
// it is checked against every task and keeps its empty task.
func TestParseConfigFigureEveryTask(t *testing.T) {
	t.Parallel()
	base := strings.Replace(validConfig, "splits:", "tasks: [sequence, segmentation]\nsplits:", 1)
	cfg, err := Parse([]byte(base+"figures:\n  - {name: f1, y: token_error}\n"), "multi.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Figures[0].Task; got != "" {
		t.Errorf("figure task = %q, want empty (every task)", got)
	}
	single, err := Parse([]byte(validConfig+"figures:\n  - {name: f1, y: token_error}\n"), "single.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got := single.Figures[0].Task; got != TaskSequence {
		t.Errorf("single-task figure task = %q, want %q", got, TaskSequence)
	}
}

// Feature vectors (libsvm, the blobs) go with the multiclass task alone
// and features.kind given; a cost matrix with them only.
func TestMulticlassConfigRules(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]string{
		"datasets: [{name: blobs}]\ntasks: [multiclass]\nfeatures: {kind: given}\n":                                                                                                         "",
		"datasets: [{name: blobs, cost: [[0, 1], [1, 0]]}]\ntasks: [multiclass]\nfeatures: {kind: given}\n":                                                                                 "",
		"datasets: [{name: blobs}]\ntasks: [multiclass]\n":                                                                                                                                  "go with features.kind given",
		"datasets: [{name: blobs}]\ntasks: [sequence]\nfeatures: {kind: given}\n":                                                                                                           "go with the multiclass and taxonomy tasks alone",
		"datasets: [{name: synthetic}]\ntasks: [multiclass]\n":                                                                                                                              "go with the multiclass and taxonomy tasks alone, and only they do",
		"datasets: [{name: blobs}]\ntasks: [multiclass, sequence]\nfeatures: {kind: given}\n":                                                                                               "go with the multiclass and taxonomy tasks alone",
		"datasets: [{name: blobs}]\ntasks: [taxonomy]\nfeatures: {kind: given}\n":                                                                                                           "the taxonomy task needs a class tree",
		"datasets: [{name: blobs, taxonomy: [a: [\"-1\", \"1\"], b: [\"2\"]]}]\ntasks: [taxonomy]\nfeatures: {kind: given}\n":                                                               "",
		"datasets: [{name: blobs, taxonomy: [x, x]}]\ntasks: [taxonomy]\nfeatures: {kind: given}\n":                                                                                         "already defined",
		"datasets: [{name: blobs, taxonomy: [x, y], cost: [[0, 1], [1, 0]]}]\ntasks: [taxonomy]\nfeatures: {kind: given}\n":                                                                 "remove cost",
		"datasets: [{name: synthetic, taxonomy: [x, y]}]\ntasks: [sequence]\n":                                                                                                              "a taxonomy applies to feature vectors or documents",
		"datasets: [{name: b, format: brown, path: brown}]\ntasks: [multiclass, taxonomy]\nfeatures: {kind: given}\n":                                                                       "the taxonomy task needs a class tree",
		"datasets: [{name: b, format: brown, path: brown, taxonomy: [x, y]}]\ntasks: [multiclass, taxonomy]\nfeatures: {kind: given}\nsplits: {kind: per_class, train_per_class: [2, 4]}\n": "",
		"datasets: [{name: blobs}]\ntasks: [multiclass]\nfeatures: {kind: given}\nsplits: {kind: per_class}\n":                                                                              "need the training items per class",
		"datasets: [{name: blobs}]\ntasks: [multiclass]\nfeatures: {kind: given}\nsplits: {kind: per_class, train_per_class: [0]}\n":                                                        "must be at least 1",
		"datasets: [{name: blobs}]\ntasks: [multiclass]\nfeatures: {kind: given}\nsplits: {train_per_class: [2]}\n":                                                                         "applies to splits.kind per_class only",
		"datasets: [{name: synthetic, cost: [[0]]}]\ntasks: [sequence]\n":                                                                                                                   "applies to feature vectors",
		"datasets: [{name: m, format: libsvm, path: m.txt}]\ntasks: [multiclass]\nfeatures: {kind: given}\n":                                                                                "",
		"datasets: [{name: m, format: conll, path: m.txt, encoding: none, cost: [[0]]}]\ntasks: [sequence]\n":                                                                               "datasets[0].cost",
	} {
		_, err := Parse([]byte("name: m\n"+text+"trainers: [{name: perceptron}]\n"), "m.yaml")
		if (want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", text, err, want)
		}
	}
}

// The tagger's sparse pairs are for template features: pixel features of
// degree 2 come with their pairs, and pairing them again would square the
// model (a degree-2 OCR unit grew to 144 million weights that way).
func TestTaggerDegreeOnlyForTemplates(t *testing.T) {
	for _, tc := range []struct {
		kind string
		want int
	}{{"", 2}, {FeaturesNER, 2}, {FeaturesPixels, 0}, {FeaturesGiven, 0}} {
		if got := (UnitFeatures{Kind: tc.kind, Degree: 2}).Tagger(nil).Degree; got != tc.want {
			t.Errorf("kind %q: tagger degree %d, want %d", tc.kind, got, tc.want)
		}
	}
}

// features.normalize: unit scales pixel features and enters the unit
// features only then; none, or no key, leaves them as they were. It is
// refused where nothing would read the values.
func TestPixelNormalize(t *testing.T) {
	t.Parallel()
	const pixels = "name: p\ndatasets: [{name: ocr}]\nTASKS\nfeatures: {kind: pixels, degree: 2NORMALIZE}\nsplits: {kind: fold, count: 2}\ntrainers: [{name: perceptron}]\n"
	config := func(tasks, normalize string) string {
		return strings.NewReplacer("TASKS", tasks, "NORMALIZE", normalize).Replace(pixels)
	}
	for _, tc := range []struct {
		name, text string
		want       UnitFeatures
	}{
		{"no key", config("", ""), UnitFeatures{Kind: FeaturesPixels, Degree: 2, Edges: true}},
		{"none", config("", ", normalize: none"), UnitFeatures{Kind: FeaturesPixels, Degree: 2, Edges: true}},
		{"unit", config("tasks: [sequence]", ", normalize: unit"), UnitFeatures{Kind: FeaturesPixels, Degree: 2, Edges: true, Normalize: NormalizeUnit}},
	} {
		cfg, err := Parse([]byte(tc.text), "p.yaml")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if got := cfg.FeaturesOf(0).Resolved(); got != tc.want {
			t.Errorf("%s: unit features %+v, want %+v", tc.name, got, tc.want)
		}
		eff, err := cfg.Effective()
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(string(eff), "normalize: unit"); got != (tc.want.Normalize != "") {
			t.Errorf("%s: effective config shows normalize: unit %v:\n%s", tc.name, got, eff)
		}
	}
	for _, tc := range []struct{ name, text, want string }{
		{"unknown value", config("", ", normalize: l2"), `p.yaml:4: features.normalize: unknown normalisation "l2" (known: none, unit)`},
		{"segmentation", config("tasks: [sequence, segmentation]", ", normalize: unit"), "p.yaml:4: features.normalize: scaled pixel features are the sequence task's model only"},
		{"citation features", "name: c\ndatasets: [{name: cora}]\nfeatures: {normalize: unit}\nsplits: {count: 1}\ntrainers: [{name: perceptron}]\n", "c.yaml:3: features.normalize: applies to pixel features only (kind: pixels)"},
		{"a dataset's own", strings.Replace(config("", ""), "{name: ocr}", "{name: ocr, features: {normalize: unit}}", 1), "p.yaml:2: datasets[0].features.normalize: a dataset's features may set window"},
	} {
		name := "p.yaml"
		if strings.HasPrefix(tc.want, "c.yaml") {
			name = "c.yaml"
		}
		if _, err := Parse([]byte(tc.text), name); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
