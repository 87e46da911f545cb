package multiclass_test

import (
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/models/multiclass"
)

// MNIST's shape: 784 dense features (about 150 non-zero), 10 classes.
func benchModel(b *testing.B) (*multiclass.Model, []float64) {
	rng := rand.New(rand.NewPCG(1, 1))
	data := randomData(rng, 100, 784, 10, false)
	for i := range data { // keep ~20% of the pixels, as MNIST's ink
		x := &data[i].X
		keep := 0
		for e := range x.Idx {
			if rng.IntN(5) == 0 {
				x.Idx[keep], x.Val[keep] = x.Idx[e], x.Val[e]
				keep++
			}
		}
		x.Idx, x.Val = x.Idx[:keep], x.Val[:keep]
	}
	m, err := multiclass.New(data, 784, 10, zeroCost)
	if err != nil {
		b.Fatal(err)
	}
	return m, randomW(rng, m.Dim())
}

func BenchmarkLossAugmented(b *testing.B) {
	m, w := benchModel(b)
	i := 0
	for b.Loop() {
		m.LossAugmented(i%m.Len(), w, 1)
		i++
	}
}

func BenchmarkLogLossGradient(b *testing.B) {
	m, w := benchModel(b)
	grad := make([]float64, m.Dim())
	i := 0
	for b.Loop() {
		m.LogLoss(i%m.Len(), w, 1, 0, grad)
		i++
	}
}

func BenchmarkDeltaFeatures(b *testing.B) {
	m, w := benchModel(b)
	i := 0
	for b.Loop() {
		m.DeltaFeatures(i%m.Len(), m.LossAugmented(i%m.Len(), w, 1))
		i++
	}
}
