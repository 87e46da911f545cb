package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"runtime"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
)

const runUsage = `Usage: repro run [flags] CONFIG.yaml

Trains and evaluates every unit CONFIG.yaml declares and writes runs.jsonl,
the tables, figures and index.html into the output directory. Finished units
are cached there: after an interruption, the same command resumes.

Flags:
`

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory (default: results/<config name>)")
	workers := fs.Int("workers", runtime.NumCPU(), "units to run at once (default: the number of cores)")
	force := fs.Bool("force", false, "recompute units even if their results are cached")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	args, help, err := parseFlags(fs, args, runUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("run takes exactly one config file, got %d arguments %q", len(args), args)
	}
	if *workers < 1 {
		return usagef("--workers must be at least 1, got %d", *workers)
	}
	cfg, err := experiments.LoadConfig(args[0])
	if err != nil {
		return err
	}
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{
		DataDir: dir, DataSource: source, OutDir: *out, Workers: *workers, Force: *force,
		Progress: stderr, Stdout: stdout, Version: version(),
	}
	if *quiet {
		opt.Progress = nil
	}
	res, err := experiments.Run(ctx, cfg, opt)
	if res != nil {
		fmt.Fprintf(stderr, "repro: %d units computed, %d from cache; results in %s\n", res.Computed, res.Cached, res.OutDir)
	}
	return err
}
