package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/report"
)

const verifyUsage = `Usage: repro verify [flags] CONFIG.yaml

Recomputes committed runs of CONFIG.yaml (OUT/runs.jsonl) at this code and
compares each with its record, field by field: errors, F1, iterations,
constraints, oracle calls, primal, dual, per-sentence outcomes, learning
curves. Times, memory, the code version and the record's validation
scores are not compared. Each run is trained at the C its record states
(validation is not rerun), in a temporary store: nothing under OUT is
read but runs.jsonl, and nothing is written. A run that differs fails the
command, naming its fields; so does a record the config does not give.

By default it recomputes the run whose recorded training was cheapest;
--runs N the N cheapest (0: all); --per-trainer that many of every
trainer on every task, --per-dataset of every dataset, both of every
trainer on every dataset. It spot-checks, without regenerating them, that
committed test runs are what the current code computes at their recorded
C: CI verifies every committed config this way.

Flags:
`

// verifyCommand recomputes committed runs of a config and compares them
// with their records.
func verifyCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("verify", flag.ContinueOnError)
	out := fs.String("out", "", "output directory holding runs.jsonl (default: results/<config name>)")
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	runs := fs.Int("runs", 1, "how many runs to recompute, cheapest first by recorded CPU time (0: all)")
	perTrainer := fs.Bool("per-trainer", false, "pick --runs runs of every trainer on every task rather than of the whole file")
	perDataset := fs.Bool("per-dataset", false, "pick --runs runs of every dataset (with --per-trainer: of every trainer on every dataset and task)")
	quiet := fs.Bool("quiet", false, "no messages on stderr but errors")
	args, help, err := parseFlags(fs, args, verifyUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) != 1:
		return usagef("verify takes one config file, got %d arguments", len(args))
	case *runs < 0:
		return usagef("--runs must be 0 (all) or more, got %d", *runs)
	}
	cfg, opt, err := loadWithOptions(args[0], *dataDir, *out)
	if err != nil {
		return err
	}
	if !*quiet {
		opt.Progress = stderr
	}
	path := filepath.Join(opt.OutDir, report.RunsFile)
	recorded, err := finished(report.ReadRunsFile(path))
	if err != nil {
		return fmt.Errorf("verify: %w", err)
	}
	var group func(report.Run) string
	if *perTrainer || *perDataset {
		group = func(r report.Run) string {
			g := ""
			if *perDataset {
				g = r.Dataset + "|"
			}
			if *perTrainer {
				g += r.Task + "|" + r.Trainer
			}
			return g
		}
	}
	picked := experiments.CheapestRuns(recorded, *runs, group)
	if len(picked) == 0 {
		return fmt.Errorf("%s holds no runs", path)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "repro: verify: recomputing %d of the %d runs in %s\n", len(picked), len(recorded), path)
	}
	results, err := experiments.Reproduce(ctx, cfg, picked, opt)
	differing := 0
	for _, res := range results {
		r := res.Record
		what := runName(r)
		if len(res.Diffs) == 0 {
			fmt.Fprintf(stdout, "same  %s (%.1f CPU s; recorded %.1f at %s)\n", what, res.Again.CPUSeconds, r.CPUSeconds, r.Version)
			continue
		}
		differing++
		fmt.Fprintf(stdout, "DIFF  %s (recorded at %s): %s\n", what, r.Version, strings.Join(res.Diffs, "; "))
	}
	if err != nil {
		return err
	}
	if differing > 0 {
		return fmt.Errorf("verify: %d of %d runs of %s differ from their records", differing, len(results), path)
	}
	if !*quiet {
		fmt.Fprintf(stderr, "repro: verify: %d of %d runs reproduced exactly\n", len(results), len(results))
	}
	return nil
}

// formatParams writes a run's hyperparameters as name=value, C first and
// the others by name.
func formatParams(p map[string]float64) string {
	var parts []string
	if c, ok := p["C"]; ok {
		parts = append(parts, fmt.Sprintf("C=%g", c))
	}
	for _, name := range slices.Sorted(maps.Keys(p)) {
		if name != "C" {
			parts = append(parts, fmt.Sprintf("%s=%g", name, p[name]))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, " ")
}
