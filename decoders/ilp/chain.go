package ilp

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/maxmargin/repro/decoders"
)

// DecodeChain returns argmax_y s(y) of the chain c, solved as the chapter's
// integer linear program by LP relaxation and branch and bound. Score is
// c.Score of the labeling. Among ties it returns one of the optimal
// labelings, not necessarily the one decoders.Viterbi returns. It panics on
// a malformed chain, as package decoders does; the error reports a failure
// of the LP solver or the node limit.
func DecodeChain(c *decoders.Chain, opt Options) (decoders.Scored, Stats, error) {
	checkChain(c)
	r := newChainLP(c.N, c.K, c.Unary, c.Trans)
	y, st, err := r.decode(opt)
	if err != nil {
		return decoders.Scored{}, st, err
	}
	return decoders.Scored{Labels: y, Score: c.Score(y)}, st, nil
}

// LossAugmentedChain returns argmax_y s(y) + scale·cost.Loss(truth, y): the
// same program with the per-position loss added to the objective of every
// label pair ending in a wrong label (the loss decomposes over positions,
// so it stays linear in the indicators). Score is the augmented value. It
// panics if truth is not a labeling of c or cost does not have c's K.
func LossAugmentedChain(c *decoders.Chain, truth []int, cost decoders.Cost, scale float64, opt Options) (decoders.Scored, Stats, error) {
	checkChain(c)
	checkLabels(c, truth)
	if cost.K != c.K || len(cost.M) != c.K*c.K {
		panic(fmt.Sprintf("ilp: cost has K=%d and len(M)=%d, chain has K=%d", cost.K, len(cost.M), c.K))
	}
	k := c.K
	unary := make([]float64, len(c.Unary))
	for t, g := range truth {
		for y := range k {
			unary[t*k+y] = c.Unary[t*k+y] + scale*cost.M[g*k+y]
		}
	}
	y, st, err := newChainLP(c.N, k, unary, c.Trans).decode(opt)
	if err != nil {
		return decoders.Scored{}, st, err
	}
	return decoders.Scored{Labels: y, Score: c.Score(y) + scale*cost.Loss(truth, y)}, st, nil
}

func checkChain(c *decoders.Chain) {
	switch {
	case c == nil:
		panic("ilp: nil *Chain")
	case c.K < 1 || c.N < 0:
		panic(fmt.Sprintf("ilp: chain has N=%d, K=%d", c.N, c.K))
	case len(c.Unary) != c.N*c.K:
		panic(fmt.Sprintf("ilp: len(Unary)=%d, want N*K=%d", len(c.Unary), c.N*c.K))
	case len(c.Trans) != 0 && len(c.Trans) != c.K*c.K:
		panic(fmt.Sprintf("ilp: len(Trans)=%d, want 0 or K*K=%d", len(c.Trans), c.K*c.K))
	}
}

func checkLabels(c *decoders.Chain, y []int) {
	if len(y) != c.N {
		panic(fmt.Sprintf("ilp: truth has length %d, chain has N=%d", len(y), c.N))
	}
	for t, l := range y {
		if l < 0 || l >= c.K {
			panic(fmt.Sprintf("ilp: truth[%d]=%d out of range [0,%d)", t, l, c.K))
		}
	}
}

// chainLP is the chapter's program (eq. 17.33–17.34) for a chain of n
// positions over k labels. Its parts are the indicators z_{l,k',k}: for
// l = 0 there is no previous label, so position 0 has k parts z_{0,k};
// position l ≥ 1 has k² parts. Part indices run position by position, and
// within one in the order k'·k+k.
//
// The constraints are the chapter's 2 and 3: Σ_{k',k} z_{l,k',k} = 1 for
// every l, and Σ_{k'} z_{l,k',k} = Σ_j z_{l+1,k,j} for l < n−1 and
// every k. Summing the consistency rows of position l over k gives
// Σ z_l = Σ z_{l+1}, so every sum-to-one row but the first (l = 0) is
// implied: those n−1 rows are the redundant ones, and dropped. What
// remains is the node-arc incidence matrix of the trellis (a source, the
// nodes (l, k) for l < n−1, every arc into the last position going to one
// sink whose row is left out), which has full row rank and is totally
// unimodular: every vertex of the relaxation is integral.
type chainLP struct {
	n, k         int
	unary, trans []float64 // trans nil means zero
}

func newChainLP(n, k int, unary, trans []float64) *chainLP {
	if len(trans) == 0 {
		trans = nil
	}
	return &chainLP{n: n, k: k, unary: unary, trans: trans}
}

// decode solves the program and reads the labeling off the parts that are on.
func (r *chainLP) decode(opt Options) ([]int, Stats, error) {
	if r.n == 0 {
		return []int{}, Stats{}, nil
	}
	sol, st, ok, err := solve(r, nil, opt)
	if err != nil {
		return nil, st, err
	}
	if !ok {
		return nil, st, fmt.Errorf("ilp: chain program infeasible (a bug: every labeling is feasible)")
	}
	return r.labels(sol.on), st, nil
}

