package experiments

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/report"
)

// writeColumnFile writes n sentences of a tiny chunking language: "the"
// and "a" open a noun phrase (B-NP), nouns continue it (I-NP), verbs are O.
func writeColumnFile(t *testing.T, path string, n, seed int) {
	t.Helper()
	nouns := []string{"cat", "dog", "bird", "fish", "mouse"}
	verbs := []string{"sees", "eats", "likes", "chases"}
	var b strings.Builder
	for s := range n {
		k := s + seed
		fmt.Fprintf(&b, "the DT B-NP\n%s NN I-NP\n%s VBZ O\n", nouns[k%5], verbs[k%4])
		if k%3 == 0 {
			fmt.Fprintf(&b, "a DT B-NP\n%s NN I-NP\n", nouns[(k/3)%5])
		} else {
			fmt.Fprintf(&b, "%s NN B-NP\n", nouns[(k+2)%5])
		}
		b.WriteString("\n")
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A declared column corpus with fixed parts trains on train, chooses C on
// dev (or on a held-out part of train when there is no dev) and tests once
// on test.
func TestRunFixedSplits(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeColumnFile(t, filepath.Join(data, "train.txt"), 24, 0)
	writeColumnFile(t, filepath.Join(data, "dev.txt"), 7, 100)
	writeColumnFile(t, filepath.Join(data, "test.txt"), 9, 200)
	for _, tt := range []struct {
		name               string
		dev                string
		wantValTrain, want int // validation units' train and eval sizes
	}{
		{"with dev", "    dev: dev.txt\n", 24, 7},
		{"without dev", "", 18, 6}, // a quarter of train held out
	} {
		t.Run(tt.name, func(t *testing.T) {
			cfg := mustConfig(t, `name: fixed
seed: 1
datasets:
  - name: tiny
    format: conll
    columns: [word, pos, label]
    encoding: iob2
    train: train.txt
`+tt.dev+`    test: test.txt
splits: {kind: fixed}
trainers:
  - {name: margin, C: [0.1, 1]}
  - {name: perceptron, epochs: 2}
compare:
  - [margin, perceptron]
`)
			dir := t.TempDir()
			var stdout strings.Builder
			if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Workers: 2, Stdout: &stdout}); err != nil {
				t.Fatal(err)
			}
			runs := readRuns(t, dir)
			if len(runs) != 2 {
				t.Fatalf("%d runs, want 2", len(runs))
			}
			// One split: the comparison is McNemar's test and a bootstrap.
			for _, want := range []string{"margin vs perceptron (tiny/sequence): token error diff", "McNemar exact p=", "paired bootstrap p=", "1000 resamples", "Paired tests on one split"} {
				if !strings.Contains(stdout.String(), want) {
					t.Errorf("printed tables lack %q:\n%s", want, stdout.String())
				}
			}
			r := runs[slices.IndexFunc(runs, func(r report.Run) bool { return r.Trainer == "margin" })]
			if r.TrainSize != 24 || r.TestSize != 9 || r.Split != 0 || len(r.Selection) != 2 {
				t.Errorf("test run trained on %d, tested on %d (want 24, 9), split %d, %d candidates", r.TrainSize, r.TestSize, r.Split, len(r.Selection))
			}
			// The test run keeps its per-sentence outcomes, which add up
			// to its metrics (span F1 is conlleval's over the chunks).
			o := r.Outcomes
			if o == nil || len(o.Tokens) != 9 {
				t.Fatalf("test run outcomes %+v, want 9 sentences", o)
			}
			if err := o.Check(); err != nil {
				t.Error(err)
			}
			wrong, matched, truth, pred := 0, 0, 0, 0
			for s := range o.Tokens {
				wrong, matched, truth, pred = wrong+o.Wrong[s], matched+o.Matched[s], truth+o.TrueSpans[s], pred+o.PredSpans[s]
			}
			if got := 100 * float64(wrong) / float64(o.NumTokens()); math.Abs(got-r.Metrics["token_error"]) > 1e-9 {
				t.Errorf("outcomes give token error %v, run %v", got, r.Metrics["token_error"])
			}
			if got := 200 * float64(matched) / float64(truth+pred); math.Abs(got-r.Metrics["span_f1"]) > 1e-9 {
				t.Errorf("outcomes give span F1 %v, run %v", got, r.Metrics["span_f1"])
			}
			if truth != 9*2 {
				t.Errorf("%d true chunks in the test part, want 18 (two noun phrases a sentence)", truth)
			}
			units, err := filepath.Glob(filepath.Join(dir, "units", "*.json"))
			if err != nil || len(units) != 4 {
				t.Fatalf("%d units (%v), want 4 (2 validation, 2 test)", len(units), err)
			}
			val := 0
			for _, f := range units {
				b, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				var u unitResult
				if err := json.Unmarshal(b, &u); err != nil {
					t.Fatal(err)
				}
				if u.Spec.Phase == store.PhaseValidate {
					if u.Outcomes != nil {
						t.Error("a validation unit kept outcomes")
					}
					val++
					if u.TrainSize != tt.wantValTrain || u.EvalSize != tt.want {
						t.Errorf("validation unit trained on %d, scored %d; want %d, %d", u.TrainSize, u.EvalSize, tt.wantValTrain, tt.want)
					}
				}
			}
			if val != 2 {
				t.Errorf("%d validation units, want 2", val)
			}
		})
	}
}

