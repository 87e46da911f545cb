package experiments

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/report"
)

// curvesConfig has a trainer of every family, margin with a C grid (so
// there is a validation stage), both sequence tasks, and learning-curve
// figures.
const curvesConfig = `name: curves
seed: 9
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
tasks: [sequence, segmentation]
splits: {count: 2, train_fractions: [0.5]}
trainers:
  - {name: perceptron, epochs: 4}
  - {name: mira, k: 2, epochs: 3}
  - {name: margin, C: [0.1, 1], solver: one-slack}
  - {name: crf, C: [1]}
curves: true
figures:
  - {name: accuracy, task: sequence, x: cpu_seconds, y: accuracy, log_x: true}
  - {name: f1, x: cpu_seconds, y: span_f1}
  - {name: segments, task: segmentation, x: cpu_seconds, y: segment_error}
`

// curveView is what a learning curve must reproduce: everything but the
// CPU times, which are measurements.
type curveView struct {
	Trainer, Task string
	Split         int
	Iteration     int
	TokenError    float64
	SpanF1        float64
	SegmentError  float64
}

func curveViews(runs []report.Run) []curveView {
	var out []curveView
	for _, r := range runs {
		for _, p := range r.Curve {
			out = append(out, curveView{r.Trainer, r.Task, r.Split, p.Iteration, p.Metrics["token_error"], p.Metrics["span_f1"], p.Metrics["segment_error"]})
		}
	}
	return out
}

// unitKeys lists the unit files of a results directory.
func unitKeys(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, "units"))
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") {
			keys = append(keys, e.Name())
		}
	}
	return keys
}

// The whole path: with curves: true every test unit scores the test set at
// its trainer's checkpoints, runs.jsonl keeps the curves, and the figures
// are drawn; the curves do not depend on the worker count; and the final
// results, and the validation units' keys, are those of the same config
// without curves.
func TestRunLearningCurves(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	cfg := mustConfig(t, curvesConfig)
	one, two, plain := t.TempDir(), t.TempDir(), t.TempDir()
	if _, err := Run(ctx, cfg, Options{OutDir: one, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, cfg, Options{OutDir: two, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	noCurves := curvesConfig[:strings.Index(curvesConfig, "curves: true")] // and no figures
	if _, err := Run(ctx, mustConfig(t, noCurves), Options{OutDir: plain, Workers: 2}); err != nil {
		t.Fatal(err)
	}

	runs := readRuns(t, one)
	if len(runs) != 4*2*2 {
		t.Fatalf("%d runs, want 16 (4 trainers × 2 tasks × 2 splits)", len(runs))
	}
	for _, r := range runs {
		c := r.Curve
		if len(c) == 0 {
			t.Fatalf("%s/%s split %d has no curve", r.Task, r.Trainer, r.Split)
		}
		last := c[len(c)-1]
		// The last checkpoint is the returned model: its scores are the
		// run's, at its iteration count.
		if last.Iteration != r.Iterations || last.Metrics["token_error"] != r.Metrics["token_error"] || last.Metrics["span_f1"] != r.Metrics["span_f1"] || last.Metrics["segment_error"] != r.Metrics["segment_error"] {
			t.Errorf("%s/%s split %d: last checkpoint %+v, run: %d iterations, %v, %v, %v", r.Task, r.Trainer, r.Split, last, r.Iterations, r.Metrics["token_error"], r.Metrics["span_f1"], r.Metrics["segment_error"])
		}
		if (r.Task == config.TaskSegmentation) != (last.Metrics["segment_error"] > 0) {
			t.Errorf("%s/%s: segment error %v", r.Task, r.Trainer, last.Metrics["segment_error"])
		}
		for i, p := range c {
			if i > 0 && (p.Iteration <= c[i-1].Iteration || p.CPUSeconds < c[i-1].CPUSeconds) {
				t.Errorf("%s/%s: checkpoint %d (%d, %v s) after (%d, %v s)", r.Task, r.Trainer, i, p.Iteration, p.CPUSeconds, c[i-1].Iteration, c[i-1].CPUSeconds)
			}
			if runtime.GOOS == "linux" && !(p.CPUSeconds > 0) {
				t.Errorf("%s/%s: checkpoint %d has no CPU time", r.Task, r.Trainer, i)
			}
		}
		if r.Trainer == "perceptron" || r.Trainer == "mira" {
			if len(c) != r.Iterations {
				t.Errorf("%s: %d checkpoints in %d epochs, want one per epoch", r.Trainer, len(c), r.Iterations)
			}
		}
	}
	if a, b := curveViews(runs), curveViews(readRuns(t, two)); !slices.Equal(a, b) {
		t.Errorf("curves differ between 1 and 2 workers:\n%v\n%v", a, b)
	}
	if a, b := metricView(runs), metricView(readRuns(t, plain)); !equalViews(a, b) {
		t.Errorf("results with curves differ from those without:\n%v\n%v", a, b)
	}
	for _, r := range readRuns(t, plain) {
		if r.Curve != nil {
			t.Errorf("a run without curves: true has a curve: %s", r.Trainer)
		}
	}
	// Validation units (margin's C grid: 2 tasks × 2 splits × 2 C) are
	// shared with the config without curves; test units are not.
	withKeys, plainKeys := unitKeys(t, one), unitKeys(t, plain)
	shared := 0
	for _, k := range withKeys {
		if slices.Contains(plainKeys, k) {
			shared++
		}
	}
	if shared != 8 || len(withKeys) != 8+16 {
		t.Errorf("%d units of which %d shared with the run without curves; want 24 and the 8 validation units", len(withKeys), shared)
	}

	for _, stem := range []string{"accuracy", "f1-sequence", "f1-segmentation", "segments"} {
		for _, ext := range []string{"png", "svg", "pdf"} {
			if _, err := os.Stat(filepath.Join(one, stem+"."+ext)); err != nil {
				t.Error(err)
			}
		}
	}
	index, err := os.ReadFile(filepath.Join(one, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(index), "Lines are means over 2 splits") {
		t.Error("index.html lacks the learning-curve caption")
	}
}
