package experiments

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// preparedData is a dataset with its features extracted once, shared
// read-only by every unit that uses it.
type preparedData struct {
	name   string
	hash   string
	labels []string
	seqs   []structpred.Sequence
	attrs  [][][]string // per sequence, per token: attribute strings
	folds  []int        // per sequence: its fold, for fold splits
}

// encode turns the sequences ids into model instances, their attributes
// mapped through idx (attributes idx has not seen are dropped).
func encode[T any](d *preparedData, idx *features.Index, ids []int, build func(attrs [][]int32, s structpred.Sequence) T) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = build(idx.Encode(d.attrs[i]), d.seqs[i])
	}
	return out
}

// scored assembles a unit's result from its evaluation counts and training
// statistics.
func scored(train, eval []int, counts *metrics.Counts, res *trainers.Result, cost timing) unitResult {
	return unitResult{
		TrainSize: len(train), EvalSize: len(eval),
		TokenError: counts.TokenError(), SpanF1: counts.SpanF1(),
		TrainSeconds: cost.Wall, CPUSeconds: cost.CPU, PeakMiB: float64(cost.PeakBytes) / (1 << 20), Iterations: res.Iterations, Constraints: res.Constraints,
		Primal: res.Primal, Dual: res.Dual, Gap: res.Gap, Converged: res.Converged,
		WorkingPrimal: res.WorkingPrimal, WorkingGap: res.WorkingGap, PrimalExact: res.PrimalExact, OracleCalls: res.OracleCalls,
	}
}

// runSequenceUnit trains a chain model on the train indices and scores the
// eval indices. The attribute index is built from the training part only.
func runSequenceUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	idx := features.BuildIndex(pick(d.attrs, train))
	instance := func(attrs [][]int32, s structpred.Sequence) chain.Instance {
		return chain.Instance{Attrs: attrs, Labels: s.Labels}
	}
	// The loss is the paper's Hamming loss, stated here rather than left to
	// chain.New's zero-value default.
	m, err := chain.New(encode(d, idx, train, instance), idx.Len(), len(d.labels), u.Features.Edges, decoders.Hamming(len(d.labels)))
	if err != nil {
		return unitResult{}, err
	}
	res, cost, err := trainUnit(ctx, m, u)
	if err != nil {
		return unitResult{}, err
	}
	var counts metrics.Counts
	for _, x := range encode(d, idx, eval, instance) {
		if err := counts.AddLabels(x.Labels, m.Predict(x, res.W)); err != nil {
			return unitResult{}, err
		}
	}
	return scored(train, eval, &counts, res, cost), nil
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

// checkTrainerSupportsSequence refuses, at config time, a trainer the chain
// model cannot serve.
func checkTrainerSupportsSequence(t TrainerSpec) error {
	probe, err := chain.New(nil, 1, 2, true, decoders.Hamming(2))
	if err != nil {
		return err
	}
	return canTrain[[]int](t, probe)
}

func pick[T any](xs []T, ids []int) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = xs[i]
	}
	return out
}
