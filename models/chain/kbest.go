package chain

import (
	"github.com/maxmargin/repro/decoders"
)

// The chain model serves k-best MIRA (trainers.KBestDecoder; asserted in
// capabilities_test.go).

// KBest returns the k labelings of instance i with the highest
// s_i(y) + scale·L_i(y), best first (fewer if the chain has fewer), by list
// Viterbi on the loss-augmented score tables. Each labeling is a fresh slice.
func (m *Model) KBest(i int, w []float64, scale float64, k int) [][]int {
	x := m.data[i]
	var best []decoders.Scored
	if scale == 0 { // MIRA's lists: no cost table to build and add
		best = decoders.KBest(m.scores(x, w), k, &m.ws)
	} else {
		best = decoders.LossAugmentedKBest(m.scores(x, w), x.Labels, m.cost, scale, k, &m.ws)
	}
	ys := make([][]int, len(best))
	for j, s := range best {
		ys[j] = s.Labels
	}
	return ys
}
