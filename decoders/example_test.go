package decoders_test

import (
	"fmt"

	"github.com/maxmargin/repro/decoders"
)

// exampleChain is a 3-token chain over labels 0 and 1: the unaries favour
// 0 1 0, while the transitions reward staying in a label and punish
// switching, so the best labeling is 0 0 0 (score 2+0.5+0+0.5+1 = 4).
func exampleChain() *decoders.Chain {
	return &decoders.Chain{
		N: 3, K: 2,
		Unary: []float64{
			2, 0, // t=0
			0, 1, // t=1
			1, 0, // t=2
		},
		Trans: []float64{
			0.5, -1, // 0→0, 0→1
			-1, 0.5, // 1→0, 1→1
		},
	}
}

func ExampleViterbi() {
	best := decoders.Viterbi(exampleChain(), nil)
	fmt.Println(best.Labels, best.Score)
	// Output: [0 0 0] 4
}

func ExampleLossAugmented() {
	c := exampleChain()
	truth := []int{0, 0, 0}
	// Margin scaling: each wrong position is worth 2 extra points.
	y := decoders.LossAugmented(c, truth, decoders.Hamming(2), 2, nil)
	fmt.Println(y.Labels, y.Score)
	// Output: [1 1 1] 8
}

func ExampleKBest() {
	for _, s := range decoders.KBest(exampleChain(), 3, nil) {
		fmt.Println(s.Labels, s.Score)
	}
	// Output:
	// [0 0 0] 4
	// [0 1 1] 2.5
	// [0 1 0] 2
}

func ExampleBestExcluding() {
	c := exampleChain()
	truth := []int{0, 0, 0}
	// The best labeling other than the truth, without loss augmentation.
	y, ok := decoders.BestExcluding(c, truth, decoders.Hamming(2), 0, nil)
	fmt.Println(y.Labels, y.Score, ok)
	// Output: [0 1 1] 2.5 true
}

func ExampleLossCount() {
	c := exampleChain()
	truth := []int{0, 0, 0}
	best, err := decoders.LossCount(c, truth, decoders.Hamming(2), nil)
	if err != nil {
		panic(err)
	}
	for loss, s := range best {
		fmt.Println(loss, s.Labels, s.Score)
	}
	// Output:
	// 0 [0 0 0] 4
	// 1 [0 1 0] 2
	// 2 [0 1 1] 2.5
	// 3 [1 1 1] 2
}

func ExampleComputeMaxMarginals() {
	m := decoders.ComputeMaxMarginals(exampleChain(), nil)
	for t := range m.N {
		fmt.Println(t, m.MM[t*m.K:(t+1)*m.K])
	}
	// The best labeling with label 1 in the middle:
	fmt.Println(m.Labeling(1, 1))
	// Output:
	// 0 [4 2]
	// 1 [4 2.5]
	// 2 [4 2.5]
	// [0 1 1]
}

func ExampleForwardBackward() {
	m := decoders.ForwardBackward(exampleChain(), nil)
	fmt.Printf("log Z = %.4f\n", m.LogZ)
	for t := range 3 {
		fmt.Printf("P(y_%d = 0) = %.4f\n", t, m.Node[t*2])
	}
	// Output:
	// log Z = 4.5251
	// P(y_0 = 0) = 0.8521
	// P(y_1 = 0) = 0.6594
	// P(y_2 = 0) = 0.7380
}
