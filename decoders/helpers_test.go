package decoders_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

// tol is the absolute-or-relative tolerance of every float comparison.
const tol = 1e-9

// approx reports whether a and b agree within tol, absolutely or relative to
// the larger magnitude; equal infinities agree.
func approx(a, b float64) bool {
	if a == b {
		return true
	}
	d := math.Abs(a - b)
	return d <= tol || d <= tol*max(math.Abs(a), math.Abs(b))
}

// chainKind says how random scores are drawn.
type chainKind int

const (
	floatScores chainKind = iota // N(0, 2²): ties have probability zero
	intScores                    // integers in [-2, 2]: many exact ties, exact arithmetic
	noTrans                      // float unaries, nil Trans
	bigScores                    // uniform in [-500, 500]: exp overflows without care
)

func (k chainKind) String() string {
	return [...]string{"float", "int", "notrans", "big"}[k]
}

// exact reports whether sums of this kind's scores are computed exactly, so
// that tie-breaking can be compared with brute force label for label.
func (k chainKind) exact() bool { return k == intScores }

func randChain(rng *rand.Rand, kind chainKind, n, k int) *decoders.Chain {
	draw := func() float64 {
		switch kind {
		case intScores:
			return float64(rng.IntN(5) - 2)
		case bigScores:
			return 1000*rng.Float64() - 500
		default:
			return 2 * rng.NormFloat64()
		}
	}
	c := &decoders.Chain{N: n, K: k, Unary: make([]float64, n*k)}
	for i := range c.Unary {
		c.Unary[i] = draw()
	}
	if kind != noTrans {
		c.Trans = make([]float64, k*k)
		for i := range c.Trans {
			c.Trans[i] = draw()
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

// namedCost is a cost matrix under test; integer costs keep sums exact.
type namedCost struct {
	name    string
	cost    decoders.Cost
	integer bool
}

func randCosts(rng *rand.Rand, k int) []namedCost {
	intM := make([]float64, k*k)
	realM := make([]float64, k*k)
	for a := range k {
		for b := range k {
			if a != b {
				intM[a*k+b] = float64(rng.IntN(4))
				realM[a*k+b] = 2 * rng.Float64()
			}
		}
	}
	return []namedCost{
		{"hamming", decoders.Hamming(k), true},
		{"int", decoders.Cost{K: k, M: intM}, true},
		{"real", decoders.Cost{K: k, M: realM}, false},
	}
}

var scales = []float64{0, 0.5, 1, 3}

// instance is one random test chain.
type instance struct {
	kind chainKind
	seed uint64
	rng  *rand.Rand // seeded for anything else the test draws
	c    *decoders.Chain
}

// seedsPerShape random chains are drawn for every (kind, N, K).
const seedsPerShape = 6

// forEachChain runs f as parallel subtests over random chains of every kind
// in kinds, every N in 0..6 and K in 1..4, seedsPerShape seeds each.
func forEachChain(t *testing.T, kinds []chainKind, f func(t *testing.T, in instance)) {
	t.Helper()
	for _, kind := range kinds {
		for n := 0; n <= 6; n++ {
			for k := 1; k <= 4; k++ {
				t.Run(fmt.Sprintf("%v/N=%d/K=%d", kind, n, k), func(t *testing.T) {
					t.Parallel()
					for seed := range uint64(seedsPerShape) {
						rng := rand.New(rand.NewPCG(seed, uint64(1000*int(kind)+10*n+k)))
						in := instance{kind: kind, seed: seed, rng: rng, c: randChain(rng, kind, n, k)}
						f(t, in)
					}
				})
			}
		}
	}
}

var allKinds = []chainKind{floatScores, intScores, noTrans}

// pow returns k^n.
func pow(k, n int) int {
	p := 1
	for range n {
		p *= k
	}
	return p
}

// randInstance draws one chain outside forEachChain.
func randInstance(kind chainKind, n, k int, seed uint64) instance {
	rng := rand.New(rand.NewPCG(seed, 99))
	return instance{kind: kind, seed: seed, rng: rng, c: randChain(rng, kind, n, k)}
}
