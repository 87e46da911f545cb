package ilp_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/ilp"
	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// treeSizes are the sentence lengths of the random graphs, with how many
// of each.
var treeSizes = []struct{ n, reps int }{
	{0, 1}, {1, 3}, {2, 5}, {3, 10}, {4, 10}, {5, 8}, {6, 3}, {7, 1},
}

// treeDecoders pair each ILP configuration with the exact decoder that
// searches the same trees.
var treeDecoders = []struct {
	ilp   ilp.TreeDecoder
	exact mst.Decoder
}{
	{ilp.TreeDecoder{}, mst.Decoder{}},
	{ilp.TreeDecoder{SingleRoot: true}, mst.Decoder{SingleRoot: true}},
}

func forEachGraph(t *testing.T, f func(t *testing.T, dec ilp.TreeDecoder, exact mst.Decoder, g *mst.Graph, rng *rand.Rand)) {
	for _, dd := range treeDecoders {
		for _, kind := range []scoreKind{floatScores, intScores} {
			t.Run(fmt.Sprintf("%v/%v", dd.exact, kind), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(kind), 45))
				for _, sz := range treeSizes {
					for range sz.reps {
						f(t, dd.ilp, dd.exact, randGraph(rng, kind, sz.n), rng)
					}
				}
			})
		}
	}
}

// checkTree reports why heads is not a tree that dec searches.
func checkTree(dec ilp.TreeDecoder, heads []int) error {
	if err := mst.CheckTree(heads); err != nil {
		return err
	}
	if dec.SingleRoot && len(heads) > 1 && bruteforce.RootChildren(heads) != 1 {
		return fmt.Errorf("%v has %d root children", heads, bruteforce.RootChildren(heads))
	}
	return nil
}

func TestTreeMatchesChuLiuEdmonds(t *testing.T) {
	forEachGraph(t, func(t *testing.T, dec ilp.TreeDecoder, exact mst.Decoder, g *mst.Graph, _ *rand.Rand) {
		got, _, err := dec.Decode(g)
		if err != nil {
			t.Fatalf("N=%d: %v", g.N, err)
		}
		if err := checkTree(dec, got.Heads); err != nil {
			t.Fatalf("N=%d: %v", g.N, err)
		}
		if s := g.TreeScore(got.Heads); s != got.Score {
			t.Errorf("N=%d: Score %v, TreeScore of its heads %v", g.N, got.Score, s)
		}
		want := exact.Decode(g, nil)
		if !approx(got.Score, want.Score) {
			t.Errorf("N=%d: ilp %v scores %v, %v %v scores %v", g.N, got.Heads, got.Score, exact, want.Heads, want.Score)
		}
	})
}

func TestTreeLossAugmentedMatchesChuLiuEdmonds(t *testing.T) {
	forEachGraph(t, func(t *testing.T, dec ilp.TreeDecoder, exact mst.Decoder, g *mst.Graph, rng *rand.Rand) {
		truth := randTree(rng, g.N)
		for _, scale := range []float64{0, 1, 2.5} {
			got, loss, _, err := dec.LossAugmented(g, truth, scale)
			if err != nil {
				t.Fatalf("N=%d scale=%v: %v", g.N, scale, err)
			}
			if err := checkTree(dec, got.Heads); err != nil {
				t.Fatalf("N=%d scale=%v: %v", g.N, scale, err)
			}
			if l := mst.Loss(truth, got.Heads); l != loss {
				t.Errorf("N=%d scale=%v: loss %d, Loss of its heads %d", g.N, scale, loss, l)
			}
			want, _ := exact.LossAugmented(g, truth, scale, nil)
			if !approx(got.Score, want.Score) {
				t.Errorf("N=%d scale=%v: ilp %v scores %v, %v %v scores %v", g.N, scale, got.Heads, got.Score, exact, want.Heads, want.Score)
			}
		}
	})
}

// TestTreeBruteForce checks short sentences against enumeration of every
// tree.
func TestTreeBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 45))
	for _, dd := range treeDecoders {
		keep := func(heads []int) bool {
			return !dd.ilp.SingleRoot || len(heads) == 1 || bruteforce.RootChildren(heads) == 1
		}
		for _, kind := range []scoreKind{floatScores, intScores} {
			for n := 1; n <= 5; n++ {
				for range 3 {
					g := randGraph(rng, kind, n)
					truth := randTree(rng, n)
					got, _, _, err := dd.ilp.LossAugmented(g, truth, 1)
					if err != nil {
						t.Fatal(err)
					}
					f := func(heads []int) float64 { return g.TreeScore(heads) + float64(mst.Loss(truth, heads)) }
					want, _ := bruteforce.Best(n, f, keep)
					if !approx(got.Score, want.Score) {
						t.Errorf("%v %v N=%d: ilp %v scores %v, brute force %v scores %v", dd.exact, kind, n, got.Heads, got.Score, want.Heads, want.Score)
					}
				}
			}
		}
	}
}
