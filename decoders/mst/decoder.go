package mst

// Decoder selects a parsing algorithm. The zero value is Chu-Liu/Edmonds
// with any number of root children, MSTParser's non-projective decoder under
// CoNLL-X conventions.
//
// Ties between equally scored trees are broken deterministically but
// procedurally. Chu-Liu/Edmonds: every node takes its best incoming arc, the
// one from the smallest original head among equals, so when these arcs
// already form a tree it is the tree of per-word best heads, lowest head
// first; cycles are then contracted one at a time, the first found when
// following best arcs from the lowest-numbered node, and a contracted node's
// arcs take the first best member in cycle order. Eisner: every span takes
// its smallest best split point. "Equal" means equal in floating point, so
// ties are exact for small integer scores and otherwise only matter for
// genuine ties.
type Decoder struct {
	// Projective selects Eisner's algorithm: the best projective tree
	// instead of the best tree.
	Projective bool
	// SingleRoot restricts the search to trees in which exactly one word
	// attaches to the root (none if N = 0). For Chu-Liu/Edmonds it is exact and free
	// (arcs are ordered by the number of root arcs first, then by score);
	// for Eisner the root's first span may not be split.
	SingleRoot bool
}

// String names the decoder for logs and configs, e.g. "chu-liu-edmonds" or
// "eisner/single-root".
func (dec Decoder) String() string {
	s := "chu-liu-edmonds"
	if dec.Projective {
		s = "eisner"
	}
	if dec.SingleRoot {
		s += "/single-root"
	}
	return s
}

// decode runs the selected algorithm on an (N+1)² table into heads.
func (dec Decoder) decode(table []float64, m int, heads []int, ws *Workspace) bool {
	return dec.decodeWithout(table, m, heads, ws, -1)
}

// decodeWithout is decode; with arc ≥ 0 the table must differ from the one
// of the last decode with ws only in arc, now absent, which Chu-Liu/Edmonds
// uses to skip most of its first round.
func (dec Decoder) decodeWithout(table []float64, m int, heads []int, ws *Workspace, arc int) bool {
	if dec.Projective {
		return eisner(table, m, dec.SingleRoot, heads, ws)
	}
	return cleDecode(table, m, dec.SingleRoot, heads, ws, arc, false)
}

// Decode returns the highest-scoring tree (MAP). With a reused Workspace
// the only allocation is the returned head vector.
func (dec Decoder) Decode(g *Graph, ws *Workspace) Tree {
	g.check()
	ws = ws.orNew()
	m := g.N + 1
	heads := make([]int, m)
	if !dec.decode(g.Score, m, heads, ws) {
		panic("mst: no tree found; are all scores finite?")
	}
	return Tree{Heads: heads, Score: treeScore(g.Score, m, heads)}
}

// LossAugmented returns the tree maximising s(heads) + scale·Loss(truth,
// heads), the margin-scaling inference problem, and its Hamming loss. The
// loss is a count of wrong heads and decomposes over arcs, so this is MAP
// after adding scale to every arc h → d with h ≠ truth[d]. The Tree's Score
// is the augmented value. truth need not be a tree, only a head vector of
// length N+1 with heads in [0, N] (truth[0] is ignored); otherwise it panics.
func (dec Decoder) LossAugmented(g *Graph, truth []int, scale float64, ws *Workspace) (t Tree, loss int) {
	g.check()
	g.checkHeads(truth, "truth")
	ws = ws.orNew()
	m := g.N + 1
	table := augment(g, truth, scale, ws)
	heads := make([]int, m)
	if !dec.decode(table, m, heads, ws) {
		panic("mst: no tree found; are all scores finite?")
	}
	return Tree{Heads: heads, Score: treeScore(table, m, heads)}, Loss(truth, heads)
}

// augment writes the loss-augmented table into ws.
func augment(g *Graph, truth []int, scale float64, ws *Workspace) []float64 {
	m := g.N + 1
	table := grow(&ws.table, m*m)
	copy(table, g.Score)
	for h := range m {
		row := table[h*m : (h+1)*m]
		for d := 1; d < m; d++ {
			if truth[d] != h {
				row[d] += scale
			}
		}
	}
	return table
}

// BestWrongAt returns the highest-scoring tree whose word d does not attach
// to head: MAP with the arc head → d disabled. ok is false if no tree avoids
// that arc (one word whose only possible head is the root, or a
// single-root search whose every tree would need the arc). It panics if d
// is not a word or head is not a node.
func (dec Decoder) BestWrongAt(g *Graph, d, head int, ws *Workspace) (t Tree, ok bool) {
	g.check()
	if d < 1 || d > g.N || head < 0 || head > g.N {
		panic("mst: BestWrongAt arc out of range")
	}
	ws = ws.orNew()
	m := g.N + 1
	table := grow(&ws.table, m*m)
	copy(table, g.Score)
	return dec.bestWithout(g.Score, table, m, head*m+d, ws, false)
}

// bestWithout decodes table with entry arc disabled, restores it from
// score, and scores the result on score. afterMAP says that the last
// decode with ws was of score itself.
func (dec Decoder) bestWithout(score, table []float64, m, arc int, ws *Workspace, afterMAP bool) (Tree, bool) {
	table[arc] = absent
	heads := make([]int, m)
	since := -1 // the table is not the last decode's with arc disabled
	if afterMAP {
		since = arc
	}
	ok := dec.decodeWithout(table, m, heads, ws, since)
	table[arc] = score[arc]
	if !ok {
		return Tree{}, false
	}
	return Tree{Heads: heads, Score: treeScore(score, m, heads)}, true
}

// Violator is the best tree that attaches word Position to a wrong head,
// with its (unaugmented) score and its Hamming loss against the truth.
type Violator struct {
	Position int
	Tree
	Loss int
}

// PositionViolators appends to dst, for every word d = 1..N in order, the
// highest-scoring tree with Heads[d] ≠ truth[d]: what PosLearn needs
// (Sarawagi & Gupta, sec. 4.3.3). As in the paper it first finds the MAP
// tree y*; where y* is wrong it is the answer (those entries share y*'s
// head vector), and where it is right, MAP runs again with the arc
// truth[d] → d disabled: at most N+1 decodes in all. Words that no tree can
// get wrong (see BestWrongAt) are left out. truth is checked as in
// LossAugmented.
func (dec Decoder) PositionViolators(g *Graph, truth []int, ws *Workspace, dst []Violator) []Violator {
	g.check()
	g.checkHeads(truth, "truth")
	ws = ws.orNew()
	star := dec.Decode(g, ws)
	starLoss := Loss(truth, star.Heads)
	m := g.N + 1
	var table []float64
	for d := 1; d < m; d++ {
		if star.Heads[d] != truth[d] {
			dst = append(dst, Violator{Position: d, Tree: star, Loss: starLoss})
			continue
		}
		if table == nil {
			table = grow(&ws.table, m*m)
			copy(table, g.Score)
		}
		if t, ok := dec.bestWithout(g.Score, table, m, truth[d]*m+d, ws, true); ok {
			dst = append(dst, Violator{Position: d, Tree: t, Loss: Loss(truth, t.Heads)})
		}
	}
	return dst
}
