package experiments

import (
	"context"
	"math"
	"runtime"
	"testing"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
)

// qpTreebank is a toy treebank for the cfg task: a few shapes of S over
// NP and VP, repeated with other words.
const qpTreebank = `( (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat)))) )
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

const qpConfig = `name: qp
seed: 5
datasets:
  - {name: toy, format: ptb, path: trees.mrg, max_words: 10}
tasks: [cfg]
splits: {kind: random, count: 2, train_fractions: [0.7]}
trainers:
  - {name: generative, label: pcfg}
  - {name: margin, label: zero-one, delta_loss: zero-one, slack_penalty: quadratic, C_per_example: true, C: [1]}
  - {name: slack, label: f1-slack, slack_penalty: quadratic, C_per_example: true, C: [1]}
  - {name: margin, label: f1-margin-one-slack, solver: one-slack, C: [1]}
`

// A cfg unit of a cutting-plane trainer reports its QP's time, within its
// training's CPU time and as that share of it; the PCFG, which has no QP,
// reports neither. The measurements change nothing else: a rerun differs
// from the first run in no field repro diff compares.
func TestCFGUnitsReportQPTime(t *testing.T) {
	t.Parallel()
	data := t.TempDir()
	writeFile(t, data, "trees.mrg", qpTreebank)
	cfg := mustConfig(t, qpConfig)
	run := func() []report.Run {
		dir := t.TempDir()
		if _, err := Run(context.Background(), cfg, Options{OutDir: dir, DataDir: data, Workers: 1}); err != nil {
			t.Fatal(err)
		}
		return readRuns(t, dir)
	}
	first := run()
	if len(first) != 8 {
		t.Fatalf("%d runs, want 8 (4 trainers × 2 splits)", len(first))
	}
	for _, r := range first {
		qp, hasQP := r.Metrics[metrics.QPSeconds]
		share, hasShare := r.Metrics[metrics.QPShare]
		if r.Trainer == "pcfg" {
			if hasQP || hasShare {
				t.Errorf("the PCFG reports a QP: %v", r.Metrics)
			}
			continue
		}
		if !hasQP || !hasShare || !(qp > 0) {
			t.Errorf("%s split %d: QP metrics %v", r.Trainer, r.Split, r.Metrics)
			continue
		}
		if _, ok := r.Metrics[metrics.Constraints]; !ok {
			t.Errorf("%s: no constraints in %v", r.Trainer, r.Metrics)
		}
		total := r.TrainSeconds
		if runtime.GOOS == "linux" {
			total = r.CPUSeconds
		}
		if qp > total {
			t.Errorf("%s split %d: QP %v s of a %v s training", r.Trainer, r.Split, qp, total)
		}
		if want := 100 * qp / total; math.Abs(share-want) > 1e-9*want {
			t.Errorf("%s split %d: QP share %v, want %v (%v of %v s)", r.Trainer, r.Split, share, want, qp, total)
		}
	}
	again := run()
	for i := range first {
		d, err := report.Diff(first[i], again[i])
		if err != nil || len(d) > 0 {
			t.Errorf("rerun of %s split %d differs: %v %v", first[i].Trainer, first[i].Split, d, err)
		}
	}
}
