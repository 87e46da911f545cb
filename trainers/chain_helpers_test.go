package trainers_test

import (
	"math/rand/v2"
	"slices"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
)

// chainShape describes a random linear-chain problem: n sequences of length
// tokens over k labels, each token carrying perTok of attrs attribute ids.
type chainShape struct {
	n, tokens, k, attrs, perTok int
	noise                       float64 // probability that a label is redrawn at random
	edges                       bool
}

// randomChain draws a learnable but noisy chain problem: labels follow a
// hidden linear model of the attributes plus a sticky transition, then a
// fraction noise of them is redrawn, so that the problem is not separable
// (slacks are positive and every formulation has something to trade off).
func randomChain(seed uint64, s chainShape) (*chain.Model, []chain.Instance) {
	rng := rand.New(rand.NewPCG(seed, 2009))
	hidden := make([]float64, s.attrs*s.k)
	for j := range hidden {
		hidden[j] = rng.NormFloat64()
	}
	data := make([]chain.Instance, s.n)
	for i := range data {
		x := chain.Instance{Attrs: make([][]int32, s.tokens), Labels: make([]int, s.tokens)}
		for t := range s.tokens {
			seen := map[int32]bool{}
			for len(seen) < s.perTok {
				seen[int32(rng.IntN(s.attrs))] = true
			}
			for a := range seen {
				x.Attrs[t] = append(x.Attrs[t], a)
			}
			slices.Sort(x.Attrs[t])
			score := make([]float64, s.k)
			for _, a := range x.Attrs[t] {
				for y := range s.k {
					score[y] += hidden[int(a)*s.k+y]
				}
			}
			if t > 0 {
				score[x.Labels[t-1]] += 0.5 // labels tend to repeat
			}
			x.Labels[t] = argmax(score)
			if rng.Float64() < s.noise {
				x.Labels[t] = rng.IntN(s.k)
			}
		}
		data[i] = x
	}
	m, err := chain.New(data, s.attrs, s.k, s.edges, decoders.Cost{})
	if err != nil {
		panic(err) // the shapes above are valid by construction
	}
	return m, data
}

func argmax(xs []float64) int {
	best := 0
	for j, x := range xs {
		if x > xs[best] {
			best = j
		}
	}
	return best
}
