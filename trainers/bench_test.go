package trainers_test

import (
	"context"
	"github.com/maxmargin/repro/internal/cputime"
	"testing"

	"github.com/maxmargin/repro/trainers"
)

// BenchmarkCuttingPlane times one full training run of each cutting-plane
// trainer with each solver on a synthetic chain problem shaped like a small
// Cora training set (40 sequences of 15 tokens, 6 labels, 10 of 1,000
// attributes per token, transitions on, 10% label noise) at C = 0.1 and
// ε = 0.01, and reports the iterations, oracle calls, working-set size and
// the objective reached (true primal and gap).
func BenchmarkCuttingPlane(b *testing.B) {
	m, _ := randomChain(1, chainShape{n: 40, tokens: 15, k: 6, attrs: 1000, perTok: 10, noise: 0.1, edges: true})
	for _, solver := range trainers.Solvers() {
		for _, trainer := range trainers.CuttingPlaneTrainers() {
			b.Run(solver+"/"+trainer, func(b *testing.B) {
				b.ReportAllocs()
				var res *trainers.Result
				cpu := cputime.ProcessSeconds()
				for b.Loop() {
					sep, err := trainers.NewSeparator[[]int](trainer, m, 0.01)
					if err != nil {
						b.Fatal(err)
					}
					s := trainers.Settings{C: 0.1, Solver: solver}
					if res, err = trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cputime.ProcessSeconds()-cpu)/float64(b.N), "cpu-s/op")
				if !res.Converged {
					b.Errorf("not converged after %d iterations", res.Iterations)
				}
				b.ReportMetric(float64(res.Iterations), "iterations")
				b.ReportMetric(float64(res.OracleCalls), "oracle-calls")
				b.ReportMetric(float64(res.Constraints), "constraints")
				b.ReportMetric(res.Primal, "primal")
				b.ReportMetric(res.Gap, "gap")
			})
		}
	}
}
