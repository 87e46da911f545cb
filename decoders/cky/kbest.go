package cky

import (
	"fmt"
	"slices"
)

// MaxWords bounds the sentences the decoders take: the chart holds every
// span, so memory grows with the square of the length.
const MaxWords = 400

// entry kinds: how a chart entry was derived.
const (
	kindLeaf   = iota // a terminal over one word
	kindBinary        // binarised rule a over split b, children ranks l, r
	kindChain         // unary chain a over the bottom entry of rank l
	kindRoot          // start rule a over the closed entry of rank l
)

// entry is one derivation of a chart item: its score and back-pointer.
type entry struct {
	score float64
	kind  uint8
	a, b  int32
	l, r  int32
}

// Workspace holds a chart's buffers between calls; the zero value is
// ready. One goroutine at a time may use it.
type Workspace struct {
	n, k, syms int
	// per (span, symbol): up to k entries from offset item*k, count in cnt
	bottom, closed       []entry
	bottomCnt, closedCnt []int32
	present              [][]int32 // per span: symbols with closed entries
	root                 []entry
	counts               countChart
}

func (ws *Workspace) reset(n, k, syms int) {
	ws.n, ws.k, ws.syms = n, k, syms
	items := (n + 1) * (n + 1) * syms
	ws.bottom = slices.Grow(ws.bottom[:0], items*k)[:items*k]
	ws.closed = slices.Grow(ws.closed[:0], items*k)[:items*k]
	ws.bottomCnt = slices.Grow(ws.bottomCnt[:0], items)[:items]
	ws.closedCnt = slices.Grow(ws.closedCnt[:0], items)[:items]
	clear(ws.bottomCnt)
	clear(ws.closedCnt)
	spans := (n + 1) * (n + 1)
	if cap(ws.present) < spans {
		ws.present = make([][]int32, spans)
	}
	ws.present = ws.present[:spans]
	for i := range ws.present {
		ws.present[i] = ws.present[i][:0]
	}
	ws.root = ws.root[:0]
}

func (ws *Workspace) item(i, j int, s int32) int { return (i*(ws.n+1)+j)*ws.syms + int(s) }

// insert adds e to the top-k list at buf[it*k:], cnt[it] long, keeping
// it sorted by decreasing score; a tie goes to the entry added first.
func insert(buf []entry, cnt []int32, it, k int, e entry) {
	list := buf[it*k : it*k+k]
	c := int(cnt[it])
	if c == k {
		if e.score <= list[k-1].score {
			return
		}
		c--
	} else {
		cnt[it]++
	}
	p := c
	for p > 0 && list[p-1].score < e.score {
		list[p] = list[p-1]
		p--
	}
	list[p] = e
}

func (c *Compiled) checkInput(sent []int32, scores []float64) error {
	if len(sent) == 0 || len(sent) > MaxWords {
		return fmt.Errorf("cky: %d words, want 1..%d", len(sent), MaxWords)
	}
	if len(scores) != len(c.g.Rules) {
		return fmt.Errorf("cky: %d scores for %d rules", len(scores), len(c.g.Rules))
	}
	for i, s := range sent {
		if s < 0 || int(s) >= c.g.Symbols || !c.g.Terminal[s] {
			return fmt.Errorf("cky: word %d is symbol %d, not a terminal", i, s)
		}
	}
	return nil
}

// KBest returns the k best trees of sent under scores (one per rule),
// best first, with their scores; fewer if the grammar has fewer trees of
// sent, none if it has none. Ties keep the order in which the chart
// meets them, which is deterministic. ws may be nil.
func (c *Compiled) KBest(sent []int32, scores []float64, k int, ws *Workspace) ([]Tree, []float64, error) {
	if err := c.checkInput(sent, scores); err != nil {
		return nil, nil, err
	}
	if k < 1 {
		return nil, nil, fmt.Errorf("cky: k = %d", k)
	}
	if ws == nil {
		ws = &Workspace{}
	}
	n := len(sent)
	ws.reset(n, k, c.symbols)
	for width := 1; width <= n; width++ {
		for i := 0; i+width <= n; i++ {
			c.fillBottom(ws, sent, scores, i, i+width)
			c.close(ws, scores, i, i+width)
		}
	}
	c.fillRoot(ws, scores)
	trees := make([]Tree, len(ws.root))
	out := make([]float64, len(ws.root))
	for r, e := range ws.root {
		trees[r] = c.rootTree(ws, e)
		out[r] = e.score
	}
	return trees, out, nil
}

// Best returns the best tree of sent; ok is false if there is none.
func (c *Compiled) Best(sent []int32, scores []float64, ws *Workspace) (t Tree, score float64, ok bool, err error) {
	ts, ss, err := c.KBest(sent, scores, 1, ws)
	if err != nil || len(ts) == 0 {
		return nil, 0, false, err
	}
	return ts[0], ss[0], true, nil
}

func (c *Compiled) ruleScore(scores []float64, r int32) float64 {
	if r < 0 {
		return 0
	}
	return scores[r]
}

