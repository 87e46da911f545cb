package experiments

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/progress"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/readlimit"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/trainers"
)

// Options are the run-time settings of Run that are not part of the
// experiment itself (they never change a result).
type Options struct {
	DataDir    string // where datasets live
	DataSource string // how DataDir was chosen, for messages
	OutDir     string // default: results/<config name>
	Workers    int    // units run at once; default: all cores
	// Force recomputes every unit even if cached, and lets this config take
	// over an output directory written by another config (see owner.go).
	Force bool
	// RefreshStale recomputes only the cached units that another code
	// version computed, reusing the rest.
	RefreshStale bool
	// ShareUnits takes a unit to be computed from the other output
	// directories beside OutDir (its siblings' units/) when one of them
	// holds it at this code version: the same key and the same code are
	// the same computation, so configs that share units (a CRF grid, a
	// baseline) compute them once. The copy keeps the sibling's file as it
	// is, timings included. Never with Force.
	ShareUnits bool
	Progress   io.Writer // progress and warnings; nil: silent
	Stdout     io.Writer // the table is printed here; nil: not printed
	Version    string    // code version stamped into results (see internal/version)
	// Executor runs the units that are not in the store; nil: a
	// LocalExecutor with Workers goroutines.
	Executor Executor
	// LockAge is how long another host's unit lock may go without a
	// heartbeat before it is reported (see store.Locks); 0: DefaultLockAge.
	LockAge time.Duration
}

// PartialDir is where a run with failed units writes its outputs, inside
// the output directory, leaving the previous complete outputs untouched.
const PartialDir = "partial"

// partialNote is the file in PartialDir that says what is missing.
const partialNote = "PARTIAL.txt"

// Outcome summarises a run.
type Outcome struct {
	OutDir           string
	Runs             []report.Run
	Computed, Cached int
	// Shared counts the cached units taken from other output directories
	// (Options.ShareUnits); they are among Cached.
	Shared int
	// LargestUnitMiB is the largest peak memory of a unit this run computed
	// (unitResult.PeakMiB; 0 when it computed none).
	LargestUnitMiB float64
	// Partial is set when units failed: the outputs were written to
	// OutDir/partial, and OutDir's own outputs were left as they were.
	Partial bool
}

// Run executes an experiment: it loads the data, runs every validation unit,
// picks each trainer's hyperparameters per split by validation token error,
// runs the test units, and writes runs.jsonl, the tables, figures and
// index.html into the output directory. Finished units are cached there, so
// a run that fails or is interrupted resumes where it stopped. Units that
// fail do not stop the others; the outputs are then written to
// OutDir/partial (marked as such) and Run returns an error naming the failed
// units: the previous outputs are replaced only by a complete set.
func Run(ctx context.Context, cfg *config.Config, opt Options) (*Outcome, error) {
	return runWith(ctx, cfg, opt, dispatchUnit)
}

// unitFunc trains and evaluates one unit on the given train and eval indices.
type unitFunc func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error)

