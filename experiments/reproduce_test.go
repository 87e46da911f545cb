package experiments

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
)

// Every run of a local run reproduces exactly, grid-extension Cs and a
// trainer without C included; a record changed in any compared field is
// reported as a difference naming it, and a record the config does not
// give (its C changed, so its key is not the unit's) is an error.
func TestReproduceCommittedRuns(t *testing.T) {
	t.Parallel()
	// At this grid validation chooses C = 0.1, a decade past its top.
	cfg := configFile(t, strings.Replace(gridConfig, "C: [1e-5, 1e-4]", "C: [0.001, 0.01]", 1))
	out := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: out, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	runs, _, err := report.ReadRunsFile(filepath.Join(out, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	extended := false
	for _, r := range runs {
		if r.Trainer == "margin" && r.Params["C"] > 0.01 {
			extended = true
		}
	}
	if !extended {
		t.Fatal("no test run at a grid-extension C: the test wants one")
	}
	got, err := Reproduce(context.Background(), cfg, runs, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(runs) {
		t.Fatalf("%d reproductions of %d runs", len(got), len(runs))
	}
	for _, g := range got {
		if len(g.Diffs) > 0 {
			t.Errorf("run %s (%s) did not reproduce: %v", g.Record.Key, g.Record.Trainer, g.Diffs)
		}
	}

	changed := []report.Run{runs[0], runs[1]}
	changed[0].Metrics["token_error"] += 1e-12
	changed[0].CPUSeconds *= 3 // not compared
	changed[1].Iterations++
	changed[1].Outcomes = &report.Outcomes{}
	got, err = Reproduce(context.Background(), cfg, changed, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if d := strings.Join(got[0].Diffs, "; "); len(got[0].Diffs) != 1 || !strings.HasPrefix(d, "metrics.token_error: ") {
		t.Errorf("token error changed by 1e-12 (and CPU time): diffs %q, want token_error alone", d)
	}
	if d := strings.Join(got[1].Diffs, "; "); len(got[1].Diffs) != 2 || !strings.Contains(d, "iterations: ") || !strings.Contains(d, "outcomes") {
		t.Errorf("iterations and outcomes changed: diffs %q", d)
	}

	foreign := runs[0]
	foreign.Params = map[string]float64{"C": foreign.Params["C"] * 10}
	if _, err := Reproduce(context.Background(), cfg, []report.Run{foreign}, Options{OutDir: out}); err == nil || !strings.Contains(err.Error(), "another config") {
		t.Errorf("a record at a C its key was not made with: error %v", err)
	}
}

func TestCheapestRuns(t *testing.T) {
	t.Parallel()
	runs := []report.Run{
		{Key: "a", Task: "sequence", Trainer: "margin", CPUSeconds: 3},
		{Key: "b", Task: "sequence", Trainer: "margin", CPUSeconds: 1},
		{Key: "c", Task: "sequence", Trainer: "crf", CPUSeconds: 2},
		{Key: "d", Task: "segmentation", Trainer: "margin", TrainSeconds: 0.5}, // no CPU recorded: wall time
		{Key: "e", Task: "sequence", Trainer: "crf", CPUSeconds: 2},
	}
	keys := func(rs []report.Run) string {
		var k []string
		for _, r := range rs {
			k = append(k, r.Key)
		}
		return strings.Join(k, "")
	}
	byTrainer := func(r report.Run) string { return r.Task + "|" + r.Trainer }
	for _, tt := range []struct {
		n     int
		group func(report.Run) string
		want  string
	}{
		{1, nil, "d"},
		{2, nil, "bd"},
		{3, nil, "bcd"}, // c and e tie: the smaller key
		{0, nil, "abcde"},
		{1, byTrainer, "bcd"},
		{2, byTrainer, "abcde"},
	} {
		if got := keys(CheapestRuns(runs, tt.n, tt.group)); got != tt.want {
			t.Errorf("CheapestRuns(n=%d, grouped=%v) = %s, want %s", tt.n, tt.group != nil, got, tt.want)
		}
	}
}
