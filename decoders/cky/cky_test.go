package cky_test

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/decoders/cky/bruteforce"
)

// randomGrammar draws a grammar over 2 terminals (0, 1), nonterminals
// 2..4 and the start symbol 5: unary rules (cycles allowed), binary and
// ternary rules, and start rules of one or two children.
func randomGrammar(rng *rand.Rand, maxUnary int) cky.Grammar {
	const start = 5
	g := cky.Grammar{Symbols: 6, Terminal: []bool{true, true, false, false, false, false}, Start: start, MaxUnary: maxUnary}
	seen := map[string]bool{}
	add := func(r cky.Rule) {
		key := fmt.Sprint(r)
		if !seen[key] {
			seen[key] = true
			g.Rules = append(g.Rules, r)
		}
	}
	sym := func() int32 { return int32(rng.IntN(5)) }
	nt := func() int32 { return int32(2 + rng.IntN(3)) }
	for range 2 + rng.IntN(3) {
		add(cky.Rule{Parent: start, Kids: []int32{nt()}})
	}
	if rng.IntN(2) == 0 {
		add(cky.Rule{Parent: start, Kids: []int32{nt(), sym()}})
	}
	for range 3 + rng.IntN(4) {
		add(cky.Rule{Parent: nt(), Kids: []int32{sym()}})
	}
	for range 3 + rng.IntN(4) {
		add(cky.Rule{Parent: nt(), Kids: []int32{sym(), sym()}})
	}
	for range rng.IntN(3) { // ternary
		add(cky.Rule{Parent: nt(), Kids: []int32{sym(), sym(), sym()}})
	}
	return g
}

func randomScores(rng *rand.Rand, n int) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = math.Round(rng.NormFloat64()*8) / 4 // ties happen
	}
	return s
}

type instance struct {
	g      cky.Grammar
	c      *cky.Compiled
	sent   []int32
	scores []float64
	all    []cky.Tree
}

// instances draws tiny grammars and sentences with at least one tree.
func instances(t *testing.T, count int) []instance {
	rng := rand.New(rand.NewPCG(4, 5))
	var out []instance
	for len(out) < count {
		g := randomGrammar(rng, rng.IntN(3))
		sent := make([]int32, 1+rng.IntN(5))
		for i := range sent {
			sent[i] = int32(rng.IntN(2))
		}
		all := bruteforce.Trees(&g, sent)
		if len(all) == 0 || len(all) > 5000 {
			continue
		}
		c, err := cky.Compile(g)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, instance{g, c, sent, randomScores(rng, len(g.Rules)), all})
	}
	return out
}

func key(t cky.Tree) string { return fmt.Sprint([]cky.Node(t)) }

