package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/executor"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/internal/cputime"
)

const runUsage = `Usage: repro run [flags] CONFIG.yaml

Trains and evaluates every unit CONFIG.yaml declares and writes runs.jsonl,
the tables, figures and index.html into the output directory. Finished units
are cached there: after an interruption, the same command resumes.

--executor process runs each unit in its own child process ('repro unit'
on OUT/plan.jsonl, which it writes; each child's output goes to
OUT/logs/KEY.log): a unit that crashes or is killed for its memory fails
alone, and its memory returns to the system when it ends. Results are the
same as with --executor local, which runs units on goroutines of this
process. $REPRO_UNIT_EXE, if set, is run instead of this executable with
the 'unit' arguments (a wrapper that, say, limits each child's memory and
then execs repro).

--share-units copies a unit that this code version already computed into
another output directory beside this one (results/*/units with the
default --out) instead of computing it again: configs that share units (a
CRF grid, a baseline) then compute them once. With --refresh-stale it
regenerates several configs at a new version at the cost of their
distinct units.

Flags:
`

// unitExeEnv names a wrapper --executor process runs instead of this
// executable: a place for per-unit limits, and how tests make a child fail.
const unitExeEnv = "REPRO_UNIT_EXE"

func runCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory (default: results/<config name>)")
	workers := fs.Int("workers", runtime.NumCPU(), "units to run at once (default: the number of cores)")
	force := fs.Bool("force", false, "recompute units even if their results are cached")
	refreshStale := fs.Bool("refresh-stale", false, "recompute only the cached units that another code version computed")
	shareUnits := fs.Bool("share-units", false, "copy a unit that this code version already computed into another output directory beside this one instead of computing it again (not with --force)")
	quiet := fs.Bool("quiet", false, "no progress on stderr")
	executorName := fs.String("executor", "local", "where units run: local (goroutines of this process) or process (one child process per unit)")
	lockAge := fs.Duration("lock-age", store.DefaultLockAge, "report (never remove) another host's unit lock whose heartbeat is older than this")
	args, help, err := parseFlags(fs, args, runUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("run takes exactly one config file, got %d arguments %q", len(args), args)
	}
	if *lockAge <= 0 {
		return usagef("--lock-age must be positive, got %s", *lockAge)
	}
	if *executorName != "local" && *executorName != "process" {
		return usagef("--executor must be local or process, got %q", *executorName)
	}
	if *force && *shareUnits {
		return usagef("--share-units has no effect with --force, which computes every unit")
	}
	if *workers < 1 {
		return usagef("--workers must be at least 1, got %d", *workers)
	}
	cfg, err := config.Load(args[0])
	if err != nil {
		return err
	}
	if !*quiet {
		describeSize(stderr, cfg, *workers)
	}
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{
		DataDir: dir, DataSource: source, OutDir: *out, Workers: *workers, Force: *force, RefreshStale: *refreshStale, ShareUnits: *shareUnits,
		Progress: stderr, Stdout: stdout, Version: version(), LockAge: *lockAge,
	}
	if *quiet {
		opt.Progress = nil
	}
	if *executorName == "process" {
		opt.Executor = &executor.ProcessExecutor{Workers: *workers, Config: cfg, Options: opt, Exe: os.Getenv(unitExeEnv)}
	}
	start := time.Now()
	cpu0, cpuOK := cputime.WithChildren()
	res, err := experiments.Run(ctx, cfg, opt)
	if res != nil {
		shared := ""
		if res.Shared > 0 {
			shared = fmt.Sprintf(" (%d of them from other output directories)", res.Shared)
		}
		fmt.Fprintf(stderr, "repro: %d units computed, %d from cache%s; results in %s\n", res.Computed, res.Cached, shared, res.OutDir)
		wall := time.Since(start)
		c := store.RunCost{
			Version: version(), Executor: *executorName, Workers: *workers, Force: *force,
			UnitsComputed: res.Computed, UnitsCached: res.Cached,
			WallSeconds: wall.Seconds(), LargestUnitMiB: res.LargestUnitMiB,
		}
		cpu1, ok := cputime.WithChildren()
		if ok && cpuOK {
			c.CPUSeconds = (cpu1 - cpu0).Seconds()
			fmt.Fprintf(stderr, "repro: cost: %s CPU, %s wall (%s)\n", formatSeconds(cpu1-cpu0), formatSeconds(wall), costScope(*executorName))
		}
		if err == nil && !res.Partial {
			recorded, werr := store.RecordCost(res.OutDir, c, res.Runs)
			if werr != nil {
				return werr
			}
			if !*quiet {
				reportCostRecord(stderr, recorded, res.Cached)
			}
		}
	}
	return err
}

// reportCostRecord says what became of cost.json when the run took units
// from the store (a whole run's record needs no word).
func reportCostRecord(w io.Writer, recorded store.CostRecorded, cached int) {
	switch recorded {
	case store.CostKept:
		fmt.Fprintf(w, "repro: %s kept: %d units came from the store, and it still records the whole run that computed them\n", store.CostFile, cached)
	case store.CostRemoved:
		fmt.Fprintf(w, "repro: %s removed: it described other outputs (other units or code), and %d units came from the store, so this run's cost is not the whole config's\n", store.CostFile, cached)
	case store.CostAbsent:
		fmt.Fprintf(w, "repro: %s not written: %d units came from the store, so this run's cost is not the whole config's\n", store.CostFile, cached)
	}
}

// costScope says what the cost line's CPU time covers.
func costScope(executor string) string {
	if executor == "process" {
		return "this process and the unit processes it ran"
	}
	return "this process, units included"
}

// formatSeconds writes a duration as seconds, to a tenth below 100 s.
func formatSeconds(d time.Duration) string {
	s := d.Seconds()
	if s < 100 {
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.0f s", s)
}

// describeSize prints the config's size estimate before anything loads,
// and warns when the workers together may need more memory than the
// machine allows (the config check only guarantees that one unit fits).
func describeSize(w io.Writer, cfg *config.Config, workers int) {
	e := cfg.Estimate()
	cpu := ""
	if e.MinTime >= time.Minute { // the bound is one pass per unit: only telling for huge runs
		cpu = fmt.Sprintf(", at least %s of CPU time", e.MinTime.Round(time.Minute))
	}
	fmt.Fprintf(w, "repro: %s: %d units (estimated memory: %s%s)\n", cfg.File(), e.Units, unitMemory(e), cpu)
	limit, source := config.MemoryLimit()
	if need := e.DataBytes + float64(min(workers, e.Units))*e.UnitBytes; need > float64(limit) {
		fmt.Fprintf(w, "repro: warning: %d workers may need up to %s together, over the %s limit of %s; consider --workers %d\n",
			workers, formatMiB(need), source, formatMiB(float64(limit)), max(1, int((float64(limit)-e.DataBytes)/e.UnitBytes)))
	}
}

// unitMemory describes the estimate of one unit's memory, and which
// datasets it cannot cover.
func unitMemory(e config.Estimate) string {
	var parts []string
	if e.UnitBytes > 0 {
		parts = append(parts, "up to "+formatMiB(e.UnitBytes)+" per unit")
	}
	if len(e.Unestimated) > 0 {
		parts = append(parts, "not estimated for "+strings.Join(e.Unestimated, ", ")+", whose size is known only once it loads")
	}
	return strings.Join(parts, "; ")
}

func formatMiB(b float64) string {
	if b >= 1<<30 {
		return fmt.Sprintf("%.3g GiB", b/(1<<30))
	}
	return fmt.Sprintf("%.3g MiB", b/(1<<20))
}
