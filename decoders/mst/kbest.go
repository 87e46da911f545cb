package mst

import "container/heap"

// KBest returns the k highest-scoring trees of g, best first (all of them
// if there are fewer), by Lawler's partition of the tree space with forced
// and banned arcs, each part solved by the decoder: the best tree of a
// part splits the rest of the part into one subproblem per word whose head
// is still free there (the heads of the free words before it forced to the
// tree's, its own head banned), so no tree is listed twice or missed. Cost:
// at most k·N decodes. Equal scores come out in the order they are found.
func (dec Decoder) KBest(g *Graph, k int, ws *Workspace) []Tree {
	g.check()
	ws = ws.orNew()
	if k < 1 {
		return nil
	}
	m := g.N + 1
	first, ok := dec.constrained(g, part{}, ws)
	if !ok {
		return nil
	}
	q := &partQueue{{Tree: first}}
	seq := 0
	var out []Tree
	for q.Len() > 0 && len(out) < k {
		p := heap.Pop(q).(part)
		out = append(out, p.Tree)
		if len(out) == k {
			break
		}
		forced := append([]arc(nil), p.forced...)
		for d := 1; d < m; d++ {
			if p.fixes(d) {
				continue
			}
			child := part{
				forced: append([]arc(nil), forced...),
				banned: append(append([]arc(nil), p.banned...), arc{h: p.Heads[d], d: d}),
			}
			if t, ok := dec.constrained(g, child, ws); ok {
				child.Tree = t
				seq++
				child.seq = seq
				heap.Push(q, child)
			}
			forced = append(forced, arc{h: p.Heads[d], d: d})
		}
	}
	return out
}

// arc is a head → dependent pair.
type arc struct{ h, d int }

// part is one part of Lawler's partition: the trees with the forced arcs
// and none of the banned ones, and its best tree.
type part struct {
	Tree
	forced, banned []arc
	seq            int // order found, for a deterministic order among ties
}

func (p part) fixes(d int) bool {
	for _, a := range p.forced {
		if a.d == d {
			return true
		}
	}
	return false
}

// constrained decodes g within part p's constraints; the Tree is scored on g.
func (dec Decoder) constrained(g *Graph, p part, ws *Workspace) (Tree, bool) {
	m := g.N + 1
	table := grow(&ws.table, m*m)
	copy(table, g.Score)
	for _, a := range p.banned {
		table[a.h*m+a.d] = absent
	}
	for _, a := range p.forced {
		for h := range m {
			if h != a.h {
				table[h*m+a.d] = absent
			}
		}
	}
	heads := make([]int, m)
	if !dec.decode(table, m, heads, ws) {
		return Tree{}, false
	}
	if dec.SingleRoot && m > 1 {
		// Chu-Liu/Edmonds prefers one root child but returns more when
		// the constraints leave no other tree: not a tree of this part.
		roots := 0
		for d := 1; d < m; d++ {
			if heads[d] == 0 {
				roots++
			}
		}
		if roots != 1 {
			return Tree{}, false
		}
	}
	return Tree{Heads: heads, Score: treeScore(g.Score, m, heads)}, true
}

// partQueue is a max-heap of parts by the score of their best tree, ties
// in the order found.
type partQueue []part

func (q partQueue) Len() int { return len(q) }
func (q partQueue) Less(i, j int) bool {
	return q[i].Score > q[j].Score || q[i].Score == q[j].Score && q[i].seq < q[j].seq
}
func (q partQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *partQueue) Push(x any)   { *q = append(*q, x.(part)) }
func (q *partQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}
