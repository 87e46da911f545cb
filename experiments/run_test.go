package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

const smallConfig = `name: small
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
  - name: poslearn
    C: [0.1, 1]
compare:
  - [poslearn, margin]
`

func mustConfig(t *testing.T, text string) *config.Config {
	t.Helper()
	cfg, err := config.Parse([]byte(text), "small.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func readRuns(t *testing.T, dir string) []report.Run {
	t.Helper()
	runs, warnings, err := report.ReadRunsFile(filepath.Join(dir, "runs.jsonl"))
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reading runs: %v %v", err, warnings)
	}
	return runs
}

// metricsOf keeps what must be reproducible (not timings or versions).
type metricsOf struct {
	Dataset, Trainer       string
	Split                  int
	C, TokenError, SpanF1  float64
	Iterations, Constraint int
	Primal, Dual           float64
}

func metricView(runs []report.Run) []metricsOf {
	var out []metricsOf
	for _, r := range runs {
		out = append(out, metricsOf{r.Dataset, r.Trainer, r.Split, r.Params["C"], r.Metrics["token_error"], r.Metrics["span_f1"], r.Iterations, r.Constraints, r.Primal, r.Dual})
	}
	return out
}

func equalViews(a, b []metricsOf) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRunWritesRunsAndTables(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var stdout bytes.Buffer
	out, err := Run(context.Background(), mustConfig(t, smallConfig), Options{OutDir: dir, Workers: 2, Stdout: &stdout})
	if err != nil {
		t.Fatal(err)
	}
	runs := readRuns(t, dir)
	if len(runs) != 4 { // 2 trainers × 2 splits
		t.Fatalf("%d runs, want 4", len(runs))
	}
	for _, r := range runs {
		if r.Task != config.TaskSequence || r.TrainFraction != 0.5 || len(r.Selection) != 2 || r.TrainSize != 20 || r.TestSize != 20 {
			t.Errorf("unexpected run %+v", r)
		}
		// The selected C is the grid point with the lowest validation error.
		best := r.Selection[0]
		for _, c := range r.Selection[1:] {
			if c.Metrics["token_error"] < best.Metrics["token_error"] {
				best = c
			}
		}
		if r.Params["C"] != best.Params["C"] {
			t.Errorf("%s split %d: chose C=%v, validation prefers %v", r.Trainer, r.Split, r.Params["C"], best.Params["C"])
		}
		if r.Metrics["token_error"] < 0 || r.Metrics["token_error"] > 100 || r.Metrics["span_f1"] < 0 || r.Metrics["span_f1"] > 100 || r.Gap < -1e-9 {
			t.Errorf("implausible metrics %+v", r)
		}
	}
	if out.Computed != 4*2+4 {
		t.Errorf("computed %d units, want 12 (8 validation + 4 test)", out.Computed)
	}
	for _, f := range []string{"table.md", "table.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Error(err)
		}
	}
	// config.yaml shows what ran, defaults included, and parses back.
	saved, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(saved), "validation_fraction: 0.25") {
		t.Errorf("config.yaml lacks the default validation fraction:\n%s", saved)
	}
	if _, err := config.Parse(saved, "config.yaml"); err != nil {
		t.Errorf("config.yaml does not parse back: %v", err)
	}
	cpu := 0.0
	for _, r := range runs {
		cpu += r.CPUSeconds
	}
	if runtime.GOOS == "linux" && !(cpu > 0) {
		t.Errorf("no run recorded CPU seconds (sum %v)", cpu)
	}
	if !strings.Contains(stdout.String(), "poslearn vs margin") {
		t.Errorf("printed table lacks the t-test:\n%s", stdout.String())
	}
}

