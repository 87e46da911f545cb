package mst

import (
	"fmt"
	"math"
)

// Graph holds the arc scores of a sentence of N words, whose nodes are the
// dummy root 0 and the words 1..N. Score[h*(N+1)+d] is the score of the arc
// head h → dependent d; entries with d = 0 or h = d are ignored.
type Graph struct {
	N     int
	Score []float64 // (N+1)*(N+1) indexed [head*(N+1)+dependent]
}

// NewGraph returns a graph of n words with a zeroed score table, ready to be
// filled in with SetArc or directly.
func NewGraph(n int) *Graph {
	g := &Graph{N: n, Score: make([]float64, (n+1)*(n+1))}
	g.check()
	return g
}

// Arc returns the score of the arc h → d.
func (g *Graph) Arc(h, d int) float64 { return g.Score[h*(g.N+1)+d] }

// SetArc sets the score of the arc h → d.
func (g *Graph) SetArc(h, d int, s float64) { g.Score[h*(g.N+1)+d] = s }

// TreeScore returns Σ_{d=1..N} Score[heads[d]*(N+1)+d]. It panics if heads
// does not have length N+1 or a head is out of range; it does not check that
// heads is a tree (see CheckTree).
func (g *Graph) TreeScore(heads []int) float64 {
	g.check()
	g.checkHeads(heads, "heads")
	return treeScore(g.Score, g.N+1, heads)
}

// treeScore sums the arc scores of heads in word order. Every decoder reports
// its result's score through this function, so a returned Score is bit for
// bit what TreeScore computes on the same table.
func treeScore(score []float64, m int, heads []int) float64 {
	var s float64
	for d := 1; d < m; d++ {
		s += score[heads[d]*m+d]
	}
	return s
}

// Tree is a head vector (Heads[0] = -1) with the objective value it
// achieves.
type Tree struct {
	Heads []int
	Score float64
}

// Loss returns the Hamming loss of heads against truth: the number of words
// d ≥ 1 with heads[d] ≠ truth[d]. It panics if the lengths differ.
func Loss(truth, heads []int) int {
	if len(truth) != len(heads) {
		panic(fmt.Sprintf("mst: Loss of head vectors with lengths %d and %d", len(truth), len(heads)))
	}
	n := 0
	for d := 1; d < len(heads); d++ {
		if heads[d] != truth[d] {
			n++
		}
	}
	return n
}

// check panics if the graph's table does not match N.
func (g *Graph) check() {
	switch {
	case g == nil:
		panic("mst: nil *Graph")
	case g.N < 0:
		panic(fmt.Sprintf("mst: graph has N=%d, need N ≥ 0", g.N))
	case len(g.Score) != (g.N+1)*(g.N+1):
		panic(fmt.Sprintf("mst: len(Score)=%d, want (N+1)²=%d", len(g.Score), (g.N+1)*(g.N+1)))
	}
}

// checkHeads panics unless heads has length N+1 and every heads[d], d ≥ 1, is
// in [0, N]. heads[0] is not looked at.
func (g *Graph) checkHeads(heads []int, what string) {
	if len(heads) != g.N+1 {
		panic(fmt.Sprintf("mst: %s has length %d, graph has N+1=%d nodes", what, len(heads), g.N+1))
	}
	for d := 1; d < len(heads); d++ {
		if h := heads[d]; h < 0 || h > g.N {
			panic(fmt.Sprintf("mst: %s[%d]=%d out of range [0,%d]", what, d, h, g.N))
		}
	}
}

// absent marks an arc that a decoder must not use (a disabled arc, the
// arcs into the root and self-loops in the working tables).
var absent = math.Inf(-1)
