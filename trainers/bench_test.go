package trainers

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// BenchmarkCuttingPlane times one full training run of each cutting-plane
// trainer on the toy multiclass model (200 instances, 5 classes, 20
// dimensions, clusters overlapped so that the problem is not separable, cost
// |a − b|) and
// reports the passes and working-set size it took.
func BenchmarkCuttingPlane(b *testing.B) {
	rng := rand.New(rand.NewPCG(2008, 5))
	m := separableToy(rng, 200, 5, 20)
	for i := range m.x {
		for j := range m.x[i] {
			m.x[i][j] += 2 * rng.NormFloat64()
		}
	}
	for a := range m.cost { // ordinal costs, so that the formulations differ
		for c := range m.cost[a] {
			m.cost[a][c] = math.Abs(float64(a - c))
		}
	}
	for _, trainer := range CuttingPlaneTrainers() {
		b.Run(trainer, func(b *testing.B) {
			b.ReportAllocs()
			var res *Result
			for b.Loop() {
				sep, err := NewSeparator[int](trainer, m, 0.01)
				if err != nil {
					b.Fatal(err)
				}
				if res, err = CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 1}); err != nil {
					b.Fatal(err)
				}
			}
			if !res.Converged {
				b.Errorf("%s: not converged after %d passes", trainer, res.Iterations)
			}
			b.ReportMetric(float64(res.Iterations), "iterations")
			b.ReportMetric(float64(res.Constraints), "constraints")
		})
	}
}
