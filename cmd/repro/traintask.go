package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
)

// taggerOnlyFlags are train's flags that only the sequence and
// segmentation tasks read (their features and column-file layout).
var taggerOnlyFlags = []string{"features", "window", "affixes", "min-count", "edges", "lexicons", "format", "columns", "encoding", "charset", "pairs"}

// trainTask trains a model of a task other than sequence labelling and
// segmentation (package tasks: its reader, default features and model
// file) on the file at path.
func trainTask(ctx context.Context, fs *flag.FlagSet, f *trainFlags, path string, stderr io.Writer) error {
	t, err := tasks.Lookup(f.task)
	if err != nil {
		return usageError{err}
	}
	var misplaced error
	fs.Visit(func(fl *flag.Flag) {
		for _, name := range taggerOnlyFlags {
			if fl.Name == name && misplaced == nil {
				misplaced = usagef("--%s applies to the sequence and segmentation tasks only, not %s", name, f.task)
			}
		}
	})
	if misplaced != nil {
		return misplaced
	}
	var cost [][]float64
	if f.cost != "" {
		if f.task != tasks.MulticlassName {
			return usagef("--cost applies to the %s task only, not %s", tasks.MulticlassName, f.task)
		}
		if cost, err = tasks.ParseCost(f.cost); err != nil {
			return usagef("--cost: %v", err)
		}
	}
	v, err := f.trainerParams(fs)
	if err != nil {
		return err
	}
	if err := trainers.Validate(f.trainer, v); err != nil {
		return usageError{err}
	}
	if err := t.Supports(f.trainer, v); err != nil {
		return usageError{err}
	}
	if !f.quiet {
		ctx = trainers.WithProgress(ctx, newTrainingProgress(stderr, f.trainer).report)
	}
	start := time.Now()
	m, res, err := t.TrainFile(ctx, path, tasks.Settings{Trainer: f.trainer, Params: v, Cost: cost, Decoder: f.decoder})
	if err != nil {
		return err
	}
	if err := m.SaveFile(f.out); err != nil {
		return err
	}
	if !f.quiet {
		size := int64(0)
		if st, err := os.Stat(f.out); err == nil {
			size = st.Size()
		}
		fmt.Fprintf(stderr, "repro: trained a %s model, %s, on %s in %s: %s; wrote %s (%s)\n",
			m.TaskName(), m.Describe(), path, time.Since(start).Round(time.Millisecond), describeResult(res), f.out, formatBytes(size))
	}
	return nil
}
