package experiments

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
)

// writeChunkFile writes n sentences with noun and verb phrases: "the" or
// "a" opens a noun phrase, nouns continue it, verbs are one-word verb
// phrases.
func writeChunkFile(t *testing.T, path string, n int) {
	t.Helper()
	nouns := []string{"cat", "dog", "bird", "fish"}
	verbs := []string{"sees", "eats", "likes"}
	var b strings.Builder
	for s := range n {
		fmt.Fprintf(&b, "the DT B-NP\n%s NN I-NP\n%s VBZ B-VP\na DT B-NP\n%s NN I-NP\n\n", nouns[s%4], verbs[s%3], nouns[(s+1)%4])
	}
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// NP chunking: keep_types maps the verb phrases to O, so only the two noun
// phrases of each test sentence are scored, and the chunking features
// (word and POS windows) learn them.
func TestRunChunkingKeepTypes(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeChunkFile(t, filepath.Join(data, "train.txt"), 20)
	writeChunkFile(t, filepath.Join(data, "test.txt"), 6)
	cfg := mustConfig(t, `name: np
datasets:
  - {name: tiny-np, format: conll, columns: [word, pos, label], encoding: iob2, train: train.txt, test: test.txt, keep_types: [NP]}
tasks: [sequence]
splits: {kind: fixed}
features: {kind: chunking}
trainers:
  - {name: perceptron, epochs: 3}
`)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 1 {
		t.Fatalf("%d runs, want 1", len(runs))
	}
	o := runs[0].Outcomes
	truth := 0
	for s := range o.Tokens {
		truth += o.TrueSpans[s]
	}
	if truth != 6*2 {
		t.Errorf("%d true chunks, want 12 (two noun phrases a sentence; the verb phrases are O)", truth)
	}
	if f1 := runs[0].Metrics["span_f1"]; f1 != 100 {
		t.Errorf("span F1 %v on a language the features separate, want 100", f1)
	}
}

func TestChunkingConfigErrors(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{
			name: "no pos column",
			text: "datasets:\n  - {name: c, format: conll, columns: [word, tag, label], encoding: iob2, path: c.txt}\ntasks: [sequence]\nfeatures: {kind: chunking}\ntrainers: [{name: perceptron}]\n",
			want: `small.yaml:2: datasets[0].name: features.kind chunking reads part-of-speech tags: dataset "c" needs format conll with a column named pos`,
		},
		{
			name: "not a column file",
			text: "datasets:\n  - name: cora\ntasks: [sequence]\nfeatures: {kind: chunking}\ntrainers: [{name: perceptron}]\n",
			want: `dataset "cora" needs format conll`,
		},
		{
			name: "window",
			text: "datasets:\n  - name: conll2000\ntasks: [sequence]\nfeatures: {kind: chunking, window: 1}\ntrainers: [{name: perceptron}]\n",
			want: "features.window: chunking features are Sha & Pereira's fixed set",
		},
		{
			name: "keep_types on plain labels",
			text: "datasets:\n  - {name: c, format: conll, encoding: none, path: c.txt, keep_types: [NP]}\ntasks: [sequence]\nfeatures: {kind: ner}\ntrainers: [{name: perceptron}]\n",
			want: "datasets[0].keep_types: keeps chunk types of a chunk encoding",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse([]byte(tt.text), "small.yaml")
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one containing %q", err, tt.want)
			}
		})
	}
}

// A tagged corpus of fixed parts: random splits pool the parts, and both
// tasks train on its segments.
func TestRunTaggedPooled(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	var train, test strings.Builder
	streets := []string{"Main Street,", "Oak Road,", "Spit Road,", "Elm Avenue,"}
	cities := []string{"Homer,", "Denver,", "Phoenix,"}
	for i := range 24 {
		b := &test
		if i < 4 {
			b = &train
		}
		fmt.Fprintf(b, "%d |1\n%s |3\n%s |5\nAK |6\n%d |7\n\n", 100+i, streets[i%4], cities[i%3], 99600+i)
	}
	for name, b := range map[string]*strings.Builder{"a.tagged": &train, "b.tagged": &test} {
		if err := os.WriteFile(filepath.Join(data, name), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := mustConfig(t, `name: addr
datasets:
  - {name: addr, format: tagged, train: a.tagged, test: b.tagged}
tasks: [sequence, segmentation]
splits: {count: 2, train_fractions: [0.5]}
features: {lexicons: false}
trainers:
  - {name: margin, C: [1]}
`)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	for _, r := range runs {
		if r.TrainSize != 12 || r.TestSize != 12 {
			t.Errorf("%s split %d: trained on %d, tested on %d; want 12 and 12 of the 24 pooled records", r.Task, r.Split, r.TrainSize, r.TestSize)
		}
	}
}
