package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/trainers"
)

// noisyTreebank writes n sentences in CoNLL-U of a toy language whose
// adjectives attach, at random, to their noun or to the verb, so that no
// parser is always right: determiner → noun → verb → root.
func noisyTreebank(t *testing.T, path string, n int, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 7))
	nouns := []string{"cat", "dog", "bird", "fish", "cow"}
	verbs := []string{"sleeps", "runs", "sings", "eats"}
	adjs := []string{"big", "red", "old"}
	var b strings.Builder
	for s := range n {
		fmt.Fprintf(&b, "# sent_id = %d\n", s)
		row := func(id int, w, upos, xpos string, head int) {
			fmt.Fprintf(&b, "%d\t%s\t%s\t%s\t%s\t_\t%d\tdep\t_\t_\n", id, w, w, upos, xpos, head)
		}
		row(1, "the", "DET", "DT", 2+rng.IntN(2)%2)
		if rng.IntN(2) == 0 {
			head := 3 // the noun, or at random the verb
			if rng.IntN(3) == 0 {
				head = 4
			}
			row(2, adjs[rng.IntN(3)], "ADJ", "JJ", head)
			row(3, nouns[rng.IntN(5)], "NOUN", "NN", 4)
			row(4, verbs[rng.IntN(4)], "VERB", "VB", 0)
		} else {
			row(2, nouns[rng.IntN(5)], "NOUN", "NN", 3)
			row(3, verbs[rng.IntN(4)], "VERB", "VB", 0)
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// trainArgs are the `repro train` flags that train a unit's model: the
// trainer, its settings in the config's entry (every key but the name,
// label and C grid), the unit's C, and the seed units give it (the
// config's seed plus the split, 0 for fixed splits).
func trainArgs(t *testing.T, entry map[string]any, r report.Run, seed int) []string {
	t.Helper()
	args := []string{"train", "--quiet", "--task", "parsing", "--trainer", r.Trainer}
	keys := make([]string, 0, len(entry))
	for k := range entry {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if _, ok := r.Params[k]; ok {
			continue // the run's value
		}
		switch k {
		case "name", "label", "C", "grid":
		default:
			args = append(args, "--param", fmt.Sprintf("%s=%v", k, entry[k]))
		}
	}
	for k, v := range r.Params {
		args = append(args, "--param", fmt.Sprintf("%s=%v", k, v))
	}
	spec, err := trainers.SpecOf(r.Trainer)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := spec.Param(trainers.ParamSeed); ok {
		args = append(args, "--param", fmt.Sprintf("seed=%d", seed))
	}
	return args
}

// evalError runs `repro eval` and returns the attachment error it counted,
// as a unit computes it from the same counts.
func evalError(t *testing.T, model, test string) float64 {
	t.Helper()
	out, _, err := repro(t, "", "eval", "-m", model, test)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`attachment error: [0-9.]+% \((\d+) of (\d+) words`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("eval printed no attachment error:\n%s", out)
	}
	errs, _ := strconv.Atoi(m[1])
	words, _ := strconv.Atoi(m[2])
	c := metrics.Counts{Tokens: words, TokenErrors: errs}
	return c.TokenError()
}

// parsingConfig is the trainer entries of a config, by label (or name).
func parsingEntries(t *testing.T, config []byte) (entries map[string]map[string]any, seed int) {
	t.Helper()
	var cfg struct {
		Seed     int              `yaml:"seed"`
		Trainers []map[string]any `yaml:"trainers"`
	}
	if err := yaml.Unmarshal(config, &cfg); err != nil {
		t.Fatal(err)
	}
	entries = map[string]map[string]any{}
	for _, e := range cfg.Trainers {
		name, _ := e["name"].(string)
		if l, ok := e["label"].(string); ok {
			name = l
		}
		entries[name] = e
	}
	return entries, cfg.Seed
}

// TestParsingUnitIsReproTrainEval: a parsing model trained by `repro
// train --task parsing` with a unit's data and settings (its trainer
// entry, the C validation chose, the unit's seed) scores on the test file,
// under `repro eval`, exactly the unit's attachment error, for every
// trainer of the committed parsing config; and `repro tag` fills in the
// HEAD column only.
func TestParsingUnitIsReproTrainEval(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	noisyTreebank(t, filepath.Join(data, "train.conllu"), 60, 1)
	noisyTreebank(t, filepath.Join(data, "test.conllu"), 30, 2)
	config := []byte(`name: parsing-fixture
seed: 2006
datasets:
  - {name: toy, format: conllu, train: train.conllu, test: test.conllu}
tasks: [parsing]
splits: {kind: fixed, validation_fraction: 0.25}
features: {kind: dependency}
trainers:
  - {name: margin, C: [0.01, 1], solver: one-slack}
  - {name: poslearn, C: [0.1], solver: one-slack}
  - {name: mira, k: 2, epochs: 3}
  - {name: perceptron, epochs: 3}
`)
	cfgPath := filepath.Join(data, "parsing.yaml")
	if err := os.WriteFile(cfgPath, config, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out")
	if _, _, err := repro(t, "", "run", "--quiet", "--workers", "1", "--data", data, "--out", out, cfgPath); err != nil {
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
	wrong := 0.0
	for _, r := range runs {
		model := filepath.Join(t.TempDir(), r.Trainer+".repro")
		args := append(trainArgs(t, entries[r.Trainer], r, seed), "-o", model, filepath.Join(data, "train.conllu"))
		if _, _, err := repro(t, "", args...); err != nil {
			t.Fatalf("%s: %v", r.Trainer, err)
		}
		if got := evalError(t, model, filepath.Join(data, "test.conllu")); got != r.Metrics[metrics.AttachmentError] {
			t.Errorf("%s: repro eval's attachment error %v, the unit's %v (train %q)", r.Trainer, got, r.Metrics[metrics.AttachmentError], args)
		}
		t.Logf("%s (%v): attachment error %v", r.Trainer, r.Params, r.Metrics[metrics.AttachmentError])
		wrong += r.Metrics[metrics.AttachmentError]
	}
	if wrong == 0 {
		t.Error("every unit parsed the test file without an error: the comparison shows nothing")
	}

	// Tagging fills HEAD in and leaves the rest of every line alone, even
	// with HEAD unknown (_) in the input.
	model := filepath.Join(t.TempDir(), "p.repro")
	if _, _, err := repro(t, "", "train", "--quiet", "--task", "parsing", "--trainer", "perceptron", "-o", model, filepath.Join(data, "train.conllu")); err != nil {
		t.Fatal(err)
	}
	gold, err := os.ReadFile(filepath.Join(data, "test.conllu"))
	if err != nil {
		t.Fatal(err)
	}
	blank := regexp.MustCompile(`(?m)^(\d+\t[^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t[^\t]*\t)\d+`).ReplaceAllString(string(gold), "${1}_")
	tagged, _, err := repro(t, blank, "tag", "-m", model)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := regexp.MustCompile(`(?m)^(\d+\t(?:[^\t]*\t){5})\d+`).ReplaceAllString(tagged, "${1}_"), blank; got != want {
		t.Errorf("tag changed more than HEAD:\n%s\nwant (HEAD aside)\n%s", got, want)
	}
	tb, err := datasets.ReadTreebank(strings.NewReader(tagged), "tagged")
	if err != nil {
		t.Fatalf("tagged output is no treebank: %v", err)
	}
	if len(tb.Trees) != 30 {
		t.Errorf("%d trees tagged, want 30", len(tb.Trees))
	}
	if _, _, err := repro(t, "", "eval", "--conlleval", "-m", model, filepath.Join(data, "test.conllu")); err == nil || !strings.Contains(err.Error(), "--conlleval applies to sequence and segmentation models") {
		t.Errorf("eval --conlleval of a parser: %v", err)
	}
}

// TestParsingCommittedRows: `repro train --task parsing` + `repro eval`
// with the settings of configs/parsing.yaml give the committed runs of
// results/parsing exactly, for its online trainers on the Danish and Dutch
// treebanks (Swedish's and the cutting-plane rows take minutes each on a
// shared machine; the fixture test above covers their route).
func TestParsingCommittedRows(t *testing.T) {
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" || testing.Short() {
		t.Skip("needs the treebanks (REPRO_DATA) and no -short")
	}
	config, err := os.ReadFile("../../configs/parsing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Datasets []struct{ Name, Train, Test string } `yaml:"datasets"`
	}
	if err := yaml.Unmarshal(config, &cfg); err != nil {
		t.Fatal(err)
	}
	entries, seed := parsingEntries(t, config)
	runs, _, err := report.ReadRunsFile("../../results/parsing/runs.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, r := range runs {
		if (r.Trainer != "perceptron" && r.Trainer != "mira") || r.Dataset == "swedish" {
			continue
		}
		for _, d := range cfg.Datasets {
			if d.Name != r.Dataset {
				continue
			}
			model := filepath.Join(t.TempDir(), "m.repro")
			args := append(trainArgs(t, entries[r.Trainer], r, seed), "-o", model, filepath.Join(dir, d.Train))
			if _, _, err := repro(t, "", args...); err != nil {
				t.Fatalf("%s %s: %v", d.Name, r.Trainer, err)
			}
			if got := evalError(t, model, filepath.Join(dir, d.Test)); got != r.Metrics[metrics.AttachmentError] {
				t.Errorf("%s %s: repro eval's attachment error %v, committed %v", d.Name, r.Trainer, got, r.Metrics[metrics.AttachmentError])
			}
			checked++
		}
	}
	if checked != 4 {
		t.Errorf("checked %d committed runs, want 4 (2 treebanks × perceptron, MIRA)", checked)
	}
}
