package experiments

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"golang.org/x/sync/errgroup"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
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
	Force      bool   // recompute units even if cached
	Progress   io.Writer
	Stdout     io.Writer // the table is printed here; nil: not printed
	Version    string    // code version stamped into results
}

// Outcome summarises a run.
type Outcome struct {
	OutDir           string
	Runs             []report.Run
	Computed, Cached int
}

// Run executes an experiment: it loads the data, runs every validation unit,
// picks each trainer's hyperparameters per split by validation token error,
// runs the test units, and writes runs.jsonl, table.md and table.txt into the
// output directory. Finished units are cached there, so a run that fails or
// is interrupted resumes where it stopped. Units that fail do not stop the
// others; Run then returns an error naming them after writing what succeeded.
func Run(ctx context.Context, cfg *Config, opt Options) (*Outcome, error) {
	return runWith(ctx, cfg, opt, dispatchUnit)
}

// unitFunc trains and evaluates one unit on the given train and eval indices.
type unitFunc func(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error)

func runWith(ctx context.Context, cfg *Config, opt Options, train unitFunc) (*Outcome, error) {
	if opt.Workers <= 0 {
		opt.Workers = runtime.NumCPU()
	}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	// A trainer that serves none of the tasks is a mistake; one that serves
	// some is skipped for the others, which show as "-" in the table (as in
	// the paper, where slack scaling has no dependency-parsing cell).
	unsupported := map[[2]string]bool{}
	for i, t := range cfg.Trainers {
		var reasons []string
		for _, name := range cfg.Tasks {
			if err := tasks()[name].supports(t); err != nil {
				unsupported[[2]string{t.Name, name}] = true
				reasons = append(reasons, fmt.Sprintf("trainer %q cannot serve task %q: %v", t.Name, name, err))
			}
		}
		switch {
		case len(reasons) == len(cfg.Tasks):
			return nil, cfg.errorf(cfg.line("trainers", i, "name"), "trainers.name", "%s", strings.Join(reasons, "; "))
		case len(reasons) > 0 && opt.Progress != nil:
			for _, r := range reasons {
				fmt.Fprintf(opt.Progress, "repro: %s:%d: %s; skipped, shown as \"-\"\n", cfg.file, cfg.line("trainers", i, "name"), r)
			}
		}
	}
	data, err := prepare(cfg, opt)
	if err != nil {
		return nil, err
	}
	lock, err := acquireLock(opt.OutDir, func(msg string) {
		if opt.Progress != nil {
			fmt.Fprintln(opt.Progress, "repro:", msg)
		}
	})
	if err != nil {
		return nil, err
	}
	defer lock.release()
	r := &runner{cfg: cfg, opt: opt, data: data, cache: unitCache{dir: filepath.Join(opt.OutDir, "units")}, train: train, unsupported: unsupported}

	// Phase 1: validation units for every grid point of every trainer.
	validation := r.plan(phaseValidate, nil)
	valResults, valErrs := r.execute(ctx, "validation", validation)
	if err := ctx.Err(); err != nil {
		return nil, r.interrupted(err)
	}
	// Phase 2: one test unit per (dataset, task, trainer, fraction, split).
	chosen, selections := selectParams(validation, valResults)
	tests := r.plan(phaseTest, chosen)
	testResults, testErrs := r.execute(ctx, "test", tests)
	if err := ctx.Err(); err != nil {
		return nil, r.interrupted(err)
	}
	out := &Outcome{OutDir: opt.OutDir, Computed: r.computed, Cached: r.cached}
	if opt.Progress != nil {
		for _, v := range slices.Sorted(maps.Keys(r.staleVersions)) {
			fmt.Fprintf(opt.Progress, "repro: warning: %d cached unit(s) were computed by code version %q, not %q; use --force to recompute\n",
				r.staleVersions[v], v, opt.Version)
		}
	}
	for i, u := range tests {
		if res, ok := testResults[i]; ok {
			out.Runs = append(out.Runs, toRun(u, res, selections[groupOf(u)]))
		}
	}
	if err := r.writeOutputs(out.Runs); err != nil {
		return out, err
	}
	if errs := append(valErrs, testErrs...); len(errs) > 0 {
		return out, fmt.Errorf("%d unit(s) failed (the others are saved): %w", len(errs), errors.Join(errs...))
	}
	return out, nil
}