func runWith(ctx context.Context, cfg *config.Config, opt Options, train unitFunc) (*Outcome, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	unsupported, err := cfg.UnsupportedPairs(opt.Progress)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("run cancelled before it started (%w)", err)
	}
	if err := checkConfigNotOutput(cfg.File(), opt.OutDir); err != nil {
		return nil, err
	}
	// Preflight: everything that can fail without training fails here.
	lock, err := store.AcquireDirLock(opt.OutDir, func(msg string) {
		if opt.Progress != nil {
			fmt.Fprintln(opt.Progress, "repro:", msg)
		}
	})
	if err != nil {
		return nil, err
	}
	defer lock.Release()
	removeStaging(opt.OutDir)
	src := readSource(cfg.File())
	if err := store.ClaimOwner(opt.OutDir, cfg, src, opt.Force, opt.Progress); err != nil {
		return nil, err
	}
	cache := store.Cache{Dir: filepath.Join(opt.OutDir, "units")}
	if err := cache.Preflight(); err != nil {
		return nil, err
	}
	r := newRunner(cfg, opt, cache, train, unsupported)
	if r.data, err = prepare(ctx, cfg, opt); err != nil {
		return nil, r.stopped(ctx, err)
	}

	// Phase 1: validation units for every grid point of every trainer.
	validation, err := r.plan(ctx, store.PhaseValidate, nil)
	if err != nil {
		return nil, r.stopped(ctx, err)
	}
	// Every selection group has one test unit, so the whole run's size is
	// known before it starts (the ETA covers both phases).
	expectedTests, err := r.plan(ctx, store.PhaseTest, anyChoice(validation))
	if err != nil {
		return nil, r.stopped(ctx, err)
	}
	if err := r.checkParts(validation, expectedTests); err != nil {
		return nil, r.stopped(ctx, err)
	}
	r.prog = progress.New(opt.Progress, len(validation)+len(expectedTests))
	defer r.prog.Stop()
	valResults, valErrs := r.execute(ctx, "validation", validation)
	if err := ctx.Err(); err != nil {
		return nil, r.interrupted(err)
	}
	if validation, valErrs, err = r.extendGrids(ctx, validation, valResults, valErrs, len(expectedTests)); err != nil {
		return nil, err
	}
	// Phase 2: one test unit per (dataset, task, trainer, fraction, split).
	chosen, selections := selectParams(validation, valResults, r.cfg.SelectionMetric)
	tests, err := r.plan(ctx, store.PhaseTest, chosen)
	if err != nil {
		return nil, r.stopped(ctx, err)
	}
	r.prog.SetTotal(len(validation) + len(tests))
	testResults, testErrs := r.execute(ctx, "test", tests)
	if err := ctx.Err(); err != nil {
		return nil, r.interrupted(err)
	}
	r.prog.Stop()
	out := &Outcome{OutDir: opt.OutDir, Computed: r.computed, Cached: r.cached, Shared: r.shared, LargestUnitMiB: r.largestMiB}
	for i, u := range tests {
		if res, ok := testResults[i]; ok {
			out.Runs = append(out.Runs, toRun(u, res, selections[groupOf(u)]))
		}
	}
	if opt.Progress != nil {
		for _, n := range report.GridEdges(out.Runs) {
			fmt.Fprintf(opt.Progress, "repro: warning: %s\n", n)
		}
	}
	// config.yaml records what ran: every default resolved.
	effective, err := cfg.Effective()
	if err != nil {
		return out, err
	}
	if errs := append(valErrs, testErrs...); len(errs) > 0 {
		out.Partial = true
		return out, r.writePartial(out.Runs, effective, errs)
	}
	return out, r.writeComplete(out.Runs, effective)
}

// extendGrids grows the grids marked extend by a decade where a split
// chose an edge, and runs the new validation units, until no split does.
// It returns the validation units with the new ones, their results added
// to results, and the errors with the new units'.
func (r *runner) extendGrids(ctx context.Context, validation []unitSpec, results map[int]unitResult, errs []error, tests int) ([]unitSpec, []error, error) {
	for step := 1; ; step++ {
		extra := r.gridExtensions(validation, results)
		if len(extra) == 0 {
			return validation, errs, nil
		}
		if r.opt.Progress != nil {
			fmt.Fprintf(r.opt.Progress, "repro: grid extension %d: %d split(s) chose an end of their C grid; trying %s\n", step, len(extra), describeExtensions(extra))
		}
		r.prog.SetTotal(len(validation) + len(extra) + tests)
		more, moreErrs := r.execute(ctx, fmt.Sprintf("validation (grid extension %d)", step), extra)
		if err := ctx.Err(); err != nil {
			return nil, nil, r.interrupted(err)
		}
		for i, res := range more {
			results[len(validation)+i] = res
		}
		validation = append(validation, extra...)
		errs = append(errs, moreErrs...)
	}
}

// removeStaging removes staging directories left by a run killed while it
// moved its outputs into place (the lock is held, so none is in use).
func removeStaging(dir string) {
	left, _ := filepath.Glob(filepath.Join(dir, ".staging-*"))
	for _, d := range left {
		os.RemoveAll(d)
	}
}

// readSource returns the config file's bytes, or nil when it cannot be read
// (a config parsed from memory). It is read once, so the config.yaml copy
// and the ownership hash describe the same content.
func readSource(file string) []byte {
	b, err := readlimit.ReadFile(context.Background(), file, readlimit.ConfigBytes, "config")
	if err != nil {
		return nil
	}
	return b
}

