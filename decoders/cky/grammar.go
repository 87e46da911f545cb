package cky

import (
	"errors"
	"fmt"
)

// MaxChains bounds the number of unary chains Compile enumerates: a
// grammar whose chains of up to MaxUnary rules exceed it is refused (lower
// MaxUnary).
const MaxChains = 1 << 20

// Rule is A → X1 … Xk (k ≥ 1) over symbol ids.
type Rule struct {
	Parent int32
	Kids   []int32
}

// Grammar is a context-free grammar over symbols 0..Symbols−1.
type Grammar struct {
	Symbols  int
	Terminal []bool // per symbol: a terminal (tag), which no rule rewrites
	Start    int32  // the root symbol; on no right-hand side
	Rules    []Rule // rule r scores scores[r] in every call
	// MaxUnary is the longest unary chain a tree may hold (see the
	// package doc); 0 allows no unary rule except the start symbol's.
	MaxUnary int
}

// Check reports whether g is well formed.
func (g *Grammar) Check() error {
	if len(g.Terminal) != g.Symbols {
		return fmt.Errorf("%d terminal flags for %d symbols", len(g.Terminal), g.Symbols)
	}
	if g.Start < 0 || int(g.Start) >= g.Symbols || g.Terminal[g.Start] {
		return fmt.Errorf("start symbol %d is not a non-terminal", g.Start)
	}
	if g.MaxUnary < 0 {
		return errors.New("negative MaxUnary")
	}
	for r, rule := range g.Rules {
		if rule.Parent < 0 || int(rule.Parent) >= g.Symbols || g.Terminal[rule.Parent] {
			return fmt.Errorf("rule %d: parent %d is not a non-terminal", r, rule.Parent)
		}
		if len(rule.Kids) == 0 {
			return fmt.Errorf("rule %d: no right-hand side", r)
		}
		for _, k := range rule.Kids {
			if k < 0 || int(k) >= g.Symbols {
				return fmt.Errorf("rule %d: symbol %d out of range", r, k)
			}
			if k == g.Start {
				return fmt.Errorf("rule %d: the start symbol on a right-hand side", r)
			}
		}
	}
	return nil
}

// IsBracket reports whether a node of symbol s is a labelled bracket:
// a non-terminal other than the start symbol.
func (g *Grammar) IsBracket(s int32) bool { return !g.Terminal[s] && s != g.Start }

// binRule is a binarised rule P → L R; rule is the original rule's id
// for the top rule of a factored rule (and for a binary rule), −1 for an
// intermediate rule.
type binRule struct {
	parent, left, right int32
	rule                int32
}

// chain is a unary chain: rules[0] is the top rule, rewriting top, and
// the last rewrites to bottom; no rules means top == bottom.
type chain struct {
	top, bottom int32
	rules       []int32
}

// Compiled is a grammar binarised for the chart (see the package doc).
// It is read-only and may be shared by goroutines.
type Compiled struct {
	g       Grammar
	symbols int // the grammar's and the intermediate symbols
	// intermediate[s−g.Symbols] describes intermediate symbol s: the
	// original rule it factors and the position of the suffix it derives.
	inter    []interSym
	binary   []binRule
	byLeft   [][]int32 // binary rule indices by left symbol
	byParent [][]int32 // binary rule indices by parent symbol
	// chains by bottom symbol, including the empty chain of every symbol
	// but the start.
	chains   []chain
	byBottom [][]int32
	byTop    [][]int32
	rootUn   []int32 // rules Start → X
}

type interSym struct {
	rule int32
	pos  int // the intermediate symbol derives Kids[pos:]
}

// Compile checks and binarises g.
func Compile(g Grammar) (*Compiled, error) {
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("cky: %w", err)
	}
	c := &Compiled{g: g, symbols: g.Symbols}
	type suffixKey struct {
		parent int32
		suffix string
	}
	interID := map[suffixKey]int32{}
	unary := make([][]int32, g.Symbols) // unary rule ids by child
	for r, rule := range g.Rules {
		k := len(rule.Kids)
		if k == 1 {
			if rule.Parent == g.Start {
				c.rootUn = append(c.rootUn, int32(r))
			} else {
				unary[rule.Kids[0]] = append(unary[rule.Kids[0]], int32(r))
			}
			continue
		}
		// right: the symbol deriving Kids[pos+1:]
		right := rule.Kids[k-1]
		for pos := k - 2; pos >= 1; pos-- {
			key := suffixKey{rule.Parent, fmt.Sprint(rule.Kids[pos:])}
			id, ok := interID[key]
			if !ok {
				id = int32(c.symbols)
				c.symbols++
				interID[key] = id
				c.inter = append(c.inter, interSym{int32(r), pos})
				c.binary = append(c.binary, binRule{id, rule.Kids[pos], right, -1})
			}
			right = id
		}
		c.binary = append(c.binary, binRule{rule.Parent, rule.Kids[0], right, int32(r)})
	}
	c.byLeft = make([][]int32, c.symbols)
	c.byParent = make([][]int32, c.symbols)
	for b, br := range c.binary {
		c.byLeft[br.left] = append(c.byLeft[br.left], int32(b))
		c.byParent[br.parent] = append(c.byParent[br.parent], int32(b))
	}
	if err := c.enumerateChains(unary); err != nil {
		return nil, err
	}
	return c, nil
}

// enumerateChains lists every chain of at most MaxUnary unary rules, by
// bottom symbol, growing each upward.
func (c *Compiled) enumerateChains(unary [][]int32) error {
	g := &c.g
	c.byBottom = make([][]int32, c.symbols)
	c.byTop = make([][]int32, c.symbols)
	for s := range int32(c.symbols) {
		if s == g.Start {
			continue
		}
		frontier := []chain{{top: s, bottom: s}}
		for depth := 0; ; depth++ {
			var next []chain
			for _, ch := range frontier {
				c.byBottom[s] = append(c.byBottom[s], int32(len(c.chains)))
				c.byTop[ch.top] = append(c.byTop[ch.top], int32(len(c.chains)))
				c.chains = append(c.chains, ch)
				if len(c.chains) > MaxChains {
					return fmt.Errorf("cky: more than %d unary chains of up to %d rules; lower MaxUnary", MaxChains, g.MaxUnary)
				}
				if depth == g.MaxUnary || int(ch.top) >= len(unary) {
					continue
				}
				for _, r := range unary[ch.top] {
					rules := append([]int32{r}, ch.rules...)
					next = append(next, chain{top: g.Rules[r].Parent, bottom: s, rules: rules})
				}
			}
			if len(next) == 0 {
				break
			}
			frontier = next
		}
	}
	return nil
}

// Grammar returns the grammar c was compiled from.
func (c *Compiled) Grammar() *Grammar { return &c.g }

// Chains returns the number of unary chains the chart closes spans over
// (the empty ones included).
func (c *Compiled) Chains() int { return len(c.chains) }

// BinaryRules returns the number of rules of the binarised grammar with
// two children.
func (c *Compiled) BinaryRules() int { return len(c.binary) }

// MaxBrackets bounds the brackets a tree of n words can hold: at most
// n−1 nodes of two or more children, each bracketed, and a unary chain of
// at most MaxUnary brackets above each of those and of each word.
func (c *Compiled) MaxBrackets(n int) int {
	return max(n-1, 0)*(1+c.g.MaxUnary) + n*c.g.MaxUnary
}
