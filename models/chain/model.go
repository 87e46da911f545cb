package chain

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/floats"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/ilp"
	"github.com/maxmargin/repro/structpred"
)

// Instance is an encoded sequence: the sorted attribute ids of each token,
// optionally their values, and the gold label of each token.
type Instance struct {
	Attrs [][]int32
	// Values, if not nil, scales the attributes, as CRFsuite's attribute
	// values do: Values[t][j] multiplies attribute Attrs[t][j]'s feature
	// (so its emission score is Values[t][j]·w[a·K + y]). A nil Values, or
	// a nil Values[t], means binary attributes (every value 1); that path
	// computes exactly what it did before values existed.
	Values [][]float64
	Labels []int
}

// values returns the values of token t's attributes, nil for all 1.
func (x Instance) values(t int) []float64 {
	if x.Values == nil {
		return nil
	}
	return x.Values[t]
}

// check reports a malformed instance: values that do not match the
// attributes, or are not finite.
func (x Instance) check() error {
	if len(x.Attrs) != len(x.Labels) {
		return fmt.Errorf("%d tokens but %d labels", len(x.Attrs), len(x.Labels))
	}
	if x.Values == nil {
		return nil
	}
	if len(x.Values) != len(x.Attrs) {
		return fmt.Errorf("values for %d tokens, attributes for %d", len(x.Values), len(x.Attrs))
	}
	for t, vs := range x.Values {
		if vs != nil && len(vs) != len(x.Attrs[t]) {
			return fmt.Errorf("token %d: %d values for %d attributes", t, len(vs), len(x.Attrs[t]))
		}
		for _, v := range vs {
			if math.IsInf(v, 0) || math.IsNaN(v) {
				return fmt.Errorf("token %d: attribute value %v", t, v)
			}
		}
	}
	return nil
}

// Model is a linear-chain model over a fixed set of training instances. It
// owns scratch buffers and is not safe for concurrent use; Fork gives
// another goroutine a model of its own over the same instances.
type Model struct {
	// Set by New and read-only after: shared by every fork.
	data   []Instance
	attrs  int // A: number of attribute ids
	k      int // K: number of labels
	edges  bool
	cost   decoders.Cost
	minPos float64    // smallest nonzero per-position cost
	ilp    bool       // MAP and loss-augmented MAP by decoders/ilp (UseILP)
	hmm    *emissions // SetEmissions: the HMM baseline's symbols
	pairs  *Pairs     // state features: these pairs only (nil: all; Restrict)
	// pairs, as the token loops read them (nil unless pairs and K ≤ 256)
	pairIdx *pairIndex

	scratch
}

// scratch is what a Model writes while it decodes: every fork has its own.
type scratch struct {
	chain decoders.Chain
	ws    decoders.Workspace
	marg  decoders.Marginals // LogLoss's forward-backward result
	dense denseScratch       // LogLossSum's full layout of a restricted model
	// LogLoss scratch: β-scaled transitions, one gradient row
	transBuf, rowBuf []float64
	acc              structpred.Accumulator      // DeltaFeatures' scratch with real values
	counts           structpred.CountAccumulator // and with indicator attributes
	// pinned is 1 + the training instance whose scores chain holds at the
	// w given to PinScores, 0 when none is pinned (see PinScores).
	pinned int
	// slack is SlackLogLoss's exp-space scratch; forceLogSlack (tests)
	// has it sum in log space throughout.
	slack         slackScaled
	forceLogSlack bool
}

