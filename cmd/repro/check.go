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

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/golden"
)

// checkCommand runs a reduced config from scratch and compares its metrics
// with the golden file; a value outside its tolerance is an error.
func checkCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := flag.NewFlagSet("check", flag.ContinueOnError)
	flags.SetOutput(stderr)
	config := flags.String("config", "configs/ci.yaml", "reduced experiment to run")
	goldenPath := flags.String("golden", "results/golden/ci.json", "golden values to compare with")
	update := flags.Bool("update", false, "rewrite the golden file from this run instead of comparing")
	all := flags.Bool("all", false, "list every compared value, not only regressions")
	dataDir := flags.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	workers := flags.Int("workers", 0, "units to run at once (default: all cores)")
	quiet := flags.Bool("quiet", false, "no progress on stderr")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "Usage: repro check [flags]")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return err
	}
	if flags.NArg() != 0 {
		flags.Usage()
		return fmt.Errorf("check takes no arguments, got %q", flags.Args())
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
	cfg, err := experiments.LoadConfig(*config)
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
		g := golden.FromRuns(res.Runs, *config, version(), tolerances)
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
		return fmt.Errorf("%d regression(s) against %s (golden written by %s); if the change is intended, run 'repro check --update' and commit the new golden file", n, *goldenPath, old.Version)
	}
	fmt.Fprintf(stdout, "check: all %d values within tolerance of %s\n", len(diffs), *goldenPath)
	return nil
}
