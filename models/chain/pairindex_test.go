package chain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

// randomPairs draws a table of numAttrs attributes over k labels, each
// attribute with a random subset of the labels (often none or all).
func randomPairs(rng *rand.Rand, numAttrs, k int) *Pairs {
	p := &Pairs{Start: make([]int32, numAttrs+1)}
	for a := range numAttrs {
		keep := []float64{0, 0.2, 0.7, 1}[rng.IntN(4)]
		for y := range k {
			if rng.Float64() < keep {
				p.Label = append(p.Label, int32(y))
			}
		}
		p.Start[a+1] = int32(len(p.Label))
	}
	return p
}

// TestPairKernelsMatchGo checks pairScores and pairGradient against
// pairScoresGo and pairGradientGo bit for bit: K from 1 to 20, repeated
// ids, ids past the table and negative ones (no weight), with and without
// values.
func TestPairKernelsMatchGo(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 4))
	const numAttrs = 30
	for k := 1; k <= 20; k++ {
		for trial := range 10 {
			name := fmt.Sprintf("K=%d/trial=%d", k, trial)
			p := randomPairs(rng, numAttrs, k)
			if err := p.Check(numAttrs, k); err != nil {
				t.Fatal(err)
			}
			ix := newPairIndex(p, k)
			attrs := make([]int32, rng.IntN(40))
			for j := range attrs {
				attrs[j] = int32(rng.IntN(numAttrs+4)) - 2 // −2 … A+1
			}
			var vals []float64
			if trial%2 == 1 {
				vals = make([]float64, len(attrs))
				for j := range vals {
					vals[j] = []float64{1, 0, -0.5, rng.NormFloat64()}[rng.IntN(4)]
				}
			}
			w, d := make([]float64, p.Len()), make([]float64, k)
			for j := range w {
				w[j] = rng.NormFloat64() * math.Exp(5*rng.NormFloat64())
			}
			for y := range d {
				d[y] = rng.NormFloat64()
			}
			got, want := make([]float64, k), make([]float64, k)
			pairScores(got, w, attrs, vals, ix.start, ix.label)
			pairScoresGo(want, w, attrs, vals, ix.start, ix.label)
			if j, ok := bitsEqual(got, want); !ok {
				t.Fatalf("%s: pairScores[%d] = %v, want %v", name, j, got[j], want[j])
			}
			g, g2 := slices.Clone(w), slices.Clone(w)
			pairGradient(g, attrs, vals, d, ix.start, ix.label)
			pairGradientGo(g2, attrs, vals, d, ix.start, ix.label)
			if j, ok := bitsEqual(g, g2); !ok {
				t.Fatalf("%s: pairGradient[%d] = %v, want %v", name, j, g[j], g2[j])
			}
		}
	}
}

// TestPairIndexMatchesPairLoops trains nothing but compares, on Cora-like
// random chains restricted to their seen pairs, the loss, gradient and
// scores of the token loops (pairIndex) with the per-attribute loops they
// replace (addPairScores, addPairs, taken when the index is off): equal
// bit for bit, with binary and real attribute values.
func TestPairIndexMatchesPairLoops(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 5))
	const numAttrs, k = 300, 13
	for trial := range 6 {
		data := make([]Instance, 4)
		for i := range data {
			n := 1 + rng.IntN(25)
			x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
			if trial%2 == 1 {
				x.Values = make([][]float64, n)
			}
			for tok := range n {
				for range 1 + rng.IntN(20) {
					// a few frequent attributes, many rare ones
					a := int32(rng.IntN(10))
					if rng.IntN(2) == 0 {
						a = int32(rng.IntN(numAttrs))
					}
					x.Attrs[tok] = append(x.Attrs[tok], a)
				}
				if x.Values != nil {
					for range x.Attrs[tok] {
						x.Values[tok] = append(x.Values[tok], rng.NormFloat64())
					}
				}
				x.Labels[tok] = rng.IntN(k)
			}
			data[i] = x
		}
		m, err := New(data, numAttrs, k, true, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Restrict(SeenPairs(data, numAttrs, k)); err != nil {
			t.Fatal(err)
		}
		if m.pairIdx == nil {
			t.Fatal("no pair index for 13 labels")
		}
		loops := *m
		loops.scratch, loops.pairIdx = scratch{}, nil
		w := make([]float64, m.Dim())
		for j := range w {
			w[j] = 0.5 * rng.NormFloat64()
		}
		for i := range data {
			g1, g2 := make([]float64, m.Dim()), make([]float64, m.Dim())
			l1, l2 := m.LogLoss(i, w, 1, 0, g1), loops.LogLoss(i, w, 1, 0, g2)
			if math.Float64bits(l1) != math.Float64bits(l2) {
				t.Fatalf("trial %d instance %d: loss %v, per-attribute loops %v", trial, i, l1, l2)
			}
			if j, ok := bitsEqual(g1, g2); !ok {
				t.Fatalf("trial %d instance %d: gradient[%d] %v, per-attribute loops %v", trial, i, j, g1[j], g2[j])
			}
			u1 := slices.Clone(m.scores(data[i], w).Unary)
			u2 := loops.scores(data[i], w).Unary
			if j, ok := bitsEqual(u1, u2); !ok {
				t.Fatalf("trial %d instance %d: score[%d] %v, per-attribute loops %v", trial, i, j, u1[j], u2[j])
			}
		}
	}
}
