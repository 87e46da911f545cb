package trainers_test

import (
	"context"
	"fmt"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// Train PosLearn on two tiny sequences whose labels follow their attributes,
// then check the primal-dual gap and the predictions.
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
	fmt.Println("converged:", res.Converged, "gap below 1e-3:", res.Gap < 1e-3)
	fmt.Println(m.Predict(chain.Instance{Attrs: [][]int32{{1}, {0}, {0}}}, res.W))
	// Output:
	// converged: true gap below 1e-3: true
	// [1 0 0]
}