// New returns a model over data with numAttrs attribute ids and k labels. A
// zero cost means Hamming loss.
func New(data []Instance, numAttrs, k int, edges bool, cost decoders.Cost) (*Model, error) {
	if cost.M == nil {
		cost = decoders.Hamming(k)
	}
	if cost.K != k {
		return nil, fmt.Errorf("cost matrix is for %d labels, model has %d", cost.K, k)
	}
	if err := cost.Validate(); err != nil {
		return nil, err
	}
	if d := Dim(numAttrs, k, edges); d > math.MaxInt32 {
		return nil, fmt.Errorf("%d attributes and %d labels make %d weights, beyond the int32 indices of sparse vectors", numAttrs, k, d)
	}
	for i, x := range data {
		if err := x.check(); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
		for t, y := range x.Labels {
			if y < 0 || y >= k {
				return nil, fmt.Errorf("instance %d token %d: label %d outside [0, %d)", i, t, y, k)
			}
		}
	}
	m := &Model{data: data, attrs: numAttrs, k: k, edges: edges, cost: cost, minPos: math.Inf(1)}
	for _, c := range cost.M {
		if c > 0 {
			m.minPos = math.Min(m.minPos, c)
		}
	}
	return m, nil
}

// UseILP makes the model's MAP (Predict, and LossAugmented at scale 0) and
// loss-augmented MAP (LossAugmented) solve the chapter's integer linear
// program with package decoders/ilp instead of running Viterbi, or, with
// on false, Viterbi again. The optimum is the same up to ties and
// round-off; the ILP is far slower (docs/ilp.md), which is its point only
// as a reference or a prototype. The other decoders (k-best, loss counts,
// max-marginals, forward-backward) stay exact dynamic programs. Set it
// before forking. A failure of the LP solver, which the tests have not
// seen, panics, since these methods return no error.
func (m *Model) UseILP(on bool) { m.ilp = on }

// Fork returns a model over the same instances, sharing them and the cost
// with m but with scratch buffers of its own, so that m and the fork can
// be used from two goroutines at once (trainers.Forker). It answers every
// call exactly as m does. The result is a *Model.
func (m *Model) Fork() structpred.Model[[]int] {
	f := *m
	f.scratch = scratch{}
	return &f
}

// Len returns the number of training instances.
func (m *Model) Len() int { return len(m.data) }

// Dim returns the length of the weight vector.
func (m *Model) Dim() int {
	if m.pairs != nil {
		return DimPairs(m.pairs, m.k, m.edges)
	}
	return Dim(m.attrs, m.k, m.edges)
}

// Dim returns the length of the weight vector of a model with numAttrs
// attribute ids and k labels, without building one (a model file's reader
// checks its weights against it before it allocates a decoder).
func Dim(numAttrs, k int, edges bool) int {
	if edges {
		return numAttrs*k + k*k
	}
	return numAttrs * k
}

// Labels returns K, the number of labels.
func (m *Model) Labels() int { return m.k }

// Truth returns the gold labels of instance i.
func (m *Model) Truth(i int) []int { return m.data[i].Labels }

// Loss returns L_i(y).
func (m *Model) Loss(i int, y []int) float64 { return m.cost.Loss(m.data[i].Labels, y) }

// scores fills the model's chain with the score tables of x under w.
func (m *Model) scores(x Instance, w []float64) *decoders.Chain {
	return m.scoresIn(x, w, m.pairs)
}

// scoresIn is scores with w laid out for the pairs p (nil: every
// attribute–label pair, whatever the model's own pairs).
func (m *Model) scoresIn(x Instance, w []float64, p *Pairs) *decoders.Chain {
	m.pinned = 0 // the chain is about to hold other scores
	n, k := len(x.Attrs), m.k
	c := &m.chain
	c.N, c.K = n, k
	c.Unary = grow(c.Unary, n*k)
	for t, attrs := range x.Attrs {
		row := c.Unary[t*k : (t+1)*k]
		vals := x.values(t)
		if p == nil && sumRows(row, w, attrs, vals, m.attrs) {
			continue // the loop below in one call, bit for bit
		}
		if p != nil && m.pairIdx != nil && m.pairIdx.scores(row, w, attrs, vals) {
			continue
		}
		clear(row)
		for j, a := range attrs {
			if int(a) >= m.attrs {
				continue // an id outside the index (defensive: encoders drop unknowns)
			}
			if p != nil {
				m.addPairScores(row, a, vals, j, w)
				continue
			}
			// SIMD adds round as the scalar ones: 1·v is exact, and s·v
			// is rounded before it is added (no fused multiply-add).
			if vals == nil {
				floats.Add(row, w[int(a)*k:int(a)*k+k])
				continue
			}
			floats.AddScaled(row, vals[j], w[int(a)*k:int(a)*k+k])
		}
	}
	c.Trans = nil
	if m.edges {
		base := transBase(p, m.attrs, k)
		c.Trans = w[base : base+k*k]
	}
	return c
}