// Results must not depend on the number of workers, and a second run must
// come entirely from the cache with identical numbers.
func TestRunDeterministicAndResumable(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	one, many := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: one, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, Options{OutDir: many, Workers: 4}); err != nil {
		t.Fatal(err)
	}
	a, b := metricView(readRuns(t, one)), metricView(readRuns(t, many))
	if !equalViews(a, b) {
		t.Fatalf("workers=1 and workers=4 differ:\n%v\n%v", a, b)
	}
	again, err := Run(context.Background(), cfg, Options{OutDir: one, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if again.Computed != 0 || again.Cached != 12 {
		t.Errorf("rerun computed %d, cached %d; want 0 and 12", again.Computed, again.Cached)
	}
	if c := metricView(readRuns(t, one)); !equalViews(a, c) {
		t.Fatalf("cached rerun differs:\n%v\n%v", a, c)
	}
}

// cancelAfter cancels a context once n progress lines were written.
type cancelAfter struct {
	mu     sync.Mutex
	n      int
	cancel context.CancelFunc
}

func (c *cancelAfter) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.n--; c.n == 0 {
		c.cancel()
	}
	return len(p), nil
}

func TestRunInterruptedThenResumed(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	ref, dir := t.TempDir(), t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: ref, Workers: 1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := Run(ctx, cfg, Options{OutDir: dir, Workers: 1, Progress: &cancelAfter{n: 1, cancel: cancel}})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "resume") {
		t.Fatalf("interrupted run returned %v", err)
	}
	units, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	if len(units) == 0 || len(units) >= 12 {
		t.Fatalf("%d units saved at the interruption, want some but not all", len(units))
	}
	out, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if out.Cached != len(units) {
		t.Errorf("resumed run reused %d units, %d were saved", out.Cached, len(units))
	}
	if a, b := metricView(readRuns(t, ref)), metricView(readRuns(t, dir)); !equalViews(a, b) {
		t.Fatalf("interrupted+resumed differs from uninterrupted:\n%v\n%v", a, b)
	}
}

func TestRunMissingDatasetExplains(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, strings.Replace(strings.Replace(smallConfig, "name: synthetic", "name: cora", 1),
		"    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}\n", "", 1))
	_, err := Run(context.Background(), cfg, Options{OutDir: t.TempDir(), DataDir: t.TempDir(), DataSource: "--data"})
	if err == nil || !strings.Contains(err.Error(), "tagged_references.txt") || !strings.Contains(err.Error(), "--data") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunWarnsAboutCacheFromOtherVersion(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Version: "old"}); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Version: "new", Progress: &log}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`8 cached validation unit(s) were computed by other code versions than this one ("new"): "old" (margin 4, poslearn 4)`,
		`4 cached test unit(s) were computed by other code versions than this one ("new"): "old" (margin 2, poslearn 2)`,
	} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("no %q in:\n%s", want, log.String())
		}
	}
}

// A unit whose training blows up (NaN) fails alone: the others finish, are
// saved and written as partial outputs, and the error names the failed unit.
func TestRunUnitFailureDoesNotStopOthers(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	failing := func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
		if u.Trainer == "margin" && u.Split == 1 && u.Phase == store.PhaseTest {
			return unitResult{}, fmt.Errorf("pass 3: %w", trainers.ErrNotFinite)
		}
		return tasks()[config.TaskSequence].Run(ctx, d, u, train, eval)
	}
	out, err := runWith(context.Background(), cfg, Options{OutDir: dir, Workers: 2}, failing)
	if err == nil || !errors.Is(err, trainers.ErrNotFinite) || !strings.Contains(err.Error(), "margin C=") || !strings.Contains(err.Error(), "split 1") {
		t.Fatalf("err = %v", err)
	}
	if len(out.Runs) != 3 || !out.Partial {
		t.Errorf("%d runs written (partial: %v), want the 3 that succeeded, marked partial", len(out.Runs), out.Partial)
	}
	if got := readRuns(t, filepath.Join(dir, PartialDir)); len(got) != 3 {
		t.Errorf("partial/runs.jsonl has %d runs, want 3", len(got))
	}
}

