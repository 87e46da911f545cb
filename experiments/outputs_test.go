package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/trainers"
)

// outputFiles are the outputs a complete run replaces as a set.
var outputFiles = []string{"runs.jsonl", "table.txt", "table.md", "index.html", "report.json"}

func snapshot(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	for _, name := range outputFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	return files
}

// unitPath returns the cache file of the test unit of trainer and split.
func unitPath(t *testing.T, dir, trainer string, split int) string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		res, _, err := store.Decode(b, strings.TrimSuffix(filepath.Base(p), ".json"))
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if res.Spec.Trainer == trainer && res.Spec.Split == split && res.Spec.Phase == store.PhaseTest {
			return p
		}
	}
	t.Fatalf("no test unit for %s split %d", trainer, split)
	return ""
}

// A re-run in which one unit fails must leave the previous complete outputs
// byte for byte as they were and write marked partial outputs beside them;
// the next complete run replaces the outputs and removes the partial ones.
func TestRunWithFailedUnitKeepsPreviousOutputs(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, dir)
	if err := os.Remove(unitPath(t, dir, "margin", 1)); err != nil {
		t.Fatal(err)
	}
	failing := func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
		return unitResult{}, fmt.Errorf("injected: %w", trainers.ErrNotFinite)
	}
	var log, stdout bytes.Buffer
	out, err := runWith(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Progress: &log, Stdout: &stdout}, failing)
	if !errors.Is(err, trainers.ErrNotFinite) || !strings.Contains(err.Error(), "split 1") {
		t.Fatalf("err = %v", err)
	}
	if !out.Partial || out.Computed != 0 || out.Cached != 11 {
		t.Errorf("outcome %+v, want partial with 11 cached units", out)
	}
	for name, b := range snapshot(t, dir) {
		if !bytes.Equal(b, before[name]) {
			t.Errorf("%s was rewritten by a run with a failed unit", name)
		}
	}
	partial := filepath.Join(dir, PartialDir)
	if got := readRuns(t, partial); len(got) != 3 {
		t.Errorf("partial runs.jsonl has %d runs, want 3", len(got))
	}
	note, err := os.ReadFile(filepath.Join(partial, partialNote))
	if err != nil || !strings.Contains(string(note), "PARTIAL RESULTS: 1 unit(s)") || !strings.Contains(string(note), "margin C=") {
		t.Errorf("partial note %q (%v)", note, err)
	}
	if html, _ := os.ReadFile(filepath.Join(partial, "index.html")); !bytes.Contains(html, []byte("PARTIAL (1 unit(s) failed")) {
		t.Error("partial index.html is not titled PARTIAL")
	}
	if !strings.Contains(log.String(), "were left untouched; partial outputs (3 test runs) are in "+partial) {
		t.Errorf("stderr does not say the outputs are partial:\n%s", log.String())
	}

	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(partial); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a complete run left %s behind (%v)", partial, err)
	}
	if got := readRuns(t, dir); len(got) != 4 {
		t.Errorf("complete rerun wrote %d runs, want 4", len(got))
	}
}

// Failing preflight checks stop a run before any unit trains.
func TestRunPreflight(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	var trained atomic.Int32
	counting := func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
		trained.Add(1)
		return tasks()[config.TaskSequence].Run(ctx, d, u, train, eval)
	}
	unitsFile := t.TempDir()
	if err := os.WriteFile(filepath.Join(unitsFile, "units"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		dir  string
		want string
	}{
		{"units is a file", context.Background(), unitsFile, "cannot keep finished units in " + filepath.Join(unitsFile, "units")},
		{"cancelled before the start", cancelled, t.TempDir(), "cancelled before it started"},
	} {
		_, err := runWith(tc.ctx, cfg, Options{OutDir: tc.dir, Workers: 1}, counting)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
	if n := trained.Load(); n != 0 {
		t.Errorf("%d units trained despite failed preflight", n)
	}
}

// Loading data and planning units stop when the context is cancelled.
func TestPrepareAndPlanObeyCancellation(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := prepare(ctx, cfg, Options{}); !errors.Is(err, context.Canceled) {
		t.Errorf("prepare: err = %v", err)
	}
	data, err := prepare(context.Background(), cfg, Options{})
	if err != nil {
		t.Fatal(err)
	}
	r := &runner{cfg: cfg, data: data}
	if _, err := r.plan(ctx, store.PhaseValidate, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("plan: err = %v", err)
	}
}

// A unit that cannot be saved fails with the cause of the failure.
func TestRunSaveFailureNamesCause(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	// A directory where the unit's file goes makes its save fail.
	p := unitPath(t, dir, "poslearn", 0)
	if err := os.Remove(p); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	_, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Progress: &log})
	if err == nil || !strings.Contains(err.Error(), "saving unit:") || !strings.Contains(err.Error(), filepath.Base(p)) {
		t.Fatalf("err = %v", err)
	}
	if !strings.Contains(log.String(), p+": read ") {
		t.Errorf("unreadable unit file not reported:\n%s", log.String())
	}
}
