package executor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
)

// smallConfig is a config of 8 validation units on synthetic data.
const smallConfig = `name: small
seed: 5
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 1]
  - name: poslearn
    C: [0.1, 1]
compare:
  - [poslearn, margin]
`

// A child that fails, or exits 0 without saving its unit, fails its unit
// alone: the error names the child's log (which holds what it printed), and
// the run ends with an error, marked partial, as for any failed unit. The
// stand-in children are shell scripts, so no repro binary is built (here
// every unit fails, so there are no partial outputs to write;
// cmd/repro's TestProcessExecutor checks them with one failing child).
func TestProcessExecutorChildFailures(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, script, want string
	}{
		{"crash", "#!/bin/sh\necho \"boom: out of memory ($*)\" >&2\nexit 3\n", "failed (exit status 3): boom: out of memory (unit --plan "},
		{"no result", "#!/bin/sh\nexit 0\n", "exited 0 but left no result at "},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := filepath.Join(dir, "small.yaml")
			exe := filepath.Join(dir, "fake-repro")
			if err := os.WriteFile(file, []byte(smallConfig), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(exe, []byte(tt.script), 0o755); err != nil {
				t.Fatal(err)
			}
			cfg, err := config.Load(file)
			if err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, "out")
			opt := experiments.Options{OutDir: out, Workers: 2}
			opt.Executor = &ProcessExecutor{Workers: 2, Config: cfg, Options: opt, Exe: exe}
			res, err := experiments.Run(context.Background(), cfg, opt)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "its log: "+filepath.Join(out, LogDir)) {
				t.Fatalf("err = %v, want %q and the log's path", err, tt.want)
			}
			if res == nil || !res.Partial {
				t.Errorf("outcome %+v, want partial", res)
			}
			if _, err := os.Stat(filepath.Join(out, experiments.PlanFile)); err != nil {
				t.Errorf("no plan for the children: %v", err)
			}
			logs, _ := filepath.Glob(filepath.Join(out, LogDir, "*.log"))
			if len(logs) != 8 { // the 8 validation units; no test unit can run
				t.Errorf("%d child logs, want 8: %v", len(logs), logs)
			}
		})
	}
}
