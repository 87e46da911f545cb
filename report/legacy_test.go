package report

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/ from the current output")

// legacyRuns are fixtureRuns plus a cora/segmentation row written before
// runs carried a segment error, as every committed results directory was:
// their report must not change when the package learns new quantities.
func legacyRuns() []Run {
	runs := fixtureRuns()
	for s := range 4 {
		for i, tr := range []string{"margin", "slack", "poslearn"} {
			runs = append(runs, Run{
				Key: "seg-" + tr + "-" + string(rune('0'+s)), Dataset: "cora", Task: "segmentation", Trainer: tr,
				Params: map[string]float64{"C": 1}, Split: s, TrainFraction: 0.25, TrainSize: 125, TestSize: 375,
				Metrics:      map[string]float64{"token_error": 6.5 + 0.1*float64(i) + 0.2*float64(s%2) + 0.03*float64(i*s*s), "span_f1": 88.5 - 0.3*float64(i) + 0.1*float64(s) - 0.05*float64(i*s)},
				TrainSeconds: 5, Iterations: 30, Constraints: 300, Version: "abc123",
			})
		}
	}
	return runs
}

// legacySpec is fixtureOptions' layout with fixturePaper and a paper
// token error for the segmentation row, as configs/cora.yaml had it.
func legacySpec() Spec {
	opt := fixtureOptions()
	paper := fixturePaper()
	paper.Values = append(paper.Values,
		PaperValue{Dataset: "cora", Task: "segmentation", Trainer: "margin", Metrics: map[string]float64{"token_error": 17.7, "span_f1": 81.8}})
	return Spec{Title: "legacy", Trainers: opt.Trainers, Comparisons: opt.Comparisons,
		Paper: &paper}
}

// checkGolden compares the files WriteAll wrote into dir with those under
// testdata/golden, or rewrites the latter with -update.
func checkGolden(t *testing.T, dir, golden string, names []string) {
	t.Helper()
	for _, name := range names {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", golden, name)
		if *update {
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test -update to create it)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s:\n%s", name, path, got)
		}
	}
}

// Runs without a segment error render byte for byte as they did before
// the segment error existed (testdata/legacy was written by that code).
func TestLegacyRunsRenderUnchanged(t *testing.T) {
	dir := t.TempDir()
	if err := WriteAll(dir, legacyRuns(), legacySpec()); err != nil {
		t.Fatal(err)
	}
	checkGolden(t, dir, "legacy", []string{
		"table.txt", "table.md", "table.csv", "table.tex",
		"paper.txt", "paper.md", "paper.csv", "index.html",
	})
}
