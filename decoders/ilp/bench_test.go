package ilp_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/ilp"
	"github.com/maxmargin/repro/decoders/mst"
)

// The benchmarks time the ILP decoders against the exact ones on the same
// random instances (float scores, seed fixed), one loss-augmented decode
// per iteration (Hamming loss, scale 1: what a margin-scaling oracle
// asks). Run them with
//
//	go test -run XXX -bench . -benchtime 20x ./decoders/ilp/
//
// and see where the ILP's time goes with -cpuprofile.

var benchChains = []struct{ n, k int }{{8, 4}, {20, 5}, {10, 13}}

func BenchmarkChain(b *testing.B) {
	for _, sz := range benchChains {
		rng := rand.New(rand.NewPCG(uint64(sz.n), uint64(sz.k)))
		cs := make([]*decoders.Chain, 8)
		truths := make([][]int, len(cs))
		for i := range cs {
			cs[i] = randChain(rng, floatScores, sz.n, sz.k, true)
			truths[i] = randLabels(rng, sz.n, sz.k)
		}
		cost := decoders.Hamming(sz.k)
		b.Run(fmt.Sprintf("viterbi/N=%d/K=%d", sz.n, sz.k), func(b *testing.B) {
			var ws decoders.Workspace
			for i := 0; b.Loop(); i++ {
				decoders.LossAugmented(cs[i%len(cs)], truths[i%len(cs)], cost, 1, &ws)
			}
		})
		b.Run(fmt.Sprintf("ilp/N=%d/K=%d", sz.n, sz.k), func(b *testing.B) {
			for i := 0; b.Loop(); i++ {
				if _, _, err := ilp.LossAugmentedChain(cs[i%len(cs)], truths[i%len(cs)], cost, 1, ilp.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

var benchTrees = []int{4, 6, 8}

func BenchmarkTree(b *testing.B) {
	for _, n := range benchTrees {
		rng := rand.New(rand.NewPCG(uint64(n), 45))
		gs := make([]*mst.Graph, 8)
		truths := make([][]int, len(gs))
		for i := range gs {
			gs[i] = randGraph(rng, floatScores, n)
			truths[i] = randTree(rng, n)
		}
		b.Run(fmt.Sprintf("chu-liu-edmonds/N=%d", n), func(b *testing.B) {
			var ws mst.Workspace
			for i := 0; b.Loop(); i++ {
				mst.Decoder{}.LossAugmented(gs[i%len(gs)], truths[i%len(gs)], 1, &ws)
			}
		})
		b.Run(fmt.Sprintf("ilp/N=%d", n), func(b *testing.B) {
			lps := 0
			for i := 0; b.Loop(); i++ {
				_, _, st, err := ilp.TreeDecoder{}.LossAugmented(gs[i%len(gs)], truths[i%len(gs)], 1)
				if err != nil {
					b.Fatal(err)
				}
				lps += st.LPs
			}
			b.ReportMetric(float64(lps)/float64(b.N), "LPs/op")
		})
	}
}
