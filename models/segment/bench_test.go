package segment

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Cora-sized shapes: 13 labels, about 25 active attributes per token out of
// 20,000, citations of about 30 tokens, segments of up to 8 tokens.
const (
	benchTokens      = 30
	benchLabels      = 13
	benchMaxLen      = 8
	benchAttrs       = 20000
	benchAttrsPerTok = 25
)

// benchModel is a one-instance model with random attributes and a random
// truth of segments up to benchMaxLen long, edges on, the default loss.
func benchModel(b *testing.B) *Model {
	b.Helper()
	rng := rand.New(rand.NewPCG(benchTokens, 2008))
	x := Instance{
		Attrs:    make([][]int32, benchTokens),
		Segments: randomSegmentation(rng, benchTokens, benchLabels, benchMaxLen),
	}
	for t := range x.Attrs {
		seen := map[int32]bool{}
		for len(seen) < benchAttrsPerTok {
			seen[int32(rng.IntN(benchAttrs))] = true
		}
		for a := range seen {
			x.Attrs[t] = append(x.Attrs[t], a)
		}
		slices.Sort(x.Attrs[t])
	}
	m, err := New([]Instance{x}, benchAttrs, benchLabels, benchMaxLen, true, semimarkov.Loss{})
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

// BenchmarkOracles times building the score tables, Predict, Score, one δf,
// the bare PosLearn span-marginal step, the k-best and log-loss oracles of
// MIRA and the CRF, and every cutting-plane trainer's oracle as CuttingPlane
// calls it (Separate with ξ = 0, building the proposed δf), at
// a zero and a random w, each also as a multiple of one Predict in
// "predicts/op". Sarawagi & Gupta (sec. 4.3.2): PosLearn's oracle is a
// forward and a backward Viterbi pass.
func BenchmarkOracles(b *testing.B) {
	zero := func(int) float64 { return 0 }
	m := benchModel(b)
	random := make([]float64, m.Dim())
	rng := rand.New(rand.NewPCG(1, 2))
	for j := range random {
		random[j] = rng.NormFloat64()
	}
	x := m.data[0]
	wrong := make([]structpred.Segment, len(x.Segments)) // every segment relabelled
	for j, g := range x.Segments {
		wrong[j] = structpred.Segment{Start: g.Start, End: g.End, Label: (g.Label + 1) % benchLabels}
	}
	for _, ws := range []struct {
		name string
		w    []float64
	}{{"zero-w", make([]float64, m.Dim())}, {"random-w", random}} {
		w := ws.w
		var unit float64 // ns of one Predict, measured lazily
		run := func(name string, op func(b *testing.B)) {
			b.Run(fmt.Sprintf("N=%d/K=%d/L=%d/%s/%s", benchTokens, benchLabels, benchMaxLen, ws.name, name), func(b *testing.B) {
				if unit == 0 {
					unit = predictNs(m, w)
				}
				b.ReportAllocs()
				op(b)
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/unit, "predicts/op")
			})
		}
		run("scores", func(b *testing.B) {
			for b.Loop() {
				m.scores(x, w)
			}
		})
		run("predict", func(b *testing.B) {
			for b.Loop() {
				m.Predict(x, w)
			}
		})
		run("score-truth", func(b *testing.B) {
			for b.Loop() {
				m.Score(0, w, x.Segments)
			}
		})
		run("delta-features", func(b *testing.B) {
			for b.Loop() {
				m.DeltaFeatures(0, wrong)
			}
		})
		run("span-marginals", func(b *testing.B) {
			var dst []trainers.PositionViolator[[]structpred.Segment]
			for b.Loop() {
				dst = m.PositionViolators(0, w, dst[:0])
			}
		})
		// The online and log-linear trainers' oracles: MIRA's k-best list
		// with Crammer et al.'s k, and the entropy-margin loss with its
		// gradient.
		run("kbest-5", func(b *testing.B) {
			for b.Loop() {
				m.KBest(0, w, 1, 5)
			}
		})
		run("log-loss", func(b *testing.B) {
			grad := make([]float64, m.Dim())
			for b.Loop() {
				m.LogLoss(0, w, 10, 1, grad)
			}
		})
		// The plain CRF's loss and gradient (β = 1, no loss term).
		run("crf-loss", func(b *testing.B) {
			grad := make([]float64, m.Dim())
			for b.Loop() {
				m.LogLoss(0, w, 1, 0, grad)
			}
		})
		for _, trainer := range trainers.CuttingPlaneTrainers() {
			sep, err := trainers.NewSeparator[[]structpred.Segment](trainer, m, 0.01)
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
	}
}
