package mst_test

import (
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
)

// benchN is the target sentence length: decoding 40 words must take
// under 0.5 ms.
const benchN = 40

// benchGraphs runs f for every decoder on a random 40-word graph. Random
// scores make every word's best head arbitrary, so Chu-Liu/Edmonds meets
// many cycles: harder than a trained parser's scores.
func benchGraphs(b *testing.B, f func(b *testing.B, dec mst.Decoder, g *mst.Graph, truth []int, ws *mst.Workspace)) {
	for _, dec := range decoders {
		b.Run(dec.String(), func(b *testing.B) {
			rng := rand.New(rand.NewPCG(1, 2))
			g := randGraph(rng, floatScores, benchN)
			truth := randTree(rng, benchN)
			ws := new(mst.Workspace)
			b.ReportAllocs()
			f(b, dec, g, truth, ws)
		})
	}
}

func BenchmarkDecode(b *testing.B) {
	benchGraphs(b, func(b *testing.B, dec mst.Decoder, g *mst.Graph, _ []int, ws *mst.Workspace) {
		for b.Loop() {
			dec.Decode(g, ws)
		}
	})
}

func BenchmarkLossAugmented(b *testing.B) {
	benchGraphs(b, func(b *testing.B, dec mst.Decoder, g *mst.Graph, truth []int, ws *mst.Workspace) {
		for b.Loop() {
			dec.LossAugmented(g, truth, 1, ws)
		}
	})
}

// BenchmarkPositionViolators has the truth equal to the MAP tree, the worst
// case: N+1 decodes.
func BenchmarkPositionViolators(b *testing.B) {
	benchGraphs(b, func(b *testing.B, dec mst.Decoder, g *mst.Graph, _ []int, ws *mst.Workspace) {
		truth := dec.Decode(g, ws).Heads
		var dst []mst.Violator
		for b.Loop() {
			dst = dec.PositionViolators(g, truth, ws, dst[:0])
		}
	})
}
