package ilp

import (
	"fmt"

	"gonum.org/v1/gonum/mat"

	"github.com/maxmargin/repro/decoders/mst"
)

// TreeDecoder solves first-order dependency parsing (the argmax over
// spanning arborescences rooted at 0 that Chu-Liu/Edmonds solves) as an
// integer linear program. The zero value searches every tree, as
// mst.Decoder{} does.
type TreeDecoder struct {
	// SingleRoot restricts the search to trees with exactly one root child,
	// as mst.Decoder.SingleRoot does.
	SingleRoot bool
	Options    Options
}

// Decode returns the highest-scoring tree of g. Score is g.TreeScore of its
// heads; among ties it returns one optimal tree, not necessarily
// Chu-Liu/Edmonds'. It panics on a malformed graph, as package mst does;
// the error reports a failure of the LP solver or the node limit.
func (dec TreeDecoder) Decode(g *mst.Graph) (mst.Tree, Stats, error) {
	checkGraph(g)
	heads, st, err := dec.decode(g.N, g.Score)
	if err != nil {
		return mst.Tree{}, st, err
	}
	return mst.Tree{Heads: heads, Score: g.TreeScore(heads)}, st, nil
}

// LossAugmented returns the tree maximising s(heads) + scale·Loss(truth,
// heads) and its Hamming loss: the program with scale added to the
// objective of every arc h → d with h ≠ truth[d]. Score is the augmented
// value. truth must be a head vector of length N+1 (truth[0] ignored).
func (dec TreeDecoder) LossAugmented(g *mst.Graph, truth []int, scale float64) (mst.Tree, int, Stats, error) {
	checkGraph(g)
	if len(truth) != g.N+1 {
		panic(fmt.Sprintf("ilp: truth has length %d, graph has N+1=%d nodes", len(truth), g.N+1))
	}
	m := g.N + 1
	table := append([]float64(nil), g.Score...)
	for d := 1; d < m; d++ {
		if truth[d] < 0 || truth[d] > g.N {
			panic(fmt.Sprintf("ilp: truth[%d]=%d out of range [0,%d]", d, truth[d], g.N))
		}
		for h := range m {
			if h != truth[d] {
				table[h*m+d] += scale
			}
		}
	}
	heads, st, err := dec.decode(g.N, table)
	if err != nil {
		return mst.Tree{}, 0, st, err
	}
	loss := mst.Loss(truth, heads)
	return mst.Tree{Heads: heads, Score: g.TreeScore(heads) + scale*float64(loss)}, loss, st, nil
}

func checkGraph(g *mst.Graph) {
	switch {
	case g == nil:
		panic("ilp: nil *mst.Graph")
	case g.N < 0 || len(g.Score) != (g.N+1)*(g.N+1):
		panic(fmt.Sprintf("ilp: graph has N=%d and %d scores, want (N+1)²", g.N, len(g.Score)))
	}
}

func (dec TreeDecoder) decode(n int, score []float64) ([]int, Stats, error) {
	heads := make([]int, n+1)
	heads[0] = -1
	if n == 0 {
		return heads, Stats{}, nil
	}
	r := &treeLP{n: n, score: score, singleRoot: dec.SingleRoot}
	sol, st, ok, err := solve(r, nil, dec.Options)
	if err != nil {
		return nil, st, err
	}
	if !ok {
		return nil, st, fmt.Errorf("ilp: tree program infeasible (a bug: every sentence has a tree)")
	}
	for a, on := range sol.on {
		if on {
			heads[a%(n+1)] = a / (n + 1)
		}
	}
	return heads, st, nil
}

// treeLP is the arc-factored program with single-commodity flow
// connectivity. Its parts are the arc indicators z_a, a = h·(N+1)+d, for
// every head h ∈ [0, N] and word d ∈ [1, N], h ≠ d (the other indices are
// never used). Each arc also has a flow f_a ≥ 0 and, to turn its capacity
// into an equality, a slack s_a ≥ 0. The rows:
//
//   - single head: Σ_h z_{h→d} = 1 for every word d;
//   - flow conservation: Σ_h f_{h→d} − Σ_e f_{d→e} = 1 for every word d,
//     so the root sends one unit to each word; the root's own row,
//     Σ_d f_{0→d} = N, is the sum of the words' rows and is dropped;
//   - capacity: f_a − cap_a·z_a + s_a = 0 for every arc, cap_a = N from
//     the root and N−1 between words (no subtree below a word is larger);
//   - with SingleRoot, Σ_d z_{0→d} = 1, dropped when a single word can
//     take the root as head and no other head, since its single-head row
//     is then the same equation.
//
// Flow can only reach every word along arcs that are on, so the integral
// points are exactly the trees. The relaxation is not integral in general
// (flow can be spread over arcs at fractions of their capacity), which is
// what branch and bound is for.
type treeLP struct {
	n          int
	score      []float64
	singleRoot bool
}

