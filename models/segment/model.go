package segment

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// LengthBins is the number of segment-length features per label: a segment
// of length len fires bin min(len, LengthBins), so all segments of
// LengthBins tokens or more share the last bin.
const LengthBins = 10

// The attribute blocks of A·K weights each, in weight order; attrBlocks
// counts them.
const (
	blockInside = iota
	blockFirst
	blockLast
	blockBefore
	blockAfter
	attrBlocks
)

// Instance is an encoded sequence: the sorted attribute ids of each token and
// the true segmentation.
type Instance struct {
	Attrs    [][]int32
	Segments []structpred.Segment
}

// Model is a semi-Markov segmentation model over a fixed set of training
// instances. It owns scratch buffers and is not safe for concurrent use;
// Fork gives another goroutine a model of its own over the same instances.
type Model struct {
	// Set by New and read-only after: shared by every fork.
	data   []Instance
	attrs  int // A: number of attribute ids
	k      int // K: number of labels
	maxLen int // L: longest segment the decoders consider
	edges  bool
	loss   semimarkov.Loss
	long   int // training segments longer than maxLen
	// reachable[i] is instance i's truth with every segment longer than
	// maxLen cut into pieces of at most maxLen (nil: no long segment), the
	// nearest segmentation the model's distributions give mass to.
	reachable [][]structpred.Segment
	lmax      []float64 // per instance: the largest loss of a segmentation
	minPos    float64   // smallest positive penalty

	scratch
}

// scratch is what a Model writes while it decodes: every fork has its own.
type scratch struct {
	sc    semimarkov.Scores
	tok   []float64 // per-token block sums, tok[(p*attrBlocks+block)*K+c]
	run   []float64 // running inside sums, K entries
	ws    semimarkov.Workspace
	delta structpred.CountAccumulator
	viol  []semimarkov.SpanViolator

	truthTok, predTok []int // per-token labels, for DeltaFeatures

	// pinned is 1 + the training instance whose tables sc holds at the w
	// given to PinScores, 0 when none is pinned (see PinScores).
	pinned int

	// LogLoss: β-tempered score tables, the posteriors, and the per-token
	// aggregates of the segment probabilities that the expected features
	// are read from
	tempered                              semimarkov.Scores
	temperedTrans                         []float64
	post                                  semimarkov.Posteriors
	aggCover, aggStart, aggEnd, aggLength []float64
	aggTail                               []float64
	aggRow                                []float64 // one token's aggregates, attrBlocks·K
}

// New returns a model over data with numAttrs attribute ids, k labels and
// segments of length 1..maxLen in decoding. A zero loss (K = 0) means
// semimarkov.DefaultLoss(k). True segments longer than maxLen are allowed
// (see the package doc). It returns an error if a truth is not a
// segmentation of its instance's tokens with labels in [0, k), an attribute
// id is outside [0, numAttrs), or the loss is malformed or for other K.
func New(data []Instance, numAttrs, k, maxLen int, edges bool, loss semimarkov.Loss) (*Model, error) {
	switch {
	case k < 1:
		return nil, fmt.Errorf("need at least one label, got %d", k)
	case maxLen < 1:
		return nil, fmt.Errorf("maximum segment length must be at least 1, got %d", maxLen)
	case numAttrs < 0:
		return nil, fmt.Errorf("negative number of attributes %d", numAttrs)
	}
	if d := Dim(numAttrs, k, edges); d > math.MaxInt32 {
		return nil, fmt.Errorf("%d attributes and %d labels make %d weights, beyond the int32 indices of sparse vectors", numAttrs, k, d)
	}
	if loss.K == 0 && loss.Precision == nil && loss.Recall == nil && loss.Misclass == nil {
		loss = semimarkov.DefaultLoss(k)
	}
	if loss.K != k {
		return nil, fmt.Errorf("loss is for %d labels, model has %d", loss.K, k)
	}
	if err := loss.Validate(); err != nil {
		return nil, err
	}
	m := &Model{
		data: data, attrs: numAttrs, k: k, maxLen: maxLen, edges: edges, loss: loss,
		lmax: make([]float64, len(data)), minPos: math.Inf(1), reachable: make([][]structpred.Segment, len(data)),
	}
	for i, x := range data {
		if err := semimarkov.CheckSegmentation(x.Segments, len(x.Attrs), k, 0); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
		for p, attrs := range x.Attrs {
			for _, a := range attrs {
				if a < 0 || int(a) >= numAttrs {
					return nil, fmt.Errorf("instance %d token %d: attribute id %d outside [0, %d)", i, p, a, numAttrs)
				}
			}
		}
		for _, g := range x.Segments {
			if g.Len() > maxLen {
				m.long++
				m.reachable[i] = cutLong(x.Segments, maxLen)
			}
		}
		m.lmax[i] = loss.Max(x.Segments, maxLen)
	}
	for _, t := range [][]float64{loss.Precision, loss.Recall, loss.Misclass} {
		for _, v := range t {
			if v > 0 {
				m.minPos = math.Min(m.minPos, v)
			}
		}
	}
	return m, nil
}

