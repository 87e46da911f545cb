package experiments

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
	"github.com/maxmargin/repro/trainers"
)

// Task is one kind of structured prediction the runner can train and score:
// sequence labelling, segmentation, dependency parsing. A task binds the
// instances it builds from a prepared corpus, its model, and its metric;
// everything else a unit does (index the training attributes, train
// through the trainers' registry, measure the cost, score the evaluation
// part) is the skeleton in [runBound], which exists once.
type Task interface {
	// Name is the task's name in configs and unit keys.
	Name() string
	// Supports refuses, at config time, a trainer entry the task's model
	// cannot serve, with the trainer's reason.
	Supports(t config.TrainerSpec) error
	// Run trains on the corpus items train and scores the items eval.
	Run(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error)
}

// fitting is one unit's training, ready to run: the task's model over the
// encoded training part (everything before training, untimed).
type fitting[Y any] interface {
	// fit trains with the unit's trainer and params (and the trainers'
	// options, e.g. checkpoints), and returns the trained model's
	// prediction of corpus item i. The trained model is the task's
	// (package tasks), the value a model file stores: units predict as a
	// saved model would.
	fit(ctx context.Context, opts ...trainers.Option) (predict func(i int) Y, res *trainers.Result, err error)
	// predictAt returns the prediction of the model with weights w (a
	// checkpoint's), as fit would return it had training stopped there.
	predictAt(w []float64) (predict func(i int) Y, err error)
}

// binding is what one task contributes to the unit skeleton. Y is its
// prediction of one corpus item.
type binding[Y any] struct {
	name string
	// prepare indexes the attributes of the training items only (features
	// first seen at test time stay unknown) and builds the task's model
	// over them, to be trained with the unit's trainer and params v.
	prepare func(d *preparedData, u unitSpec, v trainers.Values, train []int) (fitting[Y], error)
	// sheet returns an empty score sheet of a unit on d (keeping its
	// per-item outcomes if outcomes and the unit keeps them).
	sheet func(d *preparedData, u unitSpec, outcomes bool) *scoreSheet
	// score adds corpus item i and its prediction to the sheet.
	score func(s *scoreSheet, d *preparedData, i int, pred Y) error
	// metrics are the sheet's scores under the names the task declares
	// (metrics.ForTask), in percent.
	metrics func(s *scoreSheet) map[string]float64
	// declared are the metrics the task declares (metrics.ForTask), which
	// say whether a unit also scores its training part (metrics.TrainError)
	// and reports its trainer's statistics (trainerMetrics).
	declared []string
	// finish, if set, adds task-specific figures to a finished unit.
	finish func(out *unitResult, s *scoreSheet, f fitting[Y], d *preparedData, eval []int)
	// supports refuses a trainer, with its params, that the task's model
	// cannot serve (checked on an empty model, before any data loads).
	supports func(trainer string, v trainers.Values) error
}

func (b binding[Y]) Name() string { return b.name }

func (b binding[Y]) Supports(t config.TrainerSpec) error { return b.supports(t.Name, t.Values()) }

func (b binding[Y]) Run(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	return runBound(ctx, b, d, u, train, eval)
}

// runBound is the unit skeleton every task shares: prepare the training
// part (index its attributes, build the model), train with the unit's
// trainer and settings (timed), then predict the evaluation part with the
// trained model and score it. A unit with curves also scores the
// evaluation part at every checkpoint of the training.
func runBound[Y any](ctx context.Context, b binding[Y], d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	v, err := u.TrainerParams()
	if err != nil {
		return unitResult{}, err
	}
	f, err := b.prepare(d, u, v, train)
	if err != nil {
		return unitResult{}, err
	}
	var (
		opts  []trainers.Option
		curve []report.CurvePoint
	)
	if u.Curves {
		opts = append(opts, trainers.WithCheckpoints(func(c trainers.Checkpoint) error {
			predict, err := f.predictAt(c.W)
			if err != nil {
				return err
			}
			sheet := b.sheet(d, u, false) // significance tests compare final models only
			if err := scoreAll(ctx, b, d, sheet, eval, predict); err != nil {
				return err
			}
			curve = append(curve, report.CurvePoint{Iteration: c.Iteration, CPUSeconds: c.CPU.Seconds(), Metrics: b.metrics(sheet)})
			return nil
		}))
	}
	predict, res, cost, err := trainUnit(ctx, f, u, opts...)
	if err != nil {
		return unitResult{}, err
	}
	sheet := b.sheet(d, u, true)
	if err := scoreAll(ctx, b, d, sheet, eval, predict); err != nil {
		return unitResult{}, err
	}
	out := scored(train, eval, sheet, res, cost)
	out.Metrics = b.metrics(sheet)
	if slices.Contains(b.declared, metrics.TrainError) {
		// The training part scored like the evaluation part; its
		// outcomes are not kept (the paired tests compare test items).
		ts := b.sheet(d, u, false)
		if err := scoreAll(ctx, b, d, ts, train, predict); err != nil {
			return unitResult{}, err
		}
		if v, ok := b.metrics(ts)[b.declared[0]]; ok {
			out.Metrics[metrics.TrainError] = v
		}
	}
	maps.Copy(out.Metrics, trainerMetrics(res, cost, b.declared))
	out.Curve = curve
	if b.finish != nil {
		b.finish(&out, sheet, f, d, eval)
	}
	return out, nil
}

