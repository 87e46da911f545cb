package segment

import (
	"gonum.org/v1/gonum/floats"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// The segmentation model serves CRF and entropy-margin training (margin
// rescaling only: it does not implement trainers.SlackLogLinear).

// LogLoss returns Pletscher et al.'s margin-rescaled loss of instance i,
//
//	(1/β) log Σ_y exp(β(s_i(y) + lossScale·L_i(y))) − s_i(y_i),
//
// and, if grad is non-nil, adds its gradient E_p[f(x_i, y)] − f(x_i, y_i)
// into grad, where p(y) ∝ exp(β(s_i(y) + lossScale·L_i(y))). The sum is over
// the segmentations into segments of length ≤ MaxLen, as for every decoder
// of the model. Because the segment loss decomposes over predicted segments,
// p is itself a semi-Markov model, with segment scores β·(unary +
// lossScale·loss) and transition scores β·trans; one forward-backward pass
// gives log Z, the probability of every segment and the expected count of
// every label transition, and the expected features follow from those,
// aggregated per token so that each token's attributes are visited once, as
// in scoring. β must be positive.
//
// A truth with a segment longer than MaxLen is not in the sum, and with it
// in the first term the loss would be unbounded below: nothing stops w from
// raising s_i(y_i) alone, and training then drifts away from every
// decodable segmentation (on Cora, where 3-7 training segments per split are
// longer than L, the CRF's validation error rose from 9% to 28% as C grew).
// So s_i and f(x_i, ·) are taken at the reachable truth ŷ_i, the truth with
// long segments cut into pieces of at most MaxLen tokens, while L_i stays
// the task loss against the real truth. The loss is then at least
// lossScale·L_i(ŷ_i) ≥ 0, and it equals the formula above when the truth
// has no long segment.
func (m *Model) LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	x := m.data[i]
	target := m.reachableTruth(i)
	truth := m.score(x, w, target)
	sc := m.scores(x, w)
	if beta != 1 {
		sc = m.temper(sc, beta)
	}
	// The posteriors are the model's own, reused from call to call; a zero
	// loss term is left out rather than added as zeros (the sums are the
	// same bit for bit).
	post := &m.post
	if lossScale != 0 {
		semimarkov.LossAugmentedForwardBackwardTo(post, sc, x.Segments, m.loss, beta*lossScale, &m.ws)
	} else {
		semimarkov.ForwardBackwardTo(post, sc, &m.ws)
	}
	if grad != nil {
		m.addExpectedMinusTruth(x, target, post, grad)
	}
	return post.LogZ/beta - truth
}

// temper returns the score tables sc multiplied by β, in the model's own
// tables (sc.Trans aliases w, so it cannot be scaled in place).
func (m *Model) temper(sc *semimarkov.Scores, beta float64) *semimarkov.Scores {
	t := &m.tempered
	t.N, t.K, t.L = sc.N, sc.K, sc.L
	t.Unary = grow(&t.Unary, len(sc.Unary))
	for j, v := range sc.Unary {
		t.Unary[j] = beta * v
	}
	t.Trans = nil
	if len(sc.Trans) > 0 {
		t.Trans = grow(&m.temperedTrans, len(sc.Trans))
		for j, v := range sc.Trans {
			t.Trans[j] = beta * v
		}
	}
	return t
}

