package mst_test

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// tol is the absolute-or-relative tolerance of every float comparison.
const tol = 1e-9

func approx(a, b float64) bool {
	d := math.Abs(a - b)
	return a == b || d <= tol || d <= tol*max(math.Abs(a), math.Abs(b))
}

// scoreKind says how random arc scores are drawn.
type scoreKind int

const (
	floatScores scoreKind = iota // N(0, 2²): ties have probability zero
	intScores                    // integers in [-2, 2]: many exact ties, exact sums
)

func (k scoreKind) String() string { return [...]string{"float", "int"}[k] }

func randGraph(rng *rand.Rand, kind scoreKind, n int) *mst.Graph {
	g := mst.NewGraph(n)
	for i := range g.Score {
		if kind == intScores {
			g.Score[i] = float64(rng.IntN(5) - 2)
		} else {
			g.Score[i] = 2 * rng.NormFloat64()
		}
	}
	return g
}

// randTree returns a uniformly random head vector that is a tree: words
// attach in random order, each to the root or a word attached before it.
func randTree(rng *rand.Rand, n int) []int {
	heads := make([]int, n+1)
	heads[0] = -1
	placed := []int{0}
	for _, d := range rng.Perm(n) {
		heads[d+1] = placed[rng.IntN(len(placed))]
		placed = append(placed, d+1)
	}
	return heads
}

// decoders are the four configurations under test.
var decoders = []mst.Decoder{
	{},
	{SingleRoot: true},
	{Projective: true},
	{Projective: true, SingleRoot: true},
}

// keeps returns the brute-force filter of the trees dec searches (the
// empty sentence has no root child even under SingleRoot).
func keeps(dec mst.Decoder) func([]int) bool {
	return func(heads []int) bool {
		if dec.Projective && !bruteforce.Projective(heads) {
			return false
		}
		return !dec.SingleRoot || len(heads) == 1 || bruteforce.RootChildren(heads) == 1
	}
}

// and combines brute-force filters.
func and(a, b func([]int) bool) func([]int) bool {
	return func(h []int) bool { return a(h) && b(h) }
}

// checkSearched reports why heads is not a tree that dec searches, or nil.
func checkSearched(dec mst.Decoder, heads []int) error {
	if err := mst.CheckTree(heads); err != nil {
		return err
	}
	if heads[0] != -1 {
		return fmt.Errorf("heads[0] = %d, want -1", heads[0])
	}
	if !keeps(dec)(heads) {
		return fmt.Errorf("%v is not a tree %v searches", heads, dec)
	}
	return nil
}

// sizes are the sentence lengths of the brute-force tests with the number
// of random instances each; n = 7 has 262,144 trees to enumerate.
var sizes = []struct{ n, reps int }{{0, 1}, {1, 3}, {2, 10}, {3, 20}, {4, 20}, {5, 15}, {6, 6}, {7, 1}}
