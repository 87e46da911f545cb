package experiments

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
)

// writeTreebank writes n sentences of a toy language in CoNLL-U: a
// determiner attaches to the next noun, the noun to the verb, the verb to
// the root; every third sentence has an adjective between determiner and
// noun, attached to the noun.
func writeTreebank(t *testing.T, path string, n, seed int) {
	t.Helper()
	nouns := []string{"cat", "dog", "bird", "fish"}
	verbs := []string{"sleeps", "runs", "sings"}
	var b strings.Builder
	for s := range n {
		k := s + seed
		row := func(id int, w, pos string, head int) {
			fmt.Fprintf(&b, "%d\t%s\t%s\t%s\t%s\t_\t%d\tdep\t_\t_\n", id, w, w, pos, pos, head)
		}
		if k%3 == 0 {
			row(1, "the", "DT", 3)
			row(2, "big", "JJ", 3)
			row(3, nouns[k%4], "NN", 4)
			row(4, verbs[k%3], "VB", 0)
		} else {
			row(1, "a", "DT", 2)
			row(2, nouns[k%4], "NN", 3)
			row(3, verbs[k%3], "VB", 0)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The parsing task runs a treebank end to end: margin, PosLearn, k-best
// MIRA and the perceptron learn the toy grammar; the attachment error is
// the token error, and there is no span F1.
func TestRunParsing(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeTreebank(t, filepath.Join(data, "train.conllu"), 30, 0)
	writeTreebank(t, filepath.Join(data, "dev.conllu"), 6, 50)
	writeTreebank(t, filepath.Join(data, "test.conllu"), 9, 100)
	cfg := mustConfig(t, `name: parsing
datasets:
  - {name: toy, format: conllu, train: train.conllu, dev: dev.conllu, test: test.conllu}
tasks: [parsing]
splits: {kind: fixed}
features: {kind: dependency}
trainers:
  - {name: margin, C: [0.1, 1]}
  - {name: poslearn, C: [1]}
  - {name: mira, k: 3, epochs: 5}
  - {name: perceptron, epochs: 5}
compare:
  - [poslearn, margin]
`)
	dir := t.TempDir()
	var stdout strings.Builder
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Stdout: &stdout}); err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	for _, r := range runs {
		if r.Task != config.TaskParsing || r.TrainSize != 30 || r.TestSize != 9 || !maps.Equal(r.Metrics, map[string]float64{"attachment_error": 0}) {
			t.Errorf("%s: task %s, train %d, test %d, metrics %v, want attachment error 0 alone (the toy grammar is learnable)", r.Trainer, r.Task, r.TrainSize, r.TestSize, r.Metrics)
		}
		if r.Outcomes == nil || r.Outcomes.NumTokens() != 3*9+3 {
			t.Errorf("%s: outcomes %+v", r.Trainer, r.Outcomes)
		}
	}
	if !strings.Contains(stdout.String(), "poslearn vs margin (toy/parsing): attachment error diff") || strings.Contains(stdout.String(), "span F1 diff") {
		t.Errorf("the comparison should be on attachment error only:\n%s", stdout.String())
	}
}

// Slack scaling has no loss-count MAP over trees: refused before anything
// loads, at the trainer's line.
func TestParsingRefusesSlack(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `name: p
datasets:
  - {name: toy, format: conllu, train: a, test: b}
tasks: [parsing]
splits: {kind: fixed}
features: {kind: dependency}
trainers:
  - {name: slack, C: [1]}
`)
	_, err := Run(context.Background(), cfg, Options{OutDir: t.TempDir(), DataDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "small.yaml:8") || !strings.Contains(err.Error(), "loss-count") {
		t.Errorf("error %v", err)
	}
}

func TestParsingConfigErrors(t *testing.T) {
	t.Parallel()
	base := `name: p
datasets:
  - {name: toy, format: conllu, train: a, test: b}
tasks: [parsing]
splits: {kind: fixed}
features: {kind: dependency}
trainers:
  - {name: margin, C: [1]}
`
	for name, tt := range map[string]struct{ old, new, want string }{
		"parsing with citation": {"features: {kind: dependency}", "features: {kind: citation}", "go together"},
		"treebank in sequence":  {"tasks: [parsing]", "tasks: [sequence]", "go together"},
		"arc feature settings":  {"features: {kind: dependency}", "features: {kind: dependency, window: 2}", "no settings"},
	} {
		_, err := config.Parse([]byte(strings.Replace(base, tt.old, tt.new, 1)), "p.yaml")
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to mention %q", name, err, tt.want)
		}
	}
}
