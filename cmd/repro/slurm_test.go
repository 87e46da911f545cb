package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/executor"
	"github.com/maxmargin/repro/internal/slurm"
)

// fakeSlurm stands for sbatch and squeue: sbatch keeps the script it is
// given and answers job ids 1, 2, …; squeue prints queue.
type fakeSlurm struct {
	queue   string
	jobs    int
	scripts []string
	calls   []string
}

func (f *fakeSlurm) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, name+" "+strings.Join(args, " "))
	switch name {
	case "sbatch":
		b, err := os.ReadFile(args[len(args)-1])
		if err != nil {
			return nil, err
		}
		f.scripts = append(f.scripts, string(b))
		f.jobs++
		return fmt.Appendf(nil, "%d\n", f.jobs), nil
	case "squeue":
		return []byte(f.queue), nil
	}
	return nil, fmt.Errorf("%s: %w", name, slurm.ErrNoSlurm)
}

func TestSlurmCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"no config", []string{"slurm"}, "exactly one config file"},
		{"two configs", []string{"slurm", "a.yaml", "b.yaml"}, "exactly one config file"},
		{"negative max-parallel", []string{"slurm", "--max-parallel", "-1", "a.yaml"}, "--max-parallel must be at least 0"},
		{"collect and dry-run", []string{"slurm", "a.yaml", "--collect", "--dry-run"}, "exclude each other"},
		{"unknown flag", []string{"slurm", "--nodes", "2", "a.yaml"}, "flag provided but not defined"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tt.args, nil, &stdout, &stderr)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
			t.Errorf("%s: error %v, want a usage error containing %q", tt.name, err, tt.wantErr)
		}
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"slurm", "--help"}, nil, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "Usage: repro slurm") {
		t.Errorf("slurm --help: %v\n%s", err, stdout.String())
	}
}

// slurmConfig has 8 validation and 4 test units; slack's grid extends, so
// its test units validate extension points first.
const slurmConfig = unitConfig + `    grid: {extend: true, max_steps: 1}
`

