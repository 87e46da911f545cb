package chain

import (
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/trainers"
)

// The chain model serves k-best MIRA.
var _ trainers.KBestDecoder[[]int] = (*Model)(nil)

// KBest returns the k labelings of instance i with the highest
// s_i(y) + scale·L_i(y), best first (fewer if the chain has fewer), by list
// Viterbi on the loss-augmented score tables. Each labeling is a fresh slice.
func (m *Model) KBest(i int, w []float64, scale float64, k int) [][]int {
	x := m.data[i]
	best := decoders.LossAugmentedKBest(m.scores(x, w), x.Labels, m.cost, scale, k, &m.ws)
	ys := make([][]int, len(best))
	for j, s := range best {
		ys[j] = s.Labels
	}
	return ys
}
