package decoders

import "fmt"

// Chain holds the score tables of a first-order linear chain of length N over
// K labels. The score of a labeling y is
//
//	s(y) = Σ_t Unary[t*K+y_t] + Σ_{t≥1} Trans[y_{t-1}*K+y_t].
type Chain struct {
	N, K  int
	Unary []float64 // N*K, row t holds the scores of position t
	Trans []float64 // K*K indexed [prev*K+next]; nil or empty means all zero
}

// NewChain returns a chain of length n over k labels with zeroed Unary and
// Trans tables, ready to be filled in.
func NewChain(n, k int) *Chain {
	c := &Chain{N: n, K: k, Unary: make([]float64, n*k), Trans: make([]float64, k*k)}
	c.check()
	return c
}

// Score returns s(y). It panics if len(y) != N or a label is out of range.
func (c *Chain) Score(y []int) float64 {
	c.check()
	c.checkLabels(y, "labeling")
	return pathScore(c.Unary, c.Trans, c.K, y)
}

// pathScore sums the scores along y in a fixed order. Every decoder reports
// the score of its result through this function, so a returned Score is
// bit-for-bit the value Score would compute for the same tables.
func pathScore(unary, trans []float64, k int, y []int) float64 {
	var s float64
	for t, l := range y {
		if t > 0 && len(trans) > 0 {
			s += trans[y[t-1]*k+l]
		}
		s += unary[t*k+l]
	}
	return s
}

// check panics if the chain's tables do not match N and K.
func (c *Chain) check() {
	switch {
	case c == nil:
		panic("decoders: nil *Chain")
	case c.K < 1:
		panic(fmt.Sprintf("decoders: chain has K=%d, need K ≥ 1", c.K))
	case c.N < 0:
		panic(fmt.Sprintf("decoders: chain has N=%d, need N ≥ 0", c.N))
	case len(c.Unary) != c.N*c.K:
		panic(fmt.Sprintf("decoders: len(Unary)=%d, want N*K=%d", len(c.Unary), c.N*c.K))
	case len(c.Trans) != 0 && len(c.Trans) != c.K*c.K:
		panic(fmt.Sprintf("decoders: len(Trans)=%d, want 0 or K*K=%d", len(c.Trans), c.K*c.K))
	}
}

// checkLabels panics unless y is a labeling of the chain.
func (c *Chain) checkLabels(y []int, what string) {
	if len(y) != c.N {
		panic(fmt.Sprintf("decoders: %s has length %d, chain has N=%d", what, len(y), c.N))
	}
	for t, l := range y {
		if l < 0 || l >= c.K {
			panic(fmt.Sprintf("decoders: %s[%d]=%d out of range [0,%d)", what, t, l, c.K))
		}
	}
}

// trans returns the transition table, substituting a zero table from ws when
// the chain has none so the inner loops need no branch.
func (c *Chain) trans(ws *Workspace) []float64 {
	if len(c.Trans) != 0 {
		return c.Trans
	}
	z := grow(&ws.zeros, c.K*c.K)
	clear(z)
	return z
}

// Scored is a labeling together with the objective value it achieves.
type Scored struct {
	Labels []int
	Score  float64
}
