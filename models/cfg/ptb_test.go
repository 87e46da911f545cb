package cfg_test

import (
	"fmt"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/models/cfg"
)

// tenFolds cuts trees into 10 contiguous folds in file order and returns,
// for each, the grammar of the other nine and the held-out fold.
func tenFolds(t testing.TB, trees []datasets.PhraseTree) (grammars []*cfg.Grammar, held [][]datasets.PhraseTree) {
	n := len(trees)
	for f := range 10 {
		lo, hi := f*n/10, (f+1)*n/10
		train := append(append([]datasets.PhraseTree{}, trees[:lo]...), trees[hi:]...)
		g, err := cfg.NewGrammar(train)
		if err != nil {
			t.Fatal(err)
		}
		grammars = append(grammars, g)
		held = append(held, trees[lo:hi])
	}
	return grammars, held
}

// The numbers docs/cfg.md quotes: the grammar of the 393 short trees of
// the WSJ sample, and how many held-out trees a 10-fold split covers.
func TestPTBSampleGrammarAndCoverage(t *testing.T) {
	trees := shortSampleTrees(t, 1000, 10)
	if len(trees) != 393 {
		t.Fatalf("%d short trees, want 393", len(trees))
	}
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		t.Fatal(err)
	}
	c := g.Compiled()
	got := fmt.Sprintf("rules %d, max unary %d, chains %d, binary rules %d", g.Rules(), g.MaxUnary(), c.Chains(), c.BinaryRules())
	const want = "rules 410, max unary 2, chains 327, binary rules 563"
	if got != want {
		t.Errorf("grammar: %s, docs/cfg.md says %s", got, want)
	}
	grammars, held := tenFolds(t, trees)
	covered, parseable := 0, 0
	for f := range grammars {
		c, p := cfg.Coverage(grammars[f], held[f])
		covered += c
		parseable += p
	}
	if got := fmt.Sprintf("covered %d, parseable %d of %d", covered, parseable, len(trees)); got != "covered 187, parseable 352 of 393" {
		t.Errorf("10-fold coverage: %s", got)
	}
}

// BenchmarkPTBSampleOracles times the decoders on the 393 short trees of
// the WSJ sample under the PCFG's weights, one op being all 393
// sentences: the argmax, the 2-best (zero-one loss) and the count chart
// (1 − F1; margin and slack rescaling).
func BenchmarkPTBSampleOracles(b *testing.B) {
	trees := shortSampleTrees(b, 1000, 10)
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		b.Fatal(err)
	}
	var data []cfg.Instance
	var gold []cky.Tree
	for _, tr := range trees {
		sent, tree, err := g.Encode(tr)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, cfg.NewInstance(g, sent, tree))
		gold = append(gold, tree)
	}
	w, err := cfg.MLE(g, gold)
	if err != nil {
		b.Fatal(err)
	}
	c := g.Compiled()
	for _, bench := range []struct {
		name string
		run  func(x cfg.Instance, ws *cky.Workspace) error
	}{
		{"best", func(x cfg.Instance, ws *cky.Workspace) error { _, _, _, err := c.Best(x.Sent, w, ws); return err }},
		{"2best", func(x cfg.Instance, ws *cky.Workspace) error { _, _, err := c.KBest(x.Sent, w, 2, ws); return err }},
		{"counts", func(x cfg.Instance, ws *cky.Workspace) error {
			_, err := c.Counts(x.Sent, w, x.Brackets, ws)
			return err
		}},
	} {
		b.Run(bench.name, func(b *testing.B) {
			var ws cky.Workspace
			for b.Loop() {
				for _, x := range data {
					if err := bench.run(x, &ws); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}

// BenchmarkPTBCountsByLength times the count chart on one sentence of
// each length of the sample.
func BenchmarkPTBCountsByLength(b *testing.B) {
	trees := shortSampleTrees(b, 1000, 10)
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		b.Fatal(err)
	}
	w := make([]float64, g.Rules())
	done := map[int]bool{}
	for _, tr := range trees {
		n := len(tr.Leaves())
		if done[n] || n < 4 {
			continue
		}
		done[n] = true
		sent, tree, err := g.Encode(tr)
		if err != nil {
			b.Fatal(err)
		}
		x := cfg.NewInstance(g, sent, tree)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			var ws cky.Workspace
			pairs := 0
			for b.Loop() {
				res, err := g.Compiled().Counts(x.Sent, w, x.Brackets, &ws)
				if err != nil {
					b.Fatal(err)
				}
				pairs = len(res)
			}
			b.ReportMetric(float64(pairs), "pairs")
		})
	}
}