// newRunner returns a runner of cfg's units that keeps them in cache.
func newRunner(cfg *config.Config, opt Options, cache store.Cache, train unitFunc, unsupported map[[2]string]bool) *runner {
	r := &runner{cfg: cfg, opt: opt, cache: cache, train: train, unsupported: unsupported, exec: opt.Executor}
	if r.exec == nil {
		r.exec = LocalExecutor{Workers: opt.Workers}
	}
	r.locks = store.NewLocks(cache.Dir, opt.LockAge, func(msg string) { r.warnf("%s", msg) })
	return r
}

type runner struct {
	cfg   *config.Config
	opt   Options
	data  []*preparedData
	cache store.Cache
	locks store.Locks
	exec  Executor
	prog  *progress.Line
	// train runs one unit; tests replace it to inject failures.
	train unitFunc
	// unsupported holds the (trainer, task) pairs that are not run.
	unsupported map[[2]string]bool

	mu               sync.Mutex
	computed, cached int
	largestMiB       float64 // of the units computed
	// shared counts the units survey took from siblings, the other
	// output directories beside this one (listed once, when first needed).
	shared   int
	siblings []string
	listed   bool
}

// phaseTracker follows one execute call: it updates the progress and
// collects each unit's result from the store, or its error.
type phaseTracker struct {
	r       *runner
	ctx     context.Context
	todo    []int // batch index → index in the phase's unit list
	results map[int]unitResult
	errs    []error
}

func (t *phaseTracker) Started(Unit) { t.r.prog.Start() }

func (t *phaseTracker) Finished(u Unit, err error) {
	var res unitResult
	if err == nil {
		// Executors leave results in the store; read them back from it, as
		// a later run would, so that every result is checked the same way.
		if res, _, err = t.r.cache.Load(u.Key); err != nil {
			err = fmt.Errorf("result missing from %s after the unit finished: %w", t.r.cache.Path(u.Key), err)
		}
	}
	t.r.mu.Lock()
	defer t.r.mu.Unlock()
	switch {
	case err != nil && t.ctx.Err() != nil:
		// Stopped mid-training: neither done nor a failure.
		t.r.prog.Abandon()
		return
	case err != nil:
		t.errs = append(t.errs, fmt.Errorf("%s: %w", u.Name, err))
	default:
		t.results[t.todo[u.Index]] = res
		t.r.computed++
		t.r.largestMiB = max(t.r.largestMiB, res.PeakMiB)
	}
	t.r.prog.Done(err != nil)
}

func (r *runner) interrupted(err error) error {
	return fmt.Errorf("run interrupted (%w); finished units are saved in %s; run the same command again to resume", err, r.cache.Dir)
}

// stopped reports err, as an interruption when the context was cancelled
// (loading and planning stop early then).
func (r *runner) stopped(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return r.interrupted(ctx.Err())
	}
	return err
}

// warnf prints a warning on the progress writer, above the live status line.
func (r *runner) warnf(format string, args ...any) {
	r.prog.Log("repro: warning: " + fmt.Sprintf(format, args...))
}

// planCheckEvery is how many units plan lists between checks of ctx.
const planCheckEvery = 1024

// plan lists the units of one phase in a fixed order. For the test phase,
// chosen maps each selection group to its C. Cancelling ctx stops it.
func (r *runner) plan(ctx context.Context, phase string, chosen map[string]float64) ([]unitSpec, error) {
	var units []unitSpec
	for _, d := range r.data {
		fs := d.features
		for _, task := range r.cfg.Tasks {
			for _, entry := range r.cfg.Trainers {
				if r.unsupported[[2]string{entry.Name, task}] {
					continue
				}
				// Keys hold the params training uses, defaults resolved,
				// so spelling a default out (config.yaml does) changes nothing.
				params, execution, err := entry.UnitParams()
				if err != nil {
					return nil, fmt.Errorf("trainer %s: %w", entry.Display(), err)
				}
				t := entry
				for _, frac := range r.cfg.Splits.TrainFractions {
					for k := range r.cfg.Splits.Count {
						if len(units)%planCheckEvery == 0 && ctx.Err() != nil {
							return nil, ctx.Err()
						}
						u := unitSpec{
							Schema: store.SchemaVersion, Dataset: d.name, DataHash: d.hash, Task: task, Features: fs, SegmentLoss: r.segmentLoss(task),
							Trainer: t.Name, Params: params, Execution: execution,
							Seed: r.cfg.Seed, Split: k, TrainFraction: frac, ValidationFraction: r.cfg.Splits.ValidationFraction,
							Phase: phase, SplitKind: splitKind(r.cfg.Splits.Kind), Label: t.Display(),
							Curves: r.cfg.Curves && phase == store.PhaseTest, Decoder: r.cfg.UnitDecoder(),
						}
						if slices.Contains(trainers.LogLinearTrainers(), t.Name) {
							u.Minimizer = trainers.LBFGSRevision
						}
						if r.cfg.Splits.Kind == config.SplitFile {
							u.SplitHash = r.cfg.LoadedSplitFile().Splits[k].Hash()
						}
						if phase == store.PhaseTest {
							c, ok := chosen[groupOf(u)]
							switch {
							case ok:
								u.C = c
							case len(t.C) > 1:
								continue // every validation unit failed (reported): nothing to test
							case len(t.C) == 1:
								u.C = t.C[0]
							}
							units = append(units, u)
							continue
						}
						if len(t.C) <= 1 {
							continue // nothing to choose
						}
						for _, c := range t.C {
							u.C = c
							units = append(units, u)
						}
					}
				}
			}
		}
	}
	return units, nil
}

