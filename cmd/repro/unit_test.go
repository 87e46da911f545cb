package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/maxmargin/repro/experiments"
)

func TestPlanAndUnitCommandLine(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		args    []string
		wantErr string
	}{
		{"plan without config", []string{"plan"}, "exactly one config file"},
		{"unit without plan", []string{"unit", "--index", "0"}, "unit needs --plan FILE"},
		{"unit without index or key", []string{"unit", "--plan", "p.jsonl"}, "exactly one of --index N and --key K"},
		{"unit with index and key", []string{"unit", "--plan", "p.jsonl", "--index", "1", "--key", "ab"}, "exactly one of --index N and --key K"},
		{"unit with an argument", []string{"unit", "--plan", "p.jsonl", "--index", "1", "x"}, "unit takes no arguments"},
		{"unit with lock age 0", []string{"unit", "--plan", "p.jsonl", "--index", "1", "--lock-age", "0s"}, "--lock-age must be positive"},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), tt.args, nil, &stdout, &stderr)
		var ue usageError
		if err == nil || !strings.Contains(err.Error(), tt.wantErr) || !errors.As(err, &ue) {
			t.Errorf("%s: error %v, want a usage error containing %q", tt.name, err, tt.wantErr)
		}
	}
	for _, cmd := range []string{"plan", "unit"} {
		var stdout, stderr bytes.Buffer
		if err := run(context.Background(), []string{cmd, "--help"}, nil, &stdout, &stderr); err != nil || !strings.Contains(stdout.String(), "Usage: repro "+cmd) {
			t.Errorf("%s --help: %v\n%s", cmd, err, stdout.String())
		}
	}
}

// unitConfig has 8 validation and 4 test units.
const unitConfig = `name: units
seed: 11
datasets:
  - name: synthetic
    synthetic: {sequences: 60, labels: 3}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 10]
  - name: slack
    C: [0.1, 10]
`

// Two processes started at once on one unit: exactly one computes it, the
// other finds it in the store (or waits for the first's lock and reuses its
// result); neither leaves a lock. Then every unit runs by index, and
// repro run collects them all from the store, computing nothing, into the
// same results as a local run.
func TestUnitProcessesShareOneUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bin := builtRepro(t)
	cfg := filepath.Join(dir, "units.yaml")
	if err := os.WriteFile(cfg, []byte(unitConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out")
	if b, err := exec.Command(bin, "plan", "--out", out, cfg).CombinedOutput(); err != nil || !strings.Contains(string(b), "12 units (8 validation, 4 test)") {
		t.Fatalf("plan: %v\n%s", err, b)
	}
	planPath := filepath.Join(out, experiments.PlanFile)
	if n := countLines(t, planPath); n != 12 {
		t.Fatalf("plan.jsonl has %d lines, want 12", n)
	}

	logs := make([]string, 2)
	var wg sync.WaitGroup
	for i := range logs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := exec.Command(bin, "unit", "--plan", planPath, "--index", "0").CombinedOutput()
			if err != nil {
				t.Errorf("worker %d: %v\n%s", i, err, b)
			}
			logs[i] = string(b)
		}()
	}
	wg.Wait()
	computed := 0
	for _, l := range logs {
		if strings.Contains(l, ": computed;") {
			computed++
		} else if !strings.Contains(l, "already in the store") && !strings.Contains(l, "saved by another worker") {
			t.Errorf("worker neither computed nor reused the unit:\n%s", l)
		}
	}
	if computed != 1 {
		t.Errorf("%d workers computed unit 0, want exactly 1:\n%s", computed, strings.Join(logs, "\n"))
	}
	profile, heapProfile := filepath.Join(dir, "unit1.pprof"), filepath.Join(dir, "unit2.heap")
	for i := 1; i < 12; i++ {
		args := []string{"unit", "--plan", planPath, "--index", fmt.Sprint(i)}
		switch i {
		case 1:
			args = append(args, "--cpuprofile", profile)
		case 2:
			args = append(args, "--memprofile", heapProfile)
		}
		if b, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			t.Fatalf("unit %d: %v\n%s", i, err, b)
		}
	}
	for flag, path := range map[string]string{"--cpuprofile": profile, "--memprofile": heapProfile} {
		if b, err := os.ReadFile(path); err != nil || len(b) < 2 || b[0] != 0x1f || b[1] != 0x8b {
			t.Errorf("%s wrote no gzipped profile (%d bytes): %v", flag, len(b), err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(out, "units", "*.lock")); len(left) > 0 {
		t.Errorf("locks left: %v", left)
	}
	b, err := exec.Command(bin, "run", "--out", out, cfg).CombinedOutput()
	if err != nil || !strings.Contains(string(b), "0 units computed, 12 from cache") {
		t.Fatalf("collecting run: %v\n%s", err, b)
	}
	ref := filepath.Join(dir, "ref")
	if b, err := exec.Command(bin, "run", "--quiet", "--out", ref, cfg).CombinedOutput(); err != nil {
		t.Fatalf("local run: %v\n%s", err, b)
	}
	if a, b := resultsOf(t, ref), resultsOf(t, out); !bytes.Equal(a, b) {
		t.Errorf("collected results differ from a local run's:\n%s\n%s", a, b)
	}
}

func countLines(t *testing.T, path string) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	n := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		n++
	}
	return n
}