func TestRunSegmentationTask(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, strings.Replace(smallConfig, "splits:", "tasks: [sequence, segmentation]\nsplits:", 1))
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	byTask := map[string]int{}
	for _, r := range readRuns(t, dir) {
		byTask[r.Task]++
		if r.Metrics["token_error"] < 0 || r.Metrics["token_error"] > 100 || r.Metrics["span_f1"] <= 0 {
			t.Errorf("implausible %s run %+v", r.Task, r)
		}
	}
	if byTask[config.TaskSequence] != 4 || byTask[config.TaskSegmentation] != 4 {
		t.Errorf("runs per task %v, want 4 each", byTask)
	}
	units, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	var withLen int
	for _, u := range units {
		b, _ := os.ReadFile(u)
		if strings.Contains(string(b), `"max_segment_length"`) {
			withLen++
		}
	}
	if withLen != 12 {
		t.Errorf("%d units record a max segment length, want the 12 segmentation units", withLen)
	}
}

// Every trainer of every seed paper runs through the same pipeline.
func TestRunOtherTrainers(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `name: others
seed: 2
datasets:
  - name: synthetic
    synthetic: {sequences: 40, labels: 3, min_len: 4, max_len: 8}
splits: {count: 2, train_fractions: [0.5]}
trainers:
  - {name: perceptron, epochs: 5}
  - {name: mira, k: 3, C: [1]}
  - {name: subgradient, epochs: 5, C: [1]}
  - {name: crf, C: [0.1, 1]}
  - {name: entropy-margin, beta: 10, C: [1]}
compare:
  - [crf, perceptron]
`)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	seen := map[string]int{}
	for _, r := range readRuns(t, dir) {
		seen[r.Trainer]++
		if r.Metrics["token_error"] > 60 { // 3 labels: chance is ~67% error
			t.Errorf("%s split %d: token error %.1f, no better than chance", r.Trainer, r.Split, r.Metrics["token_error"])
		}
		if _, hasC := r.Params["C"]; hasC == (r.Trainer == "perceptron") {
			t.Errorf("%s params %v", r.Trainer, r.Params)
		}
	}
	for _, name := range []string{"perceptron", "mira", "subgradient", "crf", "entropy-margin"} {
		if seen[name] != 2 {
			t.Errorf("%s: %d runs, want 2", name, seen[name])
		}
	}
}

// A trainer that serves none of the tasks is refused before anything trains;
// one that serves some is skipped where it cannot, with a notice.
func TestRunUnsupportedTrainerTask(t *testing.T) {
	t.Parallel()
	// Slack-rescaled entropy-margin needs a partition function only the chain
	// model computes.
	text := strings.Replace(smallConfig, "  - name: poslearn\n    C: [0.1, 1]", "  - name: entropy-margin\n    beta: 2\n    rescaling: slack\n    C: [1]", 1)
	text = strings.Replace(text, "compare:\n  - [poslearn, margin]\n", "", 1)

	only := mustConfig(t, strings.Replace(text, "splits:", "tasks: [segmentation]\nsplits:", 1))
	dir := t.TempDir()
	_, err := Run(context.Background(), only, Options{OutDir: dir})
	if err == nil || !strings.Contains(err.Error(), `trainer "entropy-margin" cannot serve task "segmentation": trainer "entropy-margin" with slack rescaling`) || !strings.Contains(err.Error(), "small.yaml:") {
		t.Fatalf("err = %v", err)
	}
	if units, _ := filepath.Glob(filepath.Join(dir, "units", "*")); len(units) > 0 {
		t.Errorf("%d units ran before the refusal", len(units))
	}

	both := mustConfig(t, strings.Replace(text, "splits:", "tasks: [sequence, segmentation]\nsplits:", 1))
	var log bytes.Buffer
	dir = t.TempDir()
	if _, err := Run(context.Background(), both, Options{OutDir: dir, Progress: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), `cannot serve task "segmentation"`) || !strings.Contains(log.String(), "skipped") {
		t.Errorf("no notice of the skipped pair:\n%s", log.String())
	}
	for _, r := range readRuns(t, dir) {
		if r.Trainer == "entropy-margin" && r.Task == config.TaskSegmentation {
			t.Errorf("entropy-margin ran on segmentation: %+v", r)
		}
	}
	table, _ := os.ReadFile(filepath.Join(dir, "table.txt"))
	if !strings.Contains(string(table), "segmentation") || !strings.Contains(string(table), " - ") {
		t.Errorf("table lacks the \"-\" cell:\n%s", table)
	}
}

