package tree

import (
	"errors"
	"fmt"
	"slices"

	"github.com/maxmargin/repro/decoders/ilp"
	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/structpred"
)

// Instance is an encoded sentence of N words. The sorted feature ids of
// the arc h → d are IDs[Start[a]:Start[a+1]] at a = h*(N+1)+d (none for
// d = 0 and h = d), as features.Dependency.EncodeArcs lays them out: one
// flat array per sentence, not a slice per arc, which for a treebank's
// millions of arcs saves 20 bytes an arc (a 24-byte slice header for a
// 4-byte offset) and the collector a pointer to trace. Heads is the gold
// head of each word in decoders/mst's layout (Heads[0] = -1).
type Instance struct {
	N     int
	Start []int32
	IDs   []int32
	Heads []int
}

// Arc returns the feature ids of the arc h → d.
func (x *Instance) Arc(h, d int) []int32 {
	a := h*(x.N+1) + d
	return x.IDs[x.Start[a]:x.Start[a+1]]
}

// check reports whether x's arrays have the sizes N asks for, its offsets
// increase and its ids lie in [0, numAttrs).
func (x *Instance) check(numAttrs int) error {
	m := x.N + 1
	if len(x.Start) != m*m+1 || len(x.Heads) != m {
		return fmt.Errorf("%d arc offsets and %d heads for %d words, want %d and %d", len(x.Start), len(x.Heads), x.N, m*m+1, m)
	}
	if x.Start[0] != 0 || int(x.Start[m*m]) != len(x.IDs) {
		return fmt.Errorf("arc offsets run from %d to %d over %d ids", x.Start[0], x.Start[m*m], len(x.IDs))
	}
	for a := range m * m {
		if x.Start[a] > x.Start[a+1] {
			return fmt.Errorf("arc offsets decrease at arc %d", a)
		}
	}
	for _, id := range x.IDs {
		if id < 0 || int(id) >= numAttrs {
			return fmt.Errorf("feature id %d outside [0, %d)", id, numAttrs)
		}
	}
	return mst.CheckTree(x.Heads)
}

// Model is a first-order tree model over a fixed set of training
// instances. It owns scratch buffers and is not safe for concurrent use;
// Fork gives another goroutine a model of its own over the same instances.
type Model struct {
	// Set by New and read-only after: shared by every fork.
	data  []Instance
	attrs int
	dec   mst.Decoder
	ilp   *ilp.TreeDecoder // MAP and loss-augmented MAP by decoders/ilp (UseILP)

	scratch
}

// scratch is what a Model writes while it decodes: every fork has its own.
type scratch struct {
	ws  mst.Workspace
	acc structpred.CountAccumulator
	g   mst.Graph // the arc scores of the sentence being decoded
}

// New returns a model over data with numAttrs feature ids, decoded by dec.
func New(data []Instance, numAttrs int, dec mst.Decoder) (*Model, error) {
	for i := range data {
		if err := data[i].check(numAttrs); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
	}
	return &Model{data: data, attrs: numAttrs, dec: dec}, nil
}

// UseILP makes the model's MAP (Predict) and loss-augmented MAP
// (LossAugmented) solve the tree integer linear program of package
// decoders/ilp, with the model's SingleRoot setting, instead of running
// Chu-Liu/Edmonds; with on false, Chu-Liu/Edmonds again. The optimum is
// the same up to ties and round-off; the ILP is far slower (docs/ilp.md)
// and its branch and bound grows quickly with sentence length, so it is a
// reference for short sentences. PositionViolators and KBest stay with
// the exact decoder. A projective decoder (Eisner) has no ILP here and is
// refused. Set it before forking. A failure of the LP solver or the node
// limit panics, since these methods return no error.
func (m *Model) UseILP(on bool) error {
	if !on {
		m.ilp = nil
		return nil
	}
	if m.dec.Projective {
		return errors.New("the ILP decoder searches all trees; it has no projective variant")
	}
	m.ilp = &ilp.TreeDecoder{SingleRoot: m.dec.SingleRoot}
	return nil
}

// Fork returns a model over the same instances and decoder with scratch
// buffers of its own, so that m and the fork can be used from two
// goroutines at once (trainers.Forker). It answers every call exactly as m
// does. The result is a *Model.
func (m *Model) Fork() structpred.Model[[]int] {
	f := *m
	f.scratch = scratch{}
	return &f
}

// Len returns the number of training instances.
func (m *Model) Len() int { return len(m.data) }

// Dim returns the number of weights: one per feature id.
func (m *Model) Dim() int { return m.attrs }

// Truth returns the gold heads of instance i.
func (m *Model) Truth(i int) []int { return m.data[i].Heads }

// Loss returns the number of words of instance i with a wrong head.
func (m *Model) Loss(i int, y []int) float64 { return float64(mst.Loss(m.data[i].Heads, y)) }

