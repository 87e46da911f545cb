package trainers_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// labelings calls f with every labeling of n positions over k labels (the
// slice is reused between calls).
func labelings(n, k int, f func(y []int)) {
	y := make([]int, n)
	for {
		f(y)
		t := 0
		for t < n && y[t] == k-1 {
			y[t] = 0
			t++
		}
		if t == n {
			return
		}
		y[t]++
	}
}

// enumeratedPrimal is ½‖w‖² + C Σ_g ξ_g with every slack taken over all
// labelings of every instance (Hamming loss): per instance for margin and
// slack scaling (approx-slack shares slack's constraints), per (instance,
// position) for PosLearn.
func enumeratedPrimal(m *chain.Model, data []chain.Instance, k int, trainer string, w []float64, c float64) float64 {
	var xi float64
	for i, x := range data {
		n := len(x.Labels)
		inst, pos := 0.0, make([]float64, n)
		labelings(n, k, func(y []int) {
			loss := m.Loss(i, y)
			if loss == 0 {
				return
			}
			margin := m.DeltaFeatures(i, y).Dot(w)
			switch trainer {
			case trainers.Margin:
				inst = math.Max(inst, loss-margin)
			case trainers.Slack, trainers.ApproxSlack:
				inst = math.Max(inst, loss*(1-margin))
			case trainers.PosLearn:
				for t := range n {
					if y[t] != x.Labels[t] {
						pos[t] = math.Max(pos[t], 1-margin)
					}
				}
			}
		})
		xi += inst
		for _, v := range pos {
			xi += v
		}
	}
	return 0.5*dotDense(w, w) + c*xi
}

func dotDense(a, b []float64) float64 {
	var s float64
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

// tinyChains are random chain problems small enough to enumerate (3^4
// labelings per instance), noisy so that slacks stay positive.
func tinyChains() []chainShape {
	return []chainShape{
		{n: 6, tokens: 4, k: 3, attrs: 12, perTok: 3, noise: 0.3, edges: true},
		{n: 8, tokens: 3, k: 3, attrs: 8, perTok: 2, noise: 0.2, edges: false},
	}
}

// The reported Primal is the true primal: it equals the objective computed
// by enumerating every labeling, for every trainer and both solvers, and the
// reported Dual stays below it. For approx-slack it needs the exact slack
// separator as certifier; without one it may only be lower (PrimalExact
// false). Catches a Primal taken over the working set only (it is lower
// whenever a constraint is missing, e.g. with a stopped-early run) and a
// certifying pass that lets a separator filter by the working-set slack.
func TestTruePrimalMatchesEnumeration(t *testing.T) {
	t.Parallel()
	for si, shape := range tinyChains() {
		for seed := range uint64(3) {
			m, data := randomChain(seed, shape)
			for _, solver := range trainers.Solvers() {
				for _, trainer := range trainers.CuttingPlaneTrainers() {
					for _, iters := range []int{2, 0} { // stopped early, and to convergence
						name := fmt.Sprintf("shape%d/seed%d/%s/%s/iters%d", si, seed, solver, trainer, iters)
						sep, err := trainers.NewSeparator[[]int](trainer, m, 1e-3)
						if err != nil {
							t.Fatal(err)
						}
						s := trainers.Settings{C: 1, Epsilon: 1e-3, Solver: solver, MaxIterations: iters}
						res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
						if err != nil {
							t.Fatalf("%s: %v", name, err)
						}
						want := enumeratedPrimal(m, data, shape.k, trainer, res.W, s.C)
						if trainer == trainers.ApproxSlack {
							if res.PrimalExact || res.Primal > want+1e-9*math.Max(1, want) {
								t.Errorf("%s: uncertified primal %v (exact %v) above the enumerated %v", name, res.Primal, res.PrimalExact, want)
							}
							if s.Certifier, err = trainers.NewSeparator[[]int](trainers.Slack, m, 1e-3); err != nil {
								t.Fatal(err)
							}
							if sep, err = trainers.NewSeparator[[]int](trainer, m, 1e-3); err != nil {
								t.Fatal(err)
							}
							if res, err = trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s); err != nil {
								t.Fatal(err)
							}
							want = enumeratedPrimal(m, data, shape.k, trainer, res.W, s.C)
						}
						if !res.PrimalExact || math.Abs(res.Primal-want) > 1e-9*math.Max(1, want) {
							t.Errorf("%s: primal %v (exact %v), enumerated %v", name, res.Primal, res.PrimalExact, want)
						}
						if res.Gap < -1e-9*math.Max(1, want) || res.Gap != res.Primal-res.Dual {
							t.Errorf("%s: gap %v, primal %v, dual %v", name, res.Gap, res.Primal, res.Dual)
						}
						if res.Primal < res.WorkingPrimal-1e-9*math.Max(1, want) && solver == trainers.NSlack {
							t.Errorf("%s: true primal %v below the working-set primal %v", name, res.Primal, res.WorkingPrimal)
						}
					}
				}
			}
		}
	}
}
