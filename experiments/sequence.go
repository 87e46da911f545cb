package experiments

import (
	"context"
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
		TrainSeconds: cost.Wall, CPUSeconds: cost.CPU, Iterations: res.Iterations, Constraints: res.Constraints,
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
// measures what the training cost. C maps to every trainer's own
// regularisation so that one grid means the same objective scale
// ½‖w‖² + C Σ_i loss_i throughout (subgradient: λ = 1/(C·n)); with
// C_per_example the scale is ½‖w‖² + C·mean_i loss_i, i.e. C/n.
func trainUnit[Y any](ctx context.Context, m trainers.Model[Y], u unitSpec) (*trainers.Result, timing, error) {
	var res *trainers.Result
	cost, err := timed(func() (err error) {
		res, err = fit(ctx, m, u)
		return err
	})
	if err != nil {
		return nil, timing{}, fmt.Errorf("%s (C=%g): %w", u.Trainer, u.C, err)
	}
	return res, cost, nil
}

// fit dispatches to the unit's trainer.
func fit[Y any](ctx context.Context, m trainers.Model[Y], u unitSpec) (res *trainers.Result, err error) {
	c := u.C
	if u.CPerExample && m.Len() > 0 {
		c /= float64(m.Len())
	}
	switch u.Trainer {
	case trainers.PerceptronName, trainers.MIRAName, trainers.SubgradientName:
		s := trainers.OnlineSettings{Epochs: u.Epochs, Seed: u.Seed + uint64(u.Split), K: u.K, C: u.C}
		if u.Average != nil {
			s.Average = trainers.AverageOff
			if *u.Average {
				s.Average = trainers.AverageOn
			}
		}
		switch u.Trainer {
		case trainers.PerceptronName:
			res, err = trainers.Perceptron(ctx, m, s)
		case trainers.MIRAName:
			res, err = trainers.MIRA(ctx, m, s) // C bounds each example's duals: per example already
		default:
			s.C, s.Lambda = 0, 1/(c*float64(m.Len()))
			res, err = trainers.Subgradient(ctx, m, s)
		}
	case trainers.CRFName, trainers.EntropyMarginName:
		s := trainers.CRFSettings{Beta: u.Beta, Rescaling: u.Rescaling, C: c, MaxIterations: u.MaxIterations}
		if u.Trainer == trainers.EntropyMarginName {
			s.LossScale = 1
		}
		if u.LossScale != nil {
			s.LossScale = *u.LossScale
		}
		res, err = trainers.CRF(ctx, m, s)
	default:
		s := trainers.Settings{C: c, Epsilon: u.Epsilon, QPTolerance: u.QPTolerance, MaxIterations: u.MaxIterations, Solver: u.Solver}
		var sep trainers.Separator
		if sep, err = trainers.NewSeparator(u.Trainer, m, s.Epsilon); err != nil {
			return nil, err
		}
		if u.Trainer == trainers.ApproxSlack {
			// The approximate oracle cannot certify its own slacks; the exact
			// one does, where the task can count losses (Primal is then exact).
			s.Certifier, _ = trainers.NewSeparator(trainers.Slack, m, s.Epsilon)
		}
		res, err = trainers.CuttingPlane(ctx, m.Len(), m.Dim(), sep, s)
	}
	return res, err
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
