package segment

import (
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// The segmentation model serves k-best MIRA.

// KBest returns the k segmentations of instance i with the highest
// s_i(y) + scale·L_i(y), best first (fewer if there are fewer), by list
// Viterbi on the loss-augmented score tables. Like every decoder of the
// model it considers segments of length ≤ MaxLen only, so a truth with a
// longer segment is never among them. Each segmentation is a fresh slice.
func (m *Model) KBest(i int, w []float64, scale float64, k int) [][]structpred.Segment {
	x := m.data[i]
	var best []semimarkov.Result
	if scale == 0 { // MIRA's lists: no loss table to build and add
		best = semimarkov.KBest(m.scoresAt(i, w), k, &m.ws)
	} else {
		best = semimarkov.LossAugmentedKBest(m.scoresAt(i, w), x.Segments, m.loss, scale, k, &m.ws)
	}
	ys := make([][]structpred.Segment, len(best))
	for j, r := range best {
		ys[j] = r.Segments
	}
	return ys
}
