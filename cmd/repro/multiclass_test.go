package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
)

// multiclassFixture is a small libsvm data set: 4 classes (-1, 1, 2, 5),
// 6 sparse features, 80 training and 40 test items.
const multiclassFixture = "testdata/multiclass"

// multiclassCost is the fixture's cost matrix, classes in label order.
const multiclassCost = "0,1,2,3;1,0,1,2;2,1,0,1;3,2,1,0"

// TestMulticlassUnitIsReproTrainEval: a multiclass model trained by
// `repro train --task multiclass` with a unit's data and settings (its
// trainer entry, the chosen C, the unit's seed, the dataset's cost matrix)
// scores on the test file, under `repro eval`, exactly the unit's error
// rate and average cost, for every trainer the task runs; `repro tag`
// writes one predicted label a line, as liblinear's predict does, and
// those labels are the errors eval counts.
func TestMulticlassUnitIsReproTrainEval(t *testing.T) {
	t.Parallel()
	data, err := filepath.Abs(multiclassFixture)
	if err != nil {
		t.Fatal(err)
	}
	config := []byte(`name: multiclass-fixture
seed: 2001
datasets:
  - name: toy
    format: libsvm
    train: train.libsvm
    test: test.libsvm
    cost: [[0, 1, 2, 3], [1, 0, 1, 2], [2, 1, 0, 1], [3, 2, 1, 0]]
tasks: [multiclass]
features: {kind: given}
splits: {kind: fixed, validation_fraction: 0.25}
trainers:
  - {name: margin, C: [0.1, 10]}
  - {name: margin, label: margin-1s, solver: one-slack, C: [1]}
  - {name: slack, C: [1]}
  - {name: slack, label: slack-1s, solver: one-slack, C: [1]}
  - {name: perceptron, epochs: 3}
  - {name: mira, k: 2, epochs: 3, C: [1]}
  - {name: subgradient, C: [1]}
  - {name: crf, C: [1]}
  - {name: entropy-margin, beta: 2, C: [1]}
`)
	cfgPath := filepath.Join(t.TempDir(), "multiclass.yaml")
	if err := os.WriteFile(cfgPath, config, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, _, err := repro(t, "", "run", "--quiet", "--workers", "2", "--data", data, "--out", out, cfgPath); err != nil {
		t.Fatal(err)
	}
	runs, _, err := report.ReadRunsFile(filepath.Join(out, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	entries, seed := parsingEntries(t, config)
	if len(runs) != len(entries) {
		t.Fatalf("%d runs, want %d", len(runs), len(entries))
	}
	train, test := filepath.Join(data, "train.libsvm"), filepath.Join(data, "test.libsvm")
	wrong := 0.0
	for _, r := range runs {
		label := r.Trainer // a config's label, or the trainer's name
		if r.Method != "" {
			r.Trainer = r.Method
		}
		if r.Outcomes == nil || r.Outcomes.NumTokens() != 40 {
			t.Errorf("%s: no outcome per test item: %+v", label, r.Outcomes)
		}
		model := filepath.Join(t.TempDir(), "m.repro")
		args := trainArgs(t, entries[label], r, seed)
		args[slices.Index(args, "--task")+1] = "multiclass"
		args = append(args, "--cost", multiclassCost, "-o", model, train)
		if _, _, err := repro(t, "", args...); err != nil {
			t.Fatalf("%s: %v", label, err)
		}
		rate, avg, nWrong := multiclassEval(t, model, test)
		if rate != r.Metrics[metrics.ErrorRate] || avg != fmt.Sprintf("%.3f", r.Metrics[metrics.AverageCost]) {
			t.Errorf("%s: repro eval's error rate %v and average cost %s, the unit's %v and %.3f (train %q)",
				label, rate, avg, r.Metrics[metrics.ErrorRate], r.Metrics[metrics.AverageCost], args)
		}
		if label == "margin" {
			tagged, _, err := repro(t, "", "tag", "-m", model, test)
			if err != nil {
				t.Fatal(err)
			}
			if got := tagErrors(t, tagged, test); got != nWrong {
				t.Errorf("tag's labels differ from the test file's on %d items, eval counted %d wrong", got, nWrong)
			}
		}
		t.Logf("%s (%v): error rate %v, average cost %.3f", label, r.Params, r.Metrics[metrics.ErrorRate], r.Metrics[metrics.AverageCost])
		wrong += r.Metrics[metrics.ErrorRate]
	}
	if wrong == 0 {
		t.Error("every unit classified the test file without an error: the comparison shows nothing")
	}
}

// multiclassEval runs `repro eval` and returns the error rate it counted
// (as a unit computes it from the same counts), the average cost as
// printed, and the number of wrong items.
func multiclassEval(t *testing.T, model, test string) (rate float64, avg string, wrong int) {
	t.Helper()
	out, _, err := repro(t, "", "eval", "-m", model, test)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`error rate: [0-9.]+% \((\d+) of (\d+) wrong.*\naverage cost: ([0-9.]+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("eval printed no error rate and average cost:\n%s", out)
	}
	wrong, _ = strconv.Atoi(m[1])
	n, _ := strconv.Atoi(m[2])
	return 100 * float64(wrong) / float64(n), m[3], wrong
}

// tagErrors counts the lines of tag's output whose label is not the test
// file's, which must have as many examples.
func tagErrors(t *testing.T, tagged, test string) int {
	t.Helper()
	b, err := os.ReadFile(test)
	if err != nil {
		t.Fatal(err)
	}
	var gold []string
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 0 && !strings.HasPrefix(f[0], "#") {
			gold = append(gold, f[0])
		}
	}
	pred := strings.Split(strings.TrimSuffix(tagged, "\n"), "\n")
	if len(pred) != len(gold) {
		t.Fatalf("tag wrote %d lines for %d examples:\n%s", len(pred), len(gold), tagged)
	}
	n := 0
	for i, p := range pred {
		if !slices.Contains([]string{"-1", "1", "2", "5"}, p) {
			t.Errorf("tag line %d: %q is none of the classes", i+1, p)
		}
		if p != gold[i] {
			n++
		}
	}
	return n
}

// TestMulticlassCLIErrors: a cost matrix of the wrong shape, --cost on
// another task, and a test label the model does not know are errors that
// say what is wrong.
func TestMulticlassCLIErrors(t *testing.T) {
	t.Parallel()
	train := filepath.Join(multiclassFixture, "train.libsvm")
	model := filepath.Join(t.TempDir(), "m.repro")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"train", "--quiet", "--task", "multiclass", "--trainer", "perceptron", "--cost", "0,1;1,0", "-o", model, train}, "cost matrix: 2 rows for 4 classes (the classes, in order: -1 1 2 5)"},
		{[]string{"train", "--quiet", "--task", "multiclass", "--trainer", "perceptron", "--cost", "0,a", "-o", model, train}, `--cost: cost matrix row 1, entry 2: "a" is not a number`},
		{[]string{"train", "--quiet", "--task", "parsing", "--trainer", "perceptron", "--cost", "0", "-o", model, train}, "--cost applies to the multiclass task only, not parsing"},
		{[]string{"train", "--quiet", "--trainer", "perceptron", "--cost", "0", "-o", model, train}, "--cost applies to the multiclass task only, not sequence"},
	} {
		if _, _, err := repro(t, "", tc.args...); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.args, err, tc.want)
		}
	}
	if _, _, err := repro(t, "", "train", "--quiet", "--task", "multiclass", "--trainer", "perceptron", "-o", model, train); err != nil {
		t.Fatal(err)
	}
	unknown := filepath.Join(t.TempDir(), "unknown.libsvm")
	if err := os.WriteFile(unknown, []byte("1 1:1\n7 2:1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := repro(t, "", "eval", "-m", model, unknown); err == nil || !strings.Contains(err.Error(), "unknown.libsvm:2: label 7 is not one of the 4 classes") {
		t.Errorf("eval of an unknown label: %v", err)
	}
}

// TestMulticlassExampleConfig: configs/multiclass-example.yaml runs
// without any data directory (the built-in blobs) and every trainer
// entry gives a run per split, each with both metrics.
func TestMulticlassExampleConfig(t *testing.T) {
	t.Parallel()
	out := filepath.Join(t.TempDir(), "out")
	if _, _, err := repro(t, "", "run", "--quiet", "--data", t.TempDir(), "--out", out, "../../configs/multiclass-example.yaml"); err != nil {
		t.Fatal(err)
	}
	runs, _, err := report.ReadRunsFile(filepath.Join(out, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile("../../configs/multiclass-example.yaml")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := parsingEntries(t, b)
	if len(runs) != 2*len(entries) {
		t.Errorf("%d runs, want 2 splits of %d trainers", len(runs), len(entries))
	}
	for _, r := range runs {
		if _, ok := entries[r.Trainer]; !ok || r.Task != "multiclass" || r.Dataset != "blobs" {
			t.Errorf("run %s/%s %s", r.Dataset, r.Task, r.Trainer)
		}
		if rate, cost := r.Metrics[metrics.ErrorRate], r.Metrics[metrics.AverageCost]; !(rate > 0 && rate < 50 && cost > 0) {
			t.Errorf("%s split %d: error rate %v, average cost %v (overlapping blobs: some errors, far fewer than chance's 75%%)", r.Trainer, r.Split, rate, cost)
		}
	}
}
