package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

func TestRunDispatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("datasets: [{name: synthetic}]\ntrainer: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	zero := filepath.Join(dir, "zero.yaml")
	if err := os.WriteFile(zero, []byte("datasets: [{name: synthetic}]\nsplits: {count: 0}\ntrainers: [{name: perceptron}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr string // substring; "" means success
		usage   bool   // the error is a command-line mistake (exit status 2)
		wantOut string // substring of stdout
	}{
		{"no arguments", nil, "no command given", true, ""},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`, true, ""},
		{"version", []string{"version"}, "", false, ""},
		{"help", []string{"help"}, "", false, "repro run"},
		{"--help", []string{"--help"}, "", false, "repro run"},
		{"run -h", []string{"run", "-h"}, "", false, "Usage: repro run [flags] CONFIG.yaml"},
		{"run --help lists flags", []string{"run", "--help"}, "", false, "-workers"},
		{"run --help after the config", []string{"run", "x.yaml", "--help"}, "", false, "Usage: repro run"},
		{"check --help", []string{"check", "--help"}, "", false, "Usage: repro check [flags]"},
		{"report --help", []string{"report", "--help"}, "", false, "Usage: repro report [flags] DIR"},
		{"run without config", []string{"run"}, "exactly one config", true, ""},
		{"run with two configs", []string{"run", "a.yaml", "b.yaml"}, "exactly one config file, got 2", true, ""},
		{"run with unknown flag", []string{"run", "--wokers", "2", "a.yaml"}, "flag provided but not defined: -wokers", true, ""},
		{"workers 0", []string{"run", "--workers", "0", "a.yaml"}, "--workers must be at least 1, got 0", true, ""},
		{"workers -3 after the config", []string{"run", "a.yaml", "--workers", "-3"}, "--workers must be at least 1, got -3", true, ""},
		{"check workers 0", []string{"check", "--workers=0"}, "--workers must be at least 1, got 0", true, ""},
		{"report without dir", []string{"report"}, "exactly one results directory", true, ""},
		{"run with missing config", []string{"run", filepath.Join(dir, "nope.yaml")}, "nope.yaml", false, ""},
		{"run with misspelt key", []string{"run", bad}, `bad.yaml:2: trainer: unknown key (did you mean "trainers"?)`, false, ""},
		{"flags after the config reach the config check", []string{"run", zero, "--quiet"}, "zero.yaml:2: splits.count: must be at least 1, got 0", false, ""},
		{"-- ends the flags", []string{"run", "--", "--quiet"}, "--quiet", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, nil, &stdout, &stderr)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			var ue usageError
			if got := errors.As(err, &ue); got != tt.usage {
				t.Errorf("error %v: usage error = %v, want %v", err, got, tt.usage)
			}
			if !strings.Contains(stdout.String(), tt.wantOut) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.wantOut)
			}
			if tt.wantErr == "" && stderr.Len() > 0 {
				t.Errorf("stderr not empty on success: %q", stderr.String())
			}
		})
	}
}

// The exit status says how the command ended (see the package doc).
func TestExitCode(t *testing.T) {
	t.Parallel()
	interrupted := func(sig os.Signal) context.Context {
		ctx, cancel := context.WithCancelCause(context.Background())
		cancel(interruption{sig})
		return ctx
	}
	tests := []struct {
		name string
		ctx  context.Context
		err  error
		want int
	}{
		{"success", context.Background(), nil, 0},
		{"failure", context.Background(), errors.New("boom"), 1},
		{"usage", context.Background(), usagef("bad flag"), 2},
		{"SIGINT", interrupted(syscall.SIGINT), fmt.Errorf("run interrupted (%w)", context.Canceled), 130},
		{"SIGTERM", interrupted(syscall.SIGTERM), fmt.Errorf("run interrupted (%w)", context.Canceled), 143},
		{"finished despite a signal", interrupted(syscall.SIGINT), nil, 0},
	}
	for _, tt := range tests {
		if got := exitCode(tt.ctx, tt.err, io.Discard); got != tt.want {
			t.Errorf("%s: exit code %d, want %d", tt.name, got, tt.want)
		}
	}
}

// Flags may follow the config path.
func TestRunQuickstartConfig(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"run", "../../configs/quickstart.yaml", "--quiet", "--out", out}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "synthetic") {
		t.Errorf("table not printed:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, "runs.jsonl")); err != nil {
		t.Error(err)
	}
}

// --share-units copies every unit of a run beside it (the same config in
// another output directory, the same binary) and says so; with --force it
// is a usage error.
func TestRunShareUnits(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	for _, dir := range []string{"a", "b"} {
		var stdout, stderr bytes.Buffer
		args := []string{"run", "../../configs/quickstart.yaml", "--quiet", "--share-units", "--out", filepath.Join(parent, dir)}
		if err := run(context.Background(), args, nil, &stdout, &stderr); err != nil {
			t.Fatalf("%v\n%s", err, stderr.String())
		}
		shared := regexp.MustCompile(`repro: 0 units computed, (\d+) from cache \((\d+) of them from other output directories\)`).FindStringSubmatch(stderr.String())
		switch {
		case dir == "a" && shared != nil:
			t.Errorf("the first run took units from elsewhere:\n%s", stderr.String())
		case dir == "b" && (shared == nil || shared[1] != shared[2]):
			t.Errorf("the second run did not take every unit from the first:\n%s", stderr.String())
		}
	}
	var stderr bytes.Buffer
	err := run(context.Background(), []string{"run", "--force", "--share-units", "--out", filepath.Join(parent, "c"), "../../configs/quickstart.yaml"}, nil, io.Discard, &stderr)
	var ue usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "--share-units has no effect with --force") {
		t.Errorf("--force --share-units: %v", err)
	}
}

// The built binary exits with 130 on Ctrl-C (SIGINT) and 143 on SIGTERM,
// and prints its help to stdout with status 0.
func TestBinaryExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := builtRepro(t)
	help := exec.Command(bin, "run", "--help")
	var stderr bytes.Buffer
	help.Stderr = &stderr
	out, err := help.Output()
	if err != nil || !strings.Contains(string(out), "Usage: repro run") || stderr.Len() > 0 {
		t.Errorf("repro run --help: %v, stdout %q, stderr %q", err, out, stderr.String())
	}
	cfg := filepath.Join(dir, "slow.yaml")
	if err := os.WriteFile(cfg, []byte("datasets: [{name: synthetic, synthetic: {sequences: 200}}]\nsplits: {count: 10}\ntrainers: [{name: margin, C: [0.1, 1, 10, 100]}]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		sig  syscall.Signal
		want int
	}{{syscall.SIGINT, 130}, {syscall.SIGTERM, 143}} {
		cmd := exec.Command(bin, "run", cfg, "--workers", "1", "--out", filepath.Join(dir, tt.sig.String()))
		pipe, err := cmd.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(pipe)
		for sc.Scan() && !strings.Contains(sc.Text(), "units") { // progress: the run has started
		}
		if err := cmd.Process.Signal(tt.sig); err != nil {
			t.Fatal(err)
		}
		for sc.Scan() {
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(2 * time.Minute):
			cmd.Process.Kill()
			t.Fatalf("%v: no exit", tt.sig)
		}
		if got := cmd.ProcessState.ExitCode(); got != tt.want {
			t.Errorf("%v: exit status %d, want %d", tt.sig, got, tt.want)
		}
	}
}

// run prints the size estimate first, and warns when the workers together
// may exceed the memory limit (here set through the GOMEMLIMIT mechanism).
func TestDescribeSize(t *testing.T) {
	cfg, err := config.Load("../../configs/quickstart.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	describeSize(&buf, cfg, 2)
	if want := "configs/quickstart.yaml: 12 units (estimated memory: up to "; !strings.Contains(buf.String(), want) || strings.Contains(buf.String(), "warning") {
		t.Errorf("got %q, want %q and no warning", buf.String(), want)
	}
	e := cfg.Estimate()
	old := debug.SetMemoryLimit(int64(e.DataBytes + 1.5*e.UnitBytes))
	defer debug.SetMemoryLimit(old)
	buf.Reset()
	describeSize(&buf, cfg, 2)
	if want := "warning: 2 workers may need up to"; !strings.Contains(buf.String(), want) || !strings.Contains(buf.String(), "consider --workers 1") {
		t.Errorf("got %q, want %q and a suggestion of 1 worker", buf.String(), want)
	}
}

// Treebanks and corpora a config declares itself have no size before they
// load: the estimate says so instead of guessing Cora's.
func TestDescribeSizeUnknownData(t *testing.T) {
	t.Parallel()
	cfg, err := config.Load("../../configs/parsing.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	describeSize(&buf, cfg, 2)
	want := "(estimated memory: not estimated for swedish, danish-substitute-dev-as-train, dutch-substitute-dev-as-train, whose size is known only once it loads)"
	if !strings.Contains(buf.String(), want) || strings.Contains(buf.String(), "MiB") {
		t.Errorf("got %q, want %q", buf.String(), want)
	}
}

// collectSooner lowers the collector's target to gcPercent, but leaves a
// GOGC the user set alone.
func TestCollectSoonerRespectsGOGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	t.Setenv("GOGC", "100") // restored after the test, whatever happens below
	collectSooner()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("with GOGC=100 set, the target became %d", got)
	}
	os.Unsetenv("GOGC")
	collectSooner()
	if got := debug.SetGCPercent(100); got != gcPercent {
		t.Errorf("without GOGC, the target is %d, want %d", got, gcPercent)
	}
}

// A complete run records its cost beside runs.jsonl; a rerun that takes
// every unit from the store measured only part of the work and leaves the
// record as it was.
func TestRunWritesCost(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	read := func() store.RunCost {
		t.Helper()
		c, err := store.ReadCost(filepath.Join(out, store.CostFile))
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	args := []string{"run", "../../configs/quickstart.yaml", "--quiet", "--workers", "2", "--out", out}
	if err := run(context.Background(), args, nil, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	first := read()
	if !first.Whole() || first.Workers != 2 || first.Executor != "local" ||
		first.Version != version() || first.WallSeconds <= 0 || first.LargestUnitMiB <= 0 {
		t.Errorf("first run's cost: %+v", first)
	}
	var stderr strings.Builder
	loud := []string{"run", "../../configs/quickstart.yaml", "--workers", "2", "--out", out}
	if err := run(context.Background(), loud, nil, io.Discard, &stderr); err != nil {
		t.Fatal(err)
	}
	if again := read(); again != first {
		t.Errorf("a rerun from the store replaced the cost record %+v by %+v", first, again)
	}
	if want := "cost.json kept"; !strings.Contains(stderr.String(), want) {
		t.Errorf("a rerun from the store said %q, want it to say %q", stderr.String(), want)
	}
}
