package experiments

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/maxmargin/repro/features"
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
	Supports(t TrainerSpec) error
	// Run trains on the corpus items train and scores the items eval.
	Run(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error)
}

// predictor is a trained model's side a task needs: the trainers' view of
// it, and decoding a new instance with given weights.
type predictor[X, Y any] interface {
	trainers.Model[Y]
	Predict(x X, w []float64) Y
}

// binding is what one task contributes to the unit skeleton. X is the
// model's instance type, Y its output.
type binding[X, Y any] struct {
	name string
	// instance builds corpus item i's model instance from its features,
	// already mapped through the training index.
	instance func(d *preparedData, i int, e encoded) X
	// model builds the trainable model over the training instances.
	model func(train []X, numAttrs int, d *preparedData, u unitSpec) (predictor[X, Y], error)
	// score adds one evaluation instance and its prediction to the sheet.
	score func(s *scoreSheet, x X, pred Y) error
	// finish, if set, adds task-specific figures to a finished unit.
	finish func(out *unitResult, s *scoreSheet, m predictor[X, Y], eval []X)
	// probe is an empty model of the task, for capability checks.
	probe func() (trainers.Model[Y], error)
	// index, if set, replaces the default indexing (the attribute strings
	// of d.attrs seen in the training part, with the unit's frequency
	// cut-off): it returns how to encode corpus item i and the number of
	// feature ids.
	index func(d *preparedData, train []int, u unitSpec) (encode func(i int) encoded, numAttrs int)
}

// encoded is a corpus item's features as ids of a unit's index, per token,
// with their values where the data gives some (given attributes; nil:
// binary, as every template's features are).
type encoded struct {
	attrs  [][]int32
	values [][]float64
}

func (b binding[X, Y]) Name() string { return b.name }

func (b binding[X, Y]) Supports(t TrainerSpec) error {
	probe, err := b.probe()
	if err != nil {
		return err
	}
	return canTrain(t, probe)
}

func (b binding[X, Y]) Run(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	return runBound(ctx, b, d, u, train, eval)
}

// runBound is the unit skeleton every task shares: index the attributes of
// the training part only, build the model, train it with the unit's trainer
// and settings, decode the evaluation part and score it.
func runBound[X, Y any](ctx context.Context, b binding[X, Y], d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	index := b.index
	if index == nil {
		index = attributeIndex
	}
	encode, numAttrs := index(d, train, u)
	instances := func(ids []int) []X {
		out := make([]X, len(ids))
		for j, i := range ids {
			out[j] = b.instance(d, i, encode(i))
		}
		return out
	}
	m, err := b.model(instances(train), numAttrs, d, u)
	if err != nil {
		return unitResult{}, err
	}
	res, cost, err := trainUnit(ctx, m, u)
	if err != nil {
		return unitResult{}, err
	}
	sheet := newScoreSheet(d, u)
	evalSet := instances(eval)
	for _, x := range evalSet {
		if err := ctx.Err(); err != nil {
			return unitResult{}, err
		}
		if err := b.score(sheet, x, m.Predict(x, res.W)); err != nil {
			return unitResult{}, err
		}
	}
	out := scored(train, eval, sheet, res, cost)
	if b.finish != nil {
		b.finish(&out, sheet, m, evalSet)
	}
	return out, nil
}

// attributeIndex indexes the attribute strings of the training part (with
// the unit's frequency cut-off, which counts occurrences, not values) and
// encodes any item through that index.
func attributeIndex(d *preparedData, train []int, u unitSpec) (func(i int) encoded, int) {
	idx := features.BuildIndexMinCount(pick(d.attrs, train), u.Features.MinCount)
	if d.values == nil {
		return func(i int) encoded { return encoded{attrs: idx.Encode(d.attrs[i])} }, idx.Len()
	}
	return func(i int) encoded { return encodeValued(idx, d.attrs[i], d.values[i]) }, idx.Len()
}

// encodeValued encodes one item's attributes and their values (nil, or
// per token nil for all 1): per token the ids of the indexed attributes,
// sorted, each with its value; unknown attributes are dropped, as
// features.Index.Encode drops them. A token's attributes are distinct
// (datasets.Attributes), so its ids are.
func encodeValued(idx *features.Index, names [][]string, values [][]float64) encoded {
	if values == nil {
		return encoded{attrs: idx.Encode(names)}
	}
	out := encoded{attrs: make([][]int32, len(names)), values: make([][]float64, len(names))}
	type pair struct {
		id int32
		v  float64
	}
	for t, as := range names {
		if values[t] == nil {
			out.attrs[t] = idx.Encode([][]string{as})[0]
			continue
		}
		ps := make([]pair, 0, len(as))
		for j, a := range as {
			if id, ok := idx.Lookup(a); ok {
				ps = append(ps, pair{id, values[t][j]})
			}
		}
		slices.SortFunc(ps, func(a, b pair) int { return cmp.Compare(a.id, b.id) })
		out.attrs[t], out.values[t] = make([]int32, len(ps)), make([]float64, len(ps))
		for j, p := range ps {
			out.attrs[t][j], out.values[t][j] = p.id, p.v
		}
	}
	return out
}