// anyChoice maps every selection group of the validation units to one of its
// C values, so that plan lists one test unit per group before selection.
func anyChoice(validation []unitSpec) map[string]float64 {
	chosen := map[string]float64{}
	for _, u := range validation {
		chosen[groupOf(u)] = u.C
	}
	return chosen
}

// gridExtensions returns one validation unit per selection group whose
// trainer extends its grid (GridSpec) and whose best C so far is the
// smallest or largest value tried: the same unit a decade beyond that end,
// unless the grid already grew GridSpec.Steps() decades on that side. Units
// come in validation order, so the plan is deterministic.
func (r *runner) gridExtensions(units []unitSpec, results map[int]unitResult) []unitSpec {
	chosen, _ := selectParams(units, results, r.cfg.SelectionMetric)
	tried := map[string][]float64{}
	first := map[string]unitSpec{}
	var order []string
	for i, u := range units {
		g := groupOf(u)
		if _, seen := first[g]; !seen {
			first[g] = u
			order = append(order, g)
		}
		if _, ok := results[i]; ok {
			tried[g] = append(tried[g], u.C)
		}
	}
	spec := map[string]config.TrainerSpec{}
	for _, t := range r.cfg.Trainers {
		spec[t.Display()] = t
	}
	var out []unitSpec
	for _, g := range order {
		u := first[g]
		t := spec[u.Display()]
		steps, cs := t.Grid.Steps(), tried[g]
		c, ok := chosen[g]
		if steps == 0 || !ok || len(cs) < 2 {
			continue
		}
		lo, hi := slices.Min(cs), slices.Max(cs)
		var next float64
		switch {
		case c == lo && decadesBetween(lo, slices.Min(t.C)) < steps:
			next = decade(lo, -1)
		case c == hi && decadesBetween(slices.Max(t.C), hi) < steps:
			next = decade(hi, +1)
		default:
			continue
		}
		u.C = next
		out = append(out, u)
	}
	return out
}

// decadesBetween returns how many decades a grid end grew from its
// configured value (a ≤ b, both from the same decade ladder).
func decadesBetween(a, b float64) int { return int(math.Round(math.Log10(b / a))) }

// decade returns c·10^d, rounded to 12 significant digits so that 0.001/10
// is the 0.0001 a config would spell (unit keys hash C).
func decade(c float64, d int) float64 {
	v, _ := strconv.ParseFloat(strconv.FormatFloat(c*math.Pow(10, float64(d)), 'g', 12, 64), 64)
	return v
}

// describeExtensions names the new grid points, e.g. "margin C=0.0001 (3)".
func describeExtensions(units []unitSpec) string {
	count := map[string]int{}
	var keys []string
	for _, u := range units {
		k := fmt.Sprintf("%s C=%g", u.Display(), u.C)
		if count[k] == 0 {
			keys = append(keys, k)
		}
		count[k]++
	}
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s (%d)", k, count[k])
	}
	return strings.Join(parts, ", ")
}

// groupOf names the selection group of a unit: everything but C and phase.
// The label stands for the trainer and its fixed settings (entries are
// distinct by label).
func groupOf(u unitSpec) string {
	return fmt.Sprintf("%s|%s|%s|%g|%d", u.Dataset, u.Task, u.Display(), u.TrainFraction, u.Split)
}

