package experiments

import (
	"context"
	"fmt"
	"time"

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
}

// trainOutcome is what a training run reports besides the weights.
type trainOutcome struct {
	seconds                 float64
	iterations, constraints int
	primal, dual, gap       float64
	converged               bool
}

// runSequenceUnit trains a chain model on the train indices and scores the
// eval indices. The attribute index is built from the training part only.
func runSequenceUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	idx := features.BuildIndex(pick(d.attrs, train))
	encode := func(ids []int) []chain.Instance {
		out := make([]chain.Instance, len(ids))
		for j, i := range ids {
			out[j] = chain.Instance{Attrs: idx.Encode(d.attrs[i]), Labels: d.seqs[i].Labels}
		}
		return out
	}
	trainSet := encode(train)
	m, err := chain.New(trainSet, idx.Len(), len(d.labels), u.Features.Edges, decoders.Cost{})
	if err != nil {
		return unitResult{}, err
	}
	w, out, err := trainCuttingPlane(ctx, m, u)
	if err != nil {
		return unitResult{}, err
	}
	var counts metrics.Counts
	for _, x := range encode(eval) {
		if err := counts.AddLabels(x.Labels, m.Predict(x, w)); err != nil {
			return unitResult{}, err
		}
	}
	return unitResult{
		TrainSize: len(train), EvalSize: len(eval),
		TokenError: counts.TokenError(), SpanF1: counts.SpanF1(),
		TrainSeconds: out.seconds, Iterations: out.iterations, Constraints: out.constraints,
		Primal: out.primal, Dual: out.dual, Gap: out.gap, Converged: out.converged,
	}, nil
}

func trainCuttingPlane[Y any](ctx context.Context, m trainers.Model[Y], u unitSpec) ([]float64, trainOutcome, error) {
	s := trainers.Settings{C: u.C, Epsilon: u.Epsilon, QPTolerance: u.QPTolerance, MaxIterations: u.MaxIterations}
	sep, err := trainers.NewSeparator(u.Trainer, m, s.Epsilon)
	if err != nil {
		return nil, trainOutcome{}, err
	}
	start := time.Now()
	res, err := trainers.CuttingPlane(ctx, m.Len(), m.Dim(), sep, s)
	if err != nil {
		return nil, trainOutcome{}, fmt.Errorf("%s (C=%g): %w", u.Trainer, u.C, err)
	}
	return res.W, trainOutcome{
		seconds: time.Since(start).Seconds(), iterations: res.Iterations, constraints: res.Constraints,
		primal: res.Primal, dual: res.Dual, gap: res.Gap, converged: res.Converged,
	}, nil
}

// checkTrainerSupportsSequence refuses, at config time, a trainer the chain
// model cannot serve.
func checkTrainerSupportsSequence(trainer string) error {
	probe, err := chain.New(nil, 1, 2, true, decoders.Cost{})
	if err != nil {
		return err
	}
	_, err = trainers.NewSeparator[[]int](trainer, probe, 0.01)
	return err
}

func pick[T any](xs []T, ids []int) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = xs[i]
	}
	return out
}