// When every grid point of a split fails validation, that split is not
// tested with an arbitrary C: it is missing, and the failures are reported.
func TestRunNoTestWithoutValidation(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	failing := func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
		if u.Trainer == "margin" && u.Split == 0 && u.Phase == store.PhaseValidate {
			return unitResult{}, errors.New("boom")
		}
		return tasks()[config.TaskSequence].Run(ctx, d, u, train, eval)
	}
	out, err := runWith(context.Background(), cfg, Options{OutDir: t.TempDir()}, failing)
	if err == nil || !strings.Contains(err.Error(), "2 unit(s) failed") {
		t.Fatalf("err = %v", err)
	}
	for _, r := range out.Runs {
		if r.Trainer == "margin" && r.Split == 0 {
			t.Errorf("margin split 0 tested without a validated C: %+v", r)
		}
	}
	if len(out.Runs) != 3 {
		t.Errorf("%d runs, want 3", len(out.Runs))
	}
}

// A label that occurs only in the evaluation part is simply never predicted
// (its weights stay zero); nothing crashes and it counts as an error.
func TestUnitWithLabelUnseenInTraining(t *testing.T) {
	t.Parallel()
	seq := func(labels ...int) structpred.Sequence {
		toks := make([]string, len(labels))
		for i, l := range labels {
			toks[i] = fmt.Sprintf("w%d", l)
		}
		return structpred.Sequence{Tokens: toks, Labels: labels, Segments: structpred.SegmentsFromLabels(labels)}
	}
	d := &preparedData{name: "tiny", labels: []string{"a", "b", "c"}}
	d.seqs = []structpred.Sequence{seq(0, 1, 1), seq(1, 0), seq(0, 0, 1), seq(2, 2, 0)}
	for _, s := range d.seqs {
		d.attrs = append(d.attrs, features.Extract(s.Tokens, features.DefaultOptions()))
	}
	for _, task := range []string{config.TaskSequence, config.TaskSegmentation} {
		u := unitSpec{Task: task, Trainer: "margin", C: 1, Features: config.UnitFeatures{Edges: true}}
		res, err := dispatchUnit(context.Background(), d, u, []int{0, 1, 2}, []int{3})
		if err != nil {
			t.Fatalf("%s: %v", task, err)
		}
		// Two of the three evaluation tokens carry the unseen label.
		if res.Metrics["token_error"] < 100*2.0/3-1e-9 {
			t.Errorf("%s: token error %.1f%%, the unseen label cannot be predicted", task, res.Metrics["token_error"])
		}
	}
}

// One trainer listed twice under different labels gives two columns, each
// with its own validation and its own runs, and a β figure against a
// baseline.
func TestRunLabelledEntries(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, `name: labels
seed: 4
datasets:
  - name: synthetic
    synthetic: {sequences: 30, labels: 3, min_len: 4, max_len: 8}
splits: {count: 2, train_fractions: [0.5]}
trainers:
  - {name: crf, C: [1]}
  - {name: entropy-margin, label: em-b1, beta: 1, C: [0.1, 1]}
  - {name: entropy-margin, label: em-b10, beta: 10, C: [0.1, 1]}
figures:
  - {name: fig-beta, x: beta, y: token_error, baseline: crf}
`)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	beta := map[string]float64{}
	keys := map[string]bool{}
	for _, r := range readRuns(t, dir) {
		keys[r.Key] = true
		switch r.Trainer {
		case "crf":
			if r.Method != "" {
				t.Errorf("crf run has method %q", r.Method)
			}
		case "em-b1", "em-b10":
			if r.Method != "entropy-margin" || len(r.Selection) != 2 {
				t.Errorf("%s: method %q, %d candidates", r.Trainer, r.Method, len(r.Selection))
			}
			beta[r.Trainer] = r.Params["beta"]
		default:
			t.Errorf("unexpected trainer %q", r.Trainer)
		}
	}
	if beta["em-b1"] != 1 || beta["em-b10"] != 10 || len(keys) != 6 {
		t.Errorf("betas %v, %d distinct unit keys (want 6)", beta, len(keys))
	}
	if _, err := os.Stat(filepath.Join(dir, "fig-beta.png")); err != nil {
		t.Error(err)
	}
}