// selectParams picks, per group, the C with the best validation value of
// the metric by(task) names (the config's select_by, or the task's default:
// token error, attachment error for parsing; lower or higher as the metric
// declares; ties: the first in grid order), and records every candidate's
// scores.
func selectParams(units []unitSpec, results map[int]unitResult, by func(task string) string) (map[string]float64, map[string][]report.Candidate) {
	chosen := map[string]float64{}
	best := map[string]float64{}
	cands := map[string][]report.Candidate{}
	for i, u := range units {
		res, ok := results[i]
		if !ok {
			continue
		}
		g := groupOf(u)
		cands[g] = append(cands[g], report.Candidate{Params: u.Hyperparams(), Metrics: res.Metrics, TrainSeconds: res.TrainSeconds})
		name := by(u.Task)
		d, _ := metrics.Lookup(name)
		v, has := res.Metrics[name]
		if !has {
			continue // validate() refuses a select_by the task does not report
		}
		if b, seen := best[g]; !seen || (d.Lower() && v < b) || (!d.Lower() && v > b) {
			best[g], chosen[g] = v, u.C
		}
	}
	return chosen, cands
}

// execute runs the units of a phase that are not in the store with the
// executor and returns every unit's result, indexed by its position in
// units, so that their order never depends on scheduling. Valid cached
// units are taken first (see survey); a failed unit is reported and
// skipped; cancellation stops scheduling new units.
func (r *runner) execute(ctx context.Context, phase string, units []unitSpec) (map[int]unitResult, []error) {
	results := make(map[int]unitResult, len(units))
	r.prog.SetPhase(phase)
	todo := r.survey(phase, units, results)
	r.cached += len(results)
	r.prog.FromCache(len(results))
	batch := make([]Unit, len(todo))
	for j, i := range todo {
		batch[j] = newUnit(j, units[i])
	}
	t := &phaseTracker{r: r, ctx: ctx, todo: todo, results: results}
	r.exec.Execute(ctx, batch, r.work, t)
	return results, t.errs
}

// newUnit wraps a spec for an executor.
func newUnit(index int, u unitSpec) Unit {
	return Unit{Index: index, Key: u.Key(), Name: describe(u), spec: u}
}

// work is the runner's Worker: it claims the unit's lock, and unless
// another process saved the unit while this one waited for the lock,
// computes it and saves it in the store.
func (r *runner) work(ctx context.Context, u Unit) error {
	_, err := r.claimAndRun(ctx, u.spec)
	return err
}

// claimAndRun computes u under its unit lock. reused reports that another
// holder of the lock saved a valid result meanwhile, which is then kept.
func (r *runner) claimAndRun(ctx context.Context, u unitSpec) (reused bool, err error) {
	release, waited, err := r.locks.Acquire(ctx, u.Key())
	if err != nil {
		return false, err
	}
	defer release()
	if waited {
		if _, _, err := r.cache.Load(u.Key()); err == nil {
			return true, nil
		}
	}
	_, err = r.runUnit(ctx, u)
	return false, err
}

// survey looks up every unit of a phase in the cache and puts the valid
// ones into results; it returns the indices of the units to compute. An
// invalid cache file is recomputed with a warning naming it and the reason.
// Units from other code versions are reused and listed, or recomputed with
// Options.RefreshStale. Nothing is reused with Options.Force.
func (r *runner) survey(phase string, units []unitSpec, results map[int]unitResult) []int {
	var todo []int
	if r.opt.Force {
		for i := range units {
			todo = append(todo, i)
		}
		return todo
	}
	stale := map[string]map[string]int{} // version → trainer label → units
	refreshed := 0
	sharedFrom := map[string]int{} // sibling → units taken from it
	for i, u := range units {
		key := u.Key()
		res, _, err := r.cache.Load(key)
		invalid := err != nil && !errors.Is(err, store.ErrNoUnit)
		refresh := err == nil && res.Version != r.opt.Version && r.opt.RefreshStale
		if err != nil || refresh { // no usable unit here: a sibling's, or compute it
			if shared, from, ok := r.share(key); ok {
				if invalid {
					r.warnf("%s: %v; replaced by %s's copy", r.cache.Path(key), err, from)
				}
				results[i] = shared
				sharedFrom[from]++
				continue
			}
			switch {
			case invalid:
				r.warnf("%s: %v; recomputing it", r.cache.Path(key), err)
			case refresh:
				refreshed++
			}
			todo = append(todo, i)
			continue
		}
		if res.Version != r.opt.Version {
			if stale[res.Version] == nil {
				stale[res.Version] = map[string]int{}
			}
			stale[res.Version][u.Display()]++
		}
		results[i] = res
	}
	for _, n := range sharedFrom {
		r.shared += n
	}
	r.reportStale(phase, stale, refreshed)
	r.reportShared(phase, sharedFrom)
	return todo
}

