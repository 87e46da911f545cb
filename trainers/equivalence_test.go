package trainers_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// noisySegmentations draws segmentation-like instances: segments of 1–3
// tokens with labels that differ from their neighbours', every token
// carrying its segment label's attribute (with probability 1 − noise) or a
// random label's, plus a random noise attribute.
func noisySegmentations(seed uint64, count, k int, noise float64) []segment.Instance {
	rng := rand.New(rand.NewPCG(seed, 2008))
	data := make([]segment.Instance, count)
	for i := range data {
		var x segment.Instance
		n := 3 + rng.IntN(4)
		for t, prev := 0, -1; t < n; {
			c := rng.IntN(k)
			if c == prev {
				c = (c + 1) % k
			}
			u := min(n, t+1+rng.IntN(3))
			for range u - t {
				cue := c
				if rng.Float64() < noise {
					cue = rng.IntN(k)
				}
				x.Attrs = append(x.Attrs, []int32{int32(cue), int32(k + rng.IntN(3))})
			}
			x.Segments = append(x.Segments, structpred.Segment{Start: t, End: u, Label: c})
			t, prev = u, c
		}
		data[i] = x
	}
	return data
}

// solved is one training run's outcome, with the bound its ε promises.
type solved struct {
	res   *trainers.Result
	bound float64 // C·G·ε plus the one-slack QP's relative tolerance
}

// trainBoth trains one trainer with both solvers at the same C and ε;
// approx-slack is certified by the exact slack oracle.
func trainBoth[Y any](t *testing.T, trainer string, m trainers.Model[Y], c, eps float64) map[string]solved {
	t.Helper()
	out := map[string]solved{}
	for _, solver := range trainers.Solvers() {
		res, groups := trainCuttingPlane(t, trainer, m, trainers.Settings{C: c, Epsilon: eps, Solver: solver})
		if !res.Converged || !res.PrimalExact {
			t.Fatalf("%s: converged %v, primal exact %v after %d iterations", solver, res.Converged, res.PrimalExact, res.Iterations)
		}
		out[solver] = solved{res, c*float64(groups)*eps + 1e-4*math.Max(1, res.Primal)}
	}
	return out
}

// trainCuttingPlane trains trainer's separator on m with s (approx-slack
// certified by the exact slack oracle) and returns the result and the
// separator's number of slack groups.
func trainCuttingPlane[Y any](t *testing.T, trainer string, m trainers.Model[Y], s trainers.Settings) (*trainers.Result, int) {
	t.Helper()
	sep, err := trainers.NewSeparator(trainer, m, s.Epsilon)
	if err != nil {
		t.Fatal(err)
	}
	if trainer == trainers.ApproxSlack {
		if s.Certifier, err = trainers.NewSeparator(trainers.Slack, m, s.Epsilon); err != nil {
			t.Fatal(err)
		}
	}
	res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
	if err != nil {
		t.Fatalf("%s, %s: %v", trainer, s.Solver, err)
	}
	return res, sep.Groups()
}

// checkSameOptimum asserts what the two formulations' equality implies: each
// solver's dual is a lower bound on the other's (true) primal, and with an
// exact oracle each primal is within its bound C·G·ε of its own dual, so
// the two primals agree within the larger bound. ApproxSlack's oracle can
// miss violated constraints, so only the lower bounds hold for it.
func checkSameOptimum(t *testing.T, trainer string, runs map[string]solved) {
	t.Helper()
	n, one := runs[trainers.NSlack], runs[trainers.OneSlack]
	tiny := 1e-9 * math.Max(1, n.res.Primal)
	for _, pair := range [][2]solved{{n, one}, {one, n}} {
		if pair[0].res.Primal < pair[1].res.Dual-tiny {
			t.Errorf("a primal %v below the other solver's dual %v", pair[0].res.Primal, pair[1].res.Dual)
		}
	}
	if trainer == trainers.ApproxSlack {
		return
	}
	for name, r := range runs {
		if r.res.Gap < -tiny || r.res.Gap > r.bound {
			t.Errorf("%s: true gap %v outside [0, %v]", name, r.res.Gap, r.bound)
		}
	}
	if d := math.Abs(n.res.Primal - one.res.Primal); d > math.Max(n.bound, one.bound) {
		t.Errorf("primals differ by %v (n-slack %v, one-slack %v), bound %v", d, n.res.Primal, one.res.Primal, math.Max(n.bound, one.bound))
	}
	t.Logf("primal n-slack %.6f one-slack %.6f, duals %.6f %.6f, bound %.3g", n.res.Primal, one.res.Primal, n.res.Dual, one.res.Dual, n.bound)
}

