package ilp_test

import (
	"math"
	"math/rand/v2"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/mst"
)

// tol is the absolute-or-relative tolerance of every float comparison: the
// simplex's vertices are exact only up to round-off, but the reported
// scores are recomputed from the labelings, so they agree far closer.
const tol = 1e-9

func approx(a, b float64) bool {
	d := math.Abs(a - b)
	return a == b || d <= tol || d <= tol*max(math.Abs(a), math.Abs(b))
}

// scoreKind says how random scores are drawn.
type scoreKind int

const (
	floatScores scoreKind = iota // N(0, 2²): ties have probability zero
	intScores                    // integers in [-2, 2]: many exact ties
)

func (k scoreKind) String() string { return [...]string{"float", "int"}[k] }

func (k scoreKind) draw(rng *rand.Rand) float64 {
	if k == intScores {
		return float64(rng.IntN(5) - 2)
	}
	return 2 * rng.NormFloat64()
}

func randChain(rng *rand.Rand, kind scoreKind, n, k int, trans bool) *decoders.Chain {
	c := &decoders.Chain{N: n, K: k, Unary: make([]float64, n*k)}
	for i := range c.Unary {
		c.Unary[i] = kind.draw(rng)
	}
	if trans {
		c.Trans = make([]float64, k*k)
		for i := range c.Trans {
			c.Trans[i] = kind.draw(rng)
		}
	}
	return c
}

func randLabels(rng *rand.Rand, n, k int) []int {
	y := make([]int, n)
	for t := range y {
		y[t] = rng.IntN(k)
	}
	return y
}

func randGraph(rng *rand.Rand, kind scoreKind, n int) *mst.Graph {
	g := mst.NewGraph(n)
	for i := range g.Score {
		g.Score[i] = kind.draw(rng)
	}
	return g
}

// randTree returns a random head vector that is a tree.
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