// fillBottom derives span i..j's items from a terminal or a binarised
// rule over two smaller spans.
func (c *Compiled) fillBottom(ws *Workspace, sent []int32, scores []float64, i, j int) {
	k := ws.k
	if j == i+1 {
		it := ws.item(i, j, sent[i])
		insert(ws.bottom, ws.bottomCnt, it, k, entry{kind: kindLeaf})
		return
	}
	full := i == 0 && j == ws.n
	for m := i + 1; m < j; m++ {
		for _, L := range ws.present[i*(ws.n+1)+m] {
			li := ws.item(i, m, L)
			for _, b := range c.byLeft[L] {
				br := c.binary[b]
				if br.parent == c.g.Start && !full {
					continue
				}
				ri := ws.item(m, j, br.right)
				nr := int(ws.closedCnt[ri])
				if nr == 0 {
					continue
				}
				w := c.ruleScore(scores, br.rule)
				it := ws.item(i, j, br.parent)
				for a := range int(ws.closedCnt[li]) {
					sl := ws.closed[li*k+a].score
					for bb := range nr {
						insert(ws.bottom, ws.bottomCnt, it, k, entry{
							score: sl + ws.closed[ri*k+bb].score + w,
							kind:  kindBinary, a: b, b: int32(m), l: int32(a), r: int32(bb),
						})
					}
				}
			}
		}
	}
}

// close extends span i..j's bottom items by every unary chain.
func (c *Compiled) close(ws *Workspace, scores []float64, i, j int) {
	k := ws.k
	sp := i*(ws.n+1) + j
	for B := range int32(c.symbols) {
		bi := ws.item(i, j, B)
		nb := int(ws.bottomCnt[bi])
		if nb == 0 || B == c.g.Start {
			continue
		}
		for _, ch := range c.byBottom[B] {
			chn := &c.chains[ch]
			var w float64
			for _, r := range chn.rules {
				w += scores[r]
			}
			it := ws.item(i, j, chn.top)
			for a := range nb {
				insert(ws.closed, ws.closedCnt, it, k, entry{score: ws.bottom[bi*k+a].score + w, kind: kindChain, a: ch, l: int32(a)})
			}
		}
	}
	for s := range int32(c.symbols) {
		if ws.closedCnt[ws.item(i, j, s)] > 0 {
			ws.present[sp] = append(ws.present[sp], s)
		}
	}
}

// fillRoot lists the k best derivations of the start symbol over the
// whole sentence: its binarised rules' (already in the bottom chart) and
// its unary rules over closed items.
func (c *Compiled) fillRoot(ws *Workspace, scores []float64) {
	k, n := ws.k, ws.n
	root := make([]entry, k)
	cnt := []int32{0}
	si := ws.item(0, n, c.g.Start)
	for a := range int(ws.bottomCnt[si]) {
		insert(root, cnt, 0, k, ws.bottom[si*k+a])
	}
	for _, r := range c.rootUn {
		xi := ws.item(0, n, c.g.Rules[r].Kids[0])
		for a := range int(ws.closedCnt[xi]) {
			insert(root, cnt, 0, k, entry{score: ws.closed[xi*k+a].score + scores[r], kind: kindRoot, a: r, l: int32(a)})
		}
	}
	ws.root = append(ws.root, root[:cnt[0]]...)
}

func (c *Compiled) rootTree(ws *Workspace, e entry) Tree {
	n := int32(ws.n)
	if e.kind == kindRoot {
		t := Tree{{Sym: c.g.Start, Rule: e.a, Start: 0, End: n}}
		return c.closedTree(ws, t, 0, ws.n, c.g.Rules[e.a].Kids[0], int(e.l))
	}
	return c.bottomTree(ws, nil, 0, ws.n, c.g.Start, e)
}

// closedTree appends the subtree of closed item (i, j, s)'s entry of rank
// rank.
func (c *Compiled) closedTree(ws *Workspace, t Tree, i, j int, s int32, rank int) Tree {
	e := ws.closed[ws.item(i, j, s)*ws.k+rank]
	ch := &c.chains[e.a]
	for _, r := range ch.rules {
		t = append(t, Node{Sym: c.g.Rules[r].Parent, Rule: r, Start: int32(i), End: int32(j)})
	}
	return c.bottomTree(ws, t, i, j, ch.bottom, ws.bottom[ws.item(i, j, ch.bottom)*ws.k+int(e.l)])
}

// bottomTree appends the subtree of bottom entry e of item (i, j, s): an
// intermediate rule adds no node of its own.
func (c *Compiled) bottomTree(ws *Workspace, t Tree, i, j int, s int32, e entry) Tree {
	if e.kind == kindLeaf {
		return append(t, Node{Sym: s, Rule: -1, Start: int32(i), End: int32(j)})
	}
	br := c.binary[e.a]
	if br.rule >= 0 {
		t = append(t, Node{Sym: s, Rule: br.rule, Start: int32(i), End: int32(j)})
	}
	m := int(e.b)
	t = c.closedTree(ws, t, i, m, br.left, int(e.l))
	return c.closedTree(ws, t, m, j, br.right, int(e.r))
}