// A config's paper values are printed after the table, beside ours.
func TestRunPrintsPaperComparison(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig+`paper:
  source: "a made-up table"
  values:
    - {dataset: synthetic, task: sequence, trainer: margin, token_error: 12.5}
`)
	var out bytes.Buffer
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Stdout: &out}); err != nil {
		t.Fatal(err)
	}
	got := out.String()
	table := strings.Index(got, "poslearn")
	paper := strings.Index(got, "Against the paper: a made-up table")
	if table < 0 || paper < table || !strings.Contains(got[paper:], "12.5") {
		t.Errorf("stdout lacks the table followed by the paper comparison:\n%s", got)
	}
}

// A grid marked extend: grows a decade at a time past the end that
// validation chose, per split, until the choice is interior or max_steps
// decades were added; every grid point tried is in the selection record.
func TestRunGridExtension(t *testing.T) {
	t.Parallel()
	text := strings.Replace(smallConfig, "  - name: poslearn\n    C: [0.1, 1]\n", "", 1)
	cfg := mustConfig(t, strings.Replace(text, "compare:\n  - [poslearn, margin]\n", "", 1))
	// So small a C barely moves w: validation prefers the top end.
	cfg.Trainers[0].C = []float64{1e-5, 1e-4}
	cfg.Trainers[0].Grid = &config.GridSpec{Extend: true, MaxSteps: 2}
	dir := t.TempDir()
	var log bytes.Buffer
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Progress: &log}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "grid extension 1") {
		t.Fatalf("no grid extension was logged:\n%s", log.String())
	}
	lo, hi := 1e-5/100, 1e-4*100 // two decades past each end at most
	for _, r := range readRuns(t, dir) {
		var cs []float64
		for _, c := range r.Selection {
			cs = append(cs, c.Params["C"])
		}
		minC, maxC, chosen := slices.Min(cs), slices.Max(cs), r.Params["C"]
		if minC < lo*0.999 || maxC > hi*1.001 {
			t.Errorf("split %d: grid %v grew past max_steps", r.Split, cs)
		}
		atEdge := chosen == minC || chosen == maxC
		exhausted := minC <= lo*1.001 || maxC >= hi*0.999
		if atEdge && !exhausted {
			t.Errorf("split %d: chose C = %v at an end of %v with decades left", r.Split, chosen, cs)
		}
		if len(cs) < 3 {
			t.Errorf("split %d: grid %v was not extended", r.Split, cs)
		}
	}
}

