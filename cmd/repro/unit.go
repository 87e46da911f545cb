package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

const unitUsage = `Usage: repro unit --plan FILE (--index N | --key K) [flags]

Runs one unit of a plan written by 'repro plan' into the store beside it
(the units/ directory of the plan's directory) and exits; a unit already
there is not computed again. A test unit first reads its group's
validation units from the store (they must have run) and chooses C as
'repro run' does. With --grid-extension C, the unit run is instead the
grid-extension validation unit at C of that test unit's group: the one
'repro run' tries next when validation chose an end of an extending
grid. Any number of 'repro unit' processes, on any hosts
sharing the directory, may run at once: each unit is claimed by a lock
file (units/KEY.lock), and a worker that finds its unit claimed waits and
then reuses the other's result.

Flags:
`

func unitCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("unit", flag.ContinueOnError)
	planPath := fs.String("plan", "", "the plan (OUT/plan.jsonl) written by repro plan")
	index := fs.Int("index", -1, "the unit's index in the plan (its line, from 0)")
	key := fs.String("key", "", "the unit's key (instead of --index; test units whose C validation chooses have none)")
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	force := fs.Bool("force", false, "recompute the unit even if it is in the store")
	extension := fs.Float64("grid-extension", 0, "run the grid-extension validation unit with this C of the group of the test unit --index names, instead of that test unit (it must be the C that repro run would try next)")
	lockAge := fs.Duration("lock-age", store.DefaultLockAge, "report (never remove) another host's unit lock whose heartbeat is older than this")
	quiet := fs.Bool("quiet", false, "no messages on stderr but errors")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of the unit to this file (for go tool pprof)")
	memProfile := fs.String("memprofile", "", "write a heap profile to this file when the unit ends (for go tool pprof; -sample_index=alloc_space shows what the unit allocated)")
	args, help, err := parseFlags(fs, args, unitUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) > 0:
		return usagef("unit takes no arguments, got %q", args)
	case *planPath == "":
		return usagef("unit needs --plan FILE")
	case (*index >= 0) == (*key != ""):
		return usagef("unit needs exactly one of --index N and --key K")
	case *lockAge <= 0:
		return usagef("--lock-age must be positive, got %s", *lockAge)
	}
	plan, err := experiments.ReadPlan(*planPath)
	if err != nil {
		return err
	}
	if *key != "" {
		if *index, err = experiments.IndexOf(plan, *key); err != nil {
			return err
		}
	}
	if *index >= len(plan) {
		return usagef("--index %d is outside the plan (0..%d)", *index, len(plan)-1)
	}
	cfg, err := experiments.LoadPlanConfig(*planPath, plan[*index])
	if err != nil {
		return err
	}
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{
		DataDir: dir, DataSource: source, OutDir: filepath.Dir(*planPath), Force: *force,
		Progress: stderr, Version: version(), LockAge: *lockAge,
	}
	if *quiet {
		opt.Progress = nil
	}
	run := experiments.RunUnit
	if *extension != 0 {
		run = func(ctx context.Context, cfg *config.Config, plan []experiments.PlannedUnit, index int, opt experiments.Options) (experiments.UnitOutcome, error) {
			return experiments.RunGridExtension(ctx, cfg, plan, index, *extension, opt)
		}
	}
	if *cpuProfile != "" {
		stop, err := startCPUProfile(*cpuProfile)
		if err != nil {
			return err
		}
		defer func() {
			if err := stop(); err != nil {
				fmt.Fprintf(stderr, "repro: %v\n", err)
			}
		}()
	}
	res, err := run(ctx, cfg, plan, *index, opt)
	if err != nil {
		return fmt.Errorf("unit %d: %w", *index, err)
	}
	if *memProfile != "" {
		if err := writeHeapProfile(*memProfile); err != nil {
			return err
		}
	}
	if !*quiet {
		how := "computed"
		switch {
		case res.Cached:
			how = "already in the store"
		case res.Reused:
			how = "saved by another worker while this one waited"
		}
		ext := ""
		if res.Extensions > 0 {
			ext = fmt.Sprintf(" (after %d grid-extension validation unit(s))", res.Extensions)
		}
		fmt.Fprintf(stderr, "repro: unit %d, %s: %s%s; %s\n", *index, res.Name, how, ext, filepath.Join(opt.OutDir, "units", res.Key+".json"))
	}
	return nil
}

// startCPUProfile starts a CPU profile into path and returns its stop, which
// writes it out.
func startCPUProfile(path string) (stop func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("--cpuprofile %s: %w", path, err)
	}
	return func() error {
		pprof.StopCPUProfile()
		if err := f.Close(); err != nil {
			return fmt.Errorf("--cpuprofile: %w", err)
		}
		return nil
	}, nil
}

// writeHeapProfile writes the heap profile (allocations since the start,
// and what is live after a collection) to path.
func writeHeapProfile(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return fmt.Errorf("--memprofile %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("--memprofile: %w", err)
	}
	return nil
}