// graph scores every arc of x under w, in the model's scratch graph (the
// decoders keep no reference to it). An instance without offsets has no
// arc features: every score is 0.
func (m *Model) graph(x *Instance, w []float64) *mst.Graph {
	g := &m.g
	n := (x.N + 1) * (x.N + 1)
	g.N, g.Score = x.N, slices.Grow(g.Score[:0], n)[:n]
	if len(x.Start) == 0 {
		clear(g.Score)
		return g
	}
	for a := range g.Score {
		var s float64
		for _, id := range x.IDs[x.Start[a]:x.Start[a+1]] {
			s += w[id]
		}
		g.Score[a] = s
	}
	return g
}

// Predict returns the best tree of x under w.
func (m *Model) Predict(x Instance, w []float64) []int {
	g := m.graph(&x, w)
	if m.ilp != nil {
		t, _, err := m.ilp.Decode(g)
		if err != nil {
			panic(fmt.Sprintf("tree: ILP decoder: %v", err))
		}
		return t.Heads
	}
	return m.dec.Decode(g, &m.ws).Heads
}

// Score returns the score of heads y on instance i.
func (m *Model) Score(i int, w []float64, y []int) float64 {
	x := &m.data[i]
	var s float64
	for d := 1; d <= x.N; d++ {
		for _, id := range x.Arc(y[d], d) {
			s += w[id]
		}
	}
	return s
}

// DeltaFeatures returns f(x_i, truth) − f(x_i, y).
func (m *Model) DeltaFeatures(i int, y []int) structpred.SparseVec {
	x := &m.data[i]
	m.acc.Reset()
	for d := 1; d <= x.N; d++ {
		if y[d] == x.Heads[d] {
			continue
		}
		for _, id := range x.Arc(x.Heads[d], d) {
			m.acc.Add(id, 1)
		}
		for _, id := range x.Arc(y[d], d) {
			m.acc.Add(id, -1)
		}
	}
	return m.acc.Vec(m.Dim())
}

// DeltaScore returns w·δf_i(y) without building δf_i(y) (a
// trainers.DeltaScorer): over the words whose head y changes.
func (m *Model) DeltaScore(i int, w []float64, y []int) float64 {
	x := &m.data[i]
	var s float64
	for d := 1; d <= x.N; d++ {
		if y[d] == x.Heads[d] {
			continue
		}
		for _, id := range x.Arc(x.Heads[d], d) {
			s += w[id]
		}
		for _, id := range x.Arc(y[d], d) {
			s -= w[id]
		}
	}
	return s
}

// AddDelta calls add(j, scale·v) for the terms (j, v) DeltaFeatures sums,
// without building the vector (a trainers.DeltaAdder).
func (m *Model) AddDelta(i int, y []int, scale float64, add func(j int32, v float64)) {
	x := &m.data[i]
	for d := 1; d <= x.N; d++ {
		if y[d] == x.Heads[d] {
			continue
		}
		for _, id := range x.Arc(x.Heads[d], d) {
			add(id, scale)
		}
		for _, id := range x.Arc(y[d], d) {
			add(id, -scale)
		}
	}
}

// LossAugmented returns argmax_y s(y) + scale·Loss(y).
func (m *Model) LossAugmented(i int, w []float64, scale float64) []int {
	x := &m.data[i]
	if m.ilp != nil {
		t, _, _, err := m.ilp.LossAugmented(m.graph(x, w), x.Heads, scale)
		if err != nil {
			panic(fmt.Sprintf("tree: ILP decoder: %v", err))
		}
		return t.Heads
	}
	t, _ := m.dec.LossAugmented(m.graph(x, w), x.Heads, scale, &m.ws)
	return t.Heads
}

// Positions returns the number of words of instance i: PosLearn's error
// positions.
func (m *Model) Positions(i int) int { return m.data[i].N }

// PositionViolators appends, for every word that some tree can attach
// wrongly, the best tree that does (section 4.3.3), with its score and the
// word's loss (1).
func (m *Model) PositionViolators(i int, w []float64, dst []structpred.PositionViolator[[]int]) []structpred.PositionViolator[[]int] {
	x := &m.data[i]
	for _, v := range m.dec.PositionViolators(m.graph(x, w), x.Heads, &m.ws, nil) {
		dst = append(dst, structpred.PositionViolator[[]int]{Position: v.Position - 1, Y: v.Heads, Score: v.Score, Loss: 1})
	}
	return dst
}

// KBest returns the k trees with the highest s(y) + scale·Loss(y), best
// first.
func (m *Model) KBest(i int, w []float64, scale float64, k int) [][]int {
	x := &m.data[i]
	g := m.graph(x, w)
	for h := 0; h <= x.N; h++ {
		for d := 1; d <= x.N; d++ {
			if h != x.Heads[d] {
				g.Score[h*(x.N+1)+d] += scale
			}
		}
	}
	var out [][]int
	for _, t := range m.dec.KBest(g, k, &m.ws) {
		out = append(out, t.Heads)
	}
	return out
}
