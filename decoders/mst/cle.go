package mst

// cleDecode writes into heads the maximum spanning arborescence rooted at
// 0 of the m-node graph whose arc h → d scores table[h*m+d] (absent = −Inf
// marks an arc that may not be used) and reports whether one exists. With
// singleRoot, trees with one root child are preferred to any tree with more,
// whatever the scores: every root arc carries a key of −1 and arcs are
// compared by (key, score) lexicographically. Chu-Liu/Edmonds is correct for
// weights in any totally ordered abelian group, so this is exact and costs
// no precision, unlike the usual large score penalty on root arcs.
//
// The algorithm is the simple recursive contraction, unrolled: every live
// node takes its best incoming arc; if these form a cycle, the cycle is
// contracted into a new supernode whose incoming arcs are rescored by
// s(u→v) − s(best(v)→v) and whose outgoing arcs are the best out of the
// cycle, and the search repeats. Supernodes get fresh ids m, m+1, ..., so the
// working matrices have stride 2m, and each remembers which original arc
// every arc of the contracted graph stands for. Expansion then walks the
// contractions backwards: in each cycle, the member containing the dependent
// of the arc that entered the supernode loses its cycle arc; the others keep
// theirs.
//
// Ties: a node's best incoming arc is the one with the highest (key, score),
// and among equals the one whose original head is smallest; cycles are
// contracted one at a time, the first found when following best arcs from
// the live nodes in increasing id order; a supernode's rescored arcs take
// the first best cycle member in cycle order.
//
// After a contraction only the supernode needs a full search for its best
// incoming arc; every other node keeps its best arc or takes the
// supernode's (see rechoose), which gives the same tree as searching every
// node again in O(m) instead of O(m²) a contraction.
//
// The first round's best arcs are kept in ws.first when without < 0.
// Otherwise the table must differ from the one of the last such call with
// ws only in entry without, now absent: the first round's best arcs are
// then that call's, but at the arc's dependent if the arc was its best
// (removing an arc that was not the maximum does not change a maximum), an
// O(m) first round instead of O(m²) for PositionViolators' decodes with
// one true arc disabled each. With full every node's best arc is searched
// afresh in every round (the reference the shortcuts are tested against).
func cleDecode(table []float64, m int, singleRoot bool, heads []int, ws *Workspace, without int, full bool) bool {
	c := newCLE(table, m, singleRoot, ws)
	if without >= 0 && !full {
		copy(c.best[:m], ws.first[:m])
		if h, d := int32(without/m), int32(without%m); c.best[d] == h {
			if c.best[d] = c.bestInto(d); c.best[d] < 0 {
				return false
			}
		}
	} else {
		if !c.chooseBest() {
			return false
		}
		if without < 0 {
			ws.first = append(ws.first[:0], c.best[:m]...)
		}
	}
	for {
		cycle := c.findCycle()
		if cycle == nil {
			break
		}
		s := c.contract(cycle)
		ok := false
		if full {
			ok = c.chooseBest()
		} else {
			ok = c.rechoose(s)
		}
		if !ok {
			return false
		}
	}
	c.expand(heads)
	return true
}

// cle is the state of one Chu-Liu/Edmonds run; its slices live in a
// Workspace.
type cle struct {
	m, stride int
	w         []float64 // w[u*stride+v]: score of arc u → v (absent if unusable)
	key       []int32   // key[u*stride+v]: −(root arcs it stands for), if singleRoot
	arc       []int32   // arc[u*stride+v]: original arc h*m+d it stands for
	best      []int32
	parent    []int32
	enter     []int32
	color     []int32
	live      []int32 // live nodes in increasing id order; 0 first
	ws        *Workspace
}

func newCLE(table []float64, m int, singleRoot bool, ws *Workspace) cle {
	stride := 2 * m
	c := cle{
		m: m, stride: stride,
		w:      grow(&ws.w, stride*stride),
		key:    grow(&ws.key, stride*stride),
		arc:    grow(&ws.arc, stride*stride),
		best:   grow(&ws.best, stride),
		parent: grow(&ws.parent, stride),
		enter:  grow(&ws.enter, stride),
		color:  grow(&ws.color, stride),
		live:   grow(&ws.live, m),
		ws:     ws,
	}
	for u := range m {
		row := u * stride
		var k int32
		if u == 0 && singleRoot {
			k = -1
		}
		for v := range m {
			c.w[row+v], c.key[row+v], c.arc[row+v] = table[u*m+v], k, int32(u*m+v)
		}
		c.w[row+u], c.w[row] = absent, absent
		c.live[u] = int32(u)
	}
	for i := range c.parent {
		c.parent[i] = -1
	}
	ws.cyc, ws.cycArc, ws.cycOff = ws.cyc[:0], ws.cycArc[:0], ws.cycOff[:0]
	return c
}

// better reports whether arc i beats arc j (indices into w), absent arcs
// losing to everything; equal arcs are not better.
func (c *cle) better(i, j int) bool {
	switch {
	case c.w[i] == absent:
		return false
	case c.w[j] == absent:
		return true
	case c.key[i] != c.key[j]:
		return c.key[i] > c.key[j]
	}
	return c.w[i] > c.w[j]
}

// chooseBest sets best[v] for every live v ≠ 0 and reports whether every one
// has a usable incoming arc.
func (c *cle) chooseBest() bool {
	for _, v := range c.live[1:] {
		b := c.bestInto(v)
		if b < 0 {
			return false
		}
		c.best[v] = b
	}
	return true
}

