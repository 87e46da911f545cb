package decoders

import "fmt"

// MaxMarginals holds, for every position t and label y, the best score of a
// labeling that passes through y at t, together with the back-pointers of
// the forward and backward max-product passes that produced it. This is what
// PosLearn needs (Sarawagi & Gupta sec. 4.3.1): the best labeling with each
// position forced to each label, for about twice the cost of one Viterbi.
type MaxMarginals struct {
	N, K int
	// MM[t*K+y] = max over labelings with y_t = y of s(y).
	MM []float64

	fwd []int32 // fwd[t*K+y], t ≥ 1: best y_{t-1} given y_t = y
	bwd []int32 // bwd[t*K+y], t < N-1: best y_{t+1} given y_t = y
}

// ComputeMaxMarginals runs a forward and a backward max-product pass over c.
// The result owns its tables; the workspace only lends scratch space.
func ComputeMaxMarginals(c *Chain, ws *Workspace) *MaxMarginals {
	c.check()
	ws = ws.orNew()
	n, k := c.N, c.K
	trans := c.trans(ws)
	m := &MaxMarginals{
		N: n, K: k,
		MM:  make([]float64, n*k),
		fwd: make([]int32, n*k),
		bwd: make([]int32, n*k),
	}
	if n == 0 {
		return m
	}
	alpha := grow(&ws.a, n*k) // includes the unary of position t
	beta := grow(&ws.b, n*k)  // excludes it
	copy(alpha[:k], c.Unary[:k])
	for t := 1; t < n; t++ {
		prev, cur, bp := alpha[(t-1)*k:t*k], alpha[t*k:(t+1)*k], m.fwd[t*k:(t+1)*k]
		// Row-major sweep over Trans; strict > keeps the lowest previous
		// label on ties.
		for y := range k {
			cur[y], bp[y] = prev[0]+trans[y], 0
		}
		for p := 1; p < k; p++ {
			row := trans[p*k : (p+1)*k]
			for y := range k {
				if v := prev[p] + row[y]; v > cur[y] {
					cur[y], bp[y] = v, int32(p)
				}
			}
		}
		u := c.Unary[t*k : (t+1)*k]
		for y := range k {
			cur[y] += u[y]
		}
	}
	w := grow(&ws.tmp, k)
	clear(beta[(n-1)*k:])
	for t := n - 2; t >= 0; t-- {
		for y := range w {
			w[y] = c.Unary[(t+1)*k+y] + beta[(t+1)*k+y]
		}
		for y := range k {
			row := trans[y*k : (y+1)*k]
			bi := argmaxPlus(row, w)
			beta[t*k+y], m.bwd[t*k+y] = row[bi]+w[bi], int32(bi)
		}
	}
	for i := range m.MM {
		m.MM[i] = alpha[i] + beta[i]
	}
	return m
}

// Labeling returns a labeling with y_t = y whose score is MM[t*K+y], read off
// the back-pointers without decoding again. Every back-pointer prefers the
// lowest label among ties, so the part after t is the lexicographically
// smallest optimal suffix, and the part before t is the smallest optimal
// prefix when read from position t-1 back to 0. It panics if t or y is out of
// range.
func (m *MaxMarginals) Labeling(t, y int) []int {
	return m.LabelingInto(make([]int, m.N), t, y)
}

// LabelingInto is Labeling writing into dst, which must have length N; it
// returns dst.
func (m *MaxMarginals) LabelingInto(dst []int, t, y int) []int {
	if t < 0 || t >= m.N || y < 0 || y >= m.K {
		panic(fmt.Sprintf("decoders: Labeling(%d, %d) out of range for N=%d, K=%d", t, y, m.N, m.K))
	}
	if len(dst) != m.N {
		panic(fmt.Sprintf("decoders: LabelingInto dst has length %d, want %d", len(dst), m.N))
	}
	dst[t] = y
	for u := t; u > 0; u-- {
		dst[u-1] = int(m.fwd[u*m.K+dst[u]])
	}
	for u := t; u < m.N-1; u++ {
		dst[u+1] = int(m.bwd[u*m.K+dst[u]])
	}
	return dst
}