// labels returns the labeling whose label pairs are on.
func (r *chainLP) labels(on []bool) []int {
	y := make([]int, r.n)
	for p, v := range on {
		if v {
			l, _, cur := r.part(p)
			y[l] = cur
		}
	}
	return y
}

func (r *chainLP) parts() int {
	if r.n == 0 {
		return 0
	}
	return r.k + (r.n-1)*r.k*r.k
}

// first returns the index of position l's first part.
func (r *chainLP) first(l int) int {
	if l == 0 {
		return 0
	}
	return r.k + (l-1)*r.k*r.k
}

// part returns the position and the labels (prev is −1 at l = 0) of part p.
func (r *chainLP) part(p int) (l, prev, cur int) {
	if p < r.k {
		return 0, -1, p
	}
	q := p - r.k
	kk := r.k * r.k
	return q/kk + 1, q % kk / r.k, q % r.k
}

// score is a part's objective coefficient: w·φ_l(x, ⟨…, k', k⟩) (eq. 17.34).
func (r *chainLP) score(p int) float64 {
	l, prev, cur := r.part(p)
	s := r.unary[l*r.k+cur]
	if prev >= 0 && r.trans != nil {
		s += r.trans[prev*r.k+cur]
	}
	return s
}

func (r *chainLP) fixOne(banned []bool, p int) {
	l, _, _ := r.part(p)
	for q := r.first(l); q < r.first(l+1) && q < len(banned); q++ {
		banned[q] = q != p
	}
}

// build keeps only the nodes (l, k) on some source-to-sink path of parts
// not banned, and the parts between them: a node cut off on one side would
// leave a row that is zero or dependent on the others. The basis is an
// in-tree to the sink that takes each node's lowest remaining outgoing part:
// the path it gives the source carries flow 1, every other tree arc 0.
func (r *chainLP) build(banned []bool) (program, bool) {
	n, k := r.n, r.k
	inner := (n - 1) * k // nodes (l, k) with l < n−1; the last layer is the sink
	fwd, bwd := make([]bool, inner), make([]bool, inner)
	for l := range n - 1 {
		for cur := range k {
			for prev := range max(1, k*min(l, 1)) {
				if fwd[l*k+cur] {
					break
				}
				p := r.pair(l, prev, cur)
				fwd[l*k+cur] = !banned[p] && (l == 0 || fwd[(l-1)*k+prev])
			}
		}
	}
	for l := n - 2; l >= 0; l-- {
		for cur := range k {
			for next := range k {
				p := r.pair(l+1, cur, next)
				if !banned[p] && (l == n-2 || bwd[(l+1)*k+next]) {
					bwd[l*k+cur] = true
					break
				}
			}
		}
	}
	// row: S is row 0, alive inner node v is row[v] > 0; the sink has none.
	row := make([]int, inner)
	rows := 1
	for v := range inner {
		row[v] = -1
		if fwd[v] && bwd[v] {
			row[v] = rows
			rows++
		}
	}
	tail := func(l, prev int) int { // the row of a part's tail
		if l == 0 {
			return 0
		}
		return row[(l-1)*k+prev]
	}
	head := func(l, cur int) int { // the row of a part's head, −1 for the sink
		if l == n-1 {
			return -1
		}
		return row[l*k+cur]
	}
	col := make([]int, r.parts())
	var cols []int // part of each column
	for p := range col {
		col[p] = -1
		l, prev, cur := r.part(p)
		if banned[p] || tail(l, prev) < 0 || (l < n-1 && head(l, cur) < 0) {
			continue
		}
		col[p] = len(cols)
		cols = append(cols, p)
	}
	if len(cols) == 0 {
		return program{}, false
	}
	basisOf := make([]int, rows) // lowest alive outgoing column of each row
	for i := range basisOf {
		basisOf[i] = -1
	}
	a := mat.NewDense(rows, len(cols), nil)
	c := make([]float64, len(cols))
	score := make([]float64, len(col))
	for j, p := range cols {
		l, prev, cur := r.part(p)
		score[p] = r.score(p)
		c[j] = -score[p]
		t := tail(l, prev)
		if l == 0 {
			a.Set(t, j, 1)
		} else {
			a.Set(t, j, -1)
		}
		if basisOf[t] < 0 {
			basisOf[t] = j
		}
		if h := head(l, cur); h >= 0 {
			a.Set(h, j, 1)
		}
	}
	if basisOf[0] < 0 {
		return program{}, false // the source reaches no node that reaches the sink
	}
	b := make([]float64, rows)
	b[0] = 1
	return program{c: c, a: a, b: b, basis: basisOf, col: col, score: score}, true
}

// pair returns the part index of z_{l,prev,cur} (prev ignored at l = 0).
func (r *chainLP) pair(l, prev, cur int) int {
	if l == 0 {
		return cur
	}
	return r.first(l) + prev*r.k + cur
}
