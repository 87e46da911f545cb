package trainers_test

import (
	"context"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// loopOnly hides a model's LogLossSum: CRF then calls LogLoss once per
// instance.
type loopOnly struct {
	trainers.Model[[]int]
	ll trainers.LogLinear[[]int]
}

func (l loopOnly) LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	return l.ll.LogLoss(i, w, beta, lossScale, grad)
}

// TestCRFUsesLogLossSum trains a CRF and an entropy-margin model on a
// chain restricted to its seen pairs, whose LogLossSum evaluates in the
// full layout, and again with LogLossSum hidden: the weights, objective
// and iterations must be the same bit for bit, under both stopping rules.
func TestCRFUsesLogLossSum(t *testing.T) {
	t.Parallel()
	m, data := randomChain(44, chainShape{n: 20, tokens: 8, k: 5, attrs: 200, perTok: 6, noise: 0.1, edges: true})
	if err := m.Restrict(chain.SeenPairs(data, 200, 5)); err != nil {
		t.Fatal(err)
	}
	if _, ok := trainers.Model[[]int](m).(trainers.LogLossSummer); !ok {
		t.Fatal("the chain model is no LogLossSummer")
	}
	if full := 200*5 + 5*5; m.Dim() >= full*3/4 {
		t.Fatalf("%d seen-pair weights, the full model's %d: too few pairs unseen", m.Dim(), full)
	}
	for _, s := range []trainers.CRFSettings{
		{C: 1},
		{C: 1, Stop: trainers.StopCRFsuite},
		{C: 10, Beta: 5, LossScale: 1},
	} {
		t.Run(fmt.Sprintf("%s/beta=%v/stop=%s", s.Name(), s.Beta, s.Stop), func(t *testing.T) {
			sum, err := trainers.CRF(context.Background(), trainers.Model[[]int](m), s)
			if err != nil {
				t.Fatal(err)
			}
			loop, err := trainers.CRF(context.Background(), trainers.Model[[]int](loopOnly{m, m}), s)
			if err != nil {
				t.Fatal(err)
			}
			if sum.Iterations != loop.Iterations || math.Float64bits(sum.Primal) != math.Float64bits(loop.Primal) || !slices.Equal(sum.W, loop.W) {
				t.Fatalf("with LogLossSum: %d iterations, primal %v; loop: %d, %v (weights equal: %v)",
					sum.Iterations, sum.Primal, loop.Iterations, loop.Primal, slices.Equal(sum.W, loop.W))
			}
		})
	}
}