// share copies key's unit from a sibling output directory that holds it at
// this code version (see Options.ShareUnits) and returns it with the
// sibling's name. A sibling's file must pass every check of this
// directory's own (checksum included, and present) to be taken. Nothing is
// shared under a version that names no particular build (version.Exact),
// nor while another process holds the unit's lock here (it is computing
// the unit, and would overwrite the copy).
func (r *runner) share(key string) (unitResult, string, bool) {
	// (With Force, survey takes no unit and never asks.)
	if !r.opt.ShareUnits || !version.Exact(r.opt.Version) {
		return unitResult{}, "", false
	}
	if _, err := os.Stat(r.locks.Path(key)); err == nil {
		return unitResult{}, "", false
	}
	if !r.listed {
		r.siblings, r.listed = siblingUnitDirs(r.cache.Dir), true
	}
	for _, dir := range r.siblings {
		b, err := store.ReadFile(filepath.Join(dir, key+".json"))
		if err != nil {
			continue
		}
		res, unsummed, err := store.Decode(b, key)
		if err != nil || unsummed || res.Version != r.opt.Version {
			continue
		}
		if err := atomicfile.WriteFile(r.cache.Path(key), b); err != nil {
			r.warnf("cannot copy %s here: %v; computing it", filepath.Join(dir, key+".json"), err)
			return unitResult{}, "", false
		}
		return res, filepath.Base(filepath.Dir(dir)), true
	}
	return unitResult{}, "", false
}

// siblingUnitDirs returns the units/ directories of the output directories
// beside the one whose units/ is dir, in name order.
func siblingUnitDirs(dir string) []string {
	own, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	all, _ := filepath.Glob(filepath.Join(filepath.Dir(filepath.Dir(dir)), "*", "units"))
	var out []string
	for _, d := range all {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() && !os.SameFile(fi, own) {
			out = append(out, d)
		}
	}
	return out
}

// reportShared says how many of a phase's units were taken from which
// sibling output directories.
func (r *runner) reportShared(phase string, from map[string]int) {
	if len(from) == 0 {
		return
	}
	var parts []string
	total := 0
	for _, name := range slices.Sorted(maps.Keys(from)) {
		parts = append(parts, fmt.Sprintf("%s %d", name, from[name]))
		total += from[name]
	}
	r.prog.Log(fmt.Sprintf("repro: %s: took %d unit(s) that this code version computed in other output directories (%s)", phase, total, strings.Join(parts, ", ")))
}

// reportStale lists the reused units of other code versions by version and
// trainer, or says how many are being recomputed.
func (r *runner) reportStale(phase string, stale map[string]map[string]int, refreshed int) {
	if refreshed > 0 {
		r.prog.Log(fmt.Sprintf("repro: recomputing %d cached %s unit(s) from other code versions (--refresh-stale)", refreshed, phase))
	}
	if len(stale) == 0 {
		return
	}
	var parts []string
	total := 0
	for _, v := range slices.Sorted(maps.Keys(stale)) {
		var byTrainer []string
		for _, t := range slices.Sorted(maps.Keys(stale[v])) {
			byTrainer = append(byTrainer, fmt.Sprintf("%s %d", t, stale[v][t]))
			total += stale[v][t]
		}
		parts = append(parts, fmt.Sprintf("%q (%s)", v, strings.Join(byTrainer, ", ")))
	}
	r.warnf("%d cached %s unit(s) were computed by other code versions than this one (%q): %s; --refresh-stale recomputes only those, --force everything",
		total, phase, r.opt.Version, strings.Join(parts, "; "))
}

func describe(u unitSpec) string {
	return fmt.Sprintf("%s/%s %s C=%g split %d train %.0f%% (%s)", u.Dataset, u.Task, u.Display(), u.C, u.Split, 100*u.TrainFraction, u.Phase)
}

