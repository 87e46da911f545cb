package experiments

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/report"
)

// Reproduction is one committed run recomputed at this code.
type Reproduction struct {
	Record report.Run // as committed in runs.jsonl
	Again  report.Run // recomputed now
	// Diffs names each field whose value differs, with both values; empty
	// when the run reproduced exactly. Times, memory and the code version
	// are not compared, and neither is the record's validation
	// (Selection), which Reproduce does not rerun.
	Diffs []string
}

// Reproduce recomputes runs, records of cfg's runs.jsonl, at this code and
// compares each with its record. Each run is the test unit of its
// selection group trained at the C its record states (validation is not
// rerun), and that unit's key must be the record's: a record the config
// does not give (another config, data or unit schema) is an error, not a
// difference. Units are computed one at a time in a temporary store, so
// opt.OutDir's store and outputs are neither read nor written.
func Reproduce(ctx context.Context, cfg *config.Config, runs []report.Run, opt Options) ([]Reproduction, error) {
	tmp, err := os.MkdirTemp("", "repro-verify-")
	if err != nil {
		return nil, fmt.Errorf("a temporary unit store: %w", err)
	}
	defer os.RemoveAll(tmp)
	opt = opt.WithDefaults(cfg)
	opt.OutDir = tmp // the runner's units go to tmp/units, not the committed directory
	r, err := openRunner(ctx, cfg, opt, dispatchUnit)
	if err != nil {
		return nil, err
	}
	chosen := make(map[string]float64, len(runs))
	for _, run := range runs {
		if c, ok := run.Params["C"]; ok {
			chosen[runGroup(run)] = c
		}
	}
	tests, err := r.plan(ctx, store.PhaseTest, chosen)
	if err != nil {
		return nil, err
	}
	byGroup := make(map[string]unitSpec, len(tests))
	for _, u := range tests {
		byGroup[groupOf(u)] = u
	}
	last := make(map[string]int, len(r.data)) // each dataset's last run: then it is dropped
	for i, run := range runs {
		last[run.Dataset] = i
	}
	out := make([]Reproduction, 0, len(runs))
	for i, run := range runs {
		u, ok := byGroup[runGroup(run)]
		switch {
		case !ok:
			return out, fmt.Errorf("run %s (%s/%s %s split %d, %g of the data): the config has no such test unit", run.Key, run.Dataset, run.Task, run.Trainer, run.Split, run.TrainFraction)
		case u.Key() != run.Key:
			return out, fmt.Errorf("run %s (%s): the config's unit at C = %g has key %s; the record comes from another config, data or unit schema", run.Key, describe(u), u.C, u.Key())
		}
		res, err := r.runUnit(ctx, u)
		if err != nil {
			return out, fmt.Errorf("run %s (%s): %w", run.Key, describe(u), err)
		}
		again := toRun(u, res, run.Selection)
		diffs, err := report.Diff(run, again, "selection") // validation is not rerun
		if err != nil {
			return out, fmt.Errorf("run %s: %w", run.Key, err)
		}
		out = append(out, Reproduction{Record: run, Again: again, Diffs: diffs})
		if last[run.Dataset] == i {
			r.dataset(run.Dataset).release()
		}
	}
	return out, nil
}

// runGroup is groupOf for a run record (whose Trainer is the unit's label).
func runGroup(run report.Run) string {
	return groupOf(unitSpec{Dataset: run.Dataset, Task: run.Task, Label: run.Trainer, TrainFraction: run.TrainFraction, Split: run.Split})
}

// CheapestRuns returns, in runs' order, up to n runs (all when n ≤ 0) of
// every group that group names (one group when group is nil) whose
// recorded training was cheapest: CPU seconds, else wall seconds; ties by
// key.
func CheapestRuns(runs []report.Run, n int, group func(report.Run) string) []report.Run {
	cost := func(r report.Run) float64 {
		if r.CPUSeconds > 0 {
			return r.CPUSeconds
		}
		return r.TrainSeconds
	}
	order := make([]int, len(runs))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(i, j int) int {
		return cmp.Or(cmp.Compare(cost(runs[i]), cost(runs[j])), strings.Compare(runs[i].Key, runs[j].Key))
	})
	taken := map[string]int{}
	var keep []int
	for _, i := range order {
		g := ""
		if group != nil {
			g = group(runs[i])
		}
		if n > 0 && taken[g] >= n {
			continue
		}
		taken[g]++
		keep = append(keep, i)
	}
	slices.Sort(keep)
	out := make([]report.Run, len(keep))
	for j, i := range keep {
		out[j] = runs[i]
	}
	return out
}