// cutLong returns segs with every segment longer than maxLen cut, left to
// right, into pieces of maxLen tokens and a shorter remainder, each with
// the segment's label.
func cutLong(segs []structpred.Segment, maxLen int) []structpred.Segment {
	var out []structpred.Segment
	for _, g := range segs {
		for start := g.Start; start < g.End; start += maxLen {
			out = append(out, structpred.Segment{Start: start, End: min(start+maxLen, g.End), Label: g.Label})
		}
	}
	return out
}

// reachableTruth returns instance i's truth, cut to segments of at most
// maxLen tokens (see Model.reachable).
func (m *Model) reachableTruth(i int) []structpred.Segment {
	if r := m.reachable[i]; r != nil {
		return r
	}
	return m.data[i].Segments
}

// Fork returns a model over the same instances, sharing them, the loss and
// the per-instance tables New computed with m but with scratch buffers of
// its own, so that m and the fork can be used from two goroutines at once
// (trainers.Forker). It answers every call exactly as m does. The result
// is a *Model.
func (m *Model) Fork() structpred.Model[[]structpred.Segment] {
	f := *m
	f.scratch = scratch{}
	return &f
}

// Len returns the number of training instances.
func (m *Model) Len() int { return len(m.data) }

// Dim returns the length of the weight vector (see the package doc).
func (m *Model) Dim() int { return Dim(m.attrs, m.k, m.edges) }

// Dim returns the length of the weight vector of a model with numAttrs
// attribute ids and k labels (see the package doc), without building one
// (a model file's reader checks its weights against it before it
// allocates a decoder).
func Dim(numAttrs, k int, edges bool) int {
	d := (attrBlocks*numAttrs + 2 + LengthBins) * k
	if edges {
		d += (k + 1) * k
	}
	return d
}

// Offsets of the blocks after the attribute blocks.
func (m *Model) boundaryOff() int { return attrBlocks * m.attrs * m.k }
func (m *Model) lengthOff() int   { return m.boundaryOff() + 2*m.k }
func (m *Model) edgeOff() int     { return m.lengthOff() + LengthBins*m.k }

// FromBlockMajor reorders, in place, a weight vector laid out block by
// block (block b, attribute a, label c at (b·A + a)·K + c, as this package
// laid it out before version 2 of the tagger's model file) into this
// package's layout, for numAttrs attributes and k labels. The weights after
// the attribute blocks keep their places.
func FromBlockMajor(w []float64, numAttrs, k int) {
	old := slices.Clone(w[:attrBlocks*numAttrs*k])
	for b := range attrBlocks {
		for a := range numAttrs {
			copy(w[(a*attrBlocks+b)*k:][:k], old[(b*numAttrs+a)*k:][:k])
		}
	}
}

// weight returns the index of attribute id's weight for label c in block.
// An attribute's blocks are side by side, so that scoring a token adds one
// contiguous row of attrBlocks·K weights per attribute.
func (m *Model) weight(block int, id int32, c int) int32 {
	return (id*attrBlocks+int32(block))*int32(m.k) + int32(c)
}

// Labels returns K, the number of labels.
func (m *Model) Labels() int { return m.k }

// MaxLen returns L, the longest segment the decoders consider.
func (m *Model) MaxLen() int { return m.maxLen }

// LongSegments returns the number of true segments in the training data that
// are longer than MaxLen: no decoder can output them (see the package doc).
func (m *Model) LongSegments() int { return m.long }

// Truth returns the true segmentation of instance i, long segments included.
func (m *Model) Truth(i int) []structpred.Segment { return m.data[i].Segments }

// Loss returns L_i(y), the segment loss of y against the truth.
func (m *Model) Loss(i int, y []structpred.Segment) float64 {
	return m.loss.Of(m.data[i].Segments, y)
}