// The n-slack and one-slack solvers reach the same objective on random chain
// and segmentation problems, for every trainer, and on these well-separated
// problems (little noise, a large C, a small ε) the same predictions on every
// training instance. Catches a joint constraint that drops or double-counts
// a group, a one-slack ε not scaled to the n-slack bound, and a dual that is
// not a lower bound on the other formulation's optimum.
func TestSolversAgree(t *testing.T) {
	t.Parallel()
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		t.Run(trainer, func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(2) {
				t.Run(fmt.Sprintf("chain/seed%d", seed), func(t *testing.T) {
					m, data := randomChain(seed, chainShape{n: 15, tokens: 6, k: 3, attrs: 40, perTok: 3, noise: 0.05, edges: true})
					runs := trainBoth[[]int](t, trainer, m, 10, 1e-4)
					checkSameOptimum(t, trainer, runs)
					for i, x := range data {
						a, b := m.Predict(x, runs[trainers.NSlack].res.W), m.Predict(x, runs[trainers.OneSlack].res.W)
						if !slices.Equal(a, b) {
							t.Errorf("instance %d: n-slack predicts %v, one-slack %v", i, a, b)
						}
					}
				})
				t.Run(fmt.Sprintf("segment/seed%d", seed), func(t *testing.T) {
					const k = 3
					data := noisySegmentations(seed, 12, k, 0.05)
					m, err := segment.New(data, k+3, k, 3, true, semimarkov.Loss{})
					if err != nil {
						t.Fatal(err)
					}
					runs := trainBoth[[]structpred.Segment](t, trainer, m, 10, 1e-4)
					checkSameOptimum(t, trainer, runs)
					for i, x := range data {
						a, b := m.Predict(x, runs[trainers.NSlack].res.W), m.Predict(x, runs[trainers.OneSlack].res.W)
						if semimarkov.Compare(a, b) != 0 {
							t.Errorf("instance %d: n-slack predicts %v, one-slack %v", i, a, b)
						}
					}
				})
			}
		})
	}
}

// Dropping idle n-slack constraints (Settings.DropIdle) changes the path,
// not the problem: on noisy random chains, where hundreds of constraints
// pile up, every trainer still converges with its true gap within C·G·ε,
// its primal within that bound of keeping every constraint (exact oracles),
// and it does drop some (so the test exercises the compaction).
func TestDropIdleReachesTheSameOptimum(t *testing.T) {
	t.Parallel()
	const c, eps = 10, 1e-3
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		t.Run(trainer, func(t *testing.T) {
			if testing.Short() && trainer != trainers.Margin {
				t.Skip("3–4 s each: margin alone with -short")
			}
			t.Parallel()
			m, _ := randomChain(7, chainShape{n: 20, tokens: 7, k: 4, attrs: 30, perTok: 3, noise: 0.3, edges: true})
			runs := map[int]*trainers.Result{}
			bound := 0.0
			for _, after := range []int{0, 1} {
				res, groups := trainCuttingPlane(t, trainer, m, trainers.Settings{C: c, Epsilon: eps, DropIdle: after})
				if !res.Converged {
					t.Fatalf("drop after %d: not converged after %d passes", after, res.Iterations)
				}
				bound = c * float64(groups) * eps
				if trainer != trainers.ApproxSlack && (res.Gap < -1e-9 || res.Gap > bound) {
					t.Errorf("drop after %d: true gap %v outside [0, %v]", after, res.Gap, bound)
				}
				runs[after] = res
			}
			keep, drop := runs[0], runs[1]
			if keep.Dropped != 0 || drop.Dropped == 0 {
				t.Fatalf("dropped %d keeping all, %d dropping idle ones", keep.Dropped, drop.Dropped)
			}
			// Each dual bounds the other run's true primal from below, and
			// with an exact oracle both primals are within the bound of
			// the optimum.
			if keep.Primal < drop.Dual-1e-9 || drop.Primal < keep.Dual-1e-9 {
				t.Errorf("primals %v, %v against duals %v, %v", keep.Primal, drop.Primal, keep.Dual, drop.Dual)
			}
			if d := math.Abs(keep.Primal - drop.Primal); trainer != trainers.ApproxSlack && d > bound {
				t.Errorf("primals %v and %v differ by more than C·G·ε = %v", keep.Primal, drop.Primal, bound)
			}
			t.Logf("%s: primal %.6f (%d passes, %d constraints) vs %.6f (%d passes, %d constraints, %d dropped)",
				trainer, keep.Primal, keep.Iterations, keep.Constraints, drop.Primal, drop.Iterations, drop.Constraints, drop.Dropped)
		})
	}
}
