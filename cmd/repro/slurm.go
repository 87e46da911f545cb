package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/executor"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/internal/slurm"
)

const slurmUsage = `Usage: repro slurm [flags] CONFIG.yaml

Runs CONFIG.yaml's units on a Slurm cluster as job arrays. Writes
OUT/plan.jsonl (as 'repro plan' does) and one sbatch script per stage in
OUT/slurm/: a validation array, then a test array that starts only when
every validation task succeeded (--dependency=afterok); each array task
runs 'repro unit --plan OUT/plan.jsonl --index N' for one unit into the
store OUT/units/. OUT must be on a file system that every node shares,
and the repro binary too (see --repro). Submits the scripts with sbatch,
prints "STAGE JOBID" lines on stdout and how to follow the jobs on stderr.

Running the same command again submits only the units missing from the
store, and lists the earlier tasks that failed with their log files.
Once every unit is stored, 'repro slurm --collect CONFIG.yaml' writes
runs.jsonl, the tables, figures and index.html exactly as 'repro run'
would (it is 'repro run' computing nothing).

Flags:
`

func slurmCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return slurmWith(ctx, args, stdout, stderr, slurm.ExecRunner{})
}

// slurmWith is slurmCommand with the runner of Slurm's commands given, so
// that tests need no cluster.
func slurmWith(ctx context.Context, args []string, stdout, stderr io.Writer, runner slurm.Runner) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory, on a shared file system (default: results/<config name>)")
	var s executor.Slurm
	var collect bool
	fs.StringVar(&s.Partition, "partition", "", "Slurm partition (default: the cluster's default partition)")
	fs.IntVar(&s.MaxParallel, "max-parallel", 0, "array tasks running at once per array (0: no limit)")
	fs.StringVar(&s.Time, "time", "", "time limit per unit, in sbatch's format, e.g. 30:00 or 2:00:00 (default: the partition's)")
	fs.StringVar(&s.Mem, "mem", "", "memory per unit, e.g. 1G (default: the partition's; see the estimate printed)")
	fs.BoolVar(&s.DryRun, "dry-run", false, "print the scripts; write and submit nothing")
	fs.BoolVar(&collect, "collect", false, "gather the stored units into the outputs, as repro run would, computing nothing")
	fs.StringVar(&s.Repro, "repro", "", "the repro binary array tasks run, on the shared file system (default: this one)")
	args, help, err := parseFlags(fs, args, slurmUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) != 1:
		return usagef("slurm takes exactly one config file, got %d arguments %q", len(args), args)
	case s.MaxParallel < 0:
		return usagef("--max-parallel must be at least 0, got %d", s.MaxParallel)
	case collect && s.DryRun:
		return usagef("--collect and --dry-run exclude each other")
	}
	if !collect && !s.DryRun {
		if err := slurm.Available(runner); err != nil { // before anything is loaded or written
			return err
		}
	}
	cfg, err := config.Load(args[0])
	if err != nil {
		return err
	}
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{DataDir: dir, DataSource: source, OutDir: *out, Progress: stderr, Stdout: stdout, Version: version()}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	plan, err := experiments.Plan(ctx, cfg, opt)
	if err != nil {
		return err
	}
	stored, err := experiments.Stored(cfg, plan, opt)
	if err != nil {
		return err
	}
	history, err := executor.ReadSubmissions(opt.OutDir)
	if err != nil {
		return err
	}
	s.Runner = runner
	if collect {
		return slurmCollect(ctx, &s, cfg, opt, plan, stored, history, stderr)
	}
	if s.Data, err = filepath.Abs(dir); err != nil {
		return err
	}
	if s.Repro, err = reproBinary(s.Repro); err != nil {
		return err
	}
	e := cfg.Estimate()
	e.UnitBytes += e.DataBytes // a task loads the data itself
	s.Memory = unitMemory(e)
	return s.Submit(ctx, cfg, opt, plan, stored, history, stdout, stderr)
}

// slurmCollect writes the outputs from a complete store (executor.Slurm's
// Collect) and records that their cost was not measured here.
func slurmCollect(ctx context.Context, s *executor.Slurm, cfg *config.Config, opt experiments.Options, plan []experiments.PlannedUnit, stored []bool,
	history []executor.Submission, stderr io.Writer) error {
	res, err := s.Collect(ctx, cfg, opt, plan, stored, history, stderr)
	if err == nil && res != nil && !res.Partial {
		// The jobs' cost is not measured here; an earlier run's record may
		// no longer describe the outputs just written.
		recorded, err := store.RecordCost(res.OutDir, store.RunCost{Version: opt.Version, UnitsCached: res.Cached}, res.Runs)
		if err != nil {
			return err
		}
		reportCostRecord(stderr, recorded, res.Cached)
	}
	return err
}

// reproBinary returns the absolute path of the binary array tasks run.
func reproBinary(flagValue string) (string, error) {
	path := flagValue
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding this binary for the array tasks (pass --repro PATH): %w", err)
		}
		// go run deletes its binary when it exits, before the tasks run.
		if strings.Contains(exe, string(filepath.Separator)+"go-build") {
			return "", usagef("this repro is a temporary binary of 'go run', gone before the array tasks start; build one on the shared file system (CGO_ENABLED=0 go build -o bin/repro ./cmd/repro) and run that, or pass --repro PATH")
		}
		path = exe
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", usagef("--repro: %v", err)
	}
	return abs, nil
}