// PinScores keeps training instance i's score tables at w until
// UnpinScores or the tables of another input are computed: the oracles that
// decode one instance many times at one w (ApproxSlack's λ search, exact
// slack's loss counts, PosLearn's violators) then build them once
// (trainers.ScorePinner). The caller must not change w meanwhile.
func (m *Model) PinScores(i int, w []float64) {
	m.scores(m.data[i], w)
	m.pinned = i + 1
}

// UnpinScores ends PinScores.
func (m *Model) UnpinScores() { m.pinned = 0 }

// scoresAt returns training instance i's score tables at w: the pinned ones
// if i is pinned.
func (m *Model) scoresAt(i int, w []float64) *semimarkov.Scores {
	if m.pinned == i+1 {
		return &m.sc
	}
	return m.scores(m.data[i], w)
}

// scores fills the model's score tables for x under w.
func (m *Model) scores(x Instance, w []float64) *semimarkov.Scores {
	m.pinned = 0 // the tables are about to hold other scores
	n, k, l, a := len(x.Attrs), m.k, m.maxLen, m.attrs
	const bk = attrBlocks
	tok := grow(&m.tok, n*bk*k)
	clear(tok)
	for p, attrs := range x.Attrs {
		row := tok[p*bk*k : (p+1)*bk*k]
		for _, id := range attrs {
			if id < 0 || int(id) >= a {
				continue // an id outside the index (defensive: encoders drop unknowns)
			}
			// An attribute's five blocks are one contiguous row of w, added
			// with SIMD (1·v + row[j] rounds as v + row[j]).
			floats.Add(row, w[int(id)*bk*k:][:len(row)])
		}
	}
	sc := &m.sc
	sc.N, sc.K, sc.L = n, k, l
	sc.Unary = grow(&sc.Unary, n*l*k)
	run := grow(&m.run, k)
	bos, eos := w[m.boundaryOff():][:k], w[m.boundaryOff()+k:][:k]
	lenOff := m.lengthOff()
	for t := range n {
		first := tok[(t*bk+blockFirst)*k:][:k]
		before := bos
		if t > 0 {
			before = tok[((t-1)*bk+blockBefore)*k:][:k]
		}
		clear(run)
		for ln := 1; ln <= min(l, n-t); ln++ {
			u := t + ln
			in := tok[((u-1)*bk+blockInside)*k:][:k]
			last := tok[((u-1)*bk+blockLast)*k:][:k]
			after := eos
			if u < n {
				after = tok[(u*bk+blockAfter)*k:][:k]
			}
			lw := w[lenOff+(min(ln, LengthBins)-1)*k:][:k]
			row := sc.Unary[(t*l+ln-1)*k:][:k]
			// The order of the sum is segScore's: Score relies on it.
			for c := range row {
				run[c] += in[c]
				row[c] = run[c] + first[c] + last[c] + before[c] + after[c] + lw[c]
			}
		}
	}
	sc.Trans = nil
	if m.edges {
		sc.Trans = w[m.edgeOff():][:(k+1)*k]
	}
	return sc
}

func grow(buf *[]float64, n int) []float64 {
	if cap(*buf) < n {
		*buf = make([]float64, n)
	}
	return (*buf)[:n]
}

// tokenSum returns Σ_{a∈attrs} w[(block·A + a)·K + c], summed from zero in
// attribute order, exactly as scores accumulates it.
func (m *Model) tokenSum(attrs []int32, w []float64, block, c int) float64 {
	var s float64
	for _, id := range attrs {
		if id < 0 || int(id) >= m.attrs {
			continue
		}
		s += w[m.weight(block, id, c)]
	}
	return s
}

// segScore returns the segment's own score (everything but the edge), in the
// order scores adds it up.
func (m *Model) segScore(x Instance, w []float64, g structpred.Segment) float64 {
	n, c := len(x.Attrs), g.Label
	var inside float64
	for p := g.Start; p < g.End; p++ {
		inside += m.tokenSum(x.Attrs[p], w, blockInside, c)
	}
	first := m.tokenSum(x.Attrs[g.Start], w, blockFirst, c)
	last := m.tokenSum(x.Attrs[g.End-1], w, blockLast, c)
	before := w[m.boundaryOff()+c]
	if g.Start > 0 {
		before = m.tokenSum(x.Attrs[g.Start-1], w, blockBefore, c)
	}
	after := w[m.boundaryOff()+m.k+c]
	if g.End < n {
		after = m.tokenSum(x.Attrs[g.End], w, blockAfter, c)
	}
	lw := w[m.lengthOff()+(min(g.Len(), LengthBins)-1)*m.k+c]
	return inside + first + last + before + after + lw
}

