package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/maxmargin/repro/report"
)

const signalConfig = `name: sig
seed: 9
datasets:
  - name: synthetic
    synthetic: {sequences: 60, labels: 4}
splits:
  count: 4
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 1, 10]
`

// TestInterruptAndResume drives the built binary: SIGINT during a run must
// stop it with a message saying how to resume, keep the finished units, and
// the resumed run must reproduce an uninterrupted run's metrics.
func TestInterruptAndResume(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := builtRepro(t)
	cfg := filepath.Join(dir, "sig.yaml")
	if err := os.WriteFile(cfg, []byte(signalConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	ref, interrupted := filepath.Join(dir, "ref"), filepath.Join(dir, "int")
	if out, err := exec.Command(bin, "run", "--quiet", "--workers", "1", "--out", ref, cfg).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}

	cmd := exec.Command(bin, "run", "--workers", "1", "--out", interrupted, cfg)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	sc := bufio.NewScanner(stderr)
	for sc.Scan() { // the first progress line means at least one unit is saved
		log.WriteString(sc.Text() + "\n")
		if strings.Contains(sc.Text(), "units 1/") {
			break
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	for sc.Scan() {
		log.WriteString(sc.Text() + "\n")
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatalf("no exit after SIGINT:\n%s", log.String())
	}
	if err == nil {
		t.Fatalf("interrupted run exited 0 (too fast to interrupt?):\n%s", log.String())
	}
	if !strings.Contains(log.String(), "run the same command again to resume") {
		t.Errorf("no resume hint in:\n%s", log.String())
	}
	if _, err := os.Stat(filepath.Join(interrupted, ".lock")); err == nil {
		t.Error("lock file left behind after SIGINT")
	}
	saved, _ := filepath.Glob(filepath.Join(interrupted, "units", "*.json"))
	if len(saved) == 0 {
		t.Fatal("no unit kept")
	}

	out, err := exec.Command(bin, "run", "--out", interrupted, cfg).CombinedOutput()
	if err != nil {
		t.Fatalf("resume: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "from cache") {
		t.Errorf("resume did not report cached units:\n%s", out)
	}
	want, _, err := report.ReadRunsFile(filepath.Join(ref, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := report.ReadRunsFile(filepath.Join(interrupted, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d runs after resume, %d uninterrupted", len(got), len(want))
	}
	for i := range want {
		if got[i].Metrics["token_error"] != want[i].Metrics["token_error"] || got[i].Metrics["span_f1"] != want[i].Metrics["span_f1"] || got[i].Params["C"] != want[i].Params["C"] {
			t.Errorf("run %d differs: %+v vs %+v", i, got[i], want[i])
		}
	}
}

// A second signal stops the process at once at any stage, even one that
// the first cannot interrupt: here opening a config that is a named pipe
// no one writes to blocks in the kernel, where no cancellation reaches.
func TestSecondSignalStopsAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the binary")
	}
	t.Parallel()
	bin := builtRepro(t)
	dir := t.TempDir()
	fifo := filepath.Join(dir, "config.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skip(err)
	}
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		cmd := exec.Command(bin, "run", "--out", filepath.Join(dir, "out"), fifo)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		time.Sleep(200 * time.Millisecond) // blocked in open(2) by now
		cmd.Process.Signal(sig)
		select {
		case err := <-done:
			t.Fatalf("%v: exited (%v) on the first signal, which cannot reach a blocked open: the test does not test", sig, err)
		case <-time.After(300 * time.Millisecond):
		}
		cmd.Process.Signal(sig)
		select {
		case <-done:
			if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != sig {
				t.Errorf("%v twice: ended with %v, want death by the signal", sig, cmd.ProcessState)
			}
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			t.Fatalf("%v twice: still running 10 s after the second", sig)
		}
	}
}
