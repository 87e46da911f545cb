package multiclass_test

import (
	"context"
	"fmt"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Train a three-class model with the margin-scaled SSVM on six points in
// the plane (a third feature, always 1, is the bias), with Synth2's costs
// (confusing classes 1 and 2 costs 0.1), and classify new points.
func Example() {
	point := func(a, b float64) structpred.SparseVec {
		return structpred.SparseVec{Idx: []int32{0, 1, 2}, Val: []float64{a, b, 1}}
	}
	train := []multiclass.Instance{
		{X: point(0, 0), Label: 0}, {X: point(0.2, -0.1), Label: 0},
		{X: point(2, 1), Label: 1}, {X: point(2.2, 0.8), Label: 1},
		{X: point(2, -1), Label: 2}, {X: point(1.8, -1.2), Label: 2},
	}
	cost := decoders.Cost{K: 3, M: []float64{
		0, 1, 1,
		1, 0, 0.1,
		1, 0.1, 0,
	}}
	m, err := multiclass.New(train, 3, 3, cost)
	if err != nil {
		panic(err)
	}
	res, err := trainers.Train(context.Background(), trainers.Margin, m, trainers.Values{"C": 10.0})
	if err != nil {
		panic(err)
	}
	test := []multiclass.Instance{{X: point(0.1, 0.3), Label: 0}, {X: point(2.5, 1.5), Label: 1}, {X: point(2.4, -0.9), Label: 2}, {X: point(1.9, 0.1), Label: 1}}
	var truth, pred []int
	for _, x := range test {
		truth, pred = append(truth, x.Label), append(pred, m.Predict(x.X, res.W))
	}
	errRate, _ := multiclass.ErrorRate(truth, pred)
	avg, _ := multiclass.AverageCost(cost, truth, pred)
	fmt.Println("predicted:", pred)
	fmt.Printf("error %.0f%%, average cost %.3f\n", errRate, avg)
	// Output:
	// predicted: [0 1 2 2]
	// error 25%, average cost 0.025
}

// At w = 0 every class scores 0: the CRF loss is log K, and with the loss
// added at a large β the margin-rescaled loss approaches the largest cost.
func ExampleModel_LogLoss() {
	x := multiclass.Instance{X: structpred.SparseVec{Idx: []int32{0}, Val: []float64{1}}, Label: 0}
	m, err := multiclass.New([]multiclass.Instance{x}, 1, 4, decoders.Cost{})
	if err != nil {
		panic(err)
	}
	w := make([]float64, m.Dim())
	fmt.Printf("%.4f %.4f\n", m.LogLoss(0, w, 1, 0, nil), m.LogLoss(0, w, 1e4, 1, nil))
	// Output:
	// 1.3863 1.0001
}
