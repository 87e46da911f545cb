package experiments

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallConfigB shares smallConfig's data, splits and margin grid, and adds
// a trainer of its own (one C: test units only).
const smallConfigB = `name: small-b
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
  - name: slack
    C: [0.1]
`

// With ShareUnits a config takes the units another config's output
// directory beside its own holds at this code version (margin's four
// validation and two test units here), copies them into its own, and
// reports the same runs as computing them would; it computes the rest
// (slack's two test units). A
// unit of another version, a damaged one, Force or ShareUnits unset make
// it compute them. With RefreshStale, its own units of an older version are
// taken from the sibling too.
func TestRunSharesUnitsOfThisVersion(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	a := filepath.Join(parent, "small")
	if _, err := Run(context.Background(), mustConfig(t, smallConfig), Options{OutDir: a, Workers: 2, Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	cfg := mustConfig(t, smallConfigB)
	run := func(dir string, opt Options) (*Outcome, string) {
		t.Helper()
		var log bytes.Buffer
		opt.OutDir, opt.Workers, opt.Progress = filepath.Join(parent, dir), 2, &log
		out, err := Run(context.Background(), cfg, opt)
		if err != nil {
			t.Fatal(err)
		}
		return out, log.String()
	}

	// Without sharing: the reference.
	ref, _ := run("b-alone", Options{Version: "v1"})
	if ref.Computed != 8 || ref.Shared != 0 {
		t.Fatalf("without sharing: computed %d, shared %d; want 8 and 0", ref.Computed, ref.Shared)
	}
	os.RemoveAll(filepath.Join(parent, "b-alone")) // not a sibling to share from below

	out, log := run("b", Options{Version: "v1", ShareUnits: true})
	if out.Computed != 2 || out.Shared != 6 || out.Cached != 6 {
		t.Errorf("sharing: computed %d, cached %d, shared %d; want 2, 6, 6", out.Computed, out.Cached, out.Shared)
	}
	for _, want := range []string{"took 4 validation unit(s) that this code version computed for other configs (small 4)", "took 2 test unit(s)"} {
		if !strings.Contains(log, want) {
			t.Errorf("no %q in:\n%s", want, log)
		}
	}
	if got, want := metricView(out.Runs), metricView(ref.Runs); !equalViews(got, want) {
		t.Errorf("runs with shared units differ:\n%v\nwant\n%v", got, want)
	}
	// The copies are this directory's own now: a second run reads them here.
	if out, _ := run("b", Options{Version: "v1", ShareUnits: true}); out.Computed != 0 || out.Shared != 0 {
		t.Errorf("rerun: computed %d, shared %d; want 0 and 0", out.Computed, out.Shared)
	}

	for _, tc := range []struct {
		name string
		opt  Options
	}{
		{"another version", Options{Version: "v2", ShareUnits: true}},
		{"force", Options{Version: "v1", ShareUnits: true, Force: true}},
		{"not asked", Options{Version: "v1"}},
	} {
		if out, _ := run("b-"+strings.ReplaceAll(tc.name, " ", "-"), tc.opt); out.Shared != 0 || out.Computed != 8 {
			t.Errorf("%s: computed %d, shared %d; want 8 and 0", tc.name, out.Computed, out.Shared)
		}
	}

	// A damaged unit is not taken: one margin test unit of a is edited.
	for _, d := range []string{"b-another-version", "b-force", "b-not-asked", "b"} {
		os.RemoveAll(filepath.Join(parent, d))
	}
	p := unitPath(t, a, "margin", 0)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(b, []byte(`"token_error": `), []byte(`"token_error": 1`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, _ := run("b", Options{Version: "v1", ShareUnits: true}); out.Shared != 5 || out.Computed != 3 {
		t.Errorf("with a damaged unit: computed %d, shared %d; want 3 and 5", out.Computed, out.Shared)
	}

	// RefreshStale: units of an older version here are replaced from a
	// sibling where it has them at this version, recomputed elsewhere.
	if _, log := run("c", Options{Version: "v0"}); strings.Contains(log, "took") {
		t.Errorf("v0 took units from v1 siblings:\n%s", log)
	}
	os.RemoveAll(filepath.Join(parent, "b"))
	if out, _ := run("c", Options{Version: "v1", ShareUnits: true, RefreshStale: true}); out.Shared != 5 || out.Computed != 3 {
		t.Errorf("refreshing stale units: computed %d, shared %d; want 3 and 5", out.Computed, out.Shared)
	}
}