// addExpectedMinusTruth adds E[f] − f(x, target) into grad, with E[f] read off
// the posteriors. Every segment feature of the package doc belongs to one
// token and label (or to the boundary and length blocks), so E[f] needs only
// per-token aggregates of the segment probabilities, for each label c:
//
//	cover[p]   P(token p is inside a segment labelled c)   → inside of x_p
//	start[t]   P(a segment labelled c starts at t)          → first of x_t, before of x_{t−1}, BOS at t = 0
//	end[u]     P(a segment labelled c ends at u, exclusive) → last of x_{u−1}, after of x_u, EOS at u = n
//	length[b]  expected number of segments in length bin b
//
// and the transition block is Posteriors.Trans itself. The target enters the
// same aggregates with weight −1, so each
// token's attributes are visited once, as addSegment and addEdges would
// visit them for a single segmentation.
func (m *Model) addExpectedMinusTruth(x Instance, target []structpred.Segment, post *semimarkov.Posteriors, grad []float64) {
	n, k, l, a := len(x.Attrs), m.k, m.maxLen, m.attrs
	cover := grow(&m.aggCover, n*k)
	start := grow(&m.aggStart, (n+1)*k)
	end := grow(&m.aggEnd, (n+1)*k)
	length := grow(&m.aggLength, LengthBins*k)
	tail := grow(&m.aggTail, k)
	for _, buf := range [][]float64{cover, start, end, length} {
		clear(buf)
	}
	for t := range n {
		// tail accumulates, from the longest segment down, the probability
		// of a segment starting at t and covering token t+ln−1.
		clear(tail)
		for ln := min(l, n-t); ln >= 1; ln-- {
			row := post.Segment[(t*l+ln-1)*k:][:k]
			cov, e, lb := cover[(t+ln-1)*k:][:k], end[(t+ln)*k:][:k], length[(min(ln, LengthBins)-1)*k:][:k]
			for c, p := range row {
				tail[c] += p
				cov[c] += tail[c]
				e[c] += p
				lb[c] += p
			}
		}
		copy(start[t*k:][:k], tail)
	}
	for _, g := range target {
		c := g.Label
		start[g.Start*k+c]--
		end[g.End*k+c]--
		length[(min(g.Len(), LengthBins)-1)*k+c]--
		for p := g.Start; p < g.End; p++ {
			cover[p*k+c]--
		}
	}

	// Every token's attributes are visited once, each adding the token's
	// row of attrBlocks·K aggregates into the attribute's row of weights,
	// as scores reads them (SIMD adds round as scalar ones). The first and
	// last tokens lack the before and after blocks: adding a zero there
	// could turn a −0 into +0, so their blocks are added one by one.
	bk := attrBlocks * k
	row := grow(&m.aggRow, bk)
	for p, attrs := range x.Attrs {
		in, first, last := cover[p*k:][:k], start[p*k:][:k], end[(p+1)*k:][:k]
		before, after := start[(p+1)*k:][:k], end[p*k:][:k] // the next segment's start, the previous one's end
		blocks := [attrBlocks][]float64{blockInside: in, blockFirst: first, blockLast: last, blockBefore: before, blockAfter: after}
		if p+1 == n {
			blocks[blockBefore] = nil
		}
		if p == 0 {
			blocks[blockAfter] = nil
		}
		whole := blocks[blockBefore] != nil && blocks[blockAfter] != nil
		if whole {
			for b, src := range blocks {
				copy(row[b*k:], src)
			}
		}
		for _, id := range attrs {
			if id < 0 || int(id) >= a {
				continue // as in scores: ids outside the index carry no weight
			}
			dst := grad[m.weight(blockInside, id, 0):][:bk]
			if whole {
				floats.Add(dst, row)
				continue
			}
			for b, src := range blocks {
				if src != nil {
					floats.Add(dst[b*k:][:k], src)
				}
			}
		}
	}
	if n > 0 {
		bos, eos := grad[m.boundaryOff():][:k], grad[m.boundaryOff()+k:][:k]
		for c := range k {
			bos[c] += start[c]
			eos[c] += end[n*k+c]
		}
	}
	lw := grad[m.lengthOff():][:LengthBins*k]
	for j, v := range length {
		lw[j] += v
	}
	if !m.edges {
		return
	}
	trans := grad[m.edgeOff():][:(k+1)*k]
	for j, v := range post.Trans {
		trans[j] += v
	}
	prev := k
	for _, g := range target {
		trans[prev*k+g.Label]--
		prev = g.Label
	}
}