// dataset returns the prepared dataset of that name (the config's names
// are unique).
func (r *runner) dataset(name string) *preparedData {
	for _, d := range r.data {
		if d.name == name {
			return d
		}
	}
	return nil
}

// runUnit trains and evaluates one unit and saves it in the cache.
func (r *runner) runUnit(ctx context.Context, u unitSpec) (unitResult, error) {
	d := r.dataset(u.Dataset)
	if err := d.ensureFeatures(ctx); err != nil {
		return unitResult{}, err
	}
	train, eval, err := r.parts(u)
	if err != nil {
		return unitResult{}, err
	}
	res, err := r.train(ctx, d, u, train, eval)
	if err != nil {
		return unitResult{}, err
	}
	res.Key, res.Spec, res.Version = u.Key(), u, r.opt.Version
	if err := r.cache.Store(res); err != nil {
		return unitResult{}, fmt.Errorf("saving unit: %w", err)
	}
	return res, nil
}

// fileSplit returns unit u's split from the config's split file, checking
// that it is the split u's key was computed from.
func (r *runner) fileSplit(u unitSpec) (datasets.Split, []int, error) {
	sf := r.cfg.LoadedSplitFile()
	if sf == nil || u.Split >= len(sf.Splits) {
		return datasets.Split{}, nil, fmt.Errorf("unit %s: the config has no split file with split %d", describe(u), u.Split)
	}
	s := sf.Splits[u.Split]
	if s.Hash() != u.SplitHash {
		return datasets.Split{}, nil, fmt.Errorf("unit %s: split file %s changed since the unit was planned (%s is now %s)", describe(u), sf.Name, s.Label, s.Hash())
	}
	split, dev := s.Split(u.Split)
	return split, dev, nil
}

// segmentLoss is the config's segmentation loss for the units of task
// (nil for other tasks and for the paper's loss).
func (r *runner) segmentLoss(task string) *config.SegmentLoss {
	if task != config.TaskSegmentation {
		return nil
	}
	return r.cfg.Loss.Resolved()
}

// splitKind is the unit-key form of a split kind: empty for random splits,
// so their keys predate fold splits unchanged.
func splitKind(kind string) string {
	if kind == config.SplitRandom {
		return ""
	}
	return kind
}

