package decoders

import (
	"errors"
	"fmt"
	"math"
)

// Cost is a per-position label loss: Loss(truth, pred) = Σ_t M[truth_t*K+pred_t].
// A valid cost (see Validate) has a zero diagonal and non-negative finite
// entries; the decoders only require the shape to match the chain.
type Cost struct {
	K int
	M []float64 // K*K indexed [truth*K+pred]
}

// Hamming returns the Hamming cost over k labels: 1 for every wrong position.
func Hamming(k int) Cost {
	m := make([]float64, k*k)
	for a := range k {
		for b := range k {
			if a != b {
				m[a*k+b] = 1
			}
		}
	}
	return Cost{K: k, M: m}
}

// Loss returns Σ_t M[truth_t*K+pred_t]. It panics if the lengths differ.
func (c Cost) Loss(truth, pred []int) float64 {
	if len(truth) != len(pred) {
		panic(fmt.Sprintf("decoders: Loss of labelings with lengths %d and %d", len(truth), len(pred)))
	}
	var s float64
	for t, a := range truth {
		s += c.M[a*c.K+pred[t]]
	}
	return s
}

// IsInteger reports whether every entry is a finite non-negative integer, as
// LossCount requires so that losses can index a table.
func (c Cost) IsInteger() bool {
	for _, v := range c.M {
		if !(v >= 0) || math.IsInf(v, 0) || v != math.Trunc(v) {
			return false
		}
	}
	return true
}

// MaxLoss returns the largest loss any labeling can have against truth,
// Σ_t max_y M[truth_t*K+y].
func (c Cost) MaxLoss(truth []int) float64 {
	var s float64
	for _, a := range truth {
		s += maxOf(c.M[a*c.K : (a+1)*c.K])
	}
	return s
}

// Validate reports whether c is a well-formed cost: K ≥ 1, len(M) = K*K, all
// entries finite and non-negative, and a zero diagonal (a correct label costs
// nothing).
func (c Cost) Validate() error {
	if c.K < 1 {
		return fmt.Errorf("decoders: cost has K=%d, need K ≥ 1", c.K)
	}
	if len(c.M) != c.K*c.K {
		return fmt.Errorf("decoders: cost has len(M)=%d, want K*K=%d", len(c.M), c.K*c.K)
	}
	for i, v := range c.M {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return fmt.Errorf("decoders: cost entry M[%d][%d]=%v is not finite and non-negative", i/c.K, i%c.K, v)
		}
	}
	for a := range c.K {
		if c.M[a*c.K+a] != 0 {
			return errors.New("decoders: cost has a non-zero diagonal entry")
		}
	}
	return nil
}

// check panics unless the cost's shape matches the chain and truth is a
// labeling of it.
func (c Cost) check(ch *Chain, truth []int) {
	if c.K != ch.K || len(c.M) != c.K*c.K {
		panic(fmt.Sprintf("decoders: cost has K=%d and len(M)=%d, chain has K=%d", c.K, len(c.M), ch.K))
	}
	ch.checkLabels(truth, "truth")
}

// augment writes Unary[t*K+y] + scale*M[truth_t*K+y] into ws. Because the
// cost decomposes over positions, loss-augmented inference is plain inference
// on these unaries.
func (c Cost) augment(ch *Chain, truth []int, scale float64, ws *Workspace) []float64 {
	k := ch.K
	u := grow(&ws.aug, ch.N*k)
	for t, a := range truth {
		row, m, src := u[t*k:(t+1)*k], c.M[a*k:(a+1)*k], ch.Unary[t*k:(t+1)*k]
		for y := range row {
			row[y] = src[y] + scale*m[y]
		}
	}
	return u
}

func maxOf(xs []float64) float64 {
	m := math.Inf(-1)
	for _, x := range xs {
		m = max(m, x)
	}
	return m
}
