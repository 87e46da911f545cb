package multiclass

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/structpred"
)

// Instance is one labelled input: its features X (indices in [0, D),
// strictly increasing; a dense vector is the SparseVec of all D indices)
// and its class.
type Instance struct {
	X     structpred.SparseVec
	Label int
}

// Model is the multiclass model over a fixed set of training instances. It
// owns scratch buffers and is not safe for concurrent use; Fork gives
// another goroutine a model of its own over the same instances.
type Model struct {
	// Set by New and read-only after: shared by every fork.
	data []Instance
	dim  int // D: features per class
	k    int // K: classes
	cost decoders.Cost
	emb  *Embedding // nil: the flat model, Λ = I (see embed.go)

	scratch
}

// scratch is what a Model writes while it decodes: every fork has its own.
type scratch struct {
	s     []float64 // the K scores of the instance at hand
	t     []float64 // an embedded model's M node scores or coefficients
	order []int     // KBest's ranking
}

// New returns a model over data with dim features and k classes. A zero
// cost means the 0/1 loss.
func New(data []Instance, dim, k int, cost decoders.Cost) (*Model, error) {
	if k < 1 || dim < 0 {
		return nil, fmt.Errorf("multiclass model with %d features and %d classes", dim, k)
	}
	if cost.M == nil {
		cost = decoders.Hamming(k)
	}
	if cost.K != k {
		return nil, fmt.Errorf("cost matrix is for %d classes, model has %d", cost.K, k)
	}
	if err := cost.Validate(); err != nil {
		return nil, err
	}
	if d := int64(dim) * int64(k); d > math.MaxInt32 {
		return nil, fmt.Errorf("%d features and %d classes make %d weights, beyond the int32 indices of sparse vectors", dim, k, d)
	}
	for i, x := range data {
		if x.Label < 0 || x.Label >= k {
			return nil, fmt.Errorf("instance %d: class %d outside [0, %d)", i, x.Label, k)
		}
		if err := x.X.Check(dim); err != nil {
			return nil, fmt.Errorf("instance %d: %w", i, err)
		}
	}
	return &Model{data: data, dim: dim, k: k, cost: cost}, nil
}

// Fork returns a model over the same instances and cost with scratch
// buffers of its own, so that m and the fork can be used from two
// goroutines at once (trainers.Forker). It answers every call exactly as m
// does. The result is a *Model.
func (m *Model) Fork() structpred.Model[int] {
	f := *m
	f.scratch = scratch{}
	return &f
}

// Len returns the number of training instances.
func (m *Model) Len() int { return len(m.data) }

// Dim returns the length of the weight vector, K·D (M·D with a class
// embedding).
func (m *Model) Dim() int {
	if m.emb != nil {
		return m.emb.M * m.dim
	}
	return m.k * m.dim
}

// Classes returns K.
func (m *Model) Classes() int { return m.k }

// Features returns D, the length of each class's weight vector.
func (m *Model) Features() int { return m.dim }

// Truth returns the class of instance i.
func (m *Model) Truth(i int) int { return m.data[i].Label }

// Loss returns Δ(y_i, y).
func (m *Model) Loss(i int, y int) float64 { return m.cost.M[m.data[i].Label*m.k+y] }

// row returns Δ(g, ·).
func (m *Model) row(g int) []float64 { return m.cost.M[g*m.k : (g+1)*m.k] }

// ClassWeights returns w_y, the part of w that scores class y (a view, not
// a copy); with a class embedding, the new vector Σ_m Λ_ym w_m.
func (m *Model) ClassWeights(w []float64, y int) []float64 {
	if m.emb != nil {
		return m.embClassWeights(w, y)
	}
	return w[y*m.dim : (y+1)*m.dim]
}

// scoresOf fills the model's scratch with w_y·x for every class y.
// Features outside [0, D) carry no weight (an input from outside the
// training data may have features the training data lacks).
func (m *Model) scoresOf(x structpred.SparseVec, w []float64) []float64 {
	if m.emb != nil {
		return m.embScores(x, w)
	}
	m.s = slices.Grow(m.s[:0], m.k)[:m.k]
	for y := range m.s {
		wy := w[y*m.dim : (y+1)*m.dim]
		var s float64
		for e, j := range x.Idx {
			if j >= 0 && int(j) < m.dim {
				s += x.Val[e] * wy[j]
			}
		}
		m.s[y] = s
	}
	return m.s
}

// Predict returns the highest-scoring class of x under w (the lowest such
// class on ties); x need not be a training input.
func (m *Model) Predict(x structpred.SparseVec, w []float64) int {
	return argmax(m.scoresOf(x, w), nil, 0)
}

// argmax returns the index of the largest s[y] + scale·cost[y] (cost nil:
// s alone), the lowest index on ties.
func argmax(s, cost []float64, scale float64) int {
	best, bestV := 0, math.Inf(-1)
	for y, v := range s {
		if cost != nil {
			v += scale * cost[y]
		}
		if v > bestV {
			best, bestV = y, v
		}
	}
	return best
}

// Score returns s_i(y) = w_y·x_i.
func (m *Model) Score(i int, w []float64, y int) float64 {
	x := m.data[i].X
	if m.emb != nil {
		return m.embScore(x, w, y)
	}
	return x.Dot(w[y*m.dim : (y+1)*m.dim])
}

