package multiclass

import (
	"fmt"
	"math"
	"slices"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/structpred"
)

// Embedding is a class embedding Λ (Tsochantaridis et al. 2004, section
// 5.2): K rows Λ(y) over M output features, and the joint feature map
// f(x, y) = Λ(y) ⊗ x, so that
//
//	s(y) = Σ_m Λ_ym · w_m·x,   w_m = w[m·D : (m+1)·D].
//
// The flat model is Λ = I (M = K). For a taxonomy, Λ(y) has a 1 for every
// node on the path to class y, so classes share their ancestors' weights
// (package taxonomy builds it). Every inference stays an enumeration of
// the K classes: only the scores and the feature differences change.
type Embedding struct {
	M    int                    // output features
	Rows []structpred.SparseVec // Λ(y), one per class: indices in [0, M), strictly increasing
}

// Identity returns the flat embedding Λ = I over k classes.
func Identity(k int) Embedding {
	e := Embedding{M: k, Rows: make([]structpred.SparseVec, k)}
	for y := range k {
		e.Rows[y] = structpred.SparseVec{Idx: []int32{int32(y)}, Val: []float64{1}}
	}
	return e
}

// Validate reports a malformed embedding.
func (e Embedding) Validate() error {
	if e.M < 1 || len(e.Rows) < 1 {
		return fmt.Errorf("class embedding with %d classes and %d output features", len(e.Rows), e.M)
	}
	for y, r := range e.Rows {
		if err := r.Check(e.M); err != nil {
			return fmt.Errorf("class embedding, class %d: %w", y, err)
		}
	}
	return nil
}

// NewEmbedded returns a model over data with dim input features whose K =
// len(emb.Rows) classes are embedded by emb; the weight vector has M·D
// entries, laid out output feature by output feature. A zero cost means
// the 0/1 loss. NewEmbedded(data, dim, Identity(k), cost) computes what
// New(data, dim, k, cost) does (New's own code, the flat one, is faster).
func NewEmbedded(data []Instance, dim int, emb Embedding, cost decoders.Cost) (*Model, error) {
	if err := emb.Validate(); err != nil {
		return nil, err
	}
	if d := int64(dim) * int64(emb.M); d > math.MaxInt32 {
		return nil, fmt.Errorf("%d features and %d output features make %d weights, beyond the int32 indices of sparse vectors", dim, emb.M, d)
	}
	m, err := New(data, dim, len(emb.Rows), cost)
	if err != nil {
		return nil, err
	}
	m.emb = &emb
	return m, nil
}

// Embedding returns the model's class embedding (Identity(K) for a flat
// model).
func (m *Model) Embedding() Embedding {
	if m.emb == nil {
		return Identity(m.k)
	}
	return *m.emb
}

// embScores fills the scratch with the node scores t_m = w_m·x, then the
// class scores s(y) = Σ_m Λ_ym t_m.
func (m *Model) embScores(x structpred.SparseVec, w []float64) []float64 {
	e := m.emb
	m.t = slices.Grow(m.t[:0], e.M)[:e.M]
	for n := range m.t {
		wn := w[n*m.dim : (n+1)*m.dim]
		var s float64
		for i, j := range x.Idx {
			if j >= 0 && int(j) < m.dim {
				s += x.Val[i] * wn[j]
			}
		}
		m.t[n] = s
	}
	m.s = slices.Grow(m.s[:0], m.k)[:m.k]
	for y, r := range e.Rows {
		var s float64
		for i, n := range r.Idx {
			s += r.Val[i] * m.t[n]
		}
		m.s[y] = s
	}
	return m.s
}

// embScore returns Σ_m Λ_ym w_m·x.
func (m *Model) embScore(x structpred.SparseVec, w []float64, y int) float64 {
	r := m.emb.Rows[y]
	var s float64
	for i, n := range r.Idx {
		s += r.Val[i] * x.Dot(w[int(n)*m.dim:(int(n)+1)*m.dim])
	}
	return s
}

// rowDiff returns Λ(g) − Λ(y) without its zero entries (the shared
// ancestors cancel).
func (m *Model) rowDiff(g, y int) structpred.SparseVec {
	a, b := m.emb.Rows[g], m.emb.Rows[y]
	var d structpred.SparseVec
	push := func(n int32, v float64) {
		if v != 0 {
			d.Idx, d.Val = append(d.Idx, n), append(d.Val, v)
		}
	}
	i, j := 0, 0
	for i < len(a.Idx) || j < len(b.Idx) {
		switch {
		case j == len(b.Idx) || (i < len(a.Idx) && a.Idx[i] < b.Idx[j]):
			push(a.Idx[i], a.Val[i])
			i++
		case i == len(a.Idx) || b.Idx[j] < a.Idx[i]:
			push(b.Idx[j], -b.Val[j])
			j++
		default:
			push(a.Idx[i], a.Val[i]-b.Val[j])
			i, j = i+1, j+1
		}
	}
	return d
}

// embDeltaFeatures returns (Λ(y_i) − Λ(y)) ⊗ x_i, indices increasing.
func (m *Model) embDeltaFeatures(i, y int) structpred.SparseVec {
	x, g := m.data[i].X, m.data[i].Label
	d := m.rowDiff(g, y)
	n := len(x.Idx)
	out := structpred.SparseVec{Idx: make([]int32, 0, n*len(d.Idx)), Val: make([]float64, 0, n*len(d.Idx))}
	for e, node := range d.Idx {
		for k, j := range x.Idx {
			out.Idx = append(out.Idx, node*int32(m.dim)+j)
			out.Val = append(out.Val, d.Val[e]*x.Val[k])
		}
	}
	return out
}

// embDeltaScore returns w·δf_i(y).
func (m *Model) embDeltaScore(i int, w []float64, y int) float64 {
	x, g := m.data[i].X, m.data[i].Label
	d := m.rowDiff(g, y)
	var s float64
	for e, node := range d.Idx {
		s += d.Val[e] * x.Dot(w[int(node)*m.dim:(int(node)+1)*m.dim])
	}
	return s
}

// embAddDelta calls add for the terms of δf_i(y).
func (m *Model) embAddDelta(i, y int, scale float64, add func(j int32, v float64)) {
	x, g := m.data[i].X, m.data[i].Label
	d := m.rowDiff(g, y)
	for e, node := range d.Idx {
		for k, j := range x.Idx {
			add(node*int32(m.dim)+j, scale*d.Val[e]*x.Val[k])
		}
	}
}

// embAddWeighted adds Σ_y c[y]·f(x, y) − truthWeight·f(x, y_x) into grad:
// the classes' coefficients are first summed per output feature.
func (m *Model) embAddWeighted(x Instance, c []float64, truthWeight float64, grad []float64) {
	e := m.emb
	m.t = slices.Grow(m.t[:0], e.M)[:e.M]
	clear(m.t)
	for y, cy := range c {
		if y == x.Label {
			cy -= truthWeight
		}
		r := e.Rows[y]
		for i, n := range r.Idx {
			m.t[n] += cy * r.Val[i]
		}
	}
	for n, cn := range m.t {
		if cn != 0 {
			x.X.AddTo(grad[n*m.dim:(n+1)*m.dim], cn)
		}
	}
}

// embClassWeights returns Σ_m Λ_ym w_m, the effective weight vector of
// class y.
func (m *Model) embClassWeights(w []float64, y int) []float64 {
	out := make([]float64, m.dim)
	r := m.emb.Rows[y]
	for i, n := range r.Idx {
		for j, v := range w[int(n)*m.dim : (int(n)+1)*m.dim] {
			out[j] += r.Val[i] * v
		}
	}
	return out
}
