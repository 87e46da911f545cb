package cfg_test

import (
	"bytes"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/decoders/cky/bruteforce"
	"github.com/maxmargin/repro/models/cfg"
	"github.com/maxmargin/repro/trainers"
)

// The model implements the trainers' capability interfaces structurally;
// these fail to compile if a signature drifts.
var (
	_ trainers.Model[cky.Tree]                 = (*cfg.Model)(nil)
	_ trainers.LossAugmentedDecoder[cky.Tree]  = (*cfg.Model)(nil)
	_ trainers.TruthExcludingDecoder[cky.Tree] = (*cfg.Model)(nil)
	_ trainers.LossCountDecoder[cky.Tree]      = (*cfg.Model)(nil)
	_ trainers.Forker[cky.Tree]                = (*cfg.Model)(nil)
	_ trainers.DeltaScorer[cky.Tree]           = (*cfg.Model)(nil)
	_ trainers.DeltaAdder[cky.Tree]            = (*cfg.Model)(nil)
)

func TestNoTrainersImport(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/maxmargin/repro/trainers" {
				t.Errorf("%s imports trainers", f)
			}
		}
	}
}

// A toy grammar with PP-attachment ambiguity, unary chains (NP → QP → CD)
// and a ternary rule; sampled trees serve as training data.
var toyRules = map[string][]string{
	"S":  {"NP VP", "VP", "NP VP PU"},
	"NP": {"DT NN", "NP PP", "QP", "DT JJ NN", "NN"},
	"QP": {"CD"},
	"VP": {"VB NP", "VP PP", "VB"},
	"PP": {"IN NP"},
}

func sample(rng *rand.Rand, label string, depth int) *datasets.PhraseNode {
	rhs, ok := toyRules[label]
	if !ok {
		return &datasets.PhraseNode{Label: label, Word: strings.ToLower(label)}
	}
	choice := rhs[rng.IntN(len(rhs))]
	if depth > 3 { // prefer the shortest expansion deep down
		choice = rhs[len(rhs)-1]
		if label == "NP" {
			choice = "NN"
		}
		if label == "VP" {
			choice = "VB"
		}
		if label == "S" {
			choice = "VP"
		}
	}
	n := &datasets.PhraseNode{Label: label}
	for _, k := range strings.Fields(choice) {
		n.Children = append(n.Children, sample(rng, k, depth+1))
	}
	return n
}

func toyTrees(seed uint64, count, maxWords int) []datasets.PhraseTree {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []datasets.PhraseTree
	for len(out) < count {
		t := datasets.PhraseTree{ID: fmt.Sprintf("toy:%d", len(out)+1), Root: sample(rng, "S", 0)}
		if n := len(t.Leaves()); n >= min(4, maxWords) && n <= maxWords {
			out = append(out, t)
		}
	}
	return out
}

func toyModel(t *testing.T, trees []datasets.PhraseTree, loss cfg.Loss) (*cfg.Grammar, *cfg.Model) {
	t.Helper()
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		t.Fatal(err)
	}
	var data []cfg.Instance
	for _, tr := range trees {
		sent, gold, err := g.Encode(tr)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, cfg.NewInstance(g, sent, gold))
	}
	m, err := cfg.New(g, data, loss)
	if err != nil {
		t.Fatal(err)
	}
	return g, m
}

func TestGrammarEncodesAndWritesBack(t *testing.T) {
	trees := toyTrees(1, 20, 7)
	g, _ := toyModel(t, trees, cfg.ZeroOne)
	if g.MaxUnary() < 1 {
		t.Errorf("MaxUnary = %d; the toy trees have unary chains", g.MaxUnary())
	}
	for _, tr := range trees {
		_, gold, err := g.Encode(tr)
		if err != nil {
			t.Fatal(err)
		}
		var a, b bytes.Buffer
		back := g.PhraseTree(gold, tr.Words(), tr.ID)
		if err := datasets.WritePhraseTrees(&a, []datasets.PhraseTree{tr}); err != nil {
			t.Fatal(err)
		}
		if err := datasets.WritePhraseTrees(&b, []datasets.PhraseTree{back}); err != nil {
			t.Fatal(err)
		}
		if a.String() != b.String() {
			t.Errorf("%s: written back as %s", a.String(), b.String())
		}
		o := cfg.Evaluate(tr, back, false)
		if !o.Exact || o.F1() != 1 {
			t.Errorf("%s: gold against itself %+v", tr.ID, o)
		}
	}
	unseen := datasets.PhraseTree{ID: "x", Root: &datasets.PhraseNode{Label: "S", Children: []*datasets.PhraseNode{
		{Label: "VB", Word: "go"}, {Label: "VB", Word: "go"}, {Label: "VB", Word: "go"}, {Label: "VB", Word: "go"}}}}
	if _, _, err := g.Encode(unseen); !errors.Is(err, cfg.ErrNotCovered) {
		t.Errorf("unseen rule: %v", err)
	}
	parse, fallback := g.Parse(unseen, make([]float64, g.Rules()), nil)
	if !fallback && parse.Root == nil {
		t.Error("no parse and no fallback")
	}
	odd := datasets.PhraseTree{ID: "y", Root: &datasets.PhraseNode{Label: "S", Children: []*datasets.PhraseNode{{Label: "ZZ", Word: "z"}}}}
	parse, fallback = g.Parse(odd, make([]float64, g.Rules()), nil)
	if !fallback || parse.Root.Label != "S" || len(parse.Root.Children) != 1 {
		t.Errorf("unknown tag: parse %+v fallback %v", parse.Root, fallback)
	}
	covered, parseable := cfg.Coverage(g, append(trees[:3:3], unseen, odd))
	if covered != 3 || parseable < 3 || parseable > 4 {
		t.Errorf("coverage %d, parseable %d", covered, parseable)
	}
}

