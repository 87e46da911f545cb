package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/executor"
)

// repro run --executor process gives the results and tables of
// --executor local, each unit in its own `repro unit` process with its log
// in OUT/logs. A child that fails (a wrapper around the binary, run as
// $REPRO_UNIT_EXE, fails unit 0) fails its unit alone: the error names its log, the run exits non-zero
// and writes partial/, and the test unit whose validation unit failed runs
// in the parent, choosing C among the rest as a local run would.
func TestProcessExecutor(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	dir, bin, cfg, ref, out, log := localAndProcessRuns(t, unitConfig)
	if !strings.Contains(log, "12 units computed, 0 from cache") {
		t.Fatalf("process run:\n%s", log)
	}
	if !regexp.MustCompile(`repro: cost: [0-9.]+ s CPU, [0-9.]+ s wall \(this process and the unit processes it ran\)`).MatchString(log) {
		t.Errorf("no cost line in the process run's log:\n%s", log)
	}
	if a, b := resultsOf(t, ref), resultsOf(t, out); !bytes.Equal(a, b) {
		t.Errorf("results differ from a local run's:\n%s\n%s", a, b)
	}
	for _, f := range []string{"table.txt", "table.md", "table.tex"} { // table.csv has times in every row
		a, errA := os.ReadFile(filepath.Join(ref, f))
		b, errB := os.ReadFile(filepath.Join(out, f))
		// The training-cost tables hold times and memory: not compared.
		a, _, _ = bytes.Cut(a, []byte("Training cost"))
		b, _, _ = bytes.Cut(b, []byte("Training cost"))
		if errA != nil || errB != nil || len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s differs from a local run's (%v, %v):\n%s\n%s", f, errA, errB, a, b)
		}
	}
	if logs, _ := filepath.Glob(filepath.Join(out, executor.LogDir, "*.log")); len(logs) != 12 {
		t.Errorf("%d child logs, want one per unit (12)", len(logs))
	}

	// args: unit --plan FILE --index N ...
	wrapper := filepath.Join(dir, "failing-repro")
	script := "#!/bin/sh\nif [ \"$5\" = 0 ]; then echo 'fatal error: runtime: out of memory' >&2; exit 2; fi\nexec " + bin + " \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	failing := filepath.Join(dir, "failing")
	cmd := exec.Command(bin, "run", "--executor", "process", "--workers", "2", "--out", failing, cfg)
	cmd.Env = append(os.Environ(), unitExeEnv+"="+wrapper)
	b, err := cmd.CombinedOutput()
	log = string(b)
	if err == nil || cmd.ProcessState.ExitCode() != 1 {
		t.Fatalf("run with a failing child: %v, want exit status 1\n%s", err, log)
	}
	if !strings.Contains(log, "repro unit --index 0 failed (exit status 2): fatal error: runtime: out of memory; its log: "+filepath.Join(failing, executor.LogDir)) {
		t.Errorf("the error does not name the child's failure and log:\n%s", log)
	}
	if _, err := os.Stat(filepath.Join(failing, experiments.PartialDir, "PARTIAL.txt")); err != nil {
		t.Errorf("no partial outputs: %v\n%s", err, log)
	}
	if runs := countLines(t, filepath.Join(failing, experiments.PartialDir, "runs.jsonl")); runs != 4 {
		t.Errorf("partial/runs.jsonl has %d runs, want all 4 (unit 0's group chose among its other C)", runs)
	}
}

// Grid-extension validation units, which no plan line holds, run in
// children too (repro unit --grid-extension C on their group's test line),
// so every unit the run computes has a child's log and none trains in the
// runner, which holds every dataset; the results are a local run's.
func TestProcessExecutorGridExtensions(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	_, _, _, ref, out, log := localAndProcessRuns(t, slurmConfig)
	var computed, cached int
	if i := strings.Index(log, " units computed, "); i < 0 {
		t.Fatalf("no unit count in the output:\n%s", log)
	} else if _, err := fmt.Sscanf(log[strings.LastIndex(log[:i], " ")+1:], "%d units computed, %d from cache", &computed, &cached); err != nil {
		t.Fatalf("unit count: %v\n%s", err, log)
	}
	if !strings.Contains(log, "grid extension 1") || computed <= 12 {
		t.Fatalf("%d units computed, want the 12 planned and grid extensions:\n%s", computed, log)
	}
	if a, b := resultsOf(t, ref), resultsOf(t, out); !bytes.Equal(a, b) {
		t.Errorf("results differ from a local run's:\n%s\n%s", a, b)
	}
	logs, _ := filepath.Glob(filepath.Join(out, executor.LogDir, "*.log"))
	if len(logs) != computed {
		t.Errorf("%d child logs for %d computed units: some ran in the runner", len(logs), computed)
	}
}

// localAndProcessRuns builds repro into a temporary directory, writes
// config there and runs it with --executor local into dir/local (ref) and
// with --executor process into dir/process (out), both on 2 workers; log
// is the process run's output.
func localAndProcessRuns(t *testing.T, config string) (dir, bin, cfg, ref, out, log string) {
	t.Helper()
	dir = t.TempDir()
	bin = builtRepro(t)
	cfg = filepath.Join(dir, "units.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, out = filepath.Join(dir, "local"), filepath.Join(dir, "process")
	if b, err := exec.Command(bin, "run", "--quiet", "--workers", "2", "--out", ref, cfg).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, b)
	}
	b, err := exec.Command(bin, "run", "--executor", "process", "--workers", "2", "--out", out, cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("process run: %v\n%s", err, b)
	}
	return dir, bin, cfg, ref, out, string(b)
}
