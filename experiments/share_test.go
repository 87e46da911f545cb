package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/store"
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
	for _, want := range []string{"validation: took 4 unit(s) that this code version computed in other output directories (small 4)", "test: took 2 unit(s)"} {
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
	// A damaged copy here is replaced by the sibling's, with a warning.
	own := unitPath(t, filepath.Join(parent, "b"), "margin", 0)
	if err := os.WriteFile(own, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out, log := run("b", Options{Version: "v1", ShareUnits: true}); out.Computed != 0 || out.Shared != 1 || !strings.Contains(log, "replaced by small's copy") {
		t.Errorf("damaged own unit: computed %d, shared %d; want 0 and 1, and a warning in:\n%s", out.Computed, out.Shared, log)
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
	if _, log := run("c", Options{Version: "v0", ShareUnits: true}); strings.Contains(log, "took") {
		t.Errorf("v0 took units from v1 siblings:\n%s", log)
	}
	os.RemoveAll(filepath.Join(parent, "b"))
	if out, _ := run("c", Options{Version: "v1", ShareUnits: true, RefreshStale: true}); out.Shared != 5 || out.Computed != 3 {
		t.Errorf("refreshing stale units: computed %d, shared %d; want 3 and 5", out.Computed, out.Shared)
	}
}

// A sibling's unit is not taken without a checksum (a file from before
// checksums, or a hand-made one), under a version that names no build, or
// while another process holds the unit's lock here.
func TestShareRefusals(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	a := filepath.Join(parent, "small")
	// Siblings at v1 and at the two versions that name no build.
	for dir, v := range map[string]string{"small": "v1", "small-unknown": "unknown", "small-dirty": "v1+dirty"} {
		if _, err := Run(context.Background(), mustConfig(t, smallConfig), Options{OutDir: filepath.Join(parent, dir), Workers: 2, Version: v}); err != nil {
			t.Fatal(err)
		}
	}
	p := unitPath(t, a, "margin", 1)
	key := strings.TrimSuffix(filepath.Base(p), ".json")
	own := store.Cache{Dir: filepath.Join(parent, "b", "units")}
	if err := own.Preflight(); err != nil {
		t.Fatal(err)
	}
	shares := func(v string) bool {
		r := newRunner(mustConfig(t, smallConfigB), Options{Version: v, ShareUnits: true}, own, nil, nil)
		_, _, ok := r.share(key)
		os.Remove(own.Path(key))
		return ok
	}
	if !shares("v1") {
		t.Fatal("the unit is not shared at its own version")
	}
	for _, v := range []string{"unknown", "v1+dirty"} {
		if shares(v) {
			t.Errorf("shared under version %q", v)
		}
	}
	lock := store.NewLocks(own.Dir, 0, nil).Path(key)
	if err := os.WriteFile(lock, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if shares("v1") {
		t.Error("shared while the unit's lock is held")
	}
	os.Remove(lock)
	// Without its checksum: decoded, valid, but unsummed.
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(b, &fields); err != nil {
		t.Fatal(err)
	}
	delete(fields, "checksum")
	if b, err = json.Marshal(fields); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, unsummed, err := store.Decode(b, key); err != nil || !unsummed {
		t.Fatalf("the edited file: unsummed %v, %v", unsummed, err)
	}
	if shares("v1") {
		t.Error("shared a unit file without a checksum")
	}
}
