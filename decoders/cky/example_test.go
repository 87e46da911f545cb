package cky_test

import (
	"fmt"

	"github.com/maxmargin/repro/decoders/cky"
)

// A grammar over the tags DT (0) and NN (1): NP (2) → DT NN, NP → NN,
// and the start symbol TOP (3) → NP.
func ExampleCompiled_Best() {
	g := cky.Grammar{
		Symbols:  4,
		Terminal: []bool{true, true, false, false},
		Start:    3,
		Rules: []cky.Rule{
			{Parent: 3, Kids: []int32{2}},
			{Parent: 2, Kids: []int32{0, 1}},
			{Parent: 2, Kids: []int32{1}},
		},
		MaxUnary: 1,
	}
	c, err := cky.Compile(g)
	if err != nil {
		panic(err)
	}
	t, score, ok, err := c.Best([]int32{0, 1}, []float64{0, 1.5, 2}, nil)
	fmt.Println(t, score, ok, err)
	// Output: [{3 0 0 2} {2 1 0 2} {0 -1 0 1} {1 -1 1 2}] 1.5 true <nil>
}

// The best tree of every (matched, predicted) bracket count against a
// gold tree: here the only tree, with its one bracket matched.
func ExampleCompiled_Counts() {
	g := cky.Grammar{
		Symbols: 3, Terminal: []bool{true, false, false}, Start: 2,
		Rules:    []cky.Rule{{Parent: 2, Kids: []int32{1}}, {Parent: 1, Kids: []int32{0, 0}}},
		MaxUnary: 0,
	}
	c, _ := cky.Compile(g)
	gold := []cky.Bracket{{Label: 1, Start: 0, End: 2}}
	res, _ := c.Counts([]int32{0, 0}, []float64{0, 1}, gold, nil)
	for _, r := range res {
		fmt.Println(r.Matched, r.Predicted, r.Score, cky.F1(r.Matched, r.Predicted, len(gold)))
	}
	// Output: 1 1 1 1
}

// Brackets of another type (string labels) matched in the order of
// CompareSpans: (NP 0 2) matches, (VP 2 4) matches once of the two
// predicted, (S 0 4) is missed.
func ExampleMatchedFunc() {
	type bracket struct {
		label      string
		start, end int
	}
	compare := func(a, b bracket) int { return cky.CompareSpans(a.start, a.end, a.label, b.start, b.end, b.label) }
	gold := []bracket{{"NP", 0, 2}, {"S", 0, 4}, {"VP", 2, 4}}
	pred := []bracket{{"NP", 0, 2}, {"VP", 2, 4}, {"VP", 2, 4}}
	fmt.Println(cky.MatchedFunc(gold, pred, compare))
	// Output: 2
}
