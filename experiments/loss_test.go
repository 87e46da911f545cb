package experiments

import (
	"context"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

// The config's segmentation loss reaches the segmentation units (their keys
// and their model), never the sequence units; spelling out the paper's
// loss changes nothing.
func TestConfigLossReachesSegmentationModel(t *testing.T) {
	t.Parallel()
	base := strings.Replace(smallConfig, "splits:", "tasks: [sequence, segmentation]\nsplits:", 1)
	run := func(loss string) map[string]unitResult {
		t.Helper()
		cfg := mustConfig(t, base+loss)
		prepared, err := prepare(context.Background(), cfg, Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := &runner{cfg: cfg, data: prepared}
		units, err := r.plan(context.Background(), store.PhaseValidate, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]unitResult{}
		for _, u := range units {
			if u.Split != 0 || u.Trainer != "margin" || u.C != 1 {
				continue
			}
			if (u.SegmentLoss != nil) != (u.Task == config.TaskSegmentation && loss != "" && !strings.Contains(loss, "recall: 1")) {
				t.Errorf("loss %q: %s unit has segment loss %+v", loss, u.Task, u.SegmentLoss)
			}
			res, err := dispatchUnit(context.Background(), prepared[0], u, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, []int{10, 11, 12, 13})
			if err != nil {
				t.Fatal(err)
			}
			res.Key = u.Key()
			out[u.Task] = res
		}
		return out
	}
	paper := run("")
	spelled := run("loss: {precision: 1, recall: 1, misclass: 1}\n")
	other := run("loss: {precision: 3, recall: 0.5}\n")
	for _, task := range []string{config.TaskSequence, config.TaskSegmentation} {
		if paper[task].Key != spelled[task].Key || paper[task].Primal != spelled[task].Primal {
			t.Errorf("%s: spelling out the paper's loss changed the unit", task)
		}
	}
	if paper[config.TaskSequence].Key != other[config.TaskSequence].Key || paper[config.TaskSequence].Primal != other[config.TaskSequence].Primal {
		t.Error("the segmentation loss changed a sequence unit")
	}
	if paper[config.TaskSegmentation].Key == other[config.TaskSegmentation].Key || paper[config.TaskSegmentation].Primal == other[config.TaskSegmentation].Primal {
		t.Errorf("another segmentation loss left the unit as it was (primal %v)", other[config.TaskSegmentation].Primal)
	}
}
