package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/report"
)

const diffUsage = `Usage: repro diff [flags] OLD NEW

Compares two sets of runs of a config, run by run (matched by key), in
every field runs.jsonl stores but times, memory and the code version:
errors, F1, iterations, primal, dual, the validation grid's scores,
per-sentence outcomes, learning curves. OLD and NEW are runs.jsonl files
or directories holding one; "-" reads OLD from standard input. It prints
each run that differs, with its fields, and each run only one side has,
and exits non-zero if there is any: the check that a regeneration
('repro run --force') computed what is committed, e.g.

  git show HEAD:results/cora/runs.jsonl | repro diff - results/cora

Flags:
`

// diffCommand compares two runs.jsonl files.
func diffCommand(_ context.Context, args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("diff", flag.ContinueOnError)
	args, help, err := parseFlags(fs, args, diffUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 2 {
		return usagef("diff takes two runs files (OLD NEW), got %d arguments", len(args))
	}
	if args[1] == "-" {
		return usagef(`diff reads only OLD from standard input ("-")`)
	}
	old, err := readRunsArg(args[0], stdin)
	if err != nil {
		return err
	}
	now, err := readRunsArg(args[1], nil)
	if err != nil {
		return err
	}
	d, err := report.DiffRuns(old, now)
	if err != nil {
		return fmt.Errorf("diff %s %s: %w", args[0], args[1], err)
	}
	for _, c := range d.Changed {
		fmt.Fprintf(stdout, "DIFF  %s (%s → %s): %s\n", describeRun(c.Old), c.Old.Version, c.New.Version, strings.Join(c.Diffs, "; "))
	}
	oldName, newName := args[0], args[1]
	if oldName == "-" {
		oldName = "standard input"
	}
	for _, r := range d.OnlyOld {
		fmt.Fprintf(stdout, "only in %s: %s\n", oldName, describeRun(r))
	}
	for _, r := range d.OnlyNew {
		fmt.Fprintf(stdout, "only in %s: %s\n", newName, describeRun(r))
	}
	if !d.Equal() {
		return fmt.Errorf("diff: of %d and %d runs, %d differ, %d only in %s, %d only in %s",
			len(old), len(now), len(d.Changed), len(d.OnlyOld), oldName, len(d.OnlyNew), newName)
	}
	fmt.Fprintf(stdout, "%d runs, equal but for times, memory and version\n", d.Same)
	return nil
}

// readRunsArg reads the runs of a diff argument: a runs.jsonl file, a
// directory holding one, or "-" for stdin.
func readRunsArg(arg string, stdin io.Reader) ([]report.Run, error) {
	if arg == "-" {
		if stdin == nil {
			return nil, usagef("diff: no standard input to read OLD from")
		}
		return finished(report.ReadRuns(stdin, "standard input"))
	}
	path := arg
	if info, err := os.Stat(arg); err == nil && info.IsDir() {
		path = filepath.Join(arg, report.RunsFile)
	}
	return finished(report.ReadRunsFile(path))
}

// finished makes ReadRuns' warning about a torn last line an error: the
// files diff and verify compare are finished ones, and a torn line in one
// is damage, not a run being written.
func finished(runs []report.Run, warnings []error, err error) ([]report.Run, error) {
	if err != nil {
		return nil, err
	}
	if len(warnings) == 0 {
		return runs, nil
	}
	errs := make([]error, len(warnings))
	for i, w := range warnings {
		var le *report.LineError
		if errors.As(w, &le) {
			cause := errors.Unwrap(le.Err)
			if cause == nil {
				cause = le.Err
			}
			w = &report.LineError{Name: le.Name, Line: le.Line, Err: fmt.Errorf("torn last line (an interrupted write?): %w", cause)}
		}
		errs[i] = w
	}
	return nil, errors.Join(errs...)
}

// runName names a run as verify prints it.
func runName(r report.Run) string {
	return fmt.Sprintf("%s/%s %s %s split %d", r.Dataset, r.Task, r.Trainer, formatParams(r.Params), r.Split)
}

// describeRun names a run as diff prints it: runName, the training
// fraction (which runName leaves out) and the key.
func describeRun(r report.Run) string {
	return fmt.Sprintf("%s, %g of the data (key %s)", runName(r), r.TrainFraction, r.Key)
}
