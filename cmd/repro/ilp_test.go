package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/tasks"
)

// TestILPConfigEqualsExact: configs/ilp-small.yaml (decoder: ilp) gives
// the runs of the same config with the exact decoder: the same C chosen,
// the same iterations and the same test metrics, trainer by trainer and
// split by split.
func TestILPConfigEqualsExact(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../configs/ilp-small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\ndecoder: ilp\n") {
		t.Fatal("configs/ilp-small.yaml does not set decoder: ilp")
	}
	exact := filepath.Join(t.TempDir(), "exact.yaml")
	if err := os.WriteFile(exact, []byte(strings.Replace(string(b), "\ndecoder: ilp\n", "\ndecoder: exact\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	runs := map[string][]report.Run{}
	for _, cfg := range []string{"../../configs/ilp-small.yaml", exact} {
		out := filepath.Join(t.TempDir(), "out")
		if _, _, err := repro(t, "", "run", "--quiet", "--out", out, cfg); err != nil {
			t.Fatal(err)
		}
		if runs[cfg], _, err = report.ReadRunsFile(filepath.Join(out, "runs.jsonl")); err != nil {
			t.Fatal(err)
		}
	}
	ilp, ex := runs["../../configs/ilp-small.yaml"], runs[exact]
	if len(ilp) != 6 || len(ex) != len(ilp) {
		t.Fatalf("%d ILP runs, %d exact ones; want 3 trainers × 2 splits each", len(ilp), len(ex))
	}
	for i, r := range ilp {
		e := ex[i]
		got := fmt.Sprint(r.Trainer, r.Split, r.Params, r.Iterations, r.Metrics)
		if want := fmt.Sprint(e.Trainer, e.Split, e.Params, e.Iterations, e.Metrics); got != want {
			t.Errorf("ILP run %s, exact %s", got, want)
		}
	}
}

// TestTrainDecoderILP: `repro train --decoder ilp` records the decoder in
// the model file, and the ILP-decoded sequence and parsing models score
// exactly as the exact decoders' on their training data; the
// segmentation and multiclass models refuse it.
func TestTrainDecoderILP(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	treebank := filepath.Join(dir, "train.conllu")
	noisyTreebank(t, treebank, 20, 3)
	text := filepath.Join(dir, "train.txt")
	if err := os.WriteFile(text, []byte(strings.Repeat("a A\nb B\nc A\nd B\n\nb B\na A\nd A\n\n", 5)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ task, file string }{{"parsing", treebank}, {"sequence", text}} {
		var reports []string
		for _, decoder := range []string{"ilp", ""} {
			model := filepath.Join(dir, tc.task+decoder+".repro")
			args := []string{"train", "--quiet", "--task", tc.task, "--trainer", "margin", "--C", "1", "-o", model}
			if tc.task == "sequence" {
				args = append(args, "--encoding", "none")
			}
			if decoder != "" {
				args = append(args, "--decoder", decoder)
			}
			if _, _, err := repro(t, "", append(args, tc.file)...); err != nil {
				t.Fatalf("%s %q: %v", tc.task, decoder, err)
			}
			m, err := tasks.LoadFile(model)
			if err != nil {
				t.Fatal(err)
			}
			var recorded string
			switch m := m.(type) {
			case *tasks.Parser:
				recorded = m.Decoder
			case tasks.TaggerModel:
				recorded = m.Decoder
			}
			if recorded != decoder {
				t.Errorf("%s: the model file records decoder %q, trained with %q", tc.task, recorded, decoder)
			}
			out, _, err := repro(t, "", "eval", "-m", model, tc.file)
			if err != nil {
				t.Fatal(err)
			}
			reports = append(reports, out)
		}
		if reports[0] != reports[1] {
			t.Errorf("%s: eval with the ILP decoder\n%s\nwith the exact one\n%s", tc.task, reports[0], reports[1])
		}
	}
	for _, args := range [][]string{
		{"--task", "segmentation", "--encoding", "none", text},
		{"--task", "multiclass", filepath.Join(multiclassFixture, "train.libsvm")},
	} {
		all := append([]string{"train", "--quiet", "--trainer", "perceptron", "--decoder", "ilp", "-o", filepath.Join(dir, "x.repro")}, args...)
		if _, _, err := repro(t, "", all...); err == nil || !strings.Contains(err.Error(), "decoder ilp:") {
			t.Errorf("%q: %v, want a refusal of the ILP decoder", args, err)
		}
	}
}