// bestInto returns the live node whose arc into v is best, or −1 if none
// is usable: the highest (key, score), and among equals the smallest
// original arc, which makes it a maximum over a total order, the same in
// whatever order the nodes are visited.
func (c *cle) bestInto(v int32) int32 {
	b := int32(-1)
	for _, u := range c.live {
		if u == v {
			continue
		}
		i := int(u)*c.stride + int(v)
		if b < 0 {
			if c.w[i] != absent {
				b = u
			}
			continue
		}
		if c.beats(i, int(b)*c.stride+int(v)) {
			b = u
		}
	}
	return b
}

// beats reports whether arc i is preferred to arc j into the same node.
func (c *cle) beats(i, j int) bool {
	return c.better(i, j) || (!c.better(j, i) && c.arc[i] < c.arc[j])
}

// rechoose brings best up to date after contract made supernode s: for a
// node whose best head was not in the cycle, the candidates lost the
// cycle's members, which it beat, and gained s, so it is the better of
// its best and s. A node whose best head was in the cycle takes s if s's
// arc to it stands for the same original arc; otherwise (an exact tie
// within the cycle: s's arc carries the first best member in cycle order,
// not the smallest original arc, so a tied outsider may now win) it is
// searched again, as is s itself. It reports whether s has a usable
// incoming arc.
func (c *cle) rechoose(s int32) bool {
	for _, u := range c.live[1:] {
		if u == s {
			continue
		}
		if c.color[c.best[u]] == -2 { // its best head was in the cycle
			// s's arc to u is the first best of the cycle's arcs to u: if
			// it is the one u had, it still beats every outsider.
			if c.arc[int(s)*c.stride+int(u)] == c.arc[int(c.best[u])*c.stride+int(u)] {
				c.best[u] = s
			} else if c.best[u] = c.bestInto(u); c.best[u] < 0 {
				return false // cannot happen: s's arc to u is usable
			}
			continue
		}
		if c.beats(int(s)*c.stride+int(u), int(c.best[u])*c.stride+int(u)) {
			c.best[u] = s
		}
	}
	b := c.bestInto(s)
	if b < 0 {
		return false
	}
	c.best[s] = b
	return true
}

// findCycle returns the members of a cycle of best arcs, in the order
// v, best[v], best[best[v]], ..., or nil if the best arcs form a tree. The
// slice aliases a Workspace buffer.
func (c *cle) findCycle() []int32 {
	for _, v := range c.live {
		c.color[v] = 0
	}
	c.color[0] = -1
	for _, start := range c.live[1:] {
		x := start
		for c.color[x] == 0 {
			c.color[x] = start
			x = c.best[x]
		}
		if c.color[x] != start {
			continue // reached the root or an earlier walk
		}
		off := len(c.ws.cyc)
		c.ws.cyc = append(c.ws.cyc, x)
		for y := c.best[x]; y != x; y = c.best[y] {
			c.ws.cyc = append(c.ws.cyc, y)
		}
		return c.ws.cyc[off:]
	}
	return nil
}

// contract replaces the cycle by a new supernode, which it returns, and
// records it for expansion. The cycle's members are left colored −2.
func (c *cle) contract(cycle []int32) int32 {
	ws := c.ws
	s := int32(c.m + len(ws.cycOff)) // fresh id
	ws.cycOff = append(ws.cycOff, int32(len(ws.cyc)-len(cycle)))
	for _, v := range cycle {
		ws.cycArc = append(ws.cycArc, c.arc[int(c.best[v])*c.stride+int(v)])
		c.color[v] = -2 // in the cycle
		c.parent[v] = s
	}
	st, srow := c.stride, int(s)*c.stride
	n := 0
	for _, u := range c.live {
		if c.color[u] == -2 {
			continue
		}
		c.live[n] = u
		n++
		urow := int(u) * st
		// u → s: the best u → v, rescored by what it displaces in the cycle.
		in := urow + int(s)
		c.w[in] = absent
		for _, v := range cycle {
			i, b := urow+int(v), int(c.best[v])*st+int(v)
			if c.w[i] == absent {
				continue
			}
			w, k := c.w[i]-c.w[b], c.key[i]-c.key[b]
			if c.w[in] == absent || k > c.key[in] || (k == c.key[in] && w > c.w[in]) {
				c.w[in], c.key[in], c.arc[in] = w, k, c.arc[i]
			}
		}
		// s → u: the best arc out of the cycle.
		out := srow + int(u)
		c.w[out] = absent
		if u == 0 {
			continue
		}
		for _, v := range cycle {
			if i := int(v)*st + int(u); c.better(i, out) {
				c.w[out], c.key[out], c.arc[out] = c.w[i], c.key[i], c.arc[i]
			}
		}
	}
	c.w[srow+int(s)] = absent
	c.live = append(c.live[:n], s)
	c.color[s] = 0
	return s
}

// expand writes the heads of the original nodes: the best arcs of the final
// graph, then every contraction's cycle arcs except the one displaced by the
// arc that entered the supernode.
func (c *cle) expand(heads []int) {
	m := int32(c.m)
	set := func(a int32) int32 {
		heads[a%m] = int(a / m)
		return a % m
	}
	heads[0] = -1
	for _, v := range c.live[1:] {
		c.enter[v] = set(c.arc[int(c.best[v])*c.stride+int(v)])
	}
	ws := c.ws
	for k := len(ws.cycOff) - 1; k >= 0; k-- {
		s := m + int32(k)
		lo, hi := int(ws.cycOff[k]), len(ws.cyc)
		if k+1 < len(ws.cycOff) {
			hi = int(ws.cycOff[k+1])
		}
		d := c.enter[s]
		x := d
		for c.parent[x] != s {
			x = c.parent[x]
		}
		for i := lo; i < hi; i++ {
			if v := ws.cyc[i]; v == x {
				c.enter[v] = d
			} else {
				c.enter[v] = set(ws.cycArc[i])
			}
		}
	}
}
