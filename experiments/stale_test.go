package experiments

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/store"
)

// Units from another code version are listed by version and trainer, and
// RefreshStale recomputes only those.
func TestRunRefreshStaleRecomputesOnlyOtherVersions(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Version: "v1"}); err != nil {
		t.Fatal(err)
	}
	// v2 recomputes the four test units; the eight validation units stay v1.
	for _, tr := range []string{"margin", "poslearn"} {
		for split := range 2 {
			if err := os.Remove(unitPath(t, dir, tr, split)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var log bytes.Buffer
	out, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Version: "v2", Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if out.Computed != 4 || out.Cached != 8 {
		t.Errorf("v2 run: computed %d, cached %d; want 4 and 8", out.Computed, out.Cached)
	}
	if want := `8 cached validation unit(s) were computed by other code versions than this one ("v2"): "v1" (margin 4, poslearn 4)`; !strings.Contains(log.String(), want) {
		t.Errorf("no %q in:\n%s", want, log.String())
	}

	log.Reset()
	out, err = Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Version: "v2", RefreshStale: true, Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if out.Computed != 8 || out.Cached != 4 {
		t.Errorf("--refresh-stale: computed %d, cached %d; want 8 and 4", out.Computed, out.Cached)
	}
	if !strings.Contains(log.String(), "recomputing 8 cached validation unit(s) from other code versions") {
		t.Errorf("refresh not reported:\n%s", log.String())
	}
	for _, r := range readRuns(t, dir) {
		if r.Version != "v2" {
			t.Errorf("run %s split %d has version %q after the refresh", r.Trainer, r.Split, r.Version)
		}
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	for _, p := range paths {
		b, _ := os.ReadFile(p)
		if res, _, err := store.Decode(b, strings.TrimSuffix(filepath.Base(p), ".json")); err != nil || res.Version != "v2" {
			t.Errorf("%s: version %q, %v", p, res.Version, err)
		}
	}

	log.Reset()
	if out, err = Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Version: "v2", Progress: &log}); err != nil || out.Computed != 0 {
		t.Fatalf("third run: computed %d, %v", out.Computed, err)
	}
	if strings.Contains(log.String(), "other code versions") {
		t.Errorf("stale warning with one version left:\n%s", log.String())
	}
}
