package mst_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// KBest against enumeration of every tree: the k best scores in order,
// distinct trees, each scored truly, for all four decoders, with ties
// (integer scores) and without.
func TestKBestBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, dec := range decoders {
		for _, kind := range []scoreKind{floatScores, intScores} {
			for n := 0; n <= 5; n++ {
				for trial := range 8 {
					g := randGraph(rng, kind, n)
					var all []float64
					for heads := range bruteforce.Trees(n) {
						if dec.Projective && !bruteforce.Projective(heads) || dec.SingleRoot && n > 0 && bruteforce.RootChildren(heads) != 1 {
							continue
						}
						all = append(all, g.TreeScore(heads))
					}
					slices.SortFunc(all, func(a, b float64) int { return -cmpFloat(a, b) })
					for _, k := range []int{1, 3, 7, len(all) + 2} {
						name := fmt.Sprintf("%v/%v/n=%d/trial %d/k=%d", dec, kind, n, trial, k)
						got := dec.KBest(g, k, nil)
						want := all[:min(k, len(all))]
						if len(got) != len(want) {
							t.Fatalf("%s: %d trees, want %d", name, len(got), len(want))
						}
						seen := map[string]bool{}
						for i, tr := range got {
							if err := mst.CheckTree(tr.Heads); err != nil {
								t.Fatalf("%s: tree %d: %v", name, i, err)
							}
							if !approx(tr.Score, want[i]) || !approx(tr.Score, g.TreeScore(tr.Heads)) {
								t.Fatalf("%s: tree %d scores %v (true %v), want %v", name, i, tr.Score, g.TreeScore(tr.Heads), want[i])
							}
							key := fmt.Sprint(tr.Heads)
							if seen[key] {
								t.Fatalf("%s: tree %v listed twice", name, tr.Heads)
							}
							seen[key] = true
						}
					}
				}
			}
		}
	}
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