// addPairScores adds attribute a's weights over its pairs into row,
// scaled by vals[j] unless vals is nil.
func (m *Model) addPairScores(row []float64, a int32, vals []float64, j int, w []float64) {
	lo, hi := m.pairs.Start[a], m.pairs.Start[a+1]
	labels, ws := m.pairs.Label[lo:hi], w[lo:hi]
	ws = ws[:len(labels)] // one bounds check here, none in the loops
	if vals == nil {
		for q, y := range labels {
			row[y] += ws[q]
		}
		return
	}
	s := vals[j]
	for q, y := range labels {
		row[y] += s * ws[q]
	}
}

func grow(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}

// Predict returns the highest-scoring labeling of x under w (x need not be a
// training instance).
func (m *Model) Predict(x Instance, w []float64) []int {
	return m.viterbi(m.scores(x, w))
}

// viterbi returns the MAP labeling of c with the model's decoder.
func (m *Model) viterbi(c *decoders.Chain) []int {
	if !m.ilp {
		return decoders.Viterbi(c, &m.ws).Labels
	}
	s, _, err := ilp.DecodeChain(c, ilp.Options{})
	if err != nil {
		panic(fmt.Sprintf("chain: ILP decoder: %v", err))
	}
	return s.Labels
}

// Score returns s_i(y) = w·f(x_i, y).
func (m *Model) Score(i int, w []float64, y []int) float64 {
	return m.scoresAt(i, w).Score(y)
}

// PinScores computes training instance i's emission scores at w and keeps
// them for the model's next calls on instance i, until UnpinScores or a
// call on another instance: an oracle that decodes one instance many times
// at one w (ApproxSlack's λ search: about 30 decodes and 30 scorings per
// call) then computes them once. The caller must not change w meanwhile.
// Results are bit-identical either way: the same scores are computed.
func (m *Model) PinScores(i int, w []float64) {
	m.scores(m.data[i], w)
	m.pinned = i + 1
}

// UnpinScores ends PinScores.
func (m *Model) UnpinScores() { m.pinned = 0 }

// scoresAt returns training instance i's scores at w: the pinned ones if
// i is pinned.
func (m *Model) scoresAt(i int, w []float64) *decoders.Chain {
	if m.pinned == i+1 {
		return &m.chain
	}
	return m.scores(m.data[i], w)
}

// DeltaFeatures returns δf_i(y) = f(x_i, y_i) − f(x_i, y). Positions labelled
// alike contribute nothing, so only disagreements are visited. Indicator
// attributes (no Values) make every term ±1, merged in linear time.
func (m *Model) DeltaFeatures(i int, y []int) structpred.SparseVec {
	x, k := m.data[i], m.k
	m.counts.Reset()
	add := m.counts.Add
	if x.Values != nil {
		m.acc.Reset()
		add = m.acc.Add
	}
	for t, attrs := range x.Attrs {
		if g, p := x.Labels[t], y[t]; g != p {
			vals := x.values(t)
			for j, a := range attrs {
				s := 1.0
				if vals != nil {
					s = vals[j]
				}
				if m.pairs != nil {
					if q := m.pairs.index(a, g); q >= 0 {
						add(q, s)
					}
					if q := m.pairs.index(a, p); q >= 0 {
						add(q, -s)
					}
					continue
				}
				add(a*int32(k)+int32(g), s)
				add(a*int32(k)+int32(p), -s)
			}
		}
	}
	if m.edges {
		base := int32(m.transBase())
		for t := 1; t < len(y); t++ {
			g0, g1, p0, p1 := x.Labels[t-1], x.Labels[t], y[t-1], y[t]
			if g0 != p0 || g1 != p1 {
				add(base+int32(g0*k+g1), 1)
				add(base+int32(p0*k+p1), -1)
			}
		}
	}
	if x.Values != nil {
		return m.acc.Vec()
	}
	return m.counts.Vec(m.Dim())
}

