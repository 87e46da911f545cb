package chain

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Cora-sized shapes: 13 labels, about 25 active attributes per token out of
// 20,000; citations run to about 30 tokens.
const (
	benchLabels      = 13
	benchAttrs       = 20000
	benchAttrsPerTok = 25
)

// benchModel is a one-instance model with n tokens, random attributes and
// labels, transitions on, Hamming loss.
func benchModel(b *testing.B, n int) *Model {
	b.Helper()
	rng := rand.New(rand.NewPCG(uint64(n), 2008))
	x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
	for t := range n {
		seen := map[int32]bool{}
		for len(seen) < benchAttrsPerTok {
			seen[int32(rng.IntN(benchAttrs))] = true
		}
		for a := range seen {
			x.Attrs[t] = append(x.Attrs[t], a)
		}
		slices.Sort(x.Attrs[t])
		x.Labels[t] = rng.IntN(benchLabels)
	}
	m, err := New([]Instance{x}, benchAttrs, benchLabels, true, decoders.Cost{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// predictNs times one Predict call outside any benchmark timer: the best of 5
// runs of enough calls to last a millisecond.
func predictNs(m *Model, w []float64) float64 {
	x := m.data[0]
	calls := 1
	for {
		start := time.Now()
		for range calls {
			m.Predict(x, w)
		}
		if time.Since(start) > time.Millisecond {
			break
		}
		calls *= 2
	}
	best := time.Duration(1 << 62)
	for range 5 {
		start := time.Now()
		for range calls {
			m.Predict(x, w)
		}
		best = min(best, time.Since(start))
	}
	return float64(best.Nanoseconds()) / float64(calls)
}

// BenchmarkOracles times every trainer's oracle as CuttingPlane calls it
// (Separate with ξ = 0, building the proposed δf), one δf alone and the bare
// PosLearn max-marginal step, at a zero and a random w, and reports each as a multiple
// of one Predict (Viterbi) call in "predicts/op". Sarawagi & Gupta
// (sec. 4.3.1): PosLearn's oracle costs about two MAP calls.
func BenchmarkOracles(b *testing.B) {
	zero := func(int) float64 { return 0 }
	for _, n := range []int{30, 60} {
		m := benchModel(b, n)
		random := make([]float64, m.Dim())
		rng := rand.New(rand.NewPCG(1, 2))
		for j := range random {
			random[j] = rng.NormFloat64()
		}
		for _, ws := range []struct {
			name string
			w    []float64
		}{{"zero-w", make([]float64, m.Dim())}, {"random-w", random}} {
			w := ws.w
			var unit float64 // ns of one Predict, measured lazily
			run := func(name string, op func(b *testing.B)) {
				b.Run(fmt.Sprintf("N=%d/K=%d/%s/%s", n, benchLabels, ws.name, name), func(b *testing.B) {
					if unit == 0 {
						unit = predictNs(m, w)
					}
					b.ReportAllocs()
					op(b)
					b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/unit, "predicts/op")
				})
			}
			run("predict", func(b *testing.B) {
				for b.Loop() {
					m.Predict(m.data[0], w)
				}
			})
			for _, trainer := range trainers.CuttingPlaneTrainers() {
				sep, err := trainers.NewSeparator[[]int](trainer, m, 0.01)
				if err != nil {
					b.Fatal(err)
				}
				run(trainer, func(b *testing.B) {
					var dst []structpred.Constraint
					for b.Loop() {
						if dst, err = sep.Separate(0, w, zero, dst[:0]); err != nil {
							b.Fatal(err)
						}
					}
				})
			}
			// One δf of a labeling wrong everywhere: what each proposal
			// costs to turn into a constraint.
			wrong := make([]int, n)
			for t, y := range m.data[0].Labels {
				wrong[t] = (y + 1) % benchLabels
			}
			run("delta-features", func(b *testing.B) {
				for b.Loop() {
					m.DeltaFeatures(0, wrong)
				}
			})
			run("poslearn-maxmarginals", func(b *testing.B) {
				var dst []trainers.PositionViolator[[]int]
				for b.Loop() {
					dst = m.PositionViolators(0, w, dst[:0])
				}
			})
		}
	}
}

// BenchmarkLogLossShapes times one evaluation of the CRF loss and its gradient on
// one Cora-sized chain, as CRF training calls it: plain CRF (β = 1) and
// entropy-margin (β = 10, Hamming loss term).
func BenchmarkLogLossShapes(b *testing.B) {
	for _, n := range []int{30, 100} {
		m := benchModel(b, n)
		w := make([]float64, m.Dim())
		rng := rand.New(rand.NewPCG(1, 2))
		for j := range w {
			w[j] = 0.3 * rng.NormFloat64()
		}
		grad := make([]float64, m.Dim())
		for _, p := range []struct{ beta, lossScale float64 }{{1, 0}, {10, 1}} {
			b.Run(fmt.Sprintf("N=%d/K=%d/beta=%v/scale=%v", n, benchLabels, p.beta, p.lossScale), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					m.LogLoss(0, w, p.beta, p.lossScale, grad)
				}
			})
		}
	}
}