// DeltaFeatures returns δf_i(y) = f(x_i, y_i) − f(x_i, y): x_i in the
// truth's block and −x_i in y's, empty for y = y_i.
func (m *Model) DeltaFeatures(i int, y int) structpred.SparseVec {
	x, g := m.data[i].X, m.data[i].Label
	if y == g {
		return structpred.SparseVec{}
	}
	if m.emb != nil {
		return m.embDeltaFeatures(i, y)
	}
	n := len(x.Idx)
	out := structpred.SparseVec{Idx: make([]int32, 2*n), Val: make([]float64, 2*n)}
	// The lower class's block first, so that indices increase.
	first, second, sign := g, y, 1.0
	if y < g {
		first, second, sign = y, g, -1
	}
	for e, j := range x.Idx {
		out.Idx[e], out.Val[e] = int32(first*m.dim)+j, sign*x.Val[e]
		out.Idx[n+e], out.Val[n+e] = int32(second*m.dim)+j, -sign*x.Val[e]
	}
	return out
}

// DeltaScore returns w·δf_i(y) = s_i(y_i) − s_i(y) without building δf_i(y)
// (a trainers.DeltaScorer).
func (m *Model) DeltaScore(i int, w []float64, y int) float64 {
	if y == m.data[i].Label {
		return 0
	}
	if m.emb != nil {
		return m.embDeltaScore(i, w, y)
	}
	x, g := m.data[i].X, m.data[i].Label
	wg, wy := w[g*m.dim:(g+1)*m.dim], w[y*m.dim:(y+1)*m.dim]
	var s float64
	for e, j := range x.Idx {
		s += x.Val[e] * (wg[j] - wy[j])
	}
	return s
}

// AddDelta calls add(j, scale·v) for the terms (j, v) of δf_i(y), without
// building the vector (a trainers.DeltaAdder).
func (m *Model) AddDelta(i int, y int, scale float64, add func(j int32, v float64)) {
	x, g := m.data[i].X, m.data[i].Label
	if y == g {
		return
	}
	if m.emb != nil {
		m.embAddDelta(i, y, scale, add)
		return
	}
	for e, j := range x.Idx {
		add(int32(g*m.dim)+j, scale*x.Val[e])
		add(int32(y*m.dim)+j, -scale*x.Val[e])
	}
}

// LossAugmented returns argmax_y s_i(y) + scale·Δ(y_i, y), by enumeration
// (the lowest class on ties).
func (m *Model) LossAugmented(i int, w []float64, scale float64) int {
	x := m.data[i]
	return argmax(m.scoresOf(x.X, w), m.row(x.Label), scale)
}

// BestExcluding returns argmax_{y≠y_i} s_i(y) + scale·Δ(y_i, y); ok is
// false when there is one class only.
func (m *Model) BestExcluding(i int, w []float64, scale float64) (int, bool) {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	best, bestV := -1, math.Inf(-1)
	for y, v := range s {
		if v += scale * cost[y]; y != x.Label && (best < 0 || v > bestV) {
			best, bestV = y, v
		}
	}
	return best, best >= 0
}

// BestPerLoss returns, for every distinct value of Δ(y_i, ·) in increasing
// order, the highest-scoring class with that loss and its score (the
// lowest class on ties). Every labeling is dominated within its loss value
// by an entry, which is what makes the slack oracle's scan exact; the
// costs need not be integers. The error is always nil.
func (m *Model) BestPerLoss(i int, w []float64) ([]int, []float64, error) {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	var ys []int
	for y := range s {
		j := slices.IndexFunc(ys, func(c int) bool { return cost[c] == cost[y] })
		switch {
		case j < 0:
			ys = append(ys, y)
		case s[y] > s[ys[j]]:
			ys[j] = y
		}
	}
	slices.SortFunc(ys, func(a, b int) int { return cmp.Compare(cost[a], cost[b]) })
	scores := make([]float64, len(ys))
	for k, y := range ys {
		scores[k] = s[y]
	}
	return ys, scores, nil
}

// LossRange returns the smallest nonzero and the largest value of
// Δ(y_i, ·) (Sarawagi & Gupta's L_ε and L_max, section 3.1); the first is 0
// when every class costs nothing.
func (m *Model) LossRange(i int) (lmin, lmax float64) {
	for _, c := range m.row(m.data[i].Label) {
		if c > 0 && (lmin == 0 || c < lmin) {
			lmin = c
		}
		lmax = max(lmax, c)
	}
	return lmin, lmax
}

// KBest returns the k classes with the highest s_i(y) + scale·Δ(y_i, y),
// best first (all K if k ≥ K; the lower class first on ties).
func (m *Model) KBest(i int, w []float64, scale float64, k int) []int {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	m.order = slices.Grow(m.order[:0], m.k)[:m.k]
	for y := range m.order {
		m.order[y] = y
	}
	slices.SortStableFunc(m.order, func(a, b int) int {
		return cmp.Compare(s[b]+scale*cost[b], s[a]+scale*cost[a])
	})
	return slices.Clone(m.order[:min(max(k, 0), m.k)])
}

// Positions returns 1: the class is the one error position (PosLearn over
// it is slack scaling).
func (m *Model) Positions(int) int { return 1 }

// PositionViolators appends the class y with Δ(y_i, y) > 0 maximising
// Δ(y_i, y)·(1 − s_i(y_i) + s_i(y)), if that is positive, as the violator
// of position 0.
func (m *Model) PositionViolators(i int, w []float64, dst []structpred.PositionViolator[int]) []structpred.PositionViolator[int] {
	x := m.data[i]
	s, cost := m.scoresOf(x.X, w), m.row(x.Label)
	best, bestV := -1, 0.0
	for y, c := range cost {
		if c <= 0 {
			continue
		}
		if v := c * (1 - s[x.Label] + s[y]); v > bestV {
			best, bestV = y, v
		}
	}
	if best < 0 {
		return dst
	}
	return append(dst, structpred.PositionViolator[int]{Position: 0, Y: best, Score: s[best], Loss: cost[best]})
}
