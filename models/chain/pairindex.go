package chain

// A model restricted to pairs scores a token by adding, for each of its
// attributes, the weights of that attribute's pairs into the token's row,
// and adds its gradient the same way: one short loop per attribute (Cora:
// 23 attributes and 155 pairs a token). pairIndex runs a token's loops in
// one call (in assembly on amd64), over a private copy of the table with
// the labels as bytes, which Restrict checked; the sums are the ones
// addPairScores and addPairs form, in the same order.
type pairIndex struct {
	k     int
	start []int32 // Pairs.Start, copied: the assembly trusts it
	label []uint8 // Pairs.Label as bytes (K ≤ 256)
}

// newPairIndex copies p, which Check has accepted for k ≤ 256 labels.
func newPairIndex(p *Pairs, k int) *pairIndex {
	ix := &pairIndex{k: k, start: append([]int32(nil), p.Start...), label: make([]uint8, len(p.Label))}
	for j, y := range p.Label {
		ix.label[j] = uint8(y)
	}
	return ix
}

// fits reports whether the token loops may run: K entries in row, a
// weight (or gradient) per pair in v, a value per attribute unless vals is
// nil.
func (ix *pairIndex) fits(row, v []float64, attrs []int32, vals []float64) bool {
	return len(row) >= ix.k && len(v) >= len(ix.label) && (vals == nil || len(vals) == len(attrs))
}

// scores sets row's first K entries to the emission scores of a token with
// attributes attrs (values vals, nil for all 1): from +0, vals[j]·w[q]
// added into row[y] for every pair q = (a_j, y), in order of j and of the
// pairs of a_j. Ids outside [0, A) carry no weight. It reports false, and
// does nothing, if w or vals do not fit.
func (ix *pairIndex) scores(row, w []float64, attrs []int32, vals []float64) bool {
	if !ix.fits(row, w, attrs, vals) {
		return false
	}
	clear(row[:ix.k])
	pairScores(row, w, attrs, vals, ix.start, ix.label)
	return true
}

// gradient adds vals[j]·d[y] (vals nil: d[y]) into grad[q] for every pair
// q = (a_j, y) of the token's attributes, in order of j. Ids outside [0,
// A) carry no weight. It reports false, and does nothing, if grad or vals
// do not fit.
func (ix *pairIndex) gradient(grad []float64, attrs []int32, vals, d []float64) bool {
	if !ix.fits(d, grad, attrs, vals) {
		return false
	}
	pairGradient(grad, attrs, vals, d, ix.start, ix.label)
	return true
}

// pairScoresGo is the loop of scores: row (and gradient's d) must have
// an entry for every label, start and label be a table Check accepted.
func pairScoresGo(row, w []float64, attrs []int32, vals []float64, start []int32, label []uint8) {
	numAttrs := uint32(len(start) - 1)
	for j, a := range attrs {
		if uint32(a) >= numAttrs {
			continue
		}
		lo, hi := start[a], start[a+1]
		ls, ws := label[lo:hi], w[lo:hi]
		ws = ws[:len(ls)]
		if vals == nil {
			for q, y := range ls {
				row[y] += ws[q]
			}
			continue
		}
		s := vals[j]
		for q, y := range ls {
			row[y] += s * ws[q]
		}
	}
}

// pairGradientGo is the loop of gradient, with pairScoresGo's contract.
func pairGradientGo(grad []float64, attrs []int32, vals, d []float64, start []int32, label []uint8) {
	numAttrs := uint32(len(start) - 1)
	for j, a := range attrs {
		if uint32(a) >= numAttrs {
			continue
		}
		lo, hi := start[a], start[a+1]
		ls, gs := label[lo:hi], grad[lo:hi]
		gs = gs[:len(ls)]
		if vals == nil {
			for q, y := range ls {
				gs[q] += d[y]
			}
			continue
		}
		s := vals[j]
		for q, y := range ls {
			gs[q] += s * d[y]
		}
	}
}
