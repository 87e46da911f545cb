package trainers

import (
	"context"
	"fmt"
	"math"
	"time"
)

// Generative is the generative baseline of a model that has one in its own
// weight space (Tsochantaridis et al. 2004: the PCFG of Table 5, the
// log-odds substitution matrix of Table 4): maximum-likelihood counts of
// the training instances, whose logarithms are the weights, so that the
// model's argmax is the generative model's. It is not a max-margin trainer
// (no C, no objective): it counts once.
const Generative = "generative"

// GenerativeEstimator is a model with a generative counterpart in its
// weight space (e.g. models/cfg: the PCFG by relative frequencies).
type GenerativeEstimator interface {
	// Generative returns the weights of the maximum-likelihood generative
	// model of the training instances.
	Generative() ([]float64, error)
}

// GapEstimator is a model whose generative counterpart takes a gap cost
// that the counts do not give (models/align: the log-odds substitution
// matrix of Table 4, the gap cost chosen apart).
type GapEstimator interface {
	// GenerativeGap returns the weights of the maximum-likelihood model
	// with the given gap cost.
	GenerativeGap(gap float64) ([]float64, error)
}

// GenerativeParams are the generative baseline's params.
type GenerativeParams struct {
	Gap *float64 `param:"gap,hyper" range:"[0,1e6]" help:"the gap cost of a model whose generative counterpart needs one (alignment: each insert or delete scores -gap); required there, refused elsewhere"`
}

// Resolved returns p: there is nothing to default.
func (p GenerativeParams) Resolved() GenerativeParams { return p }

// Validate checks nothing: there are no params.
func (GenerativeParams) Validate() error { return nil }

func generativeTrainer[Y any]() Trainer[Y] {
	return entry[Y, GenerativeParams]{
		name:    Generative,
		summary: "the model's maximum-likelihood generative counterpart (e.g. the PCFG of a weighted grammar): counts, no margin",
		check: func(m Model[Y], p GenerativeParams) error {
			if p.Gap != nil {
				return needs[GapEstimator](Generative, "a generative estimate with a gap cost (GenerativeGap) for param gap", m)
			}
			return needs[GenerativeEstimator](Generative, "a generative estimate (Generative)", m)
		},
		train: func(ctx context.Context, m Model[Y], p GenerativeParams, _ options) (*Result, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			start := time.Now()
			var w []float64
			var err error
			if p.Gap != nil {
				w, err = m.(GapEstimator).GenerativeGap(*p.Gap)
			} else {
				w, err = m.(GenerativeEstimator).Generative()
			}
			if err != nil {
				return nil, fmt.Errorf("trainer %q: %w", Generative, err)
			}
			for j, x := range w {
				if math.IsNaN(x) || math.IsInf(x, 0) {
					return nil, fmt.Errorf("trainer %q: weight %d is %v: %w", Generative, j, x, ErrNotFinite)
				}
			}
			return &Result{W: w, Stats: Stats{Iterations: 1, Converged: true, Elapsed: time.Since(start)}}, nil
		},
	}
}