// score returns w·f(x, y) computed from the features, for segments of any
// length.
func (m *Model) score(x Instance, w []float64, y []structpred.Segment) float64 {
	var v float64
	prev := m.k
	for _, g := range y {
		if m.edges {
			v += w[m.edgeOff()+prev*m.k+g.Label]
		}
		v += m.segScore(x, w, g)
		prev = g.Label
	}
	return v
}

// Predict returns the highest-scoring segmentation of x under w (x need not
// be a training instance; its Segments are ignored). Its segments are at most
// MaxLen long.
func (m *Model) Predict(x Instance, w []float64) []structpred.Segment {
	return semimarkov.Viterbi(m.scores(x, w), &m.ws).Segments
}

// Score returns s_i(y) = w·f(x_i, y), computed directly from the features,
// so y may contain segments longer than MaxLen (the truth may). For a
// segmentation into segments of length ≤ MaxLen it equals the score tables'
// value bit for bit. It panics if y is not a segmentation of x_i's tokens
// with labels in [0, K).
func (m *Model) Score(i int, w []float64, y []structpred.Segment) float64 {
	x := m.data[i]
	m.mustSegment(x, y)
	return m.score(x, w, y)
}

// mustSegment panics unless y is a segmentation of x's tokens with labels
// below K (of any segment lengths).
func (m *Model) mustSegment(x Instance, y []structpred.Segment) {
	if err := semimarkov.CheckSegmentation(y, len(x.Attrs), m.k, 0); err != nil {
		panic("segment: " + err.Error())
	}
}

// DeltaFeatures returns δf_i(y) = f(x_i, y_i) − f(x_i, y). Only
// differences are visited: a token's inside attributes cancel when the truth
// and y give it the same label, and the other segment features cancel for a
// segment present in both (same span and label). Edge features are added for
// both and cancel. It panics if y is not a segmentation of x_i's tokens with
// labels in [0, K).
func (m *Model) DeltaFeatures(i int, y []structpred.Segment) structpred.SparseVec {
	x := m.data[i]
	m.mustSegment(x, y)
	m.delta.Reset()
	// Inside block, token by token.
	n := len(x.Attrs)
	m.truthTok = tokenLabelsInto(m.truthTok, x.Segments, n)
	m.predTok = tokenLabelsInto(m.predTok, y, n)
	for p, attrs := range x.Attrs {
		g, c := m.truthTok[p], m.predTok[p]
		if g == c {
			continue
		}
		for _, id := range attrs {
			if id >= 0 && int(id) < m.attrs {
				m.delta.Add(m.weight(blockInside, id, g), 1)
				m.delta.Add(m.weight(blockInside, id, c), -1)
			}
		}
	}
	// Segment-level features of the segments not shared, merged by start.
	a, b := x.Segments, y
	for len(a) > 0 || len(b) > 0 {
		switch {
		case len(b) == 0 || len(a) > 0 && a[0].Start < b[0].Start:
			m.addSegment(x, a[0], 1)
			a = a[1:]
		case len(a) == 0 || b[0].Start < a[0].Start:
			m.addSegment(x, b[0], -1)
			b = b[1:]
		default:
			if a[0] != b[0] {
				m.addSegment(x, a[0], 1)
				m.addSegment(x, b[0], -1)
			}
			a, b = a[1:], b[1:]
		}
	}
	if m.edges {
		m.addEdges(x.Segments, 1)
		m.addEdges(y, -1)
	}
	return m.delta.Vec(m.Dim())
}

// tokenLabelsInto is TokenLabels writing into buf.
func tokenLabelsInto(buf []int, segs []structpred.Segment, n int) []int {
	if cap(buf) < n {
		buf = make([]int, n)
	}
	buf = buf[:n]
	for t := range buf {
		buf[t] = -1
	}
	for _, g := range segs {
		for t := max(0, g.Start); t < min(n, g.End); t++ {
			buf[t] = g.Label
		}
	}
	return buf
}

// addSegment adds v·f(x, g) without the inside and edge features to the
// accumulator.
func (m *Model) addSegment(x Instance, g structpred.Segment, v float64) {
	k, c := int32(m.k), int32(g.Label)
	attrs := func(p int, block int) {
		for _, id := range x.Attrs[p] {
			if id >= 0 && int(id) < m.attrs {
				m.delta.Add(m.weight(block, id, g.Label), v)
			}
		}
	}
	attrs(g.Start, blockFirst)
	attrs(g.End-1, blockLast)
	bnd := int32(m.boundaryOff())
	if g.Start > 0 {
		attrs(g.Start-1, blockBefore)
	} else {
		m.delta.Add(bnd+c, v)
	}
	if g.End < len(x.Attrs) {
		attrs(g.End, blockAfter)
	} else {
		m.delta.Add(bnd+k+c, v)
	}
	m.delta.Add(int32(m.lengthOff()+(min(g.Len(), LengthBins)-1)*m.k)+c, v)
}