// Unit keys hold effective settings: a config that spells a default out
// plans the same units as one that leaves it unset.
func TestUnitKeysIgnoreSpelledOutDefaults(t *testing.T) {
	t.Parallel()
	keys := func(text string) []string {
		cfg := mustConfig(t, text)
		r := &runner{cfg: cfg, data: []*preparedData{{name: "synthetic", hash: "h"}}}
		units, err := r.plan(context.Background(), store.PhaseValidate, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, u := range units {
			out = append(out, u.Key())
		}
		return out
	}
	plain := keys(smallConfig)
	spelled := keys(strings.Replace(smallConfig, "  - name: margin\n    C: [0.1, 1]\n",
		"  - name: margin\n    C: [0.1, 1]\n    solver: n-slack\n    epsilon: 0.01\n    max_iterations: 500\n", 1))
	if !slices.Equal(plain, spelled) {
		t.Errorf("spelling defaults out changed the unit keys:\n%v\n%v", plain, spelled)
	}
	other := keys(strings.Replace(smallConfig, "  - name: margin\n    C: [0.1, 1]\n",
		"  - name: margin\n    C: [0.1, 1]\n    solver: one-slack\n", 1))
	if slices.Equal(plain, other) {
		t.Error("the one-slack solver did not change the margin unit keys")
	}
}

// Log-linear units carry the CRF's L-BFGS configuration in their keys, so
// that units trained by an earlier minimiser are recomputed, not reused;
// the other trainers' units leave it out and keep their keys.
func TestLogLinearUnitKeysNameTheMinimizer(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, strings.Replace(smallConfig, "  - name: poslearn\n", "  - name: crf\n    C: [0.1, 1]\n  - name: entropy-margin\n    C: [0.1, 1]\n    beta: 2\n  - name: poslearn\n", 1))
	r := &runner{cfg: cfg, data: []*preparedData{{name: "synthetic", hash: "h"}}}
	units, err := r.plan(context.Background(), store.PhaseValidate, nil)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, u := range units {
		seen[u.Trainer] = true
		want := ""
		if u.Trainer == trainers.CRFName || u.Trainer == trainers.EntropyMarginName {
			want = trainers.LBFGSRevision
		}
		if u.Minimizer != want {
			t.Errorf("%s unit: minimizer %q, want %q", u.Trainer, u.Minimizer, want)
		}
		if want != "" {
			old := u
			old.Minimizer = ""
			if old.Key() == u.Key() {
				t.Errorf("%s unit: the minimizer is not part of its key", u.Trainer)
			}
		}
	}
	if len(seen) != 4 {
		t.Errorf("planned trainers %v, want margin, crf, entropy-margin, poslearn", seen)
	}
}

// The CRF's stopping rule: spelling the default out (stop: gradient)
// plans the units of a config that leaves it unset; CRFsuite's rule is
// part of the key with its resolved delta, period and epsilon, which the
// trainer is handed.
func TestCRFStopRuleInUnitKeys(t *testing.T) {
	t.Parallel()
	plan := func(crf string) []unitSpec {
		cfg := mustConfig(t, strings.Replace(smallConfig, "  - name: poslearn\n", "  - name: crf\n    C: [0.1, 1]\n"+crf+"  - name: poslearn\n", 1))
		r := &runner{cfg: cfg, data: []*preparedData{{name: "synthetic", hash: "h"}}}
		units, err := r.plan(context.Background(), store.PhaseValidate, nil)
		if err != nil {
			t.Fatal(err)
		}
		return slices.DeleteFunc(units, func(u unitSpec) bool { return u.Trainer != trainers.CRFName })
	}
	keys := func(us []unitSpec) (out []string) {
		for _, u := range us {
			out = append(out, u.Key())
		}
		return out
	}
	plain, spelled, crfsuite := plan(""), plan("    stop: gradient\n"), plan("    stop: crfsuite\n    period: 5\n")
	if len(plain) == 0 || !slices.Equal(keys(plain), keys(spelled)) {
		t.Errorf("stop: gradient changed the crf unit keys:\n%v\n%v", keys(plain), keys(spelled))
	}
	for i, u := range crfsuite {
		if u.Key() == plain[i].Key() {
			t.Errorf("stop: crfsuite left the key of unit %d unchanged", i)
		}
		v, err := u.TrainerParams()
		if err != nil {
			t.Fatal(err)
		}
		if v["stop"] != trainers.StopCRFsuite || v["delta"] != 1e-5 || fmt.Sprint(v["period"]) != "5" || v["epsilon"] != 1e-5 {
			t.Errorf("unit %d hands the trainer %v", i, v)
		}
	}
}