// A missing file of a declared corpus names the file, the data directory
// and how it was chosen.
func TestRunDeclaredDatasetMissingFile(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `name: missing
datasets:
  - {name: mine, format: conll, encoding: iob2, train: nope/train.txt, test: nope/test.txt, obtain: "the lab's share"}
splits: {kind: fixed}
trainers:
  - {name: perceptron}
`)
	_, err := Run(context.Background(), cfg, Options{OutDir: t.TempDir(), DataDir: "/nonexistent-data", DataSource: "--data", Stdout: new(strings.Builder)})
	if err == nil {
		t.Fatal("ran without data")
	}
	for _, want := range []string{`dataset "mine"`, "/nonexistent-data/nope/train.txt", "--data", "the lab's share", "<data dir>/nope/train.txt"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
}

// A dataset's own features override the config's, for that dataset only:
// the attributes it is prepared with and the settings its units train with.
func TestDatasetFeatureOverride(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeColumnFile(t, filepath.Join(data, "all.txt"), 12, 0)
	cfg := mustConfig(t, `name: ablation
datasets:
  - {name: full, format: conll, encoding: iob2, columns: [word, pos, label], path: all.txt}
  - name: token-only
    format: conll
    encoding: iob2
    columns: [word, pos, label]
    path: all.txt
    features: {window: 0, affixes: 0, lexicons: false, edges: false}
splits: {count: 1, train_fractions: [0.5]}
trainers:
  - {name: perceptron}
`)
	prepared, err := prepare(context.Background(), cfg, Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	full, token := prepared[0], prepared[1]
	if full.hash != token.hash {
		t.Error("the same file hashes differently")
	}
	want := config.UnitFeatures{Window: 1, Affixes: 3, Edges: true}
	if full.features != want {
		t.Errorf("full features %+v, want %+v", full.features, want)
	}
	if want := (config.UnitFeatures{NoLexicons: true}); token.features != want {
		t.Errorf("token-only features %+v, want %+v", token.features, want)
	}
	if len(token.attrs[0][0]) >= len(full.attrs[0][0]) {
		t.Errorf("token-only has %d attributes on the first token, full %d", len(token.attrs[0][0]), len(full.attrs[0][0]))
	}
	for _, a := range token.attrs[0][1] {
		if strings.HasPrefix(a, "pre=") || strings.HasPrefix(a, "-1:") || strings.HasPrefix(a, "lex=") {
			t.Errorf("token-only attribute %q", a)
		}
	}
	r := &runner{cfg: cfg, data: prepared}
	units, err := r.plan(context.Background(), store.PhaseTest, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(units) != 2 || units[0].Features == units[1].Features || units[1].Features.Edges {
		t.Errorf("planned features %+v", units)
	}
}

// NER features read the declared extra columns by name, and a frequency
// cut-off drops the rare attributes from the index a unit trains with.
func TestRunNERFeatures(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeColumnFile(t, filepath.Join(data, "train.txt"), 24, 0)
	writeColumnFile(t, filepath.Join(data, "test.txt"), 9, 200)
	cfg := mustConfig(t, `name: ner
datasets:
  - {name: tiny, format: conll, columns: [word, pos, label], encoding: iob2, train: train.txt, test: test.txt}
splits: {kind: fixed}
features: {kind: ner, window: 1, min_count: 3}
trainers:
  - {name: perceptron, epochs: 3}
`)
	prepared, err := prepare(context.Background(), cfg, Options{DataDir: data})
	if err != nil {
		t.Fatal(err)
	}
	d := prepared[0]
	if want := (config.UnitFeatures{Kind: config.FeaturesNER, Window: 1, Affixes: 4, Edges: true, MinCount: 3}); d.features != want {
		t.Errorf("features %+v, want %+v", d.features, want)
	}
	first := d.attrs[0][0]
	for _, want := range []string{"w=the", "pos=DT", "+1:pos=NN", "first"} {
		if !slices.Contains(first, want) {
			t.Errorf("first token lacks %q: %v", want, first)
		}
	}
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Stdout: new(strings.Builder)}); err != nil {
		t.Fatal(err)
	}
	if runs := readRuns(t, dir); len(runs) != 1 || runs[0].Metrics["span_f1"] <= 0 {
		t.Errorf("runs %+v", runs)
	}
}

