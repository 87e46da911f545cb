package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/golden"
)

const checkUsage = `Usage: repro check [flags]

Reruns a reduced config from scratch (no cached units) and compares its
metrics with the golden file. A value outside its tolerance fails the
check; the output says whether it got worse (a regression: token error
higher, span F1 lower) or better (the golden file is out of date).

Flags:
`

// checkCommand runs a reduced config from scratch and compares its metrics
// with the golden file; a value outside its tolerance is an error.
func checkCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	configPath := flags.String("config", "configs/ci.yaml", "reduced experiment to run")
	goldenPath := flags.String("golden", "results/golden/ci.json", "golden values to compare with")
	update := flags.Bool("update", false, "rewrite the golden file from this run instead of comparing")
	all := flags.Bool("all", false, "list every compared value, not only those outside tolerance")
	dataDir := flags.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	workers := flags.Int("workers", runtime.NumCPU(), "units to run at once (default: the number of cores)")
	quiet := flags.Bool("quiet", false, "no progress on stderr")
	args, help, err := parseFlags(flags, args, checkUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 0 {
		return usagef("check takes no arguments, got %q", args)
	}
	if *workers < 1 {
		return usagef("--workers must be at least 1, got %d", *workers)
	}
	var old golden.File
	var tolerances map[string]float64
	switch g, err := golden.Read(*goldenPath); {
	case err == nil:
		old, tolerances = g, g.Tolerances
	case *update && errors.Is(err, fs.ErrNotExist):
	default:
		return fmt.Errorf("reading golden values: %w", err)
	}
	cfg, err := config.Load(*configPath)
	if err != nil {
		return err
	}
	// Always from scratch: cached units from older code would hide exactly
	// the regressions this command exists to catch.
	out, err := os.MkdirTemp("", "repro-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(out)
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{DataDir: dir, DataSource: source, OutDir: out, Workers: *workers, Progress: stderr, Version: version()}
	if *quiet {
		opt.Progress = nil
	}
	res, err := experiments.Run(ctx, cfg, opt)
	if err != nil {
		return err
	}
	if *update {
		g := golden.FromRuns(res.Runs, *configPath, version(), tolerances)
		b, err := g.Marshal()
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(*goldenPath), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(*goldenPath, b, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %d golden entries to %s\n", len(g.Entries), *goldenPath)
		return nil
	}
	diffs := golden.Compare(old, res.Runs)
	if err := golden.WriteDiffs(stdout, diffs, *all); err != nil {
		return err
	}
	if n := golden.Failed(diffs); n > 0 {
		worse := 0
		for _, d := range diffs {
			if d.Worse() {
				worse++
			}
		}
		what := fmt.Sprintf("%d regression(s)", worse)
		switch {
		case worse == 0:
			what = fmt.Sprintf("no regression, but %d improvement(s) outside tolerance", n)
		case worse < n:
			what += fmt.Sprintf(" and %d improvement(s) outside tolerance", n-worse)
		}
		return fmt.Errorf("%s against %s (golden written by %s); if the change is intended, run 'repro check --update' and commit the new golden file", what, *goldenPath, old.Version)
	}
	fmt.Fprintf(stdout, "check: all %d values within tolerance of %s\n", len(diffs), *goldenPath)
	return nil
}