// C_per_example divides C by the training set size: C = c·n per example is
// the same training as C = c on the sum, bit for bit.
func TestRunCPerExample(t *testing.T) {
	t.Parallel()
	run := func(text string) []report.Run {
		dir := t.TempDir()
		cfg := mustConfig(t, text)
		if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
			t.Fatal(err)
		}
		return readRuns(t, dir)
	}
	base := strings.Replace(smallConfig, "compare:\n  - [poslearn, margin]\n", "", 1)
	base = strings.Replace(base, "  - name: poslearn\n    C: [0.1, 1]\n", "  - name: subgradient\n    C: [0.1]\n    epochs: 3\n", 1)
	sum := run(strings.Replace(base, "C: [0.1, 1]", "C: [0.1]", 1))
	// Test units train on 20 sequences (half of 40).
	mean := run(strings.NewReplacer("C: [0.1, 1]", "C: [2]\n    C_per_example: true", "C: [0.1]\n    epochs: 3", "C: [2]\n    C_per_example: true\n    epochs: 3").Replace(base))
	if len(sum) != len(mean) || len(sum) == 0 {
		t.Fatalf("%d and %d runs", len(sum), len(mean))
	}
	for i := range sum {
		a, b := sum[i], mean[i]
		if a.TrainSize != 20 || a.Metrics["token_error"] != b.Metrics["token_error"] || a.Metrics["span_f1"] != b.Metrics["span_f1"] || a.Primal != b.Primal {
			t.Errorf("%s split %d: sum-C %+v vs mean-C %+v", a.Trainer, a.Split, a, b)
		}
	}
}

// A one-slack margin unit trains and reports the true objective figures.
func TestRunOneSlackSolver(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := strings.Replace(smallConfig, "  - name: margin\n    C: [0.1, 1]\n", "  - name: margin\n    C: [0.1, 1]\n    solver: one-slack\n", 1)
	if _, err := Run(context.Background(), mustConfig(t, text), Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	for _, r := range readRuns(t, dir) {
		if r.OracleCalls == 0 || !r.PrimalExact || r.Gap < -1e-9 || r.WorkingPrimal > r.Primal+1e-9 {
			t.Errorf("%s split %d: oracle calls %d, exact %v, gap %v, working primal %v > primal %v",
				r.Trainer, r.Split, r.OracleCalls, r.PrimalExact, r.Gap, r.WorkingPrimal, r.Primal)
		}
	}
}

// Grid extension stops after max_steps decades on a side, however often
// validation keeps choosing that end.
func TestGridExtensionsStopAtMaxSteps(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	cfg.Trainers[0].Grid = &config.GridSpec{Extend: true, MaxSteps: 2} // margin, C: [0.1, 1]
	r := &runner{cfg: cfg}
	u := unitSpec{Dataset: "synthetic", Task: config.TaskSequence, Trainer: "margin", Label: "margin", Phase: store.PhaseValidate}
	for _, tc := range []struct {
		tried []float64 // validation error falls with C: the smallest wins
		next  float64   // 0: no extension
	}{
		{[]float64{0.1, 1}, 0.01},
		{[]float64{0.1, 1, 0.01}, 0.001},
		{[]float64{0.1, 1, 0.01, 0.001}, 0}, // two decades below 0.1: done
	} {
		var units []unitSpec
		results := map[int]unitResult{}
		for i, c := range tc.tried {
			v := u
			v.C = c
			units = append(units, v)
			results[i] = unitResult{Metrics: map[string]float64{"token_error": 10 + math.Log10(c)}}
		}
		ext := r.gridExtensions(units, results)
		switch {
		case tc.next == 0 && len(ext) != 0:
			t.Errorf("tried %v: extended to %v past max_steps", tc.tried, ext[0].C)
		case tc.next != 0 && (len(ext) != 1 || ext[0].C != tc.next):
			t.Errorf("tried %v: extensions %v, want C = %v", tc.tried, ext, tc.next)
		}
	}
}
