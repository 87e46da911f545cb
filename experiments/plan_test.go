package experiments

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

// gridConfig extends margin's C grid: so small a C barely moves w, so
// validation prefers the top end and the grid grows.
const gridConfig = `name: grid
seed: 5
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [1e-5, 1e-4]
    grid: {extend: true, max_steps: 2}
  - name: perceptron
    epochs: 2
`

// twoDataConfig has two datasets, the second a column file of
// twoDataFile's (below the data directory): a unit keeps only its own
// dataset's data once the plan is checked (releaseOthers).
const twoDataConfig = `name: two
seed: 5
datasets:
  - name: synthetic
    synthetic: {sequences: 30, labels: 3, min_len: 4, max_len: 8}
  - name: tiny-ner
    format: conll
    path: tiny.txt
    columns: [word, label]
    encoding: iob2
splits:
  count: 2
  train_fractions: [0.5]
trainers:
  - name: margin
    C: [0.1, 1]
  - name: poslearn
    C: [1]
    solver: one-slack
`

// twoDataFile writes twoDataConfig's column file into a new data
// directory and returns the directory: 24 sentences of 2–5 tokens, names
// (capitalised words) tagged B-/I-PER.
func twoDataFile(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	var b strings.Builder
	words := []string{"the", "Ann", "saw", "Bo", "Lee", "run", "a", "Cy"}
	for s := range 24 {
		for k := range 2 + s%4 {
			w := words[(s*3+k)%len(words)]
			tag := "O"
			if w[0] >= 'A' && w[0] <= 'Z' {
				tag = "B-PER"
				if k > 0 && strings.HasSuffix(b.String(), "PER\n") {
					tag = "I-PER"
				}
			}
			fmt.Fprintf(&b, "%s %s\n", w, tag)
		}
		b.WriteString("\n")
	}
	writeFile(t, dir, "tiny.txt", b.String())
	return dir
}