// The brute-force trees are valid and distinct, and k-best CKY with k at
// least their number returns exactly them, in decreasing score.
func TestKBestEnumeratesEveryTree(t *testing.T) {
	for n, in := range instances(t, 150) {
		seen := map[string]bool{}
		for _, tr := range in.all {
			if err := in.g.CheckTree(tr, in.sent); err != nil {
				t.Fatalf("instance %d: brute-force tree %v: %v", n, tr, err)
			}
			if seen[key(tr)] {
				t.Fatalf("instance %d: brute force repeats %v", n, tr)
			}
			seen[key(tr)] = true
		}
		trees, scores, err := in.c.KBest(in.sent, in.scores, len(in.all)+3, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(trees) != len(in.all) {
			t.Fatalf("instance %d: %d trees from CKY, %d by enumeration (grammar %v, sentence %v)", n, len(trees), len(in.all), in.g.Rules, in.sent)
		}
		got := map[string]bool{}
		for r, tr := range trees {
			if !seen[key(tr)] {
				t.Fatalf("instance %d: CKY tree %v not enumerated", n, tr)
			}
			got[key(tr)] = true
			if s := cky.Score(tr, in.scores); s != scores[r] {
				t.Errorf("instance %d: tree %d scores %v, reported %v", n, r, s, scores[r])
			}
			if r > 0 && scores[r] > scores[r-1] {
				t.Errorf("instance %d: scores not decreasing: %v", n, scores)
			}
		}
		if len(got) != len(trees) {
			t.Errorf("instance %d: CKY repeats a tree", n)
		}
	}
}

// Best and the 3 best match the sorted brute-force scores.
func TestBestMatchesBruteForce(t *testing.T) {
	ws := &cky.Workspace{}
	for n, in := range instances(t, 150) {
		want := make([]float64, len(in.all))
		for i, tr := range in.all {
			want[i] = cky.Score(tr, in.scores)
		}
		slices.SortFunc(want, func(a, b float64) int { return cmp.Compare(b, a) })
		_, s, ok, err := in.c.Best(in.sent, in.scores, ws)
		if err != nil || !ok || s != want[0] {
			t.Fatalf("instance %d: best %v (ok %v, %v), want %v", n, s, ok, err, want[0])
		}
		_, ss, err := in.c.KBest(in.sent, in.scores, 3, ws)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(ss, want[:min(3, len(want))]) {
			t.Errorf("instance %d: 3 best %v, want %v", n, ss, want[:min(3, len(want))])
		}
	}
}

// The count chart's best tree for every (matched, predicted) pair is the
// brute-force best of that pair, against a random gold tree.
func TestCountsMatchBruteForce(t *testing.T) {
	ws := &cky.Workspace{}
	rng := rand.New(rand.NewPCG(6, 7))
	for n, in := range instances(t, 150) {
		gold := cky.Brackets(&in.g, in.all[rng.IntN(len(in.all))])
		type pair struct{ m, p int }
		best := map[pair]float64{}
		for _, tr := range in.all {
			br := cky.Brackets(&in.g, tr)
			if len(br) > in.c.MaxBrackets(len(in.sent)) {
				t.Fatalf("instance %d: %d brackets, bound %d", n, len(br), in.c.MaxBrackets(len(in.sent)))
			}
			k := pair{cky.Matched(gold, br), len(br)}
			if s, ok := best[k]; !ok || cky.Score(tr, in.scores) > s {
				best[k] = cky.Score(tr, in.scores)
			}
		}
		res, err := in.c.Counts(in.sent, in.scores, gold, ws)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) != len(best) {
			t.Fatalf("instance %d: %d pairs, brute force %d", n, len(res), len(best))
		}
		for _, r := range res {
			k := pair{r.Matched, r.Predicted}
			if s, ok := best[k]; !ok || s != r.Score {
				t.Errorf("instance %d: pair %v scores %v, brute force %v (%v)", n, k, r.Score, s, ok)
			}
			if err := in.g.CheckTree(r.Tree, in.sent); err != nil {
				t.Fatalf("instance %d: %v", n, err)
			}
			br := cky.Brackets(&in.g, r.Tree)
			if cky.Matched(gold, br) != r.Matched || len(br) != r.Predicted || cky.Score(r.Tree, in.scores) != r.Score {
				t.Errorf("instance %d: tree %v does not have the counts and score reported", n, r.Tree)
			}
		}
	}
}

func TestCompileRefusesBadGrammars(t *testing.T) {
	ok := cky.Grammar{Symbols: 3, Terminal: []bool{true, false, false}, Start: 2, Rules: []cky.Rule{{Parent: 2, Kids: []int32{1}}, {Parent: 1, Kids: []int32{0}}}, MaxUnary: 1}
	if _, err := cky.Compile(ok); err != nil {
		t.Fatal(err)
	}
	for name, mutate := range map[string]func(g *cky.Grammar){
		"start terminal":  func(g *cky.Grammar) { g.Start = 0 },
		"terminal parent": func(g *cky.Grammar) { g.Rules = append(g.Rules, cky.Rule{Parent: 0, Kids: []int32{1}}) },
		"start on rhs":    func(g *cky.Grammar) { g.Rules = append(g.Rules, cky.Rule{Parent: 1, Kids: []int32{2, 0}}) },
		"empty rhs":       func(g *cky.Grammar) { g.Rules = append(g.Rules, cky.Rule{Parent: 1}) },
		"flags":           func(g *cky.Grammar) { g.Terminal = g.Terminal[:2] },
		"negative unary":  func(g *cky.Grammar) { g.MaxUnary = -1 },
		"symbol range":    func(g *cky.Grammar) { g.Rules = append(g.Rules, cky.Rule{Parent: 1, Kids: []int32{7}}) },
	} {
		g := ok
		g.Rules = slices.Clone(ok.Rules)
		mutate(&g)
		if _, err := cky.Compile(g); err == nil {
			t.Errorf("%s: compiled", name)
		}
	}
	c, _ := cky.Compile(ok)
	for _, sent := range [][]int32{nil, {1}, {5}} {
		if _, _, err := c.KBest(sent, []float64{0, 0}, 1, nil); err == nil {
			t.Errorf("sentence %v decoded", sent)
		}
	}
	if _, _, err := c.KBest([]int32{0}, []float64{0}, 1, nil); err == nil {
		t.Error("one score for two rules accepted")
	}
}
