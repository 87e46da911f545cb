package cfg

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
)

// StartSymbol names the start symbol: the treebank's outer unlabelled
// bracket, whose one rule per tree (TOP → S, TOP → FRAG, …) scores the
// root's label.
const StartSymbol = "TOP"

// Grammar is the grammar of every rule seen in a set of training trees,
// with part-of-speech tags as terminals (Johnson 1999). Rule r is feature
// r: a tree's features are its rule counts. It is read-only once built.
type Grammar struct {
	names    []string
	symbol   map[string]int32
	terminal []bool
	rules    []cky.Rule
	rule     map[string]int32 // by ruleKey
	c        *cky.Compiled
	root     string // the most frequent label under TOP: the fallback's
}

// ruleKey spells a rule for lookups and messages: "NP -> DT NN".
func (g *Grammar) ruleKey(parent int32, kids []int32) string {
	var b strings.Builder
	b.WriteString(g.names[parent])
	b.WriteString(" ->")
	for _, k := range kids {
		b.WriteByte(' ')
		b.WriteString(g.names[k])
	}
	return b.String()
}

// NewGrammar reads the rules of trees (preprocessed as the caller
// wishes, e.g. by datasets.JohnsonPreprocess). Pre-terminal labels are
// terminals; a label used both as a tag and as a phrase is an error
// naming a tree. MaxUnary is the longest unary chain of any tree.
func NewGrammar(trees []datasets.PhraseTree) (*Grammar, error) {
	if len(trees) == 0 {
		return nil, errors.New("cfg: no training trees")
	}
	g := &Grammar{symbol: map[string]int32{}, rule: map[string]int32{}}
	g.intern(StartSymbol, false)
	isTag := map[string]string{} // label → the tree that first used it, and as what
	rootCount := map[string]int{}
	for _, t := range trees {
		if t.Root == nil {
			return nil, fmt.Errorf("cfg: tree %s is empty", t.ID)
		}
		if err := g.internLabels(t.Root, t.ID, isTag); err != nil {
			return nil, err
		}
		rootCount[t.Root.Label]++
	}
	for _, t := range trees {
		g.addRules(t.Root, g.symbol[StartSymbol])
	}
	for label, n := range rootCount {
		if n > rootCount[g.root] || (n == rootCount[g.root] && label < g.root) {
			g.root = label
		}
	}
	maxUnary := 0
	for _, t := range trees {
		_, tree, err := g.encodeTree(t)
		if err != nil {
			return nil, err
		}
		maxUnary = max(maxUnary, cky.UnaryChain(&cky.Grammar{Symbols: len(g.names), Terminal: g.terminal, Start: 0, Rules: g.rules}, tree))
	}
	c, err := cky.Compile(cky.Grammar{Symbols: len(g.names), Terminal: g.terminal, Start: 0, Rules: g.rules, MaxUnary: maxUnary})
	if err != nil {
		return nil, fmt.Errorf("cfg: %w", err)
	}
	g.c = c
	return g, nil
}

func (g *Grammar) intern(name string, terminal bool) int32 {
	if id, ok := g.symbol[name]; ok {
		return id
	}
	id := int32(len(g.names))
	g.symbol[name] = id
	g.names = append(g.names, name)
	g.terminal = append(g.terminal, terminal)
	return id
}

func (g *Grammar) internLabels(n *datasets.PhraseNode, id string, isTag map[string]string) error {
	use := "phrase"
	if n.IsPreterminal() {
		use = "tag"
	}
	if n.Label == StartSymbol {
		return fmt.Errorf("cfg: tree %s uses the start symbol's name %q as a label", id, StartSymbol)
	}
	if prev, ok := isTag[n.Label]; ok && !strings.HasPrefix(prev, use+" ") {
		return fmt.Errorf("cfg: tree %s uses %q as a %s, tree %s", id, n.Label, use, prev)
	}
	isTag[n.Label] = use + " in " + id
	g.intern(n.Label, n.IsPreterminal())
	for _, c := range n.Children {
		if err := g.internLabels(c, id, isTag); err != nil {
			return err
		}
	}
	return nil
}

func (g *Grammar) addRules(n *datasets.PhraseNode, parent int32) {
	kids := []int32{g.symbol[n.Label]}
	g.addRule(parent, kids)
	g.addNodeRules(n)
}

func (g *Grammar) addNodeRules(n *datasets.PhraseNode) {
	if n.IsPreterminal() {
		return
	}
	kids := make([]int32, len(n.Children))
	for i, c := range n.Children {
		kids[i] = g.symbol[c.Label]
	}
	g.addRule(g.symbol[n.Label], kids)
	for _, c := range n.Children {
		g.addNodeRules(c)
	}
}

func (g *Grammar) addRule(parent int32, kids []int32) {
	key := g.ruleKey(parent, kids)
	if _, ok := g.rule[key]; !ok {
		g.rule[key] = int32(len(g.rules))
		g.rules = append(g.rules, cky.Rule{Parent: parent, Kids: kids})
	}
}

// Rules returns the number of rules (the model's dimension).
func (g *Grammar) Rules() int { return len(g.rules) }

// RuleName spells rule r, as "NP -> DT NN".
func (g *Grammar) RuleName(r int) string { return g.ruleKey(g.rules[r].Parent, g.rules[r].Kids) }

// Compiled returns the binarised grammar the decoders use.
func (g *Grammar) Compiled() *cky.Compiled { return g.c }

// MaxUnary returns the longest unary chain a parse may hold.
func (g *Grammar) MaxUnary() int { return g.c.Grammar().MaxUnary }

// ErrNotCovered is wrapped by Encode's error for a tree that needs a
// symbol or rule the grammar has not seen.
var ErrNotCovered = errors.New("not covered by the grammar")