func (r *treeLP) parts() int { return (r.n + 1) * (r.n + 1) }

func (r *treeLP) fixOne(banned []bool, a int) {
	m := r.n + 1
	for h := range m {
		banned[h*m+a%m] = h*m+a%m != a
	}
}

// build lays out the program over the arcs not banned. Its basis comes
// from a tree of those arcs, found by breadth-first search from the root
// (with SingleRoot, from the first root child that reaches every word):
// the tree's z and f with every arc's slack s. Ordering rows as head,
// flow, capacity and columns as z, f, s makes that basis block triangular
// with nonsingular blocks (a permutation, the tree's incidence matrix less
// the root's row, the identity), which also shows the rows independent.
func (r *treeLP) build(banned []bool) (program, bool) {
	n, m := r.n, r.n+1
	alive := func(h, d int) bool { return h != d && d > 0 && !banned[h*m+d] }
	parent, ok := r.spanning(alive)
	if !ok {
		return program{}, false
	}
	col := make([]int, m*m)
	var arcs []int
	for a := range col {
		col[a] = -1
		if alive(a/m, a%m) {
			col[a] = len(arcs)
			arcs = append(arcs, a)
		}
	}
	na := len(arcs)
	rows := 2*n + na
	basis := make([]int, 0, rows+1)
	extra := -1 // the basis column that the single-root row needs
	if r.singleRoot {
		root := 0 // the tree's root child
		for d := 1; d < m; d++ {
			if parent[d] == 0 {
				root = d
			}
		}
		for d := 1; d < m && extra < 0; d++ {
			if d != root && alive(0, d) {
				extra = col[d]
			}
		}
		for h := 1; h < m && extra < 0; h++ {
			if alive(h, root) {
				extra = col[h*m+root]
			}
		}
		if extra >= 0 {
			rows++
			basis = append(basis, extra)
		}
	}
	a := mat.NewDense(rows, 3*na, nil)
	c := make([]float64, 3*na)
	b := make([]float64, rows)
	for d := range n {
		b[d], b[n+d] = 1, 1
	}
	if extra >= 0 {
		b[rows-1] = 1
	}
	score := make([]float64, m*m)
	for i, arc := range arcs {
		h, d := arc/m, arc%m
		score[arc] = r.score[arc]
		c[i] = -score[arc]
		capacity := float64(n - 1)
		if h == 0 {
			capacity = float64(n)
			if extra >= 0 {
				a.Set(rows-1, i, 1)
			}
		}
		a.Set(d-1, i, 1)           // z: single head of d
		a.Set(2*n+i, i, -capacity) // z: capacity
		a.Set(n+d-1, na+i, 1)      // f: into d
		if h > 0 {
			a.Set(n+h-1, na+i, -1) // f: out of h
		}
		a.Set(2*n+i, na+i, 1)   // f: capacity
		a.Set(2*n+i, 2*na+i, 1) // s: capacity
		if parent[d] == h {
			basis = append(basis, i, na+i)
		}
		basis = append(basis, 2*na+i)
	}
	return program{c: c, a: a, b: b, basis: basis, col: col, score: score}, true
}

// spanning returns the parent of every word in a tree of alive arcs (with
// SingleRoot, one with a single root child), ok false if there is none.
func (r *treeLP) spanning(alive func(h, d int) bool) (parent []int, ok bool) {
	m := r.n + 1
	parent = make([]int, m)
	if !r.singleRoot {
		return parent, r.search(alive, parent, 0)
	}
	for root := 1; root < m; root++ {
		if alive(0, root) && r.search(alive, parent, root) {
			parent[root] = 0
			return parent, true
		}
	}
	return nil, false
}

// search sets parent by breadth-first search over alive arcs from start,
// never entering the root, and reports whether every word was reached.
func (r *treeLP) search(alive func(h, d int) bool, parent []int, start int) bool {
	m := r.n + 1
	for i := range parent {
		parent[i] = -1
	}
	queue := []int{start}
	parent[start] = start
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		for d := 1; d < m; d++ {
			if parent[d] < 0 && alive(u, d) {
				parent[d] = u
				queue = append(queue, d)
			}
		}
	}
	for d := 1; d < m; d++ {
		if parent[d] < 0 {
			return false
		}
	}
	return true
}