type runner struct {
	cfg   *Config
	opt   Options
	data  []*preparedData
	cache unitCache
	// train runs one unit; tests replace it to inject failures.
	train unitFunc
	// unsupported holds the (trainer, task) pairs that are not run.
	unsupported map[[2]string]bool

	mu               sync.Mutex
	computed, cached int
	// staleVersions counts cached units made by other code versions: unit
	// keys leave the code out (so resuming survives unrelated commits), so
	// the user is told when results may predate a change.
	staleVersions map[string]int
}

func (r *runner) interrupted(err error) error {
	return fmt.Errorf("run interrupted (%w); finished units are saved in %s; run the same command again to resume", err, r.cache.dir)
}

// prepare loads every dataset and extracts its features once.
func prepare(cfg *Config, opt Options) ([]*preparedData, error) {
	fopt := features.DefaultOptions()
	if cfg.Features.Window != nil {
		fopt.Window = *cfg.Features.Window
	}
	if cfg.Features.Affixes != nil {
		fopt.Affixes = *cfg.Features.Affixes
	}
	var out []*preparedData
	for _, spec := range cfg.Datasets {
		corpus, err := loadDataset(spec, opt)
		if err != nil {
			return nil, err
		}
		d := &preparedData{name: spec.Name, labels: corpus.Labels, seqs: corpus.Sequences, hash: corpusHash(corpus)}
		for _, s := range corpus.Sequences {
			if cfg.Features.Kind != FeaturesPixels {
				d.attrs = append(d.attrs, features.Extract(s.Tokens, fopt))
				continue
			}
			attrs, err := features.Pixels(s.Tokens, cfg.Features.Degree)
			if err != nil {
				return nil, fmt.Errorf("dataset %q, sequence %s: %w", spec.Name, s.ID, err)
			}
			d.attrs = append(d.attrs, attrs)
		}
		if cfg.Splits.Kind == SplitFold {
			if d.folds, err = datasets.OCRFolds(corpus); err != nil {
				return nil, fmt.Errorf("dataset %q has no folds for fold splits: %w", spec.Name, err)
			}
		}
		out = append(out, d)
	}
	return out, nil
}

func loadDataset(spec DatasetSpec, opt Options) (*datasets.Corpus, error) {
	if spec.Synthetic == nil {
		return datasets.Open(opt.DataDir, opt.DataSource, spec.Name)
	}
	return datasets.Synthetic(spec.Synthetic.Generator()) // resolved by ParseConfig
}