// synthTrain is a learnable synthetic training set: sticky Markov labels,
// each token with a few attributes drawn from its label's block and the rest
// noise, Cora-sized (13 labels, 30 tokens, 25 attributes per token).
func synthTrain(b *testing.B, sequences int) *Model {
	b.Helper()
	const (
		attrs, perLabel, informative = 2000, 40, 5
		n                            = 30
	)
	rng := rand.New(rand.NewPCG(7, 2008))
	data := make([]Instance, sequences)
	for i := range data {
		x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
		y := rng.IntN(benchLabels)
		for t := range n {
			if rng.Float64() < 0.3 {
				y = rng.IntN(benchLabels)
			}
			seen := map[int32]bool{}
			for range informative {
				seen[int32(y*perLabel+rng.IntN(perLabel))] = true
			}
			for len(seen) < benchAttrsPerTok {
				seen[int32(rng.IntN(attrs))] = true
			}
			for a := range seen {
				x.Attrs[t] = append(x.Attrs[t], a)
			}
			slices.Sort(x.Attrs[t])
			x.Labels[t] = y
		}
		data[i] = x
	}
	m, err := New(data, attrs, benchLabels, true, decoders.Cost{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkCRFTrain times whole CRF and entropy-margin trainings on synthetic
// data and reports the L-BFGS iterations; the objective is logged at full
// precision so that two versions of the code can be checked to reach the same
// optimum.
func BenchmarkCRFTrain(b *testing.B) {
	m := synthTrain(b, 50)
	for _, s := range []trainers.CRFSettings{{C: 1}, {C: 1, Beta: 10, LossScale: 1}} {
		b.Run(fmt.Sprintf("%s/beta=%v", s.Name(), max(s.Beta, 1)), func(b *testing.B) {
			b.ReportAllocs()
			var res *trainers.Result
			for b.Loop() {
				var err error
				if res, err = trainers.CRF(context.Background(), m, s); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Iterations), "lbfgs-iters")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*max(res.Iterations, 1)), "ns/lbfgs-iter")
			b.Logf("objective %.17g after %d iterations", res.Primal, res.Iterations)
		})
	}
}

// BenchmarkSlackLogLoss times the slack-rescaled loss and its gradient on
// an OCR-sized word (9 letters, 26 labels, 128 pixels a quarter of them
// on, Hamming loss), summed in exp space (slackscaled.go) and, for
// comparison, in log space throughout.
func BenchmarkSlackLogLoss(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	const n, k, pixels = 9, 26, 128
	x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
	for t := range n {
		for a := range int32(pixels) {
			if rng.IntN(4) == 0 {
				x.Attrs[t] = append(x.Attrs[t], a)
			}
		}
		x.Labels[t] = rng.IntN(k)
	}
	m, err := New([]Instance{x}, pixels, k, true, decoders.Hamming(k))
	if err != nil {
		b.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = 0.1 * rng.NormFloat64()
	}
	grad := make([]float64, m.Dim())
	for _, logSpace := range []bool{false, true} {
		b.Run(fmt.Sprintf("logspace=%v", logSpace), func(b *testing.B) {
			m.forceLogSlack = logSpace
			for b.Loop() {
				if _, err := m.SlackLogLoss(0, w, 1, 1, grad); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
