package semimarkov_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
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

// scoreKind says how random scores are drawn.
type scoreKind int

const (
	floatScores scoreKind = iota // N(0, 2²): ties have probability zero
	intScores                    // integers in [-2, 2]: many exact ties, exact arithmetic
	noTrans                      // float unaries, nil Trans
	bigScores                    // float scores ×1000: exp(s(y)) far outside float64's range
)

func (k scoreKind) String() string { return [...]string{"float", "int", "notrans", "big"}[k] }

// exact reports whether sums of this kind's scores are computed exactly, so
// that tie-breaking can be compared with brute force segment for segment.
func (k scoreKind) exact() bool { return k == intScores }

var allKinds = []scoreKind{floatScores, intScores, noTrans}

func randScores(rng *rand.Rand, kind scoreKind, n, k, l int) *semimarkov.Scores {
	draw := func() float64 {
		switch kind {
		case intScores:
			return float64(rng.IntN(5) - 2)
		case bigScores:
			return 1000 * 2 * rng.NormFloat64()
		}
		return 2 * rng.NormFloat64()
	}
	s := &semimarkov.Scores{N: n, K: k, L: l, Unary: make([]float64, n*l*k)}
	for i := range s.Unary {
		s.Unary[i] = draw()
	}
	if kind != noTrans {
		s.Trans = make([]float64, (k+1)*k)
		for i := range s.Trans {
			s.Trans[i] = draw()
		}
	}
	return s
}

// randTruth draws a segmentation of n tokens with segments of length 1..maxLen.
func randTruth(rng *rand.Rand, n, k, maxLen int) []structpred.Segment {
	segs := []structpred.Segment{}
	for i := 0; i < n; {
		e := min(n, i+1+rng.IntN(maxLen))
		segs = append(segs, structpred.Segment{Start: i, End: e, Label: rng.IntN(k)})
		i = e
	}
	return segs
}

// namedLoss is a loss under test; integer losses keep sums exact.
type namedLoss struct {
	name    string
	loss    semimarkov.Loss
	integer bool
}

func randLosses(rng *rand.Rand, k int) []namedLoss {
	intL := semimarkov.Loss{K: k, Precision: make([]float64, k), Recall: make([]float64, k), Misclass: make([]float64, k*k)}
	realL := semimarkov.Loss{K: k, Precision: make([]float64, k), Recall: make([]float64, k), Misclass: make([]float64, k*k)}
	for a := range k {
		intL.Precision[a], intL.Recall[a] = float64(rng.IntN(3)), float64(rng.IntN(3))
		realL.Precision[a], realL.Recall[a] = 2*rng.Float64(), 2*rng.Float64()
		for b := range k {
			if a != b {
				intL.Misclass[a*k+b] = float64(rng.IntN(4))
				realL.Misclass[a*k+b] = 2 * rng.Float64()
			}
		}
	}
	return []namedLoss{
		{"default", semimarkov.DefaultLoss(k), true},
		{"int", intL, true},
		{"real", realL, false},
	}
}

// scales are exact binary fractions, so integer scores stay exact.
var scales = []float64{0, 0.5, 1, 3}

// instance is one random test problem with two truths: one that the model
// can represent (segments of length ≤ L) and one that may not be.
type instance struct {
	kind      scoreKind
	seed      uint64
	rng       *rand.Rand // seeded for anything else the test draws
	s         *semimarkov.Scores
	truth     []structpred.Segment // segments of length ≤ L
	longTruth []structpred.Segment // segments of length ≤ N
}

func (in instance) truths() map[string][]structpred.Segment {
	return map[string][]structpred.Segment{"truth": in.truth, "long": in.longTruth}
}

// seedsPerShape random problems are drawn for every (kind, N, K, L).
const seedsPerShape = 3

// forEachInstance runs f as parallel subtests over random problems of every
// kind in kinds, N in 0..6, K in 1..3 and L in 1..4.
func forEachInstance(t *testing.T, kinds []scoreKind, f func(t *testing.T, in instance)) {
	t.Helper()
	for _, kind := range kinds {
		for n := 0; n <= 6; n++ {
			for k := 1; k <= 3; k++ {
				for l := 1; l <= 4; l++ {
					t.Run(fmt.Sprintf("%v/N=%d/K=%d/L=%d", kind, n, k, l), func(t *testing.T) {
						t.Parallel()
						for seed := range uint64(seedsPerShape) {
							rng := rand.New(rand.NewPCG(seed, uint64(10000*int(kind)+100*n+10*k+l)))
							in := instance{kind: kind, seed: seed, rng: rng, s: randScores(rng, kind, n, k, l)}
							in.truth = randTruth(rng, n, k, l)
							in.longTruth = randTruth(rng, n, k, max(n, 1))
							f(t, in)
						}
					})
				}
			}
		}
	}
}

// partialScore scores segments that cover some range of tokens, the first
// following a segment labelled prev (K for START), straight from the
// definition of the model.
func partialScore(s *semimarkov.Scores, segs []structpred.Segment, prev int) float64 {
	var v float64
	for _, g := range segs {
		v += s.Unary[(g.Start*s.L+g.End-g.Start-1)*s.K+g.Label]
		if s.Trans != nil {
			v += s.Trans[prev*s.K+g.Label]
		}
		prev = g.Label
	}
	return v
}

// contains reports whether segs has the segment g.
func contains(segs []structpred.Segment, g structpred.Segment) bool {
	for _, h := range segs {
		if h == g {
			return true
		}
	}
	return false
}

// shift returns segs moved right by off tokens.
func shift(segs []structpred.Segment, off int) []structpred.Segment {
	out := make([]structpred.Segment, len(segs))
	for i, g := range segs {
		out[i] = structpred.Segment{Start: g.Start + off, End: g.End + off, Label: g.Label}
	}
	return out
}

// newRand returns a generator for tests outside forEachInstance.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 99)) }
