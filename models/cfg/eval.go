package cfg

import (
	"slices"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
)

// Parse returns the best parse under w of the sentence t holds (its tags
// and words; t's brackets are not looked at), or the fallback parse
// (fallback true) when its tags have no tree in the grammar. ws may be
// nil.
func (g *Grammar) Parse(t datasets.PhraseTree, w []float64, ws *cky.Workspace) (parse datasets.PhraseTree, fallback bool) {
	tags, words := t.Tags(), t.Words()
	if sent, ok := g.Tags(tags); ok && len(sent) > 0 && len(sent) <= cky.MaxWords {
		if tree, _, ok, err := g.c.Best(sent, w, ws); err == nil && ok {
			return g.PhraseTree(tree, words, t.ID), false
		}
	}
	return g.Fallback(tags, words, t.ID), true
}

// Coverage counts, of trees, those whose every tag, label and rule g has
// (covered: their gold tree is among the parses the model can predict)
// and those g can parse at all (parseable ⊇ covered; the others get the
// fallback parse).
func Coverage(g *Grammar, trees []datasets.PhraseTree) (covered, parseable int) {
	var ws cky.Workspace
	zero := make([]float64, g.Rules())
	for _, t := range trees {
		if _, _, err := g.Encode(t); err == nil {
			covered++
			parseable++
			continue
		}
		if sent, ok := g.Tags(t.Tags()); ok && len(sent) > 0 && len(sent) <= cky.MaxWords {
			if _, _, ok, err := g.c.Best(sent, zero, &ws); err == nil && ok {
				parseable++
			}
		}
	}
	return covered, parseable
}

// LabelledBracket is a phrase's label over words Start..End−1.
type LabelledBracket struct {
	Label      string
	Start, End int
}

// PhraseBrackets returns t's labelled brackets, sorted: one per phrase
// node, the root's (e.g. S) included, pre-terminals excluded. This is
// evalb's counting with these differences from its COLLINS.prm: no
// punctuation is deleted (every tag counts as a word for spans), no labels
// are merged (ADVP and PRT stay distinct), and the brackets form a
// multiset (a unary chain of two equal labels counts twice; after
// datasets.JohnsonPreprocess there are none). It is the same counting as
// the training loss (cky.Brackets).
func PhraseBrackets(t datasets.PhraseTree) []LabelledBracket {
	var out []LabelledBracket
	var walk func(n *datasets.PhraseNode, at int) int
	walk = func(n *datasets.PhraseNode, at int) int {
		if n.IsPreterminal() {
			return at + 1
		}
		end := at
		for _, c := range n.Children {
			end = walk(c, end)
		}
		out = append(out, LabelledBracket{n.Label, at, end})
		return end
	}
	if t.Root != nil {
		walk(t.Root, 0)
	}
	slices.SortFunc(out, compareLabelled)
	return out
}

func compareLabelled(a, b LabelledBracket) int {
	return cky.CompareSpans(a.Start, a.End, a.Label, b.Start, b.End, b.Label)
}

// Outcome is one sentence's evaluation: the bracket counts, whether the
// parse is the gold tree exactly, and whether it was the fallback.
type Outcome struct {
	ID                       string
	Matched, Predicted, Gold int
	Exact, Fallback          bool
}

// F1 returns the sentence's labelled-bracket F1 (1 when neither tree has
// a bracket).
func (o Outcome) F1() float64 { return cky.F1(o.Matched, o.Predicted, o.Gold) }

// Evaluate compares a parse with the gold tree of the same sentence.
func Evaluate(gold, parse datasets.PhraseTree, fallback bool) Outcome {
	gb, pb := PhraseBrackets(gold), PhraseBrackets(parse)
	m := cky.MatchedFunc(gb, pb, compareLabelled)
	return Outcome{ID: gold.ID, Matched: m, Predicted: len(pb), Gold: len(gb), Exact: sameTree(gold.Root, parse.Root), Fallback: fallback}
}

func sameTree(a, b *datasets.PhraseNode) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Label != b.Label || a.Word != b.Word || len(a.Children) != len(b.Children) {
		return false
	}
	for i := range a.Children {
		if !sameTree(a.Children[i], b.Children[i]) {
			return false
		}
	}
	return true
}

// Summary aggregates outcomes: micro-averaged precision, recall and F1
// (bracket counts summed over sentences, as evalb's totals and Table 5)
// and exact-tree accuracy.
type Summary struct {
	Sentences, Exact, Fallbacks int
	Matched, Predicted, Gold    int
}

// Summarize sums outcomes.
func Summarize(outcomes []Outcome) Summary {
	var s Summary
	for _, o := range outcomes {
		s.Sentences++
		s.Matched += o.Matched
		s.Predicted += o.Predicted
		s.Gold += o.Gold
		if o.Exact {
			s.Exact++
		}
		if o.Fallback {
			s.Fallbacks++
		}
	}
	return s
}

// Precision is matched over predicted brackets (1 with none predicted).
func (s Summary) Precision() float64 { return ratio(s.Matched, s.Predicted) }

// Recall is matched over gold brackets (1 with no gold bracket).
func (s Summary) Recall() float64 { return ratio(s.Matched, s.Gold) }

// F1 is the micro-averaged labelled-bracket F1.
func (s Summary) F1() float64 { return cky.F1(s.Matched, s.Predicted, s.Gold) }

// Accuracy is the share of sentences parsed exactly.
func (s Summary) Accuracy() float64 { return ratio(s.Exact, s.Sentences) }

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}
