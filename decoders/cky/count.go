package cky

import (
	"fmt"
	"slices"
)

// centry is one derivation of a count-chart item: the best of those with
// m matched among p predicted brackets inside the item's span.
type centry struct {
	score float64
	m, p  int32
	kind  uint8
	a, b  int32 // as in entry
	l, r  int32 // indices into the children's lists
}

// countChart holds the count chart's lists and the gold brackets by span.
type countChart struct {
	n, syms        int
	bottom, closed [][]centry // per item
	present        [][]int32  // per span: symbols with closed entries
	gold           [][]Bracket
	root           []centry
	// dedup maps a (m, p) key to an index in the list being built, valid
	// where stamp equals the current stamp.
	keys       int
	dedup      []int32
	stamp      []uint32
	curStamp   uint32
	labels     []int32
	maxMatched int
}

func (cc *countChart) reset(n, syms, keys int) {
	cc.n, cc.syms, cc.keys = n, syms, keys
	items := (n + 1) * (n + 1) * syms
	grow := func(l [][]centry) [][]centry {
		if cap(l) < items {
			l = make([][]centry, items)
		}
		l = l[:items]
		for i := range l {
			l[i] = l[i][:0]
		}
		return l
	}
	cc.bottom, cc.closed = grow(cc.bottom), grow(cc.closed)
	spans := (n + 1) * (n + 1)
	if cap(cc.present) < spans {
		cc.present = make([][]int32, spans)
		cc.gold = make([][]Bracket, spans)
	}
	cc.present, cc.gold = cc.present[:spans], cc.gold[:spans]
	for i := range cc.present {
		cc.present[i] = cc.present[i][:0]
		cc.gold[i] = cc.gold[i][:0]
	}
	if len(cc.dedup) < keys {
		cc.dedup = make([]int32, keys)
		cc.stamp = make([]uint32, keys)
		cc.curStamp = 0
	}
	cc.root = cc.root[:0]
}

func (cc *countChart) item(i, j int, s int32) int { return (i*(cc.n+1)+j)*cc.syms + int(s) }

// begin starts building a new list (a new dedup stamp).
func (cc *countChart) begin() {
	cc.curStamp++
	if cc.curStamp == 0 { // wrapped: forget every old stamp
		clear(cc.stamp)
		cc.curStamp = 1
	}
}

// add puts e into list, replacing the entry of the same (m, p) if e
// scores strictly more; the first of equal scores stays.
func (cc *countChart) add(list []centry, e centry) []centry {
	key := int(e.m)*(cc.keys/(cc.maxMatched+1)) + int(e.p)
	if cc.stamp[key] == cc.curStamp {
		at := cc.dedup[key]
		if e.score > list[at].score {
			list[at] = e
		}
		return list
	}
	cc.stamp[key], cc.dedup[key] = cc.curStamp, int32(len(list))
	return append(list, e)
}

// CountResult is the best tree with Matched of its Predicted brackets
// matching the gold ones (see [Compiled.Counts]).
type CountResult struct {
	Matched, Predicted int
	Score              float64
	Tree               Tree
}

// Counts returns, for every pair (m, p) that some tree of sent reaches,
// the best tree predicting p labelled brackets of which m match gold
// (a sorted bracket list, as [Brackets] returns; matched as a multiset,
// as [Matched] counts), in increasing order of (m, p). Every loss that
// depends on a tree only through (m, p, len(gold)), such as 1 − F1, is
// then maximised exactly with the score by a scan over the results. ws
// may be nil. Its cost grows with the number of (m, p) pairs per chart
// item; see docs/cfg.md for measurements.
func (c *Compiled) Counts(sent []int32, scores []float64, gold []Bracket, ws *Workspace) ([]CountResult, error) {
	if err := c.checkInput(sent, scores); err != nil {
		return nil, err
	}
	n := len(sent)
	if ws == nil {
		ws = &Workspace{}
	}
	cc := &ws.counts
	maxP := c.MaxBrackets(n)
	cc.maxMatched = len(gold)
	cc.reset(n, c.symbols, (len(gold)+1)*(maxP+1))
	for _, b := range gold {
		if b.Start < 0 || b.End <= b.Start || int(b.End) > n {
			return nil, fmt.Errorf("cky: gold bracket %v outside %d words", b, n)
		}
		sp := int(b.Start)*(n+1) + int(b.End)
		cc.gold[sp] = append(cc.gold[sp], b)
	}
	for width := 1; width <= n; width++ {
		for i := 0; i+width <= n; i++ {
			c.countBottom(cc, sent, scores, i, i+width)
			c.countClose(cc, scores, i, i+width)
		}
	}
	c.countRoot(cc, scores)
	out := make([]CountResult, len(cc.root))
	for r, e := range cc.root {
		out[r] = CountResult{Matched: int(e.m), Predicted: int(e.p), Score: e.score, Tree: c.countRootTree(cc, e)}
	}
	slices.SortFunc(out, func(a, b CountResult) int {
		if a.Matched != b.Matched {
			return a.Matched - b.Matched
		}
		return a.Predicted - b.Predicted
	})
	return out, nil
}

