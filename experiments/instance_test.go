package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments/config"
)

// Instance splits train on an instantiation's training draw and test on its
// own test draw: split k's sizes are section 8.1's, and the generator's
// cost matrix scores it (Synth2's 0.1 makes the cost-weighted error lower
// than the error rate).
func TestRunInstanceSplits(t *testing.T) {
	if testing.Short() {
		t.Skip("trains on 6,000 points per split")
	}
	t.Parallel()
	cfg := mustConfig(t, `name: inst
seed: 1
datasets:
  - name: synth2
tasks: [multiclass]
features: {kind: given}
splits: {kind: instance, count: 2}
trainers:
  - {name: crf, C: [1]}
`)
	if cfg.Splits.TrainFractions[0] != 1 {
		t.Errorf("train fractions %v, want [1]", cfg.Splits.TrainFractions)
	}
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Stdout: new(strings.Builder)}); err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	var errs []float64
	for _, r := range runs {
		if r.TrainSize != 3*datasets.SynthTrainPerClass || r.TestSize != 3*datasets.SynthTestPerClass || r.Outcomes != nil {
			t.Errorf("split %d: trained on %d, tested on %d, outcomes %v", r.Split, r.TrainSize, r.TestSize, r.Outcomes != nil)
		}
		if rate, cost := r.Metrics["error_rate"], r.Metrics["cost_error"]; !(cost < rate && cost > 0) {
			t.Errorf("split %d: error rate %v, cost-weighted error %v: want 0 < cost < rate", r.Split, rate, cost)
		}
		errs = append(errs, r.Metrics["error_rate"])
	}
	if errs[0] == errs[1] {
		t.Errorf("both instantiations give error rate %v: same data?", errs[0])
	}
}

func TestInstanceSplitsCountBound(t *testing.T) {
	_, err := config.Parse([]byte(`name: inst
datasets:
  - name: synth1
tasks: [multiclass]
features: {kind: given}
splits: {kind: instance, count: 6}
trainers:
  - {name: crf, C: [1]}
`), "inst.yaml")
	if err == nil || !strings.Contains(err.Error(), `dataset "synth1" has 5 instantiations, got count 6`) {
		t.Errorf("error %v", err)
	}
}