// DeltaScore returns w·δf_i(y) without building δf_i(y) (a
// trainers.DeltaScorer): over the positions and transitions y labels
// differently from the truth, the terms DeltaFeatures would emit, or with
// instance i's scores pinned, their sums per position.
func (m *Model) DeltaScore(i int, w []float64, y []int) float64 {
	x, k := m.data[i], m.k
	s := 0.0
	if m.pinned == i+1 {
		u := m.chain.Unary
		for t, g := range x.Labels {
			if p := y[t]; g != p {
				s += u[t*k+g] - u[t*k+p]
			}
		}
		return s + m.deltaTransitions(x, w, y)
	}
	for t, attrs := range x.Attrs {
		g, p := x.Labels[t], y[t]
		if g == p {
			continue
		}
		vals := x.values(t)
		for j, a := range attrs {
			if m.pairs != nil {
				s += m.pairDelta(a, g, p, w, vals, j)
				continue
			}
			d := w[int(a)*k+g] - w[int(a)*k+p]
			if vals != nil {
				d *= vals[j]
			}
			s += d
		}
	}
	return s + m.deltaTransitions(x, w, y)
}

// pairDelta is attribute a's term of w·δf at a token labelled g, predicted
// p: its weight with g less its weight with p, scaled by vals[j].
func (m *Model) pairDelta(a int32, g, p int, w, vals []float64, j int) float64 {
	var d float64
	if q := m.pairs.index(a, g); q >= 0 {
		d = w[q]
	}
	if q := m.pairs.index(a, p); q >= 0 {
		d -= w[q]
	}
	if vals != nil {
		d *= vals[j]
	}
	return d
}

// deltaTransitions is the transitions' part of w·δf(y).
func (m *Model) deltaTransitions(x Instance, w []float64, y []int) float64 {
	if !m.edges {
		return 0
	}
	k, s := m.k, 0.0
	base := m.transBase()
	trans := w[base : base+k*k]
	for t := 1; t < len(y); t++ {
		g0, g1, p0, p1 := x.Labels[t-1], x.Labels[t], y[t-1], y[t]
		if g0 != p0 || g1 != p1 {
			s += trans[g0*k+g1] - trans[p0*k+p1]
		}
	}
	return s
}

// AddDelta calls add(j, scale·v) for the terms (j, v) DeltaFeatures sums,
// without building the vector (a trainers.DeltaAdder).
func (m *Model) AddDelta(i int, y []int, scale float64, add func(j int32, v float64)) {
	x, k := m.data[i], int32(m.k)
	for t, attrs := range x.Attrs {
		g, p := int32(x.Labels[t]), int32(y[t])
		if g == p {
			continue
		}
		vals := x.values(t)
		for j, a := range attrs {
			s := scale
			if vals != nil {
				s *= vals[j]
			}
			if m.pairs != nil {
				if q := m.pairs.index(a, int(g)); q >= 0 {
					add(q, s)
				}
				if q := m.pairs.index(a, int(p)); q >= 0 {
					add(q, -s)
				}
				continue
			}
			add(a*k+g, s)
			add(a*k+p, -s)
		}
	}
	if m.edges {
		base := int32(m.transBase())
		for t := 1; t < len(y); t++ {
			g0, g1, p0, p1 := int32(x.Labels[t-1]), int32(x.Labels[t]), int32(y[t-1]), int32(y[t])
			if g0 != p0 || g1 != p1 {
				add(base+g0*k+g1, scale)
				add(base+p0*k+p1, -scale)
			}
		}
	}
}

