// Package bruteforce enumerates every parse tree of a sentence under a
// grammar of package cky, directly on the n-ary rules and without a
// chart: the oracle the CKY decoders are tested against. It is
// exponential; use it on tiny grammars and sentences only.
package bruteforce

import "github.com/maxmargin/repro/decoders/cky"

// Trees returns every tree of g over the terminals sent (the start
// symbol at the root, unary chains of at most g.MaxUnary rules), in no
// particular order.
func Trees(g *cky.Grammar, sent []int32) []cky.Tree {
	e := enumerator{g: g, sent: sent}
	var out []cky.Tree
	for r, rule := range g.Rules {
		if rule.Parent != g.Start {
			continue
		}
		for _, kids := range e.sequences(rule.Kids, 0, len(sent)) {
			t := cky.Tree{{Sym: g.Start, Rule: int32(r), Start: 0, End: int32(len(sent))}}
			out = append(out, append(t, kids...))
		}
	}
	return out
}

type enumerator struct {
	g    *cky.Grammar
	sent []int32
}

// subtrees returns every subtree of symbol s over words i..j−1 whose top
// unary chain has at most budget rules.
func (e *enumerator) subtrees(s int32, i, j, budget int) []cky.Tree {
	var out []cky.Tree
	if e.g.Terminal[s] {
		if j == i+1 && e.sent[i] == s {
			out = append(out, cky.Tree{{Sym: s, Rule: -1, Start: int32(i), End: int32(j)}})
		}
		return out
	}
	for r, rule := range e.g.Rules {
		if rule.Parent != s {
			continue
		}
		node := cky.Node{Sym: s, Rule: int32(r), Start: int32(i), End: int32(j)}
		if len(rule.Kids) == 1 {
			if budget == 0 {
				continue
			}
			for _, sub := range e.subtrees(rule.Kids[0], i, j, budget-1) {
				out = append(out, append(cky.Tree{node}, sub...))
			}
			continue
		}
		for _, kids := range e.sequences(rule.Kids, i, j) {
			out = append(out, append(cky.Tree{node}, kids...))
		}
	}
	return out
}

// sequences returns every way to derive the symbols kids over words
// i..j−1, each over a non-empty span, as their subtrees in order.
func (e *enumerator) sequences(kids []int32, i, j int) []cky.Tree {
	if len(kids) == 0 {
		if i == j {
			return []cky.Tree{nil}
		}
		return nil
	}
	budget := e.g.MaxUnary // a child of an n-ary rule starts a new chain
	var out []cky.Tree
	for m := i + 1; m <= j-(len(kids)-1); m++ {
		firsts := e.subtrees(kids[0], i, m, budget)
		if len(firsts) == 0 {
			continue
		}
		for _, rest := range e.sequences(kids[1:], m, j) {
			for _, f := range firsts {
				t := append(append(cky.Tree{}, f...), rest...)
				out = append(out, t)
			}
		}
	}
	return out
}
