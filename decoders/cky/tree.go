package cky

import (
	"cmp"
	"fmt"
	"slices"
)

// Node is one node of a parse tree over words Start..End−1: a terminal
// leaf (Rule −1, one word) or an application of grammar rule Rule.
type Node struct {
	Sym, Rule  int32
	Start, End int32
}

// Tree is a parse tree as its nodes in preorder, the start symbol's
// first. Two trees are the same parse exactly when their node lists are
// equal.
type Tree []Node

// Equal reports whether t and u are the same tree.
func (t Tree) Equal(u Tree) bool { return slices.Equal(t, u) }

// Bracket is a labelled bracket: a non-terminal other than the start
// symbol over words Start..End−1.
type Bracket struct {
	Label, Start, End int32
}

// Brackets returns the labelled brackets of t, sorted: every node of a
// non-terminal other than the start symbol (so neither the root's TOP nor
// pre-terminals count, as in evalb).
func Brackets(g *Grammar, t Tree) []Bracket {
	var out []Bracket
	for _, n := range t {
		if g.IsBracket(n.Sym) {
			out = append(out, Bracket{n.Sym, n.Start, n.End})
		}
	}
	slices.SortFunc(out, compareBrackets)
	return out
}

func compareBrackets(a, b Bracket) int {
	return CompareSpans(a.Start, a.End, a.Label, b.Start, b.End, b.Label)
}

// CompareSpans orders two labelled brackets, given as (start, end, label)
// so that bracket types of any label and index type share it: by start,
// then end, then label, the order Brackets sorts in and Matched expects.
func CompareSpans[I, L cmp.Ordered](aStart, aEnd I, aLabel L, bStart, bEnd I, bLabel L) int {
	if c := cmp.Compare(aStart, bStart); c != 0 {
		return c
	}
	if c := cmp.Compare(aEnd, bEnd); c != 0 {
		return c
	}
	return cmp.Compare(aLabel, bLabel)
}

// Matched returns the size of the multiset intersection of two sorted
// bracket lists: a predicted bracket matches a gold one of the same
// label and span, each gold bracket at most once.
func Matched(gold, pred []Bracket) int { return MatchedFunc(gold, pred, compareBrackets) }

// MatchedFunc is Matched for brackets of any type, both lists sorted by
// compare (which is 0 for a match).
func MatchedFunc[B any](gold, pred []B, compare func(a, b B) int) int {
	m := 0
	for i, j := 0, 0; i < len(gold) && j < len(pred); {
		switch c := compare(gold[i], pred[j]); {
		case c == 0:
			m++
			i++
			j++
		case c < 0:
			i++
		default:
			j++
		}
	}
	return m
}

// F1 is the harmonic mean of labelled precision and recall, 2m/(p+g) for
// m matched of p predicted and g gold brackets; 1 when neither tree has
// a bracket.
func F1(matched, predicted, gold int) float64 {
	if predicted+gold == 0 {
		return 1
	}
	return 2 * float64(matched) / float64(predicted+gold)
}

// Score returns the sum of scores[Rule] over t's rule nodes.
func Score(t Tree, scores []float64) float64 {
	var s float64
	for _, n := range t {
		if n.Rule >= 0 {
			s += scores[n.Rule]
		}
	}
	return s
}

// CheckTree reports whether t is a tree of g over the terminals sent:
// the start symbol over every word at the root, every other node a rule
// of g whose children's symbols and contiguous spans match it or a
// terminal leaf over its word, and no unary chain longer than MaxUnary.
func (g *Grammar) CheckTree(t Tree, sent []int32) error {
	if len(t) == 0 || t[0].Sym != g.Start || t[0].Start != 0 || int(t[0].End) != len(sent) {
		return fmt.Errorf("the root is not the start symbol over all %d words", len(sent))
	}
	next, _, err := g.checkNode(t, 0, sent)
	if err != nil {
		return err
	}
	if next != len(t) {
		return fmt.Errorf("%d nodes after the root's subtree", len(t)-next)
	}
	return nil
}

// checkNode checks the subtree at t[i] and returns the index after it and
// the length of the unary chain it starts.
func (g *Grammar) checkNode(t Tree, i int, sent []int32) (next, chain int, err error) {
	n := t[i]
	if n.Sym < 0 || int(n.Sym) >= g.Symbols || n.Start < 0 || n.End <= n.Start || int(n.End) > len(sent) {
		return 0, 0, fmt.Errorf("node %d: symbol %d over %d..%d out of range", i, n.Sym, n.Start, n.End)
	}
	if n.Rule < 0 {
		if n.End != n.Start+1 || n.Sym != sent[n.Start] {
			return 0, 0, fmt.Errorf("node %d: leaf %d over %d..%d, want terminal %d over one word", i, n.Sym, n.Start, n.End, sent[min(int(n.Start), len(sent)-1)])
		}
		return i + 1, 0, nil
	}
	if int(n.Rule) >= len(g.Rules) || g.Rules[n.Rule].Parent != n.Sym {
		return 0, 0, fmt.Errorf("node %d: rule %d does not rewrite symbol %d", i, n.Rule, n.Sym)
	}
	kids := g.Rules[n.Rule].Kids
	next, at := i+1, n.Start
	kidChain := 0
	for k, want := range kids {
		if next >= len(t) {
			return 0, 0, fmt.Errorf("node %d: child %d missing", i, k)
		}
		if t[next].Sym != want || t[next].Start != at {
			return 0, 0, fmt.Errorf("node %d: child %d is %d at %d, want %d at %d", i, k, t[next].Sym, t[next].Start, want, at)
		}
		at = t[next].End
		if next, kidChain, err = g.checkNode(t, next, sent); err != nil {
			return 0, 0, err
		}
	}
	if at != n.End {
		return 0, 0, fmt.Errorf("node %d: children end at %d, the node at %d", i, at, n.End)
	}
	if len(kids) != 1 || n.Sym == g.Start {
		return next, 0, nil
	}
	if kidChain+1 > g.MaxUnary {
		return 0, 0, fmt.Errorf("node %d: a unary chain of %d rules, more than MaxUnary = %d", i, kidChain+1, g.MaxUnary)
	}
	return next, kidChain + 1, nil
}

// UnaryChain returns the longest unary chain of t (the start symbol's
// rule excluded): the MaxUnary a grammar needs to hold t.
func UnaryChain(g *Grammar, t Tree) int {
	longest := 0
	run := make([]int, len(t)) // run[i]: the unary chain starting at node i
	for i := len(t) - 1; i >= 0; i-- {
		n := t[i]
		if n.Rule < 0 || n.Sym == g.Start || len(g.Rules[n.Rule].Kids) != 1 {
			continue
		}
		run[i] = 1 + run[i+1] // a unary node's only child follows it
		longest = max(longest, run[i])
	}
	return longest
}
