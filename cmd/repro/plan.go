package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
)

const planUsage = `Usage: repro plan [flags] CONFIG.yaml

Writes OUT/plan.jsonl: one JSON line per unit of CONFIG.yaml (its index,
phase, key, selection group, spec and the units it depends on), validation
units first, then one test unit per selection group. Each line can be run
on its own with 'repro unit --plan OUT/plan.jsonl --index N', into the
store OUT/units/; 'repro run' on the same config then collects the stored
units into the outputs. Nothing is trained.

Flags:
`

func planCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("plan", flag.ContinueOnError)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory (default: results/<config name>)")
	args, help, err := parseFlags(fs, args, planUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("plan takes exactly one config file, got %d arguments %q", len(args), args)
	}
	cfg, opt, err := loadWithOptions(args[0], *dataDir, *out)
	if err != nil {
		return err
	}
	plan, err := experiments.Plan(ctx, cfg, opt)
	if err != nil {
		return err
	}
	path := filepath.Join(opt.OutDir, experiments.PlanFile)
	if err := experiments.WritePlan(path, plan); err != nil {
		return err
	}
	fmt.Fprintf(stderr, "repro: %s: %s in %s\n", cfg.File(), experiments.DescribePlan(plan), path)
	return nil
}

// loadWithOptions loads a config and the options of a command that reads
// its output directory (out, else results/<config name>) and data (dataDir,
// else $REPRO_DATA, else ./data).
func loadWithOptions(path, dataDir, out string) (*config.Config, experiments.Options, error) {
	cfg, err := config.Load(path)
	if err != nil {
		return nil, experiments.Options{}, err
	}
	dir, source := datasets.ResolveDataDir(dataDir)
	opt := experiments.Options{DataDir: dir, DataSource: source, OutDir: out, Version: version()}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	return cfg, opt, nil
}
