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

// GenerativeParams are the generative baseline's params: none.
type GenerativeParams struct{}

// Resolved returns p: there is nothing to default.
func (p GenerativeParams) Resolved() GenerativeParams { return p }

// Validate checks nothing: there are no params.
func (GenerativeParams) Validate() error { return nil }

func generativeTrainer[Y any]() Trainer[Y] {
	return entry[Y, GenerativeParams]{
		name:    Generative,
		summary: "the model's maximum-likelihood generative counterpart (e.g. the PCFG of a weighted grammar): counts, no margin",
		check: func(m Model[Y], _ GenerativeParams) error {
			return needs[GenerativeEstimator](Generative, "a generative estimate (Generative)", m)
		},
		train: func(ctx context.Context, m Model[Y], _ GenerativeParams, _ options) (*Result, error) {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			start := time.Now()
			w, err := m.(GenerativeEstimator).Generative()
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