// LossAugmented returns argmax_y s_i(y) + scale·L_i(y).
func (m *Model) LossAugmented(i int, w []float64, scale float64) []int {
	x := m.data[i]
	if scale == 0 { // the perceptron's MAP: no cost table to build and add
		return m.viterbi(m.scoresAt(i, w))
	}
	if m.ilp {
		s, _, err := ilp.LossAugmentedChain(m.scoresAt(i, w), x.Labels, m.cost, scale, ilp.Options{})
		if err != nil {
			panic(fmt.Sprintf("chain: ILP decoder: %v", err))
		}
		return s.Labels
	}
	return decoders.LossAugmented(m.scoresAt(i, w), x.Labels, m.cost, scale, &m.ws).Labels
}

// BestExcluding returns argmax_{y≠y_i} s_i(y) + scale·L_i(y) from a top-2
// decoder.
func (m *Model) BestExcluding(i int, w []float64, scale float64) ([]int, bool) {
	x := m.data[i]
	s, ok := decoders.BestExcluding(m.scoresAt(i, w), x.Labels, m.cost, scale, &m.ws)
	return s.Labels, ok
}

// CanCountLoss reports whether exact slack scaling is possible: the
// loss-count decoder needs integer per-position costs.
func (m *Model) CanCountLoss() error {
	if !m.cost.IsInteger() {
		return fmt.Errorf("exact slack scaling needs integer per-position costs; this cost matrix has non-integer entries")
	}
	return nil
}

// BestPerLoss returns the best labeling of every loss value 0..L_max and its
// score (−Inf where no labeling has that loss).
func (m *Model) BestPerLoss(i int, w []float64) ([][]int, []float64, error) {
	x := m.data[i]
	best, err := decoders.LossCount(m.scoresAt(i, w), x.Labels, m.cost, &m.ws)
	if err != nil {
		return nil, nil, err
	}
	ys, scores := make([][]int, len(best)), make([]float64, len(best))
	for k, s := range best {
		ys[k], scores[k] = s.Labels, s.Score
	}
	return ys, scores, nil
}

// LossRange returns the smallest nonzero per-position cost and L_max of
// instance i (the L_ε and L_max of Sarawagi & Gupta, section 3.1).
func (m *Model) LossRange(i int) (lmin, lmax float64) {
	return m.minPos, m.cost.MaxLoss(m.data[i].Labels)
}

// Positions returns the number of error positions (tokens) of instance i.
func (m *Model) Positions(i int) int { return len(m.data[i].Labels) }

// PositionViolators returns, for every position c, the labeling wrong at c
// that maximises L_ic(y_c)·(1 − s_i(y_i) + s_i(y)), read off the max-marginals
// (one forward and one backward max-product pass). Positions whose best value
// is not positive are omitted: they cannot be violated.
func (m *Model) PositionViolators(i int, w []float64, dst []structpred.PositionViolator[[]int]) []structpred.PositionViolator[[]int] {
	x, k := m.data[i], m.k
	c := m.scoresAt(i, w)
	truth := c.Score(x.Labels)
	mm := decoders.ComputeMaxMarginals(c, &m.ws)
	for t, g := range x.Labels {
		best, bestV := -1, 0.0
		for y := range k {
			loss := m.cost.M[g*k+y]
			if y == g || loss <= 0 {
				continue
			}
			if v := loss * (1 - truth + mm.MM[t*k+y]); v > bestV {
				best, bestV = y, v
			}
		}
		if best >= 0 {
			dst = append(dst, structpred.PositionViolator[[]int]{
				Position: t, Y: mm.Labeling(t, best), Score: mm.MM[t*k+best], Loss: m.cost.M[g*k+best],
			})
		}
	}
	return dst
}
