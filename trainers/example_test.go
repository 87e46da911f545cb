package trainers_test

import (
	"context"
	"fmt"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// Train PosLearn on two tiny sequences whose labels follow their attributes,
// then check the true gap against the bound C·G·ε that ε promises (G = 5
// positions, one slack each; ε defaults to 0.01) and the predictions.
func ExampleCuttingPlane() {
	data := []chain.Instance{
		{Attrs: [][]int32{{0}, {1}, {1}}, Labels: []int{0, 1, 1}},
		{Attrs: [][]int32{{1}, {0}}, Labels: []int{1, 0}},
	}
	m, err := chain.New(data, 2, 2, true, decoders.Cost{}) // 2 attributes, 2 labels, Hamming loss
	if err != nil {
		panic(err)
	}
	sep, err := trainers.NewSeparator[[]int](trainers.PosLearn, m, 0.01)
	if err != nil {
		panic(err)
	}
	res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, trainers.Settings{C: 10})
	if err != nil {
		panic(err)
	}
	bound := 10 * float64(sep.Groups()) * 0.01
	fmt.Println("converged:", res.Converged, "true gap within C·G·ε:", res.Gap >= 0 && res.Gap <= bound)
	fmt.Println(m.Predict(chain.Instance{Attrs: [][]int32{{1}, {0}, {0}}}, res.W))
	// Output:
	// converged: true true gap within C·G·ε: true
	// [1 0 0]
}

// Record a learning curve: the averaged perceptron reports, after every
// epoch, the weights it would return if stopped there, which a caller can
// score on held-out data (here, how many training tokens they get wrong).
// The CPU time excludes the hook's own, so scoring costs the curve nothing.
// Training stops after the second epoch, which makes no update.
func ExampleWithCheckpoints() {
	data := []chain.Instance{
		{Attrs: [][]int32{{0}, {1}, {1}}, Labels: []int{0, 1, 1}},
		{Attrs: [][]int32{{1}, {0}}, Labels: []int{1, 0}},
		{Attrs: [][]int32{{0}, {0}, {1}}, Labels: []int{0, 0, 1}},
	}
	m, err := chain.New(data, 2, 2, true, decoders.Cost{})
	if err != nil {
		panic(err)
	}
	wrong := func(w []float64) int {
		n := 0
		for _, x := range data {
			for t, y := range m.Predict(x, w) {
				if y != x.Labels[t] {
					n++
				}
			}
		}
		return n
	}
	res, err := trainers.Train(context.Background(), trainers.PerceptronName, m, trainers.Values{"epochs": 4},
		trainers.WithCheckpoints(func(c trainers.Checkpoint) error {
			fmt.Printf("epoch %d: %d errors\n", c.Iteration, wrong(c.W))
			return nil
		}))
	if err != nil {
		panic(err)
	}
	fmt.Println("epochs run:", res.Iterations)
	// Output:
	// epoch 1: 1 errors
	// epoch 2: 0 errors
	// epochs run: 2
}