// corpusHash fingerprints a corpus's content (tokens, labels, segments), so
// cached units are invalidated when the data changes.
func corpusHash(c *datasets.Corpus) string {
	h := sha256.New()
	for _, l := range c.Labels {
		fmt.Fprintf(h, "L%q\n", l)
	}
	for _, s := range c.Sequences {
		fmt.Fprintf(h, "S%q%v%v\n", s.Tokens, s.Labels, s.Segments)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// plan lists the units of one phase in a fixed order. For the test phase,
// chosen maps each selection group to its C.
func (r *runner) plan(phase string, chosen map[string]float64) []unitSpec {
	fs := featureSpec{Window: features.DefaultOptions().Window, Affixes: features.DefaultOptions().Affixes, Edges: true}
	if r.cfg.Features.Kind == FeaturesPixels {
		fs = featureSpec{Kind: FeaturesPixels, Degree: r.cfg.Features.Degree, Edges: true}
	}
	if w := r.cfg.Features.Window; w != nil && fs.Kind == "" {
		fs.Window = *w
	}
	if a := r.cfg.Features.Affixes; a != nil && fs.Kind == "" {
		fs.Affixes = *a
	}
	if e := r.cfg.Features.Edges; e != nil {
		fs.Edges = *e
	}
	var units []unitSpec
	for _, d := range r.data {
		for _, task := range r.cfg.Tasks {
			for _, t := range r.cfg.Trainers {
				if r.unsupported[[2]string{t.Name, task}] {
					continue
				}
				for _, frac := range r.cfg.Splits.TrainFractions {
					for k := range r.cfg.Splits.Count {
						u := unitSpec{
							Schema: schemaVersion, Dataset: d.name, DataHash: d.hash, Task: task, Features: fs,
							Trainer: t.Name, Epsilon: t.Epsilon, QPTolerance: t.QPTolerance, MaxIterations: t.MaxIterations,
							Seed: r.cfg.Seed, Split: k, TrainFraction: frac, ValidationFraction: r.cfg.Splits.ValidationFraction,
							Phase: phase, SplitKind: splitKind(r.cfg.Splits.Kind), Epochs: t.Epochs, K: t.K, Average: t.Average, Beta: t.Beta, LossScale: t.LossScale, Rescaling: t.Rescaling,
							Label: t.Display(),
						}
						if phase == phaseTest {
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
	return units
}

// groupOf names the selection group of a unit: everything but C and phase.
// The label stands for the trainer and its fixed settings (entries are
// distinct by label).
func groupOf(u unitSpec) string {
	return fmt.Sprintf("%s|%s|%s|%g|%d", u.Dataset, u.Task, u.display(), u.TrainFraction, u.Split)
}

// selectParams picks, per group, the C with the lowest validation token error
// (ties: the first in grid order), and records every candidate's scores.
func selectParams(units []unitSpec, results map[int]unitResult) (map[string]float64, map[string][]report.Candidate) {
	chosen := map[string]float64{}
	best := map[string]float64{}
	cands := map[string][]report.Candidate{}
	for i, u := range units {
		res, ok := results[i]
		if !ok {
			continue
		}
		g := groupOf(u)
		cands[g] = append(cands[g], report.Candidate{
			Params: u.params(), TokenError: res.TokenError, SpanF1: res.SpanF1, TrainSeconds: res.TrainSeconds,
		})
		if b, seen := best[g]; !seen || res.TokenError < b {
			best[g], chosen[g] = res.TokenError, u.C
		}
	}
	return chosen, cands
}

// execute runs units with at most opt.Workers at once. Results are indexed by
// unit position, so their order never depends on scheduling. A failed unit is
// reported and skipped; cancellation stops scheduling new units.
func (r *runner) execute(ctx context.Context, phase string, units []unitSpec) (map[int]unitResult, []error) {
	results := make(map[int]unitResult, len(units))
	var errs []error
	prog := newProgress(r.opt.Progress, phase, len(units))
	defer prog.stop()
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(r.opt.Workers)
	for i, u := range units {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			prog.start()
			res, cached, err := r.runUnit(gctx, u)
			r.mu.Lock()
			defer r.mu.Unlock()
			cancelled := err != nil && gctx.Err() != nil
			switch {
			case cancelled:
				// Stopped mid-training: not a failure of the unit.
			case err != nil:
				errs = append(errs, fmt.Errorf("%s: %w", describe(u), err))
			default:
				results[i] = res
				if cached {
					r.cached++
					if res.Version != r.opt.Version {
						if r.staleVersions == nil {
							r.staleVersions = map[string]int{}
						}
						r.staleVersions[res.Version]++
					}
				} else {
					r.computed++
				}
			}
			prog.done(cached, err != nil && !cancelled)
			return nil
		})
	}
	_ = g.Wait() // unit errors are collected above, never returned
	return results, errs
}

func describe(u unitSpec) string {
	return fmt.Sprintf("%s/%s %s C=%g split %d train %.0f%% (%s)", u.Dataset, u.Task, u.display(), u.C, u.Split, 100*u.TrainFraction, u.Phase)
}

func (r *runner) runUnit(ctx context.Context, u unitSpec) (unitResult, bool, error) {
	key := u.key()
	if !r.opt.Force {
		if res, ok := r.cache.load(key); ok {
			return res, true, nil
		}
	}
	var d *preparedData
	for _, p := range r.data {
		if p.name == u.Dataset {
			d = p
		}
	}
	var split datasets.Split
	var err error
	if u.SplitKind == SplitFold {
		split, err = datasets.FoldSplits(d.folds, u.Split)
	} else {
		split, err = datasets.SplitAt(len(d.seqs), u.Split, u.TrainFraction, u.Seed)
	}
	if err != nil {
		return unitResult{}, false, err
	}
	train, eval := split.Train, split.Test
	if u.Phase == phaseValidate {
		train, eval = datasets.HoldOut(split.Train, u.ValidationFraction, holdOutSeed(u.Seed, u.Split))
	}
	res, err := r.train(ctx, d, u, train, eval)
	if err != nil {
		return unitResult{}, false, err
	}
	res.Key, res.Spec, res.Version = key, u, r.opt.Version
	if err := r.cache.store(res); err != nil {
		return unitResult{}, false, fmt.Errorf("saving unit: %w", err)
	}
	return res, false, nil
}

// splitKind is the unit-key form of a split kind: empty for random splits,
// so their keys predate fold splits unchanged.
func splitKind(kind string) string {
	if kind == SplitRandom {
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
	if u.display() != u.Trainer {
		method = u.Trainer
	}
	return report.Run{
		Key: res.Key, Dataset: u.Dataset, Task: u.Task, Trainer: u.display(), Method: method,
		Params: u.params(), Selection: sel,
		Split: u.Split, TrainFraction: u.TrainFraction, TrainSize: res.TrainSize, TestSize: res.EvalSize,
		TokenError: res.TokenError, SpanF1: res.SpanF1, TrainSeconds: res.TrainSeconds,
		Iterations: res.Iterations, Constraints: res.Constraints,
		Primal: res.Primal, Dual: res.Dual, Gap: res.Gap, Version: res.Version,
	}
}

// writeOutputs writes runs.jsonl, the config, the report spec, and every
// table, figure and index.html (through report.WriteAll, the same code
// `repro report` runs), each file atomically.
func (r *runner) writeOutputs(runs []report.Run) error {
	var buf bytes.Buffer
	if err := report.WriteRuns(&buf, runs); err != nil {
		return err
	}
	if err := writeFileAtomic(filepath.Join(r.opt.OutDir, report.RunsFile), buf.Bytes()); err != nil {
		return err
	}
	if src, err := os.ReadFile(r.cfg.file); err == nil {
		if err := writeFileAtomic(filepath.Join(r.opt.OutDir, "config.yaml"), src); err != nil {
			return err
		}
	}
	spec := r.cfg.ReportSpec()
	if err := report.WriteSpec(filepath.Join(r.opt.OutDir, report.SpecFile), spec); err != nil {
		return err
	}
	if err := report.WriteAll(r.opt.OutDir, runs, spec); err != nil {
		return err
	}
	if r.opt.Stdout == nil {
		return nil
	}
	printed := []string{"table.txt"}
	if spec.Paper != nil {
		printed = append(printed, "paper.txt")
	}
	for i, name := range printed {
		txt, err := os.ReadFile(filepath.Join(r.opt.OutDir, name))
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

// KnownTrainers lists the trainer names a config may use.
func KnownTrainers() []string {
	return slices.Concat(trainers.CuttingPlaneTrainers(), trainers.OnlineTrainers(), trainers.LogLinearTrainers())
}

// KnownDatasets lists the dataset names a config may use.
func KnownDatasets() []string { return datasets.KnownDatasets() }
