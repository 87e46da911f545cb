package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/tasks"
)

// nerFile writes a small learnable column file ("word POS label", IOB2):
// the words decide the labels.
func nerFile(t *testing.T, dir string, sentences int) string {
	t.Helper()
	people := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Kurt"}
	places := []string{"Paris", "Oslo", "Lima"}
	verbs := []string{"visited", "left", "praised"}
	var b strings.Builder
	for i := range sentences {
		for k, w := range strings.Fields(people[i%len(people)]) {
			fmt.Fprintf(&b, "%s NNP %s-PER\n", w, map[bool]string{true: "B", false: "I"}[k == 0])
		}
		fmt.Fprintf(&b, "%s VBD O\n%s NNP B-LOC\n. . O\n\n", verbs[(i/4)%len(verbs)], places[(i/3)%len(places)])
	}
	path := filepath.Join(dir, "train.txt")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// repro runs the command line args with stdin in and returns stdout and
// stderr.
func repro(t *testing.T, in string, args ...string) (string, string, error) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), args, strings.NewReader(in), &stdout, &stderr)
	return stdout.String(), stderr.String(), err
}

// TestTrainTagEval trains through the command line, with flags before and
// after the file, tags a file and stdin (twice: byte-identical output),
// and evaluates; progress and the summary go to stderr unless --quiet.
func TestTrainTagEval(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	train := nerFile(t, dir, 24)
	model := filepath.Join(dir, "ner.repro")
	_, stderr, err := repro(t, "", "train", "--trainer", "poslearn", train, "--C", "1", "-o", model, "--solver", "one-slack")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"label encoding iob2 (detected: all 114 tags read; iob1, iobes would read them too (the same chunks))", "repro: train: iteration 1:", "trained poslearn (C=1,", "solver=one-slack", "wrote " + model} {
		if !strings.Contains(stderr, want) {
			t.Errorf("train's stderr lacks %q:\n%s", want, stderr)
		}
	}
	m, err := tagger.LoadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	if m.Trainer != "poslearn" || m.Params["C"] != 1.0 || m.Params["solver"] != "one-slack" || m.Format.Scheme != "iob2" {
		t.Errorf("model: trainer %s, params %v, format %+v", m.Trainer, m.Params, m.Format)
	}

	const tokens = "Alan\nTuring\nleft\nLima\n.\n\nKurt\npraised\nOslo\n"
	first, _, err := repro(t, tokens, "tag", "-m", model)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Alan B-PER\nTuring I-PER\nleft O\nLima B-LOC\n. O\n\nKurt B-PER\npraised O\nOslo B-LOC\n"; first != want {
		t.Errorf("tag output\n%s\nwant\n%s", first, want)
	}
	input := filepath.Join(dir, "tokens.txt")
	if err := os.WriteFile(input, []byte(tokens), 0o644); err != nil {
		t.Fatal(err)
	}
	again, _, err := repro(t, "", "tag", input, "-m", model, "--quiet")
	if err != nil || again != first {
		t.Errorf("tagging the file gave %q, %v; stdin gave %q", again, err, first)
	}
	labelled, _, err := repro(t, "", "tag", "-m", model, train)
	if err != nil {
		t.Fatal(err)
	}
	if twice, _, err := repro(t, "", "tag", "-m", model, train); err != nil || twice != labelled {
		t.Errorf("tagging twice differs (%v)", err)
	}

	out, _, err := repro(t, "", "eval", train, "-m", model)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sentences: 24, tokens: 114", "token error: 0.00% (0 of 114 tokens)", "precision 100.00%, recall 100.00%, F1 100.00 (true 48, predicted 48, correct 48)", "LOC ", "PER "} {
		if !strings.Contains(out, want) {
			t.Errorf("eval output lacks %q:\n%s", want, out)
		}
	}
	if out, _, err := repro(t, "", "eval", "--conlleval", "-m", model, train); err != nil || !strings.Contains(out, "processed 114 tokens with 48 phrases; found: 48 phrases; correct: 48.") {
		t.Errorf("eval --conlleval: %v\n%s", err, out)
	}

	quiet := filepath.Join(dir, "quiet.repro")
	if _, stderr, err := repro(t, "", "train", "--quiet", "--trainer", "perceptron", "--param", "epochs=3", "--window", "0", "--affixes=1", "--edges=false", "-o", quiet, train); err != nil || stderr != "" {
		t.Fatalf("train --quiet: %v, stderr %q", err, stderr)
	}
	q, err := tagger.LoadFile(quiet)
	if err != nil {
		t.Fatal(err)
	}
	if f := q.Features; f.Kind != tagger.NER || f.Window != 0 || f.Affixes != 1 || f.Edges || q.Params["epochs"] != 3.0 {
		t.Errorf("features %+v, params %v; want ner, window 0, affixes 1, no edges, 3 epochs", f, q.Params)
	}
}

