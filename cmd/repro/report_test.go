package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
)

// toyTreebank is ten short trees for the cfg task.
const toyTreebank = `( (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat)))) )
( (S (NP (DT a) (NN cat)) (VP (VBD saw) (NP (DT the) (NN dog)))) )
( (S (NP (NN dog)) (VP (VBD ran))) )
( (S (NP (DT the) (NN cat)) (VP (VBD ran))) )
( (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (NN cat)))) )
( (S (NP (DT the) (JJ big) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat)) (PP (IN in) (NP (DT the) (NN park))))) )
( (S (NP (NN cat)) (VP (VBD saw) (NP (DT the) (NN dog) (PP (IN in) (NP (DT a) (NN park)))))) )
( (S (NP (DT a) (NN dog)) (VP (VBD ran) (PP (IN in) (NP (DT the) (NN park))))) )
( (S (NP (DT the) (JJ small) (NN cat)) (VP (VBD ran))) )
( (S (NP (DT a) (NN cat)) (VP (VBD saw) (NP (DT a) (JJ big) (NN dog)))) )
`

const foldsConfig = `name: folds
seed: 5
datasets:
  - {name: toy, format: ptb, path: trees.mrg}
tasks: [cfg]
splits: {kind: file, path: folds.json}
trainers:
  - {name: generative, label: pcfg}
  - {name: margin, label: zero-one, delta_loss: zero-one, C: [1]}
compare:
  - [zero-one, pcfg]
`

// A cfg run on folds reports the sign tests pooled over them; repro report
// --config writes report.json again from the config that made the runs
// (and from no other), so that a results directory written before the
// report knew of folds gets them without rerunning a unit.
func TestReportConfigWritesTheSpec(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"trees.mrg":  toyTreebank,
		"folds.json": `[{"train": [5, 6, 7, 8, 9], "test": [0, 1, 2, 3, 4]}, {"train": [0, 1, 2, 3, 4], "test": [5, 6, 7, 8, 9]}]`,
		"folds.yaml": foldsConfig,
		"other.yaml": strings.Replace(foldsConfig, "seed: 5", "seed: 6", 1),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	repro := func(args ...string) error {
		var stdout, stderr bytes.Buffer
		return run(context.Background(), args, nil, &stdout, &stderr)
	}
	if err := repro("run", "--quiet", "--workers", "1", "--data", dir, "--out", out, filepath.Join(dir, "folds.yaml")); err != nil {
		t.Fatal(err)
	}
	pooled := func() bool {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, "table.txt"))
		if err != nil {
			t.Fatal(err)
		}
		return strings.Contains(string(b), "zero-one vs pcfg (toy/cfg): sentence bracket F1 higher for zero-one on ")
	}
	if !pooled() {
		t.Fatal("a cfg run on folds has no pooled sign test")
	}
	// A report.json from before the report knew of folds.
	specPath := filepath.Join(out, report.SpecFile)
	spec, err := report.ReadSpec(specPath)
	if err != nil {
		t.Fatal(err)
	}
	if spec.Folds == nil || len(spec.Folds.TestItems) != 2 {
		t.Fatalf("report.json folds %+v, want two of 5", spec.Folds)
	}
	spec.Folds = nil
	if err := report.WriteSpec(specPath, spec); err != nil {
		t.Fatal(err)
	}
	if err := repro("report", "--quiet", out); err != nil || pooled() {
		t.Fatalf("without folds: error %v, pooled %v", err, pooled())
	}
	if err := repro("report", "--quiet", "--config", filepath.Join(dir, "other.yaml"), out); err == nil || !strings.Contains(err.Error(), "is not the config that made the runs") {
		t.Errorf("another config: error %v", err)
	}
	if err := repro("report", "--quiet", "--config", filepath.Join(dir, "folds.yaml"), out); err != nil || !pooled() {
		t.Fatalf("--config: error %v, pooled %v", err, pooled())
	}
	if back, err := report.ReadSpec(specPath); err != nil || back.Folds == nil {
		t.Errorf("report.json after --config: %+v, %v", back.Folds, err)
	}
}