func (c *Compiled) countBottom(cc *countChart, sent []int32, scores []float64, i, j int) {
	if j == i+1 {
		it := cc.item(i, j, sent[i])
		cc.bottom[it] = append(cc.bottom[it], centry{kind: kindLeaf})
		return
	}
	full := i == 0 && j == cc.n
	// Each parent's list is built over every rule and split before the
	// next parent's, so that one dedup stamp serves it.
	for P := range int32(c.symbols) {
		if len(c.byParent[P]) == 0 || (P == c.g.Start && !full) {
			continue
		}
		cc.begin()
		it := cc.item(i, j, P)
		list := cc.bottom[it]
		for _, b := range c.byParent[P] {
			br := c.binary[b]
			w := c.ruleScore(scores, br.rule)
			for m := i + 1; m < j; m++ {
				left := cc.closed[cc.item(i, m, br.left)]
				right := cc.closed[cc.item(m, j, br.right)]
				if len(left) == 0 || len(right) == 0 {
					continue
				}
				for a, le := range left {
					for bb, re := range right {
						list = cc.add(list, centry{
							score: le.score + re.score + w, m: le.m + re.m, p: le.p + re.p,
							kind: kindBinary, a: b, b: int32(m), l: int32(a), r: int32(bb),
						})
					}
				}
			}
		}
		cc.bottom[it] = list
	}
}

// chainCounts returns the brackets a chain over bottom symbol B adds on
// span sp, and how many of them match gold there (as a multiset).
func (c *Compiled) chainCounts(cc *countChart, ch *chain, sp int) (dm, dp int32) {
	labels := cc.labels[:0]
	if int(ch.bottom) < c.g.Symbols && c.g.IsBracket(ch.bottom) {
		labels = append(labels, ch.bottom)
	}
	for _, r := range ch.rules {
		labels = append(labels, c.g.Rules[r].Parent)
	}
	cc.labels = labels
	gold := cc.gold[sp]
	for x, l := range labels {
		if slices.Contains(labels[:x], l) {
			continue // counted with its first occurrence
		}
		var inChain, inGold int32
		for _, m := range labels {
			if m == l {
				inChain++
			}
		}
		for _, g := range gold {
			if g.Label == l {
				inGold++
			}
		}
		dm += min(inChain, inGold)
	}
	return dm, int32(len(labels))
}

func (c *Compiled) countClose(cc *countChart, scores []float64, i, j int) {
	sp := i*(cc.n+1) + j
	// Gather candidates by top symbol, so one dedup stamp serves a list.
	for T := range int32(c.symbols) {
		it := cc.item(i, j, T)
		list := cc.closed[it]
		cc.begin()
		for _, ch := range c.byTop[T] {
			chn := &c.chains[ch]
			bottom := cc.bottom[cc.item(i, j, chn.bottom)]
			if len(bottom) == 0 {
				continue
			}
			var w float64
			for _, r := range chn.rules {
				w += scores[r]
			}
			dm, dp := c.chainCounts(cc, chn, sp)
			for a, be := range bottom {
				list = cc.add(list, centry{score: be.score + w, m: be.m + dm, p: be.p + dp, kind: kindChain, a: ch, l: int32(a)})
			}
		}
		if len(list) > 0 {
			cc.closed[it] = list
			cc.present[sp] = append(cc.present[sp], T)
		}
	}
}

func (c *Compiled) countRoot(cc *countChart, scores []float64) {
	n := cc.n
	cc.begin()
	list := cc.root[:0]
	for _, e := range cc.bottom[cc.item(0, n, c.g.Start)] {
		list = cc.add(list, e)
	}
	for _, r := range c.rootUn {
		for a, e := range cc.closed[cc.item(0, n, c.g.Rules[r].Kids[0])] {
			list = cc.add(list, centry{score: e.score + scores[r], m: e.m, p: e.p, kind: kindRoot, a: r, l: int32(a)})
		}
	}
	cc.root = list
}

func (c *Compiled) countRootTree(cc *countChart, e centry) Tree {
	n := int32(cc.n)
	if e.kind == kindRoot {
		t := Tree{{Sym: c.g.Start, Rule: e.a, Start: 0, End: n}}
		return c.countClosedTree(cc, t, 0, cc.n, c.g.Rules[e.a].Kids[0], int(e.l))
	}
	return c.countBottomTree(cc, nil, 0, cc.n, c.g.Start, e)
}

func (c *Compiled) countClosedTree(cc *countChart, t Tree, i, j int, s int32, idx int) Tree {
	e := cc.closed[cc.item(i, j, s)][idx]
	ch := &c.chains[e.a]
	for _, r := range ch.rules {
		t = append(t, Node{Sym: c.g.Rules[r].Parent, Rule: r, Start: int32(i), End: int32(j)})
	}
	return c.countBottomTree(cc, t, i, j, ch.bottom, cc.bottom[cc.item(i, j, ch.bottom)][e.l])
}

func (c *Compiled) countBottomTree(cc *countChart, t Tree, i, j int, s int32, e centry) Tree {
	if e.kind == kindLeaf {
		return append(t, Node{Sym: s, Rule: -1, Start: int32(i), End: int32(j)})
	}
	br := c.binary[e.a]
	if br.rule >= 0 {
		t = append(t, Node{Sym: s, Rule: br.rule, Start: int32(i), End: int32(j)})
	}
	m := int(e.b)
	t = c.countClosedTree(cc, t, i, m, br.left, int(e.l))
	return c.countClosedTree(cc, t, m, j, br.right, int(e.r))
}