func TestMLEIsNormalised(t *testing.T) {
	trees := toyTrees(2, 30, 8)
	g, m := toyModel(t, trees, cfg.ZeroOne)
	var gold []cky.Tree
	for i := range m.Len() {
		gold = append(gold, m.Truth(i))
	}
	w, err := cfg.MLE(g, gold)
	if err != nil {
		t.Fatal(err)
	}
	byParent := map[string]float64{}
	for r := range g.Rules() {
		parent := strings.Fields(g.RuleName(r))[0]
		byParent[parent] += math.Exp(w[r])
	}
	for p, s := range byParent {
		if math.Abs(s-1) > 1e-12 {
			t.Errorf("P(· | %s) sums to %v", p, s)
		}
	}
	if _, err := cfg.MLE(g, gold[:1]); err == nil {
		t.Error("MLE of a tree that leaves rules unused: no error")
	}
}

// The oracles against brute-force enumeration of every tree of each
// training sentence, under random weights (quarters, so ties happen).
func TestOraclesMatchBruteForce(t *testing.T) {
	trees := toyTrees(3, 25, 9)
	rng := rand.New(rand.NewPCG(9, 9))
	for _, loss := range []cfg.Loss{cfg.ZeroOne, cfg.BracketF1} {
		g, m := toyModel(t, trees, loss)
		for i := range m.Len() {
			w := make([]float64, m.Dim())
			for r := range w {
				w[r] = math.Round(rng.NormFloat64()*4) / 4
			}
			all := bruteforce.Trees(g.Compiled().Grammar(), m.Instance(i).Sent)
			truth := m.Truth(i)
			for _, scale := range []float64{1, 0.5, 3} {
				bestAug, bestExcl := math.Inf(-1), math.Inf(-1)
				for _, y := range all {
					v := m.Score(i, w, y) + scale*m.Loss(i, y)
					bestAug = max(bestAug, v)
					if !y.Equal(truth) {
						bestExcl = max(bestExcl, v)
					}
				}
				y := m.LossAugmented(i, w, scale)
				if v := m.Score(i, w, y) + scale*m.Loss(i, y); v != bestAug {
					t.Errorf("%v, instance %d, scale %v: loss-augmented value %v, brute force %v", loss, i, scale, v, bestAug)
				}
				y, ok := m.BestExcluding(i, w, scale)
				if ok != !math.IsInf(bestExcl, -1) {
					t.Fatalf("%v, instance %d: BestExcluding ok = %v with %d trees", loss, i, ok, len(all))
				}
				if ok && (y.Equal(truth) || m.Score(i, w, y)+scale*m.Loss(i, y) != bestExcl) {
					t.Errorf("%v, instance %d, scale %v: truth-excluding value %v, brute force %v", loss, i, scale, m.Score(i, w, y)+scale*m.Loss(i, y), bestExcl)
				}
			}
			perLoss := map[float64]float64{}
			for _, y := range all {
				l, s := m.Loss(i, y), m.Score(i, w, y)
				if old, ok := perLoss[l]; !ok || s > old {
					perLoss[l] = s
				}
			}
			ys, scores, err := m.BestPerLoss(i, w)
			if err != nil {
				t.Fatal(err)
			}
			seen := 0
			for k, y := range ys {
				if math.IsInf(scores[k], -1) {
					continue
				}
				l := m.Loss(i, y)
				if k > 0 && l <= m.Loss(i, ys[k-1]) {
					t.Errorf("%v, instance %d: losses not increasing", loss, i)
				}
				if perLoss[l] != scores[k] || m.Score(i, w, y) != scores[k] {
					t.Errorf("%v, instance %d: loss %v scores %v (tree %v), brute force %v", loss, i, l, scores[k], m.Score(i, w, y), perLoss[l])
				}
				seen++
			}
			if seen != len(perLoss) {
				t.Errorf("%v, instance %d: %d loss values, brute force %d", loss, i, seen, len(perLoss))
			}
		}
	}
}

func TestForkAnswersAsOriginal(t *testing.T) {
	trees := toyTrees(4, 10, 6)
	_, m := toyModel(t, trees, cfg.BracketF1)
	f := m.Fork().(*cfg.Model)
	w := make([]float64, m.Dim())
	for r := range w {
		w[r] = float64(r%5) - 2
	}
	for i := range m.Len() {
		if !m.LossAugmented(i, w, 1).Equal(f.LossAugmented(i, w, 1)) {
			t.Errorf("instance %d: fork differs", i)
		}
		d := m.DeltaFeatures(i, m.LossAugmented(i, w, 1))
		if math.Abs(d.Dot(w)-m.DeltaScore(i, w, m.LossAugmented(i, w, 1))) > 1e-9 {
			t.Errorf("instance %d: DeltaScore differs from δf·w", i)
		}
	}
}
