package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/maxmargin/repro/report"
)

// killConfig is small enough for 20 trials in well under a minute, with
// enough units (8 validation + 4 test) for kills to land in every phase.
const killConfig = `name: kill
seed: 11
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 10]
  - name: slack
    C: [0.1, 10]
`

// TestKillAndResumeTrials interrupts the built binary 20 times (4 with
// -short; SIGINT and
// SIGTERM alternately) at times spread over an uninterrupted run, from
// start-up and data loading to the last unit, and resumes each. No trial may
// lose a unit (every unit saved before the signal is valid and reused, and
// every computed unit the progress reported is saved), leave a lock or a
// temporary file, or end with results that differ from the uninterrupted run.
func TestKillAndResumeTrials(t *testing.T) {
	t.Parallel()
	trials := 20
	if testing.Short() {
		trials = 4
	}
	dir := t.TempDir()
	bin := builtRepro(t)
	cfg := filepath.Join(dir, "kill.yaml")
	if err := os.WriteFile(cfg, []byte(killConfig), 0o644); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "ref")
	begin := time.Now()
	if out, err := exec.Command(bin, "run", "--workers", "2", "--out", ref, cfg).CombinedOutput(); err != nil {
		t.Fatalf("reference run: %v\n%s", err, out)
	}
	full := time.Since(begin)
	want := resultsOf(t, ref)

	interrupted := 0
	for i := range trials {
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		when := signalPoint(i, trials)
		out := filepath.Join(dir, fmt.Sprintf("trial%02d", i))
		stopped, log := runAndSignal(t, bin, cfg, out, when, sig)
		if !stopped {
			t.Logf("trial %d (%v %s): the run finished first", i, sig, when)
			continue
		}
		interrupted++
		saved := checkUnitFiles(t, out)
		if reported := reportedComputed(log); reported > saved {
			t.Errorf("trial %d (%v %s): progress reported %d units computed, %d saved:\n%s", i, sig, when, reported, saved, log)
		}
		if _, err := os.Stat(filepath.Join(out, ".lock")); err == nil {
			t.Errorf("trial %d: lock left behind", i)
		}
		res, err := exec.Command(bin, "run", "--workers", "2", "--out", out, cfg).CombinedOutput()
		if err != nil {
			t.Fatalf("trial %d: resume: %v\n%s", i, err, res)
		}
		m := regexp.MustCompile(`(\d+) units computed, (\d+) from cache`).FindSubmatch(res)
		if m == nil {
			t.Fatalf("trial %d: no unit counts in:\n%s", i, res)
		}
		if cached, _ := strconv.Atoi(string(m[2])); cached != saved {
			t.Errorf("trial %d (%v %s): %d units saved, %d reused on resume", i, sig, when, saved, cached)
		}
		if got := resultsOf(t, out); !bytes.Equal(got, want) {
			t.Errorf("trial %d (%v %s): results differ from the uninterrupted run:\n%s\n%s", i, sig, when, got, want)
		}
	}
	t.Logf("%d of %d trials interrupted a run (uninterrupted run: %v)", interrupted, trials, full.Round(time.Millisecond))
	if interrupted < trials-2 {
		t.Errorf("only %d of %d trials interrupted a run", interrupted, trials)
	}
}

// killUnits is how many units killConfig has (8 validation + 4 test).
const killUnits = 12

// signalAt says when a trial sends its signal: after a delay from the
// start (start-up, data loading, planning), or once a number of unit files
// exist (during training, in either phase).
type signalAt struct {
	delay time.Duration
	units int // -1: by delay only
}

func (s signalAt) String() string {
	if s.units < 0 {
		return fmt.Sprintf("after %v", s.delay)
	}
	return fmt.Sprintf("at %d saved units +%v", s.units, s.delay)
}

// signalPoint spreads trial i of n over a run: the first quarter by delays
// from the start (0, 10, 20 ... ms), the rest by saved-unit counts from 0 to
// all but two (with two workers, the last unit may already be running),
// each with a small extra delay so that the signal lands at varied points
// of a unit.
func signalPoint(i, n int) signalAt {
	early := n / 4
	if i < early {
		return signalAt{delay: time.Duration(i) * 10 * time.Millisecond, units: -1}
	}
	return signalAt{delay: time.Duration(i%3) * 7 * time.Millisecond, units: (i - early) * (killUnits - 2) / max(n-early-1, 1)}
}

// runAndSignal starts a run, sends sig at the given point, and waits for
// it. It reports whether the run was stopped (rather than finishing first)
// and its stderr. A run that ignores the signal fails the test.
func runAndSignal(t *testing.T, bin, cfg, out string, when signalAt, sig syscall.Signal) (bool, string) {
	t.Helper()
	var stderr bytes.Buffer
	cmd := exec.Command(bin, "run", "--workers", "2", "--out", out, cfg)
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	finished := func(err error) (bool, string) {
		if err != nil {
			t.Fatalf("run failed before the signal: %v\n%s", err, stderr.String())
		}
		return false, stderr.String()
	}
	for when.units >= 0 {
		units, _ := filepath.Glob(filepath.Join(out, "units", "*.json"))
		if len(units) >= when.units {
			break
		}
		select {
		case err := <-done:
			return finished(err)
		case <-time.After(2 * time.Millisecond):
		}
	}
	select {
	case err := <-done:
		return finished(err)
	case <-time.After(when.delay):
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		return err != nil, stderr.String() // nil: finished as the signal arrived
	case <-time.After(time.Minute):
		cmd.Process.Kill()
		t.Fatalf("no exit a minute after %v:\n%s", sig, stderr.String())
	}
	return false, ""
}

// checkUnitFiles fails the test on any torn or leftover file in out/units
// and returns how many unit files there are.
func checkUnitFiles(t *testing.T, out string) int {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(out, "units"))
	if err != nil {
		return 0 // stopped before preflight created it
	}
	n := 0
	for _, e := range entries {
		if filepath.Ext(e.Name()) != ".json" || e.Name()[0] == '.' {
			t.Errorf("%s: leftover file %s", out, e.Name())
			continue
		}
		b, err := os.ReadFile(filepath.Join(out, "units", e.Name()))
		var unit struct {
			Key      string `json:"key"`
			Checksum string `json:"checksum"`
		}
		if err != nil || json.Unmarshal(b, &unit) != nil || unit.Key+".json" != e.Name() || unit.Checksum == "" {
			t.Errorf("%s: torn unit file %s (%v)", out, e.Name(), err)
			continue
		}
		n++
	}
	return n
}

// reportedComputed is the largest count of computed units (done − cached)
// in a run's progress lines.
func reportedComputed(log string) int {
	best := 0
	for _, m := range regexp.MustCompile(`units (\d+)/\d+ \(\d+ running, (\d+) cached`).FindAllStringSubmatch(log, -1) {
		done, _ := strconv.Atoi(m[1])
		cached, _ := strconv.Atoi(m[2])
		best = max(best, done-cached)
	}
	return best
}

// resultsOf returns what a run must reproduce: every run's metrics and
// chosen hyperparameters (not timings or versions), as JSON lines.
func resultsOf(t *testing.T, dir string) []byte {
	t.Helper()
	runs, _, err := report.ReadRunsFile(filepath.Join(dir, report.RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, r := range runs {
		fmt.Fprintf(&b, "%s %s %d %v %v %v %d %v\n", r.Trainer, r.Task, r.Split, r.Params, r.Metrics["token_error"], r.Metrics["span_f1"], r.Iterations, r.Primal)
	}
	return b.Bytes()
}
