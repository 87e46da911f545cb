package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
)

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory (default: results/<config name>)")
	workers := fs.Int("workers", 0, "units to run at once (default: all cores)")
	force := fs.Bool("force", false, "recompute units even if their results are cached")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: repro run [flags] CONFIG.yaml")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("run takes exactly one config file, got %d arguments", fs.NArg())
	}
	cfg, err := experiments.LoadConfig(fs.Arg(0))
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
