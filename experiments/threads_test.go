package experiments

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
)

// threads changes how a unit trains, not what it computes: a config that
// sets it plans the same unit keys as one that does not, carries it
// through plan.jsonl and hands it to the trainer; a run with it reuses
// every unit a run without it computed, and computing them afresh with it
// gives the same results.
func TestThreadsStayOutOfUnitKeys(t *testing.T) {
	t.Parallel()
	oneThread := strings.Replace(smallConfig, "  - name: margin\n    C: [0.1, 1]\n", "  - name: margin\n    C: [0.1, 1]\n    solver: one-slack\n", 1)
	twoThreads := strings.ReplaceAll(oneThread, "    C: [0.1, 1]\n", "    C: [0.1, 1]\n    threads: 2\n")
	if strings.Count(twoThreads, "threads: 2") != 2 {
		t.Fatalf("config not edited:\n%s", twoThreads)
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "cfg.yaml")
	load := func(text string) *config.Config {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		cfg, err := config.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		return cfg
	}
	out := filepath.Join(dir, "out")
	plans := map[int][]PlannedUnit{}
	for threads, text := range map[int]string{1: oneThread, 2: twoThreads} {
		plan, err := Plan(context.Background(), load(text), Options{OutDir: out})
		if err != nil {
			t.Fatal(err)
		}
		plans[threads] = plan
	}
	if len(plans[1]) != len(plans[2]) || len(plans[1]) == 0 {
		t.Fatalf("%d and %d units", len(plans[1]), len(plans[2]))
	}
	for i, p := range plans[2] {
		q := plans[1][i]
		if p.Key != q.Key || p.Spec.Key() != q.Spec.Key() || p.Threads != 2 || q.Threads != 0 {
			t.Errorf("unit %d: keys %q and %q, spec keys %q and %q, threads %d and %d",
				i, q.Key, p.Key, q.Spec.Key(), p.Spec.Key(), q.Threads, p.Threads)
		}
	}
	planPath := filepath.Join(out, PlanFile)
	if err := WritePlan(planPath, plans[2]); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPlan(planPath)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range back {
		if !samePlanned(p, plans[2][i]) {
			t.Errorf("line %d does not round-trip:\n%+v\n%+v", i, plans[2][i], p)
		}
		v, err := p.Spec.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		if v["threads"] != 2 {
			t.Errorf("unit %d (%s): trainer params %v, want threads 2", i, p.Spec.Trainer, v)
		}
	}
	v, err := plans[1][0].Spec.TrainerParams()
	if err != nil {
		t.Fatal(err)
	}
	if x, ok := v["threads"]; ok && x != 1 {
		t.Errorf("without threads: trainer params %v", v)
	}

	first, err := Run(context.Background(), load(oneThread), Options{OutDir: out, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	second, err := Run(context.Background(), load(twoThreads), Options{OutDir: out, Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if first.Computed == 0 || second.Computed != 0 || second.Cached != first.Computed {
		t.Errorf("one thread computed %d units; two threads then computed %d and reused %d", first.Computed, second.Computed, second.Cached)
	}
	afresh, err := Run(context.Background(), load(twoThreads), Options{OutDir: filepath.Join(dir, "afresh"), Workers: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(afresh.Runs) != len(first.Runs) || afresh.Computed != first.Computed {
		t.Fatalf("%d runs from %d units, want %d from %d", len(afresh.Runs), afresh.Computed, len(first.Runs), first.Computed)
	}
	for i, r := range afresh.Runs {
		f := first.Runs[i]
		if r.Key != f.Key || r.Metrics["token_error"] != f.Metrics["token_error"] || r.Primal != f.Primal || r.Dual != f.Dual ||
			r.Iterations != f.Iterations || r.Constraints != f.Constraints || r.OracleCalls != f.OracleCalls {
			t.Errorf("run %d with two threads:\n%+v\nwith one:\n%+v", i, r, f)
		}
	}
}
