package experiments

import (
	"errors"
	"slices"
	"strings"
	"testing"
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
	cfg, err := ParseConfig([]byte(validConfig), "valid.yaml")
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
	cfg, err := ParseConfig([]byte(strings.Replace(validConfig, "name: t\n", "", 1)), "configs/my-exp.yaml")
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
		{"unknown trainer key", "    C: [0.1, 1]", "    c: [0.1, 1]", []string{"bad.yaml:11:", "trainers.c", `did you mean "C"`}},
		{"wrong type", "seed: 3", "seed: three", []string{"bad.yaml", "line 2", "three"}},
		{"list expected", "  train_fractions: [0.5]", "  train_fractions: {a: 1}", []string{"bad.yaml:8:", "train_fractions", "expected a list"}},
		{"unknown trainer", "  - name: margin", "  - name: margn", []string{"bad.yaml:10:", "trainers.name", `did you mean "margin"`}},
		{"unknown dataset", "  - name: synthetic", "  - name: coraa", []string{"bad.yaml:4:", "datasets.name", `did you mean "cora"`}},
		{"empty grid", "    C: [0.1, 1]", "    C: []", []string{"bad.yaml:11:", "trainers.C", "non-empty grid"}},
		{"non-positive C", "    C: [0.1, 1]", "    C: [0, 1]", []string{"bad.yaml:11:", "C must be positive"}},
		{"train fraction outside (0,1)", "[0.5]", "[1.5]", []string{"bad.yaml:8:", "splits.train_fractions", "(0, 1)"}},
		{"validation fraction", "  count: 2", "  count: 2\n  validation_fraction: 1", []string{"splits.validation_fraction"}},
		{"unknown task", "splits:", "tasks: [sequense]\nsplits:", []string{"bad.yaml:6:", "tasks", `did you mean "sequence"`}},
		{"comparison of absent trainer", "[poslearn, margin]", "[poslearn, slack]", []string{"bad.yaml:15:", "compare", `"slack"`}},
		{"duplicate trainer", "  - name: poslearn", "  - name: margin", []string{"bad.yaml:12:", "listed twice", "distinct label"}},
		{"duplicate label", "  - name: poslearn", "  - name: poslearn\n    label: margin", []string{"bad.yaml:13:", "trainers.label", `label "margin" used twice`}},
		{"label with a bar", "  - name: poslearn", "  - name: poslearn\n    label: \"a|b\"", []string{"bad.yaml:13:", "trainers.label"}},
		{"figure baseline unknown", "compare:", "figures:\n  - {name: f, y: token_error, baseline: margn}\ncompare:", []string{"bad.yaml:15:", "figures.baseline", `did you mean "margin"`}},
		{"figure x unknown", "compare:", "figures:\n  - {name: f, x: C, y: token_error}\ncompare:", []string{"bad.yaml:15:", `unknown x "C"`}},
		{"synthetic settings on cora", "  - name: synthetic", "  - name: cora", []string{"only for the synthetic dataset"}},
		{"not YAML", "seed: 3", "seed: [3", []string{"bad.yaml"}},
		{"perceptron with C", "  - name: poslearn\n    C: [1]", "  - name: perceptron\n    C: [1]", []string{"bad.yaml:13:", "perceptron has no C"}},
		{"entropy-margin without beta", "  - name: poslearn", "  - name: entropy-margin", []string{"bad.yaml:12:", "beta > 0"}},
		{"bad rescaling", "    C: [1]\n", "    C: [1]\n    rescaling: both\n", []string{"bad.yaml:14:", "margin or slack"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bad := strings.Replace(validConfig, tt.old, tt.new, 1)
			if bad == validConfig {
				t.Fatalf("replacement %q not found", tt.old)
			}
			_, err := ParseConfig([]byte(bad), "bad.yaml")
			if err == nil {
				t.Fatal("accepted")
			}
			for _, want := range tt.wantAll {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not contain %q", err, want)
				}
			}
			var ce *ConfigError
			if !errors.As(err, &ce) {
				t.Errorf("error %T is not a *ConfigError", err)
			}
		})
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

// FuzzParseConfig: arbitrary bytes give a config or an error, never a panic.
func FuzzParseConfig(f *testing.F) {
	f.Add([]byte(validConfig))
	f.Add([]byte("datasets: [{name: cora}]\ntrainers: [{name: margin, C: [1]}]\n"))
	f.Add([]byte("trainers: 3"))
	f.Add([]byte("splits: {count: -1}"))
	f.Add([]byte("- - -"))
	f.Add([]byte("datasets:\n  - name: synthetic\n    synthetic: {labels: 0}\n"))
	f.Add([]byte("&a [*a]"))
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, err := ParseConfig(data, "fuzz.yaml")
		if err == nil && (len(cfg.Datasets) == 0 || len(cfg.Trainers) == 0) {
			t.Fatalf("accepted a config without datasets or trainers: %q", data)
		}
	})
}

// Labels let one trainer appear several times; results, comparisons and
// figures refer to the labels.
func TestParseConfigLabels(t *testing.T) {
	t.Parallel()
	cfg, err := ParseConfig([]byte(`datasets: [{name: synthetic}]
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
