package trainers

import (
	"context"
	"fmt"
	"math"
	"time"
)

// HMM is the generative baseline of Tsochantaridis et al.'s Table 2: a
// first-order hidden Markov model with maximum-likelihood transitions and
// emissions, add-k smoothed, decoded by the model's own Viterbi. It is not
// a max-margin trainer (it has no C and no objective to reach): it counts
// once. Params: HMMParams.
//
// It is the registry's trainer hmm (and the function TrainHMM): a chain
// model emits only once a caller has designated its symbols
// (chain.Model.SetEmissions; the sequence task does so from its index's
// "w=" and "bias" attributes), so Check refuses every model that does not
// implement EmissionCounter (segmentation, parsing, multiclass) or whose
// symbols are not designated.
//
// Emissions are over one symbol per token (the word, for chains: see
// EmissionCounter), with an unknown-word model: symbols seen at most Rare
// times in training are pooled into one unknown class, from which
// P(unknown | y) is estimated, and every test token whose symbol is rare or
// absent from training is emitted by it. With K labels, V symbols kept and
// counts c,
//
//	P(y | y')   = (c(y', y) + k) / (c(y', ·) + k·K)
//	P(s | y)    = (c(y, s) + k) / (c(y) + k·(V + 1))   for a kept symbol s
//	P(unk | y)  = (c(y, rare or none) + k) / (c(y) + k·(V + 1))
//
// The chain model scores transitions between consecutive tokens only, so
// the initial-state distribution is not modelled (uniform).
const HMM = "hmm"

// HMMParams are the params of the HMM baseline.
type HMMParams struct {
	Smoothing float64 `param:"smoothing,hyper" range:"(0,1e6]" help:"add-k smoothing of the transition and emission counts"`
	Rare      *int    `param:"rare,hyper" range:"[0,1e6]" help:"symbols seen at most this often in training are pooled into the unknown-word class (default 1: hapaxes; 0: only unseen ones)"`
}

// Resolved fills the defaults: add-one smoothing, hapaxes as unknown words.
func (p HMMParams) Resolved() HMMParams {
	if p.Smoothing == 0 {
		p.Smoothing = 1
	}
	if p.Rare == nil {
		one := 1
		p.Rare = &one
	}
	return p
}

// Validate checks resolved params: nothing beyond their ranges.
func (p HMMParams) Validate() error { return nil }

// TrainHMM counts the n instances of m and returns the weights under which
// m's score is the HMM's log joint probability (see HMM).
func TrainHMM(ctx context.Context, m EmissionCounter, n int, p HMMParams) ([]float64, error) {
	p = p.Resolved()
	if err := checkRanges(p); err != nil {
		return nil, fmt.Errorf("trainer %q: %w", HMM, err)
	}
	symbols, k, err := m.HMMShape()
	if err != nil {
		return nil, fmt.Errorf("trainer %q: %w", HMM, err)
	}
	emit := make([][]float64, symbols) // c(y, s), per symbol
	for s := range emit {
		emit[s] = make([]float64, k)
	}
	seen := make([]int, symbols) // c(s)
	none := make([]float64, k)   // c(y, no symbol)
	trans := make([][]float64, k)
	for y := range trans {
		trans[y] = make([]float64, k)
	}
	for i := range n {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		syms, labels := m.HMMTokens(i)
		for t, y := range labels {
			if y < 0 || y >= k {
				return nil, fmt.Errorf("trainer %q: instance %d token %d: label %d outside 0..%d", HMM, i, t, y, k-1)
			}
			if s := syms[t]; s >= 0 {
				if int(s) >= symbols {
					return nil, fmt.Errorf("trainer %q: instance %d token %d: symbol %d outside 0..%d", HMM, i, t, s, symbols-1)
				}
				emit[s][y]++
				seen[s]++
			} else {
				none[y]++
			}
			if t > 0 {
				trans[labels[t-1]][y]++
			}
		}
	}
	// Pool the rare symbols into the unknown class.
	unk := none
	kept := 0
	for s, c := range seen {
		if c <= *p.Rare {
			for y, x := range emit[s] {
				unk[y] += x
			}
			emit[s] = nil
			continue
		}
		kept++
	}
	perLabel := make([]float64, k) // c(y)
	for y := range perLabel {
		perLabel[y] = unk[y]
	}
	for _, row := range emit {
		for y, x := range row {
			perLabel[y] += x
		}
	}
	a := p.Smoothing
	logUnk := make([]float64, k)
	for y := range k {
		logUnk[y] = math.Log((unk[y] + a) / (perLabel[y] + a*float64(kept+1)))
	}
	logEmit := make([][]float64, symbols)
	for s, row := range emit {
		if row == nil {
			logEmit[s] = logUnk
			continue
		}
		logEmit[s] = make([]float64, k)
		for y, x := range row {
			logEmit[s][y] = math.Log((x + a) / (perLabel[y] + a*float64(kept+1)))
		}
	}
	logTrans := make([][]float64, k)
	for prev, row := range trans {
		var total float64
		for _, x := range row {
			total += x
		}
		logTrans[prev] = make([]float64, k)
		for y, x := range row {
			logTrans[prev][y] = math.Log((x + a) / (total + a*float64(k)))
		}
	}
	return m.HMMWeights(logEmit, logUnk, logTrans)
}

func hmmTrainer[Y any]() Trainer[Y] {
	return entry[Y, HMMParams]{
		name:    HMM,
		summary: "generative first-order HMM: maximum-likelihood counts, add-k smoothing, an unknown-word class (Tsochantaridis et al.'s Table 2 baseline)",
		check: func(m Model[Y], _ HMMParams) error {
			if err := needs[EmissionCounter](HMM, "emission symbols (one per token: the word)", m); err != nil {
				return err
			}
			if _, _, err := m.(EmissionCounter).HMMShape(); err != nil {
				return fmt.Errorf("trainer %q: %w", HMM, err)
			}
			return nil
		},
		train: func(ctx context.Context, m Model[Y], p HMMParams, _ options) (*Result, error) {
			start := time.Now()
			w, err := TrainHMM(ctx, m.(EmissionCounter), m.Len(), p)
			if err != nil {
				return nil, err
			}
			return &Result{W: w, Stats: Stats{Iterations: 1, Converged: true, Elapsed: time.Since(start)}}, nil
		},
	}
}