// tasks returns the task table. It is a function, not a package variable, so
// that there is no mutable global state.
func tasks() map[string]Task {
	out := map[string]Task{}
	for _, t := range []Task{sequenceTask(), segmentationTask(), parsingTask()} {
		out[t.Name()] = t
	}
	return out
}

// KnownTasks lists the task names a config may use.
func KnownTasks() []string {
	names := make([]string, 0, 2)
	for name := range tasks() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// canTrain reports whether probe, an empty model of a task, serves trainer
// entry t with its settings (e.g. entropy-margin with slack rescaling needs a
// slack-rescaled partition function, which not every model has).
func canTrain[Y any](t TrainerSpec, probe trainers.Model[Y]) error {
	v, err := t.params()
	if err != nil {
		return err
	}
	return trainers.Check(t.Name, probe, v)
}

// dispatchUnit runs a unit with its task.
func dispatchUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	t, ok := tasks()[u.Task]
	if !ok {
		return unitResult{}, fmt.Errorf("unknown task %q (known: %s)", u.Task, strings.Join(KnownTasks(), ", "))
	}
	return t.Run(ctx, d, u, train, eval)
}

// scored assembles a unit's result from its evaluation counts and training
// statistics.
func scored(train, eval []int, s *scoreSheet, res *trainers.Result, cost timing) unitResult {
	return unitResult{
		TrainSize: len(train), EvalSize: len(eval), Outcomes: s.outcomes,
		TokenError: s.counts.TokenError(), SpanF1: s.spanF1(),
		TrainSeconds: cost.Wall, CPUSeconds: cost.CPU, PeakMiB: float64(cost.PeakBytes) / (1 << 20), Iterations: res.Iterations, Constraints: res.Constraints,
		Primal: res.Primal, Dual: res.Dual, Gap: res.Gap, Converged: res.Converged,
		WorkingPrimal: res.WorkingPrimal, WorkingGap: res.WorkingGap, PrimalExact: res.PrimalExact, OracleCalls: res.OracleCalls,
	}
}

// trainUnit trains model m with the unit's trainer and settings, and
// measures what the training cost. Each trainer maps C to its own
// regularisation (see its Spec().C) so that one grid means the same
// objective scale ½‖w‖² + C Σ_i loss_i throughout.
func trainUnit[Y any](ctx context.Context, m trainers.Model[Y], u unitSpec) (*trainers.Result, timing, error) {
	var res *trainers.Result
	cost, err := timed(func() (err error) {
		res, err = fit(ctx, m, u)
		return err
	})
	if err != nil {
		return nil, timing{}, fmt.Errorf("%s (C=%g): %w", u.Trainer, u.C, err)
	}
	if cost.CPU > 0 {
		cost.CPU += res.OtherThreadsCPU.Seconds() // e.g. gonum's L-BFGS goroutines
	}
	return res, cost, nil
}

// fit trains m with the unit's trainer, through the trainers' registry:
// what C means for each trainer lives in its own file in package trainers.
func fit[Y any](ctx context.Context, m trainers.Model[Y], u unitSpec) (*trainers.Result, error) {
	v, err := u.trainerParams()
	if err != nil {
		return nil, err
	}
	return trainers.Train(ctx, u.Trainer, m, v)
}

// trainerParams returns the params of the unit's trainer: the unit's
// settings under the keys the trainer accepts (unitSpec's JSON names are the
// config's keys, which are the trainers' param keys), unset ones left out,
// with the unit's C and, as the seed, the experiment's seed plus the split.
func (u unitSpec) trainerParams() (trainers.Values, error) {
	spec, err := trainers.SpecOf(u.Trainer)
	if err != nil {
		return nil, err
	}
	raw, err := json.Marshal(u)
	if err != nil {
		return nil, fmt.Errorf("unit settings: %w", err)
	}
	var all map[string]any
	if err := json.Unmarshal(raw, &all); err != nil {
		return nil, fmt.Errorf("unit settings: %w", err)
	}
	v := trainers.Values{}
	for _, p := range spec.Params {
		switch x := all[p.Key]; x {
		case nil, 0.0, false, "":
		default:
			v[p.Key] = x
		}
	}
	if _, ok := spec.Param(trainers.ParamC); ok && u.C != 0 {
		v[trainers.ParamC] = u.C
	}
	if _, ok := spec.Param(trainers.ParamSeed); ok {
		v[trainers.ParamSeed] = u.Seed + uint64(u.Split)
	}
	return v, nil
}

func pick[T any](xs []T, ids []int) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = xs[i]
	}
	return out
}