// configFile writes text to a config file in a new directory and loads it
// (plans name their config file).
func configFile(t *testing.T, text string) *config.Config {
	t.Helper()
	path := filepath.Join(t.TempDir(), "cfg.yaml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// storedKeys returns the keys of dir's unit files by phase.
func storedKeys(t *testing.T, dir string) map[string][]string {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	out := map[string][]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		key := strings.TrimSuffix(filepath.Base(p), ".json")
		res, _, err := store.Decode(b, key)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[res.Spec.Phase] = append(out[res.Spec.Phase], key)
	}
	for _, keys := range out {
		slices.Sort(keys)
	}
	return out
}

// The plan lists exactly the validation units a local run computes (with
// their keys), then one test unit per group depending on its group's
// validation units; plan.jsonl round-trips.
func TestPlanListsUnitsAndDependencies(t *testing.T) {
	t.Parallel()
	cfg := configFile(t, smallConfig)
	local, out := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: local, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	plan, err := Plan(context.Background(), cfg, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	if got := DescribePlan(plan); got != "12 units (8 validation, 4 test)" {
		t.Fatalf("plan: %s", got)
	}
	var valKeys []string
	for i, p := range plan {
		if p.Index != i || p.Config == "" || p.ConfigSHA256 == "" {
			t.Errorf("line %d: %+v", i, p)
		}
		if p.Phase == store.PhaseValidate {
			valKeys = append(valKeys, p.Key)
			if p.Key != p.Spec.Key() || len(p.DependsOn) > 0 {
				t.Errorf("validation line %d: key %q, deps %v", i, p.Key, p.DependsOn)
			}
			continue
		}
		if !p.CFromValidation || p.Key != "" || p.Spec.C != 0 || len(p.DependsOn) != 2 {
			t.Errorf("test line %d: %+v", i, p)
		}
		for _, d := range p.DependsOn {
			if plan[d].Phase != store.PhaseValidate || plan[d].Group != p.Group {
				t.Errorf("test line %d depends on %d of group %q", i, d, plan[d].Group)
			}
		}
	}
	slices.Sort(valKeys)
	if want := storedKeys(t, local)[store.PhaseValidate]; !slices.Equal(valKeys, want) {
		t.Errorf("planned validation keys\n%v\nlocal run's\n%v", valKeys, want)
	}
	path := filepath.Join(out, PlanFile)
	if err := WritePlan(path, plan); err != nil {
		t.Fatal(err)
	}
	back, err := ReadPlan(path)
	if err != nil {
		t.Fatal(err)
	}
	for i := range plan {
		if !samePlanned(plan[i], back[i]) || back[i].Spec.Label != plan[i].Spec.Label {
			t.Errorf("line %d does not round-trip:\n%+v\n%+v", i, plan[i], back[i])
		}
	}
}

// runPlan runs every unit of the plan in out with RunUnit, in plan order
// (validation units first, as a job array per stage would).
func runPlan(t *testing.T, cfg *config.Config, out, dataDir string) []UnitOutcome {
	t.Helper()
	plan, err := Plan(context.Background(), cfg, Options{OutDir: out, DataDir: dataDir})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, PlanFile)
	if err := WritePlan(path, plan); err != nil {
		t.Fatal(err)
	}
	if plan, err = ReadPlan(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadPlanConfig(path, plan[0])
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []UnitOutcome
	for i := range plan {
		o, err := RunUnit(context.Background(), loaded, plan, i, Options{OutDir: out, DataDir: dataDir})
		if err != nil {
			t.Fatalf("unit %d: %v", i, err)
		}
		outcomes = append(outcomes, o)
	}
	return outcomes
}

// Units computed one by one with RunUnit (as job-array tasks would) are
// collected by Run without computing anything, into the same outputs as a
// local run's, byte for byte apart from times; grid extensions included.
func TestRunUnitThenCollectEqualsLocalRun(t *testing.T) {
	t.Parallel()
	for _, text := range []string{smallConfig, gridConfig, twoDataConfig} {
		cfg := configFile(t, text)
		local, out, data := t.TempDir(), t.TempDir(), ""
		if text == twoDataConfig {
			data = twoDataFile(t)
		}
		if _, err := Run(context.Background(), cfg, Options{OutDir: local, Workers: 2, DataDir: data}); err != nil {
			t.Fatal(err)
		}
		outcomes := runPlan(t, cfg, out, data)
		ext := 0
		for _, o := range outcomes {
			if !o.Computed || o.Key == "" {
				t.Errorf("%s: %+v, want computed", cfg.Name, o)
			}
			ext += o.Extensions
		}
		if cfg.Name == "grid" && ext == 0 {
			t.Errorf("grid config: no grid extension was validated by the test units")
		}
		collected, err := Run(context.Background(), cfg, Options{OutDir: out, Workers: 2, DataDir: data})
		if err != nil {
			t.Fatal(err)
		}
		if collected.Computed != 0 {
			t.Errorf("%s: collecting computed %d units, want 0 (cached %d)", cfg.Name, collected.Computed, collected.Cached)
		}
		if !equalViews(metricView(readRuns(t, local)), metricView(readRuns(t, out))) {
			t.Errorf("%s: collected runs differ from the local run's", cfg.Name)
		}
		for _, name := range []string{"table.md", "table.txt", "table.csv", "table.tex"} {
			a, errA := os.ReadFile(filepath.Join(local, name))
			b, errB := os.ReadFile(filepath.Join(out, name))
			if errA != nil || errB != nil || !bytes.Equal(timeless(a), timeless(b)) {
				t.Errorf("%s: %s differs from the local run's (%v, %v):\n%s\n%s", cfg.Name, name, errA, errB, a, b)
			}
		}
		if !slices.Equal(storedKeys(t, local)[store.PhaseTest], storedKeys(t, out)[store.PhaseTest]) {
			t.Errorf("%s: test unit keys differ", cfg.Name)
		}
	}
}

// timeless blanks the measured costs of a table: the columns named "...
// seconds" of a CSV table, the "CPU s", "wall s" and "peak MiB" columns of
// the cost table of a text or Markdown one. Everything else must match.
func timeless(b []byte) []byte {
	lines := strings.Split(string(b), "\n")
	var timeCols []int
	for i, l := range lines {
		sep := "|"
		if !strings.HasPrefix(l, "|") {
			sep = ","
		}
		cells := strings.Split(l, sep)
		for j, c := range cells {
			if c = strings.TrimSpace(c); strings.HasSuffix(c, "seconds") || c == "CPU s" || c == "wall s" || c == "peak MiB" {
				timeCols = append(timeCols, j)
			}
		}
		if len(timeCols) > 0 && strings.Contains(l, sep) {
			for _, j := range timeCols {
				if j < len(cells) && !strings.HasSuffix(strings.TrimSpace(cells[j]), "s") {
					cells[j] = "-"
				}
			}
			lines[i] = strings.Join(cells, sep)
		}
	}
	return []byte(strings.Join(lines, "\n"))
}

// A test unit before its validation units names the missing ones; a unit
// already in the store is not computed again.
func TestRunUnitOrderAndCache(t *testing.T) {
	t.Parallel()
	cfg := configFile(t, smallConfig)
	out := t.TempDir()
	plan, err := Plan(context.Background(), cfg, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	last := len(plan) - 1
	_, err = RunUnit(context.Background(), cfg, plan, last, Options{OutDir: out})
	if err == nil || !strings.Contains(err.Error(), "needs its validation units") || !strings.Contains(err.Error(), "repro unit --index") {
		t.Fatalf("test unit before validation: %v", err)
	}
	if _, err := RunUnit(context.Background(), cfg, plan, len(plan), Options{OutDir: out}); err == nil {
		t.Fatal("an index past the plan was accepted")
	}
	first, err := RunUnit(context.Background(), cfg, plan, 0, Options{OutDir: out})
	if err != nil || !first.Computed || first.Key != plan[0].Key {
		t.Fatalf("unit 0: %+v, %v", first, err)
	}
	again, err := RunUnit(context.Background(), cfg, plan, 0, Options{OutDir: out})
	if err != nil || !again.Cached || again.Computed {
		t.Fatalf("unit 0 again: %+v, %v", again, err)
	}
	if left, _ := filepath.Glob(filepath.Join(out, "units", "*.lock")); len(left) > 0 {
		t.Errorf("locks left: %v", left)
	}
}

// A plan refuses a config edited since, and a config whose units changed.
func TestPlanDetectsChangedConfig(t *testing.T) {
	t.Parallel()
	cfg := configFile(t, smallConfig)
	out := t.TempDir()
	plan, err := Plan(context.Background(), cfg, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(out, PlanFile)
	if err := WritePlan(path, plan); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg.File(), []byte(strings.Replace(smallConfig, "seed: 5", "seed: 6", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadPlanConfig(path, plan[0]); err == nil || !strings.Contains(err.Error(), "changed since plan") {
		t.Fatalf("edited config: %v", err)
	}
	edited, err := config.Load(cfg.File())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunUnit(context.Background(), edited, plan, 0, Options{OutDir: out}); err == nil || !strings.Contains(err.Error(), "does not match its config") {
		t.Fatalf("unit of a stale plan: %v", err)
	}
}

// RunGridExtension computes only the extension Run would try next for the
// group of the test line it names: other C values, validation lines and
// groups whose validation is not in the store are refused; the next
// extensions are computed one by one, and the test unit then chooses C
// without computing any extension itself.
func TestRunGridExtensionRunsTheNextOne(t *testing.T) {
	t.Parallel()
	cfg := configFile(t, gridConfig)
	out := t.TempDir()
	plan, err := Plan(context.Background(), cfg, Options{OutDir: out})
	if err != nil {
		t.Fatal(err)
	}
	test := -1
	for _, p := range plan {
		if p.Phase == store.PhaseTest && p.CFromValidation && test < 0 {
			test = p.Index
		}
	}
	if test < 0 {
		t.Fatal("no test unit chooses its C")
	}
	opt := Options{OutDir: out}
	if _, err := RunGridExtension(context.Background(), cfg, plan, test, 1e-3, opt); err == nil || !strings.Contains(err.Error(), "needs its validation units") {
		t.Fatalf("before validation: %v", err)
	}
	for _, d := range plan[test].DependsOn {
		if _, err := RunUnit(context.Background(), cfg, plan, d, opt); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := RunGridExtension(context.Background(), cfg, plan, plan[test].DependsOn[0], 1e-3, opt); err == nil || !strings.Contains(err.Error(), "not a test unit") {
		t.Errorf("a validation line: %v", err)
	}
	// Validation chose one end of [1e-5, 1e-4]: the next extension is a
	// decade past it, and a decade past the other end is refused.
	c, step := 1e-3, 10.0
	if _, err := RunGridExtension(context.Background(), cfg, plan, test, c, opt); err != nil {
		if !strings.Contains(err.Error(), "next grid extension") || !strings.Contains(err.Error(), "is C = 1e-06, not 0.001") {
			t.Fatalf("extension C = %g: %v", c, err)
		}
		c, step = 1e-6, 0.1
		if o, err := RunGridExtension(context.Background(), cfg, plan, test, c, opt); err != nil || !o.Computed {
			t.Fatalf("extension C = %g: %+v, %v", c, o, err)
		}
	}
	// Then the next, until the choice is inside (at most max_steps = 2).
	extensions := 1
	for ; ; extensions++ {
		c *= step
		o, err := RunGridExtension(context.Background(), cfg, plan, test, c, opt)
		if err != nil {
			if !strings.Contains(err.Error(), "no grid extension") {
				t.Fatalf("extension C = %g: %v", c, err)
			}
			break
		}
		if !o.Computed || extensions > 2 {
			t.Fatalf("extension %d, C = %g: %+v", extensions+1, c, o)
		}
	}
	if _, err := RunGridExtension(context.Background(), cfg, plan, test, 0.5, opt); err == nil {
		t.Error("a C off the decade ladder was computed")
	}
	o, err := RunUnit(context.Background(), cfg, plan, test, opt)
	if err != nil || o.Extensions != 0 || !o.Computed {
		t.Errorf("test unit after its extensions: %+v, %v", o, err)
	}
}
