package trainers

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

// TestWorkingSetDropIdle checks that dropIdle keeps exactly the
// constraints with α > 0 or idle for at most `after` passes (with a margin,
// a pass counts only if the violation ends it more than margin below the
// group's slack), and compacts every group's members, Gram matrix, grad and
// shrunk flags consistently; w, the group sums and the dual do not move, and
// a solve afterwards still reaches a small gap.
func TestWorkingSetDropIdle(t *testing.T) {
	t.Parallel()
	for _, margin := range []float64{0, 0.3} {
		t.Run(fmt.Sprintf("margin=%v", margin), func(t *testing.T) {
			t.Parallel()
			testDropIdle(t, margin)
		})
	}
}

func testDropIdle(t *testing.T, margin float64) {
	rng := rand.New(rand.NewPCG(11, 12))
	const dim, groups, after = 12, 5, 2
	ws := newWorkingSet(dim, 1, nil)
	dropped := 0
	for pass := 0; pass < 30; pass++ {
		for k := 0; k < 6; k++ {
			var idx []int32
			var val []float64
			for i := int32(0); i < dim; i++ {
				if rng.IntN(3) == 0 {
					idx = append(idx, i)
					val = append(val, float64(rng.IntN(5)-2))
				}
			}
			ws.add(structpred.Constraint{Group: rng.IntN(groups), A: vec(idx, val), B: rng.Float64() * 3})
			ws.forget()
		}
		if _, _, _, err := ws.solve(context.Background(), 1e-6, 0, 3); err != nil {
			t.Fatal(err)
		}
		// Snapshot, with the survivors predicted.
		_, dBefore := ws.objectives()
		wBefore := append([]float64(nil), ws.w...)
		want := map[int][]int{} // group -> surviving member positions
		for _, gi := range ws.order {
			g := ws.groups[gi]
			viol := make([]float64, len(g.members))
			xi := 0.0
			for m, j := range g.members {
				viol[m] = ws.cons[j].b - ws.cons[j].a.Dot(ws.w)
				xi = math.Max(xi, viol[m])
			}
			for m, j := range g.members {
				idle := ws.idle[j] + 1
				if ws.cons[j].alpha > 0 || (margin > 0 && viol[m] >= xi-margin) {
					idle = 0
				}
				if idle <= after || ws.cons[j].alpha > 0 {
					want[gi] = append(want[gi], m)
				}
			}
		}
		old := map[int]*group{}
		oldCons := append([]constraint(nil), ws.cons...)
		sums := map[int]float64{}
		for _, gi := range ws.order {
			g := ws.groups[gi]
			cp := &group{members: append([]int(nil), g.members...), grad: append([]float64(nil), g.grad...), shrunk: append([]bool(nil), g.shrunk...)}
			for _, r := range g.gram {
				cp.gram = append(cp.gram, append([]float64(nil), r...))
			}
			old[gi] = cp
			sums[gi] = g.sum
		}
		dropped += ws.dropIdle(after, margin)
		total := 0
		seen := make([]bool, len(ws.cons))
		for _, gi := range ws.order {
			g, o, keep := ws.groups[gi], old[gi], want[gi]
			if len(g.members) != len(keep) || len(g.gram) != len(keep) || len(g.shrunk) != len(keep) || len(g.grad) > len(keep) {
				t.Fatalf("pass %d group %d: %d members, %d gram rows, %d shrunk, %d grad; want %d", pass, gi, len(g.members), len(g.gram), len(g.shrunk), len(g.grad), len(keep))
			}
			if g.sum != sums[gi] {
				t.Fatalf("group sum moved")
			}
			for r, m := range keep {
				j := g.members[r]
				if seen[j] {
					t.Fatalf("constraint %d in two places", j)
				}
				seen[j] = true
				total++
				if ws.cons[j] != oldCons[o.members[m]] {
					t.Fatalf("pass %d group %d member %d: constraint changed", pass, gi, r)
				}
				if g.shrunk[r] != o.shrunk[m] {
					t.Fatalf("shrunk flag moved")
				}
				if r < len(g.grad) && g.grad[r] != o.grad[m] {
					t.Fatalf("grad moved")
				}
				if len(g.gram[r]) != len(keep) {
					t.Fatalf("gram row length %d, want %d", len(g.gram[r]), len(keep))
				}
				for c, l := range keep {
					if g.gram[r][c] != o.gram[m][l] {
						t.Fatalf("gram entry moved")
					}
				}
			}
		}
		if total != len(ws.cons) || total != len(ws.idle) {
			t.Fatalf("%d members, %d constraints, %d idle counts", total, len(ws.cons), len(ws.idle))
		}
		for i := range ws.w {
			if ws.w[i] != wBefore[i] {
				t.Fatal("w moved")
			}
		}
		if _, d := ws.objectives(); math.Abs(d-dBefore) > 1e-9*math.Max(1, math.Abs(d)) {
			t.Fatalf("dual moved from %v to %v", dBefore, d)
		}
	}
	if dropped == 0 {
		t.Fatal("nothing was dropped: the test does not exercise compaction")
	}
	p, d, _, err := ws.solve(context.Background(), 1e-9, 0, 10000)
	if err != nil || p-d > 1e-6*math.Max(1, p) || p-d < -1e-9 {
		t.Fatalf("final solve: primal %v dual %v err %v", p, d, err)
	}
}