// addEdges adds v times the edge features of y to the accumulator.
func (m *Model) addEdges(y []structpred.Segment, v float64) {
	base, prev := int32(m.edgeOff()), m.k
	for _, g := range y {
		m.delta.Add(base+int32(prev*m.k+g.Label), v)
		prev = g.Label
	}
}

// LossAugmented returns argmax_y s_i(y) + scale·L_i(y) over segmentations
// with segments of length ≤ MaxLen.
func (m *Model) LossAugmented(i int, w []float64, scale float64) []structpred.Segment {
	x := m.data[i]
	if scale == 0 { // the perceptron's MAP: no loss table to build and add
		return semimarkov.Viterbi(m.scoresAt(i, w), &m.ws).Segments
	}
	return semimarkov.LossAugmented(m.scoresAt(i, w), x.Segments, m.loss, scale, &m.ws).Segments
}

// BestExcluding returns argmax_{y≠y_i} s_i(y) + scale·L_i(y). When the truth
// has a segment longer than MaxLen no decodable y equals it, and this is the
// loss-augmented MAP.
func (m *Model) BestExcluding(i int, w []float64, scale float64) ([]structpred.Segment, bool) {
	x := m.data[i]
	r, ok := semimarkov.BestExcluding(m.scoresAt(i, w), x.Segments, m.loss, scale, &m.ws)
	return r.Segments, ok
}

// CanCountLoss reports whether exact slack scaling is possible: the
// loss-count decoder needs integer penalties.
func (m *Model) CanCountLoss() error {
	if !m.loss.IsInteger() {
		return fmt.Errorf("exact slack scaling needs integer segment-loss penalties; this loss has non-integer entries")
	}
	return nil
}

// BestPerLoss returns the best segmentation of every loss value 0..L_max
// and its score (−Inf when no segmentation has loss v).
func (m *Model) BestPerLoss(i int, w []float64) ([][]structpred.Segment, []float64, error) {
	x := m.data[i]
	best, err := semimarkov.LossCount(m.scoresAt(i, w), x.Segments, m.loss, &m.ws)
	if err != nil {
		return nil, nil, err
	}
	ys, scores := make([][]structpred.Segment, len(best)), make([]float64, len(best))
	for v, r := range best {
		ys[v], scores[v] = r.Segments, r.Score
	}
	return ys, scores, nil
}

// LossRange returns the smallest positive penalty of the loss (a lower bound
// on the smallest nonzero loss) and the largest loss of any segmentation of
// instance i into segments of length ≤ MaxLen (the L_ε and L_max of Sarawagi
// & Gupta, section 3.1).
func (m *Model) LossRange(i int) (lmin, lmax float64) {
	return m.minPos, m.lmax[i]
}

// Positions returns the number of PosLearn slack variables of instance i: one
// per span of length 1..MaxLen, numbered by semimarkov.SpanIndex.
func (m *Model) Positions(i int) int {
	return semimarkov.SpanCount(len(m.data[i].Attrs), m.maxLen)
}

// PositionViolators returns, for every span (t, u) of length ≤ MaxLen, the
// segmentation containing a segment (t, u, c) that is not in the truth which
// maximises L_i((t, u, c))·(1 − s_i(y_i) + s_i(y)) (section 4.3.2), from one
// forward and one backward pass. Position is the span's SpanIndex, Loss the
// segment's loss; spans whose best value is not positive are omitted.
func (m *Model) PositionViolators(i int, w []float64, dst []structpred.PositionViolator[[]structpred.Segment]) []structpred.PositionViolator[[]structpred.Segment] {
	x := m.data[i]
	sm := semimarkov.ComputeSpanMarginals(m.scoresAt(i, w), &m.ws)
	// The truth's score comes from the features: it may not fit the tables.
	m.viol = sm.Violators(x.Segments, m.loss, m.score(x, w, x.Segments), m.viol[:0])
	for _, v := range m.viol {
		dst = append(dst, structpred.PositionViolator[[]structpred.Segment]{
			Position: v.Index, Y: v.Segments, Score: v.Score, Loss: v.Loss,
		})
	}
	clear(m.viol) // do not keep the segmentations alive
	return dst
}