// holdOutSeed derives the validation split's seed from the experiment seed
// and the split index (a splitmix64 step, so nearby seeds do not collide).
func holdOutSeed(seed uint64, split int) uint64 {
	z := seed + 0x9e3779b97f4a7c15*uint64(split+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

func toRun(u unitSpec, res unitResult, sel []report.Candidate) report.Run {
	method := ""
	if u.Display() != u.Trainer {
		method = u.Trainer
	}
	return report.Run{
		Key: res.Key, Dataset: u.Dataset, Task: u.Task, Trainer: u.Display(), Method: method,
		Params: u.Hyperparams(), Settings: u.Settings(), Selection: sel,
		Split: u.Split, TrainFraction: u.TrainFraction, TrainSize: res.TrainSize, TestSize: res.EvalSize,
		Metrics: res.Metrics, Outcomes: res.Outcomes,
		TrainSeconds: res.TrainSeconds, CPUSeconds: res.CPUSeconds, PeakMiB: res.PeakMiB,
		Iterations: res.Iterations, Constraints: res.Constraints, Dropped: res.Dropped,
		Primal: res.Primal, Dual: res.Dual, Gap: res.Gap, Converged: res.Converged,
		WorkingPrimal: res.WorkingPrimal, WorkingGap: res.WorkingGap, PrimalExact: res.PrimalExact, OracleCalls: res.OracleCalls,
		Version: res.Version, Curve: res.Curve,
	}
}

// writeComplete replaces the output directory's results with this run's:
// everything is rendered into a staging directory first and then renamed
// into place file by file, so a failure while rendering (a full disk, a
// figure that cannot be drawn) leaves the previous outputs as they were. A
// partial directory left by an earlier failed run is removed.
func (r *runner) writeComplete(runs []report.Run, configYAML []byte) error {
	stage, err := os.MkdirTemp(r.opt.OutDir, ".staging-")
	if err != nil {
		return fmt.Errorf("writing outputs: %w", err)
	}
	defer os.RemoveAll(stage)
	spec := r.cfg.ReportSpec()
	if err := writeOutputs(stage, runs, spec, configYAML); err != nil {
		return fmt.Errorf("writing outputs (the previous ones in %s are unchanged): %w", r.opt.OutDir, err)
	}
	entries, err := os.ReadDir(stage)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.Rename(filepath.Join(stage, e.Name()), filepath.Join(r.opt.OutDir, e.Name())); err != nil {
			return fmt.Errorf("moving outputs into place: %w", err)
		}
	}
	if err := os.RemoveAll(filepath.Join(r.opt.OutDir, PartialDir)); err != nil {
		return err
	}
	return r.print(r.opt.OutDir, spec)
}

// writePartial writes the outputs of a run whose units did not all succeed
// into OutDir/partial, titled and noted as partial, and returns the error
// that names the failed units. OutDir's own outputs are left untouched.
func (r *runner) writePartial(runs []report.Run, configYAML []byte, unitErrs []error) error {
	dir := filepath.Join(r.opt.OutDir, PartialDir)
	failed := fmt.Errorf("%d unit(s) failed (the others are saved in %s): %w", len(unitErrs), r.cache.Dir, errors.Join(unitErrs...))
	var note strings.Builder
	fmt.Fprintf(&note, "PARTIAL RESULTS: %d unit(s) of this run failed, so these outputs are incomplete\n", len(unitErrs))
	fmt.Fprintf(&note, "(%d test runs written). The complete outputs in the directory above, if any,\n", len(runs))
	fmt.Fprintf(&note, "were left untouched. Fix the cause and run the same command again: the finished\n")
	fmt.Fprintf(&note, "units are reused, and a complete run replaces the outputs and removes this directory.\n\nFailed units:\n")
	for _, e := range unitErrs {
		fmt.Fprintf(&note, "  %v\n", e)
	}
	spec := r.cfg.ReportSpec()
	spec.Title = fmt.Sprintf("PARTIAL (%d unit(s) failed, see %s): %s", len(unitErrs), partialNote, spec.Title)
	if err := os.RemoveAll(dir); err != nil {
		return errors.Join(failed, fmt.Errorf("clearing %s: %w", dir, err))
	}
	err := atomicfile.WriteFile(filepath.Join(dir, partialNote), []byte(note.String()))
	if err == nil {
		err = writeOutputs(dir, runs, spec, configYAML)
	}
	if err != nil {
		os.RemoveAll(dir) // half-written partial outputs would mislead more than none
		return errors.Join(failed, fmt.Errorf("writing partial outputs to %s: %w", dir, err))
	}
	r.prog.Log(fmt.Sprintf("repro: %d unit(s) failed: the outputs in %s were left untouched; partial outputs (%d test runs) are in %s", len(unitErrs), r.opt.OutDir, len(runs), dir))
	if err := r.print(dir, spec); err != nil {
		return errors.Join(failed, err)
	}
	return failed
}

// writeOutputs writes runs.jsonl, the config, the report spec, and every
// table, figure and index.html (through report.WriteAll, the same code
// `repro report` runs) into dir, each file atomically.
func writeOutputs(dir string, runs []report.Run, spec report.Spec, configYAML []byte) error {
	var buf bytes.Buffer
	if err := report.WriteRuns(&buf, runs); err != nil {
		return err
	}
	if err := atomicfile.WriteFile(filepath.Join(dir, report.RunsFile), buf.Bytes()); err != nil {
		return err
	}
	if configYAML != nil {
		if err := atomicfile.WriteFile(filepath.Join(dir, "config.yaml"), configYAML); err != nil {
			return err
		}
	}
	if err := report.WriteSpec(filepath.Join(dir, report.SpecFile), spec); err != nil {
		return err
	}
	return report.WriteAll(dir, runs, spec)
}

// print copies dir's text table (and paper comparison) to Options.Stdout.
func (r *runner) print(dir string, spec report.Spec) error {
	if r.opt.Stdout == nil {
		return nil
	}
	printed := []string{"table.txt"}
	if spec.Paper != nil {
		printed = append(printed, "paper.txt")
	}
	for i, name := range printed {
		txt, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if i > 0 {
			txt = append([]byte("\n"), txt...)
		}
		if _, err := r.opt.Stdout.Write(txt); err != nil {
			return err
		}
	}
	return nil
}