// A first submission sends every unit (validation array, then the test
// array after it); while its jobs are queued nothing more is submitted;
// a resubmission sends only the missing units and lists the failed task
// with its log; --collect refuses an incomplete store and gathers a
// complete one into the same results as a local run.
func TestSlurmSubmitResubmitCollect(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "units.yaml")
	bin := filepath.Join(dir, "repro")
	for path, content := range map[string]string{cfgPath: slurmConfig, bin: "#!/bin/sh\n"} {
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	fake := &fakeSlurm{}
	slurmRun := func(args ...string) (stdout, stderr string, err error) {
		var o, e bytes.Buffer
		err = slurmWith(ctx, append(args, "--out", out, "--repro", bin, cfgPath), &o, &e, fake)
		return o.String(), e.String(), err
	}

	// Dry run: the scripts on stdout, nothing written or submitted.
	o, e, err := slurmRun("--dry-run", "--max-parallel", "2")
	if err != nil {
		t.Fatalf("dry run: %v\n%s", err, e)
	}
	if !strings.Contains(o, "#SBATCH --array=0-7%2\n") || !strings.Contains(o, "#SBATCH --dependency=afterok:<validation job id>\n") || len(fake.calls) > 0 {
		t.Errorf("dry run printed\n%s\nand called %q", o, fake.calls)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("dry run wrote %s (%v)", out, err)
	}

	o, e, err = slurmRun("--partition", "short", "--max-parallel", "2", "--mem", "1G", "--time", "5:00")
	if err != nil {
		t.Fatalf("submit: %v\n%s", err, e)
	}
	if o != "validate 1\ntest 2\n" || len(fake.scripts) != 2 {
		t.Fatalf("submit printed %q after %d scripts, want validate 1, test 2", o, len(fake.scripts))
	}
	planPath := filepath.Join(out, experiments.PlanFile)
	absPlan, _ := filepath.Abs(planPath)
	for i, want := range [][]string{
		{"#SBATCH --array=0-7%2\n", "#SBATCH --partition=short\n", "#SBATCH --mem=1G\n", "#SBATCH --time=5:00\n", "#SBATCH --cpus-per-task=1\n",
			fmt.Sprintf("exec %s unit --plan %s --index \"$TASK\" --data ", bin, absPlan)},
		{"#SBATCH --array=8-11%2\n", "#SBATCH --dependency=afterok:1\n", "#SBATCH --kill-on-invalid-dep=yes\n"},
	} {
		for _, w := range want {
			if !strings.Contains(fake.scripts[i], w) {
				t.Errorf("script %d lacks %q:\n%s", i, w, fake.scripts[i])
			}
		}
	}
	plan, err := experiments.ReadPlan(planPath)
	if err != nil || len(plan) != 12 {
		t.Fatalf("plan: %d units, %v", len(plan), err)
	}

	// While job 2 is queued, nothing is submitted.
	fake.queue = "2\n"
	if _, _, err := slurmRun(); err == nil || !strings.Contains(err.Error(), "still queued or running") || len(fake.scripts) != 2 {
		t.Errorf("submitting with jobs queued: %v after %d scripts", err, len(fake.scripts))
	}
	fake.queue = ""

	// The tasks ran: every validation unit but 7 (its task failed), and the
	// test unit of unit 0's group.
	cfg, err := experiments.LoadPlanConfig(planPath, plan[0])
	if err != nil {
		t.Fatal(err)
	}
	opt := experiments.Options{OutDir: out, Version: version(), Workers: 1}
	runUnits := func(indices ...int) {
		for _, i := range indices {
			if _, err := experiments.RunUnit(ctx, cfg, plan, i, opt); err != nil {
				t.Fatalf("unit %d: %v", i, err)
			}
		}
	}
	test0 := slices.IndexFunc(plan, func(p experiments.PlannedUnit) bool { return slices.Contains(p.DependsOn, 0) })
	failed := 7
	testFailed := slices.IndexFunc(plan, func(p experiments.PlannedUnit) bool { return slices.Contains(p.DependsOn, failed) })
	if test0 < 0 || testFailed < 0 || test0 == testFailed {
		t.Fatalf("test units of units 0 and %d: %d, %d; want two distinct ones", failed, test0, testFailed)
	}
	runUnits(0, 1, 2, 3, 4, 5, 6, test0)
	failedLog := filepath.Join(out, executor.SlurmDir, "logs", fmt.Sprintf("validate-1_%d.out", failed))
	if err := os.WriteFile(failedLog, []byte("repro: unit 7: out of memory\n\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	if _, e, err := slurmRun("--collect"); err == nil || !strings.Contains(err.Error(), "4 of 12 units") || !strings.Contains(e, failedLog+": repro: unit 7: out of memory") {
		t.Errorf("collecting an incomplete store: %v\n%s", err, e)
	}
	if _, err := os.Stat(filepath.Join(out, "runs.jsonl")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("collecting an incomplete store wrote runs.jsonl (%v)", err)
	}

	o, e, err = slurmRun()
	if err != nil {
		t.Fatalf("resubmit: %v\n%s", err, e)
	}
	var wantTests []int
	for i, p := range plan {
		if p.Phase == "test" && i != test0 {
			wantTests = append(wantTests, i)
		}
	}
	if o != "validate 3\ntest 4\n" || len(fake.scripts) != 4 {
		t.Fatalf("resubmit printed %q after %d scripts", o, len(fake.scripts))
	}
	for i, want := range []string{
		fmt.Sprintf("#SBATCH --array=%d\n", failed),
		"#SBATCH --array=" + slurm.ArraySpec(wantTests, 0) + "\n",
	} {
		if !strings.Contains(fake.scripts[2+i], want) {
			t.Errorf("resubmitted script %d lacks %q:\n%s", i, want, fake.scripts[2+i])
		}
	}
	if !strings.Contains(fake.scripts[3], "#SBATCH --dependency=afterok:3\n") {
		t.Errorf("resubmitted test array does not wait for the validation array:\n%s", fake.scripts[3])
	}
	if !strings.Contains(e, fmt.Sprintf("unit %d (validate synthetic", failed)) || !strings.Contains(e, failedLog) {
		t.Errorf("resubmission does not list unit %d with its log %s:\n%s", failed, failedLog, e)
	}
	if strings.Contains(e, fmt.Sprintf("unit %d ", test0)) {
		t.Errorf("resubmission lists stored unit %d:\n%s", test0, e)
	}

	// Everything ran: nothing to submit; the collected results are a local run's.
	var rest []int
	for i := range plan {
		if i != 0 && i < failed || i == test0 {
			continue
		}
		rest = append(rest, i)
	}
	runUnits(rest...)
	if o, e, err := slurmRun(); err != nil || o != "" || len(fake.scripts) != 4 || !strings.Contains(e, "all 12 units") {
		t.Errorf("submitting a complete store: %v, printed %q and\n%s", err, o, e)
	}
	if _, e, err := slurmRun("--collect"); err != nil || !strings.Contains(e, "collected") {
		t.Fatalf("collect: %v\n%s", err, e)
	}
	ref := filepath.Join(dir, "ref")
	if _, err := experiments.Run(ctx, cfg, experiments.Options{OutDir: ref, Version: version(), Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if a, b := resultsOf(t, ref), resultsOf(t, out); !bytes.Equal(a, b) || len(a) == 0 {
		t.Errorf("collected results differ from a local run's:\n%s\n%s", a, b)
	}
}

// refusingSlurm is a cluster whose sbatch refuses every script.
type refusingSlurm struct{}

func (refusingSlurm) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	return nil, fmt.Errorf("%s %s: exit status 1: sbatch: error: Batch job submission failed", name, strings.Join(args, " "))
}

// A submission that fails before any job is queued leaves nothing behind
// (no plan.jsonl, no scripts, no empty directories); without sbatch on
// $PATH, nothing is even loaded.
func TestSlurmFailedSubmissionLeavesNothing(t *testing.T) { // not parallel: sets PATH
	dir := t.TempDir()
	cfgPath := filepath.Join(dir, "units.yaml")
	bin := filepath.Join(dir, "repro")
	for path, content := range map[string]string{cfgPath: slurmConfig, bin: "#!/bin/sh\n"} {
		if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(dir, "out")
	var o, e bytes.Buffer
	err := slurmWith(context.Background(), []string{"--out", out, "--repro", bin, cfgPath}, &o, &e, refusingSlurm{})
	if err == nil || !strings.Contains(err.Error(), "Batch job submission failed") {
		t.Fatalf("error %v, want sbatch's", err)
	}
	var left []string
	filepath.WalkDir(out, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			left = append(left, path)
		}
		return nil
	})
	for _, p := range left {
		if strings.HasSuffix(p, ".sbatch") || filepath.Base(p) == experiments.PlanFile {
			t.Errorf("left behind: %s", p)
		}
	}
	if _, err := os.Stat(filepath.Join(out, executor.SlurmDir)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s left behind (%v)", executor.SlurmDir, err)
	}

	t.Setenv("PATH", dir) // no sbatch there; ExecRunner looks for it first
	err = slurmWith(context.Background(), []string{"--out", filepath.Join(dir, "out2"), "--repro", bin, cfgPath}, &o, &e, slurm.ExecRunner{})
	if !errors.Is(err, slurm.ErrNoSlurm) {
		t.Errorf("without sbatch: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "out2")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("without sbatch, out2 was written (%v)", err)
	}
}
