package ilp

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/bruteforce"
	mstbf "github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// The branch-and-bound nodes solve programs with parts banned, whose
// builders drop the rows and columns the bans cut off. These tests give
// the builders random bans directly and compare with enumeration of the
// structures that avoid them, infeasible ones included.

func TestChainWithBannedParts(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 45))
	for n := 1; n <= 4; n++ {
		for k := 1; k <= 3; k++ {
			for rep := range 30 {
				r := newChainLP(n, k, randFloats(rng, n*k), randFloats(rng, k*k))
				banned := randBans(rng, r.parts(), 0.4)
				name := fmt.Sprintf("N=%d K=%d #%d", n, k, rep)
				allowed := func(y []int) bool {
					for l := range y {
						prev := 0
						if l > 0 {
							prev = y[l-1]
						}
						if banned[r.pair(l, prev, y[l])] {
							return false
						}
					}
					return true
				}
				score := func(y []int) float64 {
					var s float64
					for l := range y {
						prev := 0
						if l > 0 {
							prev = y[l-1]
						}
						s += r.score(r.pair(l, prev, y[l]))
					}
					return s
				}
				want, wantOK := bruteforce.Best(n, k, score, allowed)
				sol, _, ok, err := solve(r, banned, Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if ok != wantOK {
					t.Fatalf("%s: feasible %v, brute force %v", name, ok, wantOK)
				}
				if !ok {
					continue
				}
				y := r.labels(sol.on)
				if !allowed(y) || math.Abs(score(y)-want.Score) > 1e-9 {
					t.Errorf("%s: %v scores %v (allowed %v), brute force %v scores %v", name, y, score(y), allowed(y), want.Labels, want.Score)
				}
			}
		}
	}
}

func TestTreeWithBannedArcs(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 45))
	for _, singleRoot := range []bool{false, true} {
		for n := 1; n <= 4; n++ {
			for rep := range 30 {
				m := n + 1
				r := &treeLP{n: n, score: randFloats(rng, m*m), singleRoot: singleRoot}
				banned := randBans(rng, r.parts(), 0.35)
				name := fmt.Sprintf("single-root=%v N=%d #%d", singleRoot, n, rep)
				keep := func(heads []int) bool {
					for d := 1; d < m; d++ {
						if banned[heads[d]*m+d] {
							return false
						}
					}
					return !singleRoot || mstbf.RootChildren(heads) == 1
				}
				score := func(heads []int) float64 {
					var s float64
					for d := 1; d < m; d++ {
						s += r.score[heads[d]*m+d]
					}
					return s
				}
				want, wantOK := mstbf.Best(n, score, keep)
				sol, _, ok, err := solve(r, banned, Options{})
				if err != nil {
					t.Fatalf("%s: %v", name, err)
				}
				if ok != wantOK {
					t.Fatalf("%s: feasible %v, brute force %v", name, ok, wantOK)
				}
				if !ok {
					continue
				}
				heads := make([]int, m)
				heads[0] = -1
				for a, on := range sol.on {
					if on {
						heads[a%m] = a / m
					}
				}
				if !keep(heads) || math.Abs(score(heads)-want.Score) > 1e-9 {
					t.Errorf("%s: %v scores %v (kept %v), brute force %v scores %v", name, heads, score(heads), keep(heads), want.Heads, want.Score)
				}
			}
		}
	}
}

// TestNodeLimit checks that a search the limit cuts short says so.
func TestNodeLimit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 45))
	for range 50 {
		m := 7
		r := &treeLP{n: m - 1, score: randFloats(rng, m*m)}
		_, st, _, err := solve(r, nil, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if st.LPs < 2 {
			continue
		}
		if _, _, _, err := solve(r, nil, Options{MaxNodes: 1}); !errors.Is(err, ErrNodeLimit) {
			t.Fatalf("a search of %d relaxations within a limit of 1: error %v", st.LPs, err)
		}
		return
	}
	t.Skip("no random graph needed branching")
}

func randFloats(rng *rand.Rand, n int) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = 2 * rng.NormFloat64()
	}
	return x
}

func randBans(rng *rand.Rand, n int, p float64) []bool {
	b := make([]bool, n)
	for i := range b {
		b[i] = rng.Float64() < p
	}
	return b
}