// TestTrainTagEvalErrors: command-line mistakes (exit status 2) and bad
// input name what is wrong, and where for files.
func TestTrainTagEvalErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	train := nerFile(t, dir, 8)
	ragged := filepath.Join(dir, "ragged.txt")
	if err := os.WriteFile(ragged, []byte("EU NNP B-ORG\nrejects VBZ O\ncall O\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	model := filepath.Join(dir, "m.repro")
	if _, _, err := repro(t, "", "train", "--quiet", "--trainer", "perceptron", "-o", model, train); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(model)
	if err != nil {
		t.Fatal(err)
	}
	binary.BigEndian.PutUint32(b[len("repro-model\n"):], modelfile.Newest+1)
	future := filepath.Join(dir, "future.repro")
	if err := os.WriteFile(future, b, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "missing.txt")
	for _, tc := range []struct {
		name  string
		args  []string
		want  string
		usage bool
	}{
		{"missing file", []string{"train", "--trainer", "perceptron", "-o", model, missing}, "missing.txt: no such file", false},
		{"wrong column count", []string{"train", "--trainer", "perceptron", "-o", model, ragged}, "ragged.txt:3: 2 columns, want 3", false},
		{"unknown trainer", []string{"train", "--trainer", "svm", "-o", model, train}, `unknown trainer "svm" (known: [margin slack approx-slack poslearn perceptron`, true},
		{"bad param value", []string{"train", "--trainer", "perceptron", "--param", "epochs=many", "-o", model, train}, `--param epochs takes an integer, got "many"`, true},
		{"param out of range", []string{"train", "--trainer", "poslearn", "--C", "-1", "-o", model, train}, "--C must be in (0, 1e+12], got -1", true},
		{"param of another trainer", []string{"train", "--trainer", "perceptron", "--C", "1", "-o", model, train}, `--C does not apply to trainer "perceptron" (its params: epochs, average, seed)`, true},
		{"unknown param", []string{"train", "--trainer", "margin", "--C", "1", "--param", "tolerance=1", "-o", model, train}, `--param tolerance does not apply to trainer "margin"`, true},
		{"param twice", []string{"train", "--trainer", "margin", "--C", "1", "--param", "C=2", "-o", model, train}, "--C and --param C=... both given", true},
		{"malformed param", []string{"train", "--trainer", "margin", "--param", "C", "-o", model, train}, `want KEY=VALUE, got "C"`, true},
		{"unknown task", []string{"train", "--trainer", "perceptron", "--task", "pos", "-o", model, train}, `unknown task "pos" (known: ` + strings.Join(tasks.Names(), ", ") + ")", true},
		{"parsing a column file", []string{"train", "--task", "parsing", "--trainer", "perceptron", "-o", model, train}, "want 10", false},
		{"a tagger flag for parsing", []string{"train", "--task", "parsing", "--trainer", "perceptron", "--columns", "word,label", "-o", model, train}, "--columns applies to the sequence and segmentation tasks only", true},
		{"slack on trees", []string{"train", "--task", "parsing", "--trainer", "slack", "--C", "1", "-o", model, train}, "slack", true},
		{"unknown features", []string{"train", "--trainer", "perceptron", "--features", "pixels", "-o", model, train}, `unknown feature kind "pixels"`, true},
		{"segmenting chunks", []string{"train", "--trainer", "perceptron", "--task", "segmentation", "-o", model, train}, "needs plain labels", false},
		{"no -o", []string{"train", "--trainer", "perceptron", train}, "train needs -o MODEL", true},
		{"no trainer", []string{"train", "-o", model, train}, "train needs --trainer NAME (known: margin,", true},
		{"no file", []string{"train", "--trainer", "perceptron", "-o", model}, "exactly one training file", true},
		{"tag without model", []string{"tag", train}, "tag needs -m MODEL", true},
		{"tag two inputs", []string{"tag", "-m", model, train, train}, "at most one input file", true},
		{"tag with a missing model", []string{"tag", "-m", missing, train}, "missing.txt", false},
		{"tag ragged input", []string{"tag", "-m", model, ragged}, "ragged.txt:3: 2 columns, want 3 as on the first token line (line 1)", false},
		{"model of another format version", []string{"tag", "-m", future, train}, fmt.Sprintf("model file format version %d; this repro reads versions 1 to %d only", modelfile.Newest+1, modelfile.Newest), false},
		{"model that is not one", []string{"eval", "-m", train, train}, "does not start with the model file header", false},
		{"eval ragged file", []string{"eval", "-m", model, ragged}, "ragged.txt:3: 2 columns, want 3", false},
		{"eval without file", []string{"eval", "-m", model}, "exactly one test file", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := repro(t, "", tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want one containing %q", err, tc.want)
			}
			var ue usageError
			if got := errors.As(err, &ue); got != tc.usage {
				t.Errorf("usage error = %v, want %v", got, tc.usage)
			}
		})
	}
}

// TestTrainHelpListsTrainers: train -h prints the flags and every
// trainer's params, on stdout.
func TestTrainHelpListsTrainers(t *testing.T) {
	t.Parallel()
	out, _, err := repro(t, "", "train", "-h")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Usage: repro train", "-trainer", "poslearn:", "approx-slack:", "epochs (int in [1, ∞), default 10)"} {
		if !strings.Contains(out, want) {
			t.Errorf("train -h lacks %q", want)
		}
	}
}
