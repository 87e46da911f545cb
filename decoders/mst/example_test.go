package mst_test

import (
	"errors"
	"fmt"

	"github.com/maxmargin/repro/decoders/mst"
)

// exampleGraph is a 3-word sentence whose best heads form the cycle 2 ⇄ 3:
// word 1 prefers the root (10), word 2 prefers word 3 (9) and word 3 prefers
// word 2 (8). Breaking the cycle costs least at word 3, whose next best head
// is word 1 (6, two points less than 8): the MAP tree is 0 → 1, 1 → 3,
// 3 → 2, scoring 10 + 6 + 9 = 25.
func exampleGraph() *mst.Graph {
	g := mst.NewGraph(3)
	arcs := []struct {
		h, d int
		s    float64
	}{
		{0, 1, 10}, {0, 2, 1}, {0, 3, 1},
		{1, 2, 2}, {1, 3, 6},
		{2, 1, 0}, {2, 3, 8},
		{3, 1, 0}, {3, 2, 9},
	}
	for _, a := range arcs {
		g.SetArc(a.h, a.d, a.s)
	}
	return g
}

func ExampleDecoder_Decode() {
	g := exampleGraph()
	t := mst.Decoder{}.Decode(g, nil)
	fmt.Println(t.Heads, t.Score)
	// That tree has no crossing arcs, so Eisner's projective search finds it
	// too.
	p := mst.Decoder{Projective: true}.Decode(g, nil)
	fmt.Println(p.Heads, p.Score)
	// Output:
	// [-1 0 3 1] 25
	// [-1 0 3 1] 25
}

func ExampleDecoder_LossAugmented() {
	g := exampleGraph()
	truth := []int{-1, 0, 3, 1}
	// Margin scaling: every wrong head is worth 5 extra points, and the tree
	// 0 → 1 → 2 → 3 scores 10 + 2 + 8 = 20, plus 5 for each of its 2 wrong
	// heads.
	t, loss := mst.Decoder{}.LossAugmented(g, truth, 5, nil)
	fmt.Println(t.Heads, t.Score, loss)
	// Output: [-1 0 1 2] 30 2
}

func ExampleDecoder_PositionViolators() {
	g := exampleGraph()
	truth := []int{-1, 0, 3, 1} // the MAP tree itself
	// Position, the best tree wrong there, its score and its loss. Word 1
	// has two best wrong trees (score 10); the decoder's tie rule picks one.
	for _, v := range (mst.Decoder{}).PositionViolators(g, truth, nil, nil) {
		fmt.Println(v.Position, v.Heads, v.Score, v.Loss)
	}
	// Output:
	// 1 [-1 2 3 0] 10 2
	// 2 [-1 0 1 2] 20 2
	// 3 [-1 0 3 0] 20 1
}

func ExampleCheckTree() {
	for _, heads := range [][]int{
		{-1, 2, 0, 2},
		{-1, 0, 3, 4, 2},
		{-1, 0, 4},
	} {
		err := mst.CheckTree(heads)
		fmt.Println(heads, err, errors.Is(err, mst.ErrCycle))
	}
	// Output:
	// [-1 2 0 2] <nil> false
	// [-1 0 3 4 2] mst: word 2 has head 3, 3 has head 4, 4 has head 2: head cycle true
	// [-1 0 4] mst: word 2 has head 4, want 0..2: head out of range false
}
