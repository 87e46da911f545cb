package decoders_test

import (
	"fmt"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

// benchShapes are citation-sized chains: Cora has 13 fields and citations of
// about 30 tokens; 100 is a long outlier.
var benchShapes = []struct{ n, k int }{{30, 13}, {100, 13}}

func benchChains(b *testing.B, f func(b *testing.B, c *decoders.Chain, truth []int, ws *decoders.Workspace)) {
	for _, sh := range benchShapes {
		b.Run(fmt.Sprintf("N=%d/K=%d", sh.n, sh.k), func(b *testing.B) {
			in := randInstance(floatScores, sh.n, sh.k, 1)
			truth := randLabels(in.rng, sh.n, sh.k)
			ws := new(decoders.Workspace)
			b.ReportAllocs()
			f(b, in.c, truth, ws)
		})
	}
}

func BenchmarkViterbi(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, _ []int, ws *decoders.Workspace) {
		for b.Loop() {
			decoders.Viterbi(c, ws)
		}
	})
}

func BenchmarkLossAugmented(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, truth []int, ws *decoders.Workspace) {
		h := decoders.Hamming(c.K)
		for b.Loop() {
			decoders.LossAugmented(c, truth, h, 1, ws)
		}
	})
}

func BenchmarkKBest2(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, _ []int, ws *decoders.Workspace) {
		for b.Loop() {
			decoders.KBest(c, 2, ws)
		}
	})
}

func BenchmarkLossCount(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, truth []int, ws *decoders.Workspace) {
		h := decoders.Hamming(c.K)
		for b.Loop() {
			if _, err := decoders.LossCount(c, truth, h, ws); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func BenchmarkComputeMaxMarginals(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, _ []int, ws *decoders.Workspace) {
		for b.Loop() {
			decoders.ComputeMaxMarginals(c, ws)
		}
	})
}

func BenchmarkForwardBackward(b *testing.B) {
	benchChains(b, func(b *testing.B, c *decoders.Chain, _ []int, ws *decoders.Workspace) {
		for b.Loop() {
			decoders.ForwardBackward(c, ws)
		}
	})
}
