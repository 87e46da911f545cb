package ilp_test

import (
	"fmt"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/ilp"
	"github.com/maxmargin/repro/decoders/mst"
)

func ExampleDecodeChain() {
	// Three positions, two labels; label 1 pays off only in pairs.
	c := decoders.NewChain(3, 2)
	copy(c.Unary, []float64{1, 0, 0, 0.5, 1, 0})
	copy(c.Trans, []float64{0, 0, 0, 2})
	s, st, err := ilp.DecodeChain(c, ilp.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(s.Labels, s.Score, decoders.Viterbi(c, nil).Score)
	fmt.Printf("%d×%d program, %d relaxation(s), fractional: %v\n", st.Rows, st.Cols, st.LPs, st.RootFractional)
	// Output:
	// [1 1 1] 4.5 4.5
	// 5×10 program, 1 relaxation(s), fractional: false
}

func ExampleTreeDecoder_LossAugmented() {
	g := mst.NewGraph(3)
	g.SetArc(0, 2, 5)
	g.SetArc(2, 1, 4)
	g.SetArc(2, 3, 3)
	g.SetArc(1, 3, 2.5)
	truth := []int{-1, 2, 0, 2}
	t, loss, _, err := ilp.TreeDecoder{}.LossAugmented(g, truth, 1)
	if err != nil {
		panic(err)
	}
	exact, _ := mst.Decoder{}.LossAugmented(g, truth, 1, nil)
	fmt.Println(t.Heads, t.Score, loss, exact.Score)
	// Output:
	// [-1 2 0 1] 12.5 1 12.5
}