// configs/conll2000.yaml reads CoNLL-2000 chunking files (word POS chunk,
// IOB2) as NP chunking (keep_types: [NP], chunking features): run here on
// fixture files in its layout, reduced to the perceptron; without the files
// it says where to get them.
func TestConll2000Config(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load(filepath.Join("..", "configs", "conll2000.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = Run(context.Background(), cfg, Options{OutDir: t.TempDir(), DataDir: t.TempDir(), DataSource: "--data", Stdout: new(strings.Builder)})
	for _, want := range []string{"conll2000/train.txt", "clips.uantwerpen.be/conll2000"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("missing data: error %v lacks %q", err, want)
		}
	}
	data := t.TempDir()
	if err := os.MkdirAll(filepath.Join(data, "conll2000"), 0o755); err != nil {
		t.Fatal(err)
	}
	chunks := "Confidence NN B-NP\nin IN B-PP\nthe DT B-NP\npound NN I-NP\nis VBZ B-VP\nwidely RB I-VP\nexpected VBN I-VP\n. . O\n\n"
	other := "Chancellor NNP B-NP\nof IN B-PP\nthe DT B-NP\nExchequer NNP I-NP\nNigel NNP B-NP\nLawson NNP I-NP\n. . O\n\n"
	for name, n := range map[string]int{"train.txt": 12, "test.txt": 4} {
		var b strings.Builder
		for i := range n {
			b.WriteString([]string{chunks, other}[i%2])
		}
		if err := os.WriteFile(filepath.Join(data, "conll2000", name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg.Trainers = cfg.Trainers[0:1] // the perceptron
	cfg.Compare, cfg.Paper = nil, nil
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Stdout: new(strings.Builder)}); err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 1 || runs[0].TrainSize != 12 || runs[0].TestSize != 4 || runs[0].Outcomes == nil {
		t.Fatalf("runs %+v", runs)
	}
	if o := runs[0].Outcomes; o.TrueSpans[0] != 2 || o.TrueSpans[1] != 3 {
		t.Errorf("true chunks per sentence %v, want 2 and 3 (NP PP NP VP and NP PP NP NP: the noun phrases only)", o.TrueSpans)
	}
}