// scoreAll adds the prediction of every evaluation item to the sheet.
func scoreAll[Y any](ctx context.Context, b binding[Y], d *preparedData, sheet *scoreSheet, eval []int, predict func(int) Y) error {
	for _, i := range eval {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := b.score(sheet, d, i, predict(i)); err != nil {
			return err
		}
	}
	return nil
}

// tasks returns the task table. It is a function, not a package variable, so
// that there is no mutable global state.
func tasks() map[string]Task {
	out := map[string]Task{}
	for _, t := range boundTasks() {
		out[t.Name()] = t
	}
	return out
}

// dispatchUnit runs a unit with its task.
func dispatchUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	t, ok := tasks()[u.Task]
	if !ok {
		return unitResult{}, fmt.Errorf("unknown task %q (known: %s)", u.Task, strings.Join(config.KnownTasks(), ", "))
	}
	return t.Run(ctx, d, u, train, eval)
}

// trainerMetrics returns the metrics of declared that the training's
// statistics give, where the trainer reports them: the working set's size
// and the mean loss of its support labelings, of the trainers with a
// working set (the cutting-plane ones, which report its support; the
// online trainers count their updates in Constraints, which is no working
// set), and the time their QP took, alone and as a share of the training's
// cost (CPU time when both are CPU times, else wall-clock); their units
// alone have them.
func trainerMetrics(res *trainers.Result, cost cputime.Timing, declared []string) map[string]float64 {
	out := map[string]float64{}
	if res.Support > 0 {
		if slices.Contains(declared, metrics.Constraints) {
			out[metrics.Constraints] = float64(res.Constraints)
		}
		if slices.Contains(declared, metrics.SupportLoss) {
			out[metrics.SupportLoss] = res.SupportLoss
		}
	}
	if res.QPTime > 0 {
		qp := res.QPTime.Seconds()
		if slices.Contains(declared, metrics.QPSeconds) {
			out[metrics.QPSeconds] = qp
		}
		total := cost.Wall
		if res.QPTimeCPU && cost.CPU > 0 {
			total = cost.CPU
		}
		if slices.Contains(declared, metrics.QPShare) && total > 0 {
			// The QP is part of the timed training, so the share is at
			// most 100 but for the clocks' rounding; a unit's percentages
			// must lie in [0, 100] (store.Result.validate).
			out[metrics.QPShare] = min(100, 100*qp/total)
		}
	}
	return out
}

// scored assembles a unit's result from its evaluation outcomes and
// training statistics; the caller adds the task's metrics.
func scored(train, eval []int, s *scoreSheet, res *trainers.Result, cost cputime.Timing) unitResult {
	return unitResult{
		TrainSize: len(train), EvalSize: len(eval), Outcomes: s.outcomes,
		TrainSeconds: cost.Wall, CPUSeconds: cost.CPU, PeakMiB: float64(cost.PeakBytes) / (1 << 20), Iterations: res.Iterations, Constraints: res.Constraints, Dropped: res.Dropped,
		Primal: res.Primal, Dual: res.Dual, Gap: res.Gap, Converged: res.Converged,
		WorkingPrimal: res.WorkingPrimal, WorkingGap: res.WorkingGap, PrimalExact: res.PrimalExact, OracleCalls: res.OracleCalls,
	}
}

// trainUnit trains a unit's prepared model with its trainer and settings,
// through the trainers' registry (what C means for each trainer lives in
// its own file in package trainers, so that one grid means the same
// objective scale ½‖w‖² + C Σ_i loss_i throughout), and measures what the
// training cost, without the time spent in checkpoint hooks (opts).
func trainUnit[Y any](ctx context.Context, f fitting[Y], u unitSpec, opts ...trainers.Option) (func(int) Y, *trainers.Result, cputime.Timing, error) {
	var predict func(int) Y
	var res *trainers.Result
	cost, err := cputime.Timed(func() (err error) {
		predict, res, err = f.fit(ctx, opts...)
		return err
	})
	if err != nil {
		return nil, nil, cputime.Timing{}, fmt.Errorf("%s (C=%g): %w", u.Trainer, u.C, err)
	}
	// The hooks ran on the timed thread (trainers call them there).
	cost.Wall -= res.CheckpointWall.Seconds()
	if cost.CPU > 0 {
		cost.CPU += res.OtherThreadsCPU.Seconds() - res.CheckpointCPU.Seconds() // e.g. a one-slack solver's threads
	}
	return predict, res, cost, nil
}

func pick[T any](xs []T, ids []int) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = xs[i]
	}
	return out
}