// Encode returns the tags of t as terminal ids and t as a tree of g. The
// error wraps ErrNotCovered when t needs a tag, label or rule g lacks.
func (g *Grammar) Encode(t datasets.PhraseTree) (sent []int32, tree cky.Tree, err error) {
	sent, tree, err = g.encodeTree(t)
	if err != nil {
		return nil, nil, err
	}
	if err := g.c.Grammar().CheckTree(tree, sent); err != nil {
		return nil, nil, fmt.Errorf("cfg: tree %s: %w (%v)", t.ID, ErrNotCovered, err)
	}
	return sent, tree, nil
}

func (g *Grammar) encodeTree(t datasets.PhraseTree) ([]int32, cky.Tree, error) {
	if t.Root == nil {
		return nil, nil, fmt.Errorf("cfg: tree %s is empty", t.ID)
	}
	e := encoder{g: g}
	root, ok := g.symbol[t.Root.Label]
	if !ok {
		return nil, nil, fmt.Errorf("cfg: tree %s: label %q: %w", t.ID, t.Root.Label, ErrNotCovered)
	}
	r, ok := g.rule[g.ruleKey(0, []int32{root})]
	if !ok {
		return nil, nil, fmt.Errorf("cfg: tree %s: rule %s -> %s: %w", t.ID, StartSymbol, t.Root.Label, ErrNotCovered)
	}
	e.tree = append(e.tree, cky.Node{Sym: 0, Rule: r})
	if err := e.node(t.Root); err != nil {
		return nil, nil, fmt.Errorf("cfg: tree %s: %w", t.ID, err)
	}
	e.tree[0].End = int32(len(e.sent))
	return e.sent, e.tree, nil
}

type encoder struct {
	g    *Grammar
	sent []int32
	tree cky.Tree
}

func (e *encoder) node(n *datasets.PhraseNode) error {
	sym, ok := e.g.symbol[n.Label]
	if !ok || e.g.terminal[sym] != n.IsPreterminal() {
		return fmt.Errorf("label %q: %w", n.Label, ErrNotCovered)
	}
	start := int32(len(e.sent))
	if n.IsPreterminal() {
		e.sent = append(e.sent, sym)
		e.tree = append(e.tree, cky.Node{Sym: sym, Rule: -1, Start: start, End: start + 1})
		return nil
	}
	kids := make([]int32, len(n.Children))
	for i, c := range n.Children {
		if kids[i], ok = e.g.symbol[c.Label]; !ok {
			return fmt.Errorf("label %q: %w", c.Label, ErrNotCovered)
		}
	}
	key := e.g.ruleKey(sym, kids)
	r, ok := e.g.rule[key]
	if !ok {
		return fmt.Errorf("rule %s: %w", key, ErrNotCovered)
	}
	at := len(e.tree)
	e.tree = append(e.tree, cky.Node{Sym: sym, Rule: r, Start: start})
	for _, c := range n.Children {
		if err := e.node(c); err != nil {
			return err
		}
	}
	e.tree[at].End = int32(len(e.sent))
	return nil
}

// Tags returns the terminal ids of tags; ok is false if one is unknown.
func (g *Grammar) Tags(tags []string) (sent []int32, ok bool) {
	sent = make([]int32, len(tags))
	for i, t := range tags {
		id, known := g.symbol[t]
		if !known || !g.terminal[id] {
			return nil, false
		}
		sent[i] = id
	}
	return sent, true
}

// PhraseTree turns a tree of g back into bracketed form over words (one
// per terminal), without the start symbol's node.
func (g *Grammar) PhraseTree(t cky.Tree, words []string, id string) datasets.PhraseTree {
	var build func(i int) (*datasets.PhraseNode, int)
	build = func(i int) (*datasets.PhraseNode, int) {
		n := t[i]
		out := &datasets.PhraseNode{Label: g.names[n.Sym]}
		if n.Rule < 0 {
			out.Word = words[n.Start]
			return out, i + 1
		}
		next := i + 1
		for range g.rules[n.Rule].Kids {
			var c *datasets.PhraseNode
			c, next = build(next)
			out.Children = append(out.Children, c)
		}
		return out, next
	}
	root, _ := build(1) // t[0] is TOP, whose one child follows
	return datasets.PhraseTree{ID: id, Root: root}
}

// Fallback is the parse given to a sentence the grammar cannot parse: a
// flat tree, the training trees' most frequent root label over every
// pre-terminal.
func (g *Grammar) Fallback(tags, words []string, id string) datasets.PhraseTree {
	root := &datasets.PhraseNode{Label: g.root}
	for i := range tags {
		root.Children = append(root.Children, &datasets.PhraseNode{Label: tags[i], Word: words[i]})
	}
	return datasets.PhraseTree{ID: id, Root: root}
}

// MLE returns the weights of the maximum-likelihood PCFG of trees (each
// encoded by g): w_r = log P(r | parent) = log count(r) / count(parent),
// so a tree's score is its log-probability and CKY finds the Viterbi
// parse. trees should be the ones g was read from: a rule none of them
// uses has no probability and is an error.
func MLE(g *Grammar, trees []cky.Tree) ([]float64, error) {
	count := make([]float64, len(g.rules))
	for _, t := range trees {
		for _, n := range t {
			if n.Rule >= 0 {
				count[n.Rule]++
			}
		}
	}
	parent := make([]float64, len(g.names))
	for r, c := range count {
		parent[g.rules[r].Parent] += c
	}
	w := make([]float64, len(g.rules))
	for r, c := range count {
		if c == 0 {
			return nil, fmt.Errorf("cfg: rule %s unused by the trees", g.RuleName(r))
		}
		w[r] = math.Log(c / parent[g.rules[r].Parent])
	}
	return w, nil
}
