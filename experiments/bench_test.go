package experiments

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/maxmargin/repro/internal/cputime"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// benchModel builds the chain model of one real training set: Cora split 0
// (25% train) or OCR fold 0 (degree-1 pixels). It skips without REPRO_DATA.
func benchModel(b *testing.B, dataset string) *chain.Model {
	b.Helper()
	d, idx, train := benchData(b, dataset)
	m, err := chain.New(encode(d, idx, train, func(a [][]int32, s structpred.Sequence) chain.Instance {
		return chain.Instance{Attrs: a, Labels: s.Labels}
	}), idx.Len(), len(d.labels), true, decoders.Cost{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// benchSegmentModel builds the semi-Markov model of Cora split 0 (25%
// train) as segmentationTask does: L covers 99% of the training segments,
// edges on, the default loss. It skips without REPRO_DATA.
func benchSegmentModel(b *testing.B) *segment.Model {
	b.Helper()
	d, idx, train := benchData(b, "cora")
	set := encode(d, idx, train, func(a [][]int32, s structpred.Sequence) segment.Instance {
		return segment.Instance{Attrs: a, Segments: s.Segments}
	})
	maxLen, err := segment.MaxSegmentLength(set, tagger.DefaultSegmentQuantile, 0)
	if err != nil {
		b.Fatal(err)
	}
	m, err := segment.New(set, idx.Len(), len(d.labels), maxLen, true, semimarkov.Loss{})
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// benchData loads one real data set with its features, the training ids of
// its benchmark split and their attribute index. It skips without
// REPRO_DATA.
func benchData(b *testing.B, dataset string) (*preparedData, *features.Index, []int) {
	b.Helper()
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		b.Skip("REPRO_DATA not set")
	}
	corpus, err := datasets.Open(dir, datasets.SourceEnv, dataset)
	if err != nil {
		b.Skip(err)
	}
	var split datasets.Split
	var attrs [][][]string
	for _, s := range corpus.Sequences {
		a := features.Extract(s.Tokens, features.DefaultOptions())
		if dataset == "ocr" {
			if a, err = features.Pixels(s.Tokens, 1); err != nil {
				b.Fatal(err)
			}
		}
		attrs = append(attrs, a)
	}
	if dataset == "ocr" {
		folds, err := datasets.OCRFolds(corpus)
		if err != nil {
			b.Fatal(err)
		}
		split, err = datasets.FoldSplits(folds, 0)
		if err != nil {
			b.Fatal(err)
		}
	} else if split, err = datasets.SplitAt(len(attrs), 0, 0.25, 2008); err != nil {
		b.Fatal(err)
	}
	d := &preparedData{attrs: attrs, seqs: corpus.Sequences, labels: corpus.Labels}
	return d, features.BuildIndex(pick(attrs, split.Train)), split.Train
}

// BenchmarkOnlineEpoch times one epoch of each online trainer on real data.
func BenchmarkOnlineEpoch(b *testing.B) {
	for _, dataset := range []string{"cora", "ocr"} {
		for _, trainer := range trainers.OnlineTrainers() {
			b.Run(dataset+"/"+trainer, func(b *testing.B) {
				m := benchModel(b, dataset)
				s := trainers.OnlineSettings{Epochs: 1, K: 5, C: 1, Lambda: 1 / float64(m.Len())}
				if dataset == "ocr" && trainer == trainers.MIRAName {
					s.K = 20
				}
				run := map[string]func(context.Context, trainers.Model[[]int], trainers.OnlineSettings) (*trainers.Result, error){
					trainers.PerceptronName:  trainers.Perceptron[[]int],
					trainers.MIRAName:        trainers.MIRA[[]int],
					trainers.SubgradientName: trainers.Subgradient[[]int],
				}[trainer]
				b.ResetTimer()
				for b.Loop() {
					if _, err := run(context.Background(), m, s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(m.Len()), "sequences")
			})
		}
	}
}

// BenchmarkCRF times a whole CRF training (C = 1) on real data, reports its
// L-BFGS iterations and the time per iteration, and logs the objective at
// full precision (to check that a faster version reaches the same optimum).
func BenchmarkCRF(b *testing.B) {
	for _, dataset := range []string{"cora", "ocr"} {
		b.Run(dataset, func(b *testing.B) {
			m := benchModel(b, dataset)
			var iters int
			var primal float64
			cpu := cputime.ProcessSeconds()
			for b.Loop() {
				res, err := trainers.CRF(context.Background(), m, trainers.CRFSettings{C: 1})
				if err != nil {
					b.Fatal(err)
				}
				iters, primal = res.Iterations, res.Primal
			}
			b.ReportMetric(float64(iters), "lbfgs-iters")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*max(iters, 1)), "ns/lbfgs-iter")
			b.ReportMetric((cputime.ProcessSeconds()-cpu)*1e3/float64(b.N*max(iters, 1)), "cpu-ms/lbfgs-iter")
			b.Logf("objective %.17g after %d iterations", primal, iters)
		})
	}
}

// BenchmarkCuttingPlane times one whole training run of each cutting-plane
// trainer with each solver on Cora split 0 (25% train) at C = 0.1, ε = 0.01,
// and reports the passes or iterations, oracle calls, the true primal and
// its gap. approx-slack is certified by the exact slack oracle.
func BenchmarkCuttingPlane(b *testing.B) {
	for _, solver := range trainers.Solvers() {
		for _, trainer := range trainers.CuttingPlaneTrainers() {
			b.Run("cora/"+solver+"/"+trainer, func(b *testing.B) {
				m := benchModel(b, "cora")
				var res *trainers.Result
				cpu := cputime.ProcessSeconds()
				for b.Loop() {
					sep, err := trainers.NewSeparator(trainer, trainers.Model[[]int](m), 0.01)
					if err != nil {
						b.Fatal(err)
					}
					s := trainers.Settings{C: 0.1, Epsilon: 0.01, Solver: solver}
					if trainer == trainers.ApproxSlack {
						if s.Certifier, err = trainers.NewSeparator(trainers.Slack, trainers.Model[[]int](m), 0.01); err != nil {
							b.Fatal(err)
						}
					}
					if res, err = trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric((cputime.ProcessSeconds()-cpu)/float64(b.N), "cpu-s/op")
				b.ReportMetric(float64(res.Iterations), "iterations")
				b.ReportMetric(float64(res.OracleCalls), "oracle-calls")
				b.ReportMetric(res.Primal, "primal")
				b.ReportMetric(res.Gap, "gap")
			})
		}
	}
}

// BenchmarkOneSlackThreads measures what threads buys: one-slack margin
// scaling on Cora split 0 (25% train, 125 sequences) at C = 0.1, ε = 0.01,
// trained with 1 and with 2 threads in every iteration (in alternating
// order, so that neither always inherits the other's garbage), so that the
// two are measured side by side and the load of a shared machine falls on
// both alike. It reports each one's wall and whole-process CPU seconds per
// training and the ratios 2 threads / 1 thread (wall-ratio below 1 is the
// speed-up; cpu-ratio above 1 is the cost of the extra goroutine), and
// fails if the two trainings differ (they must be bit for bit the same).
func BenchmarkOneSlackThreads(b *testing.B) {
	m := benchModel(b, "cora")
	threads := []int{1, 2}
	wall, cpu := make([]float64, len(threads)), make([]float64, len(threads))
	round := 0
	for b.Loop() {
		primal := make([]float64, len(threads))
		for j := range threads {
			k := (j + round) % len(threads)
			t := threads[k]
			sep, err := trainers.NewSeparator(trainers.Margin, trainers.Model[[]int](m), 0.01)
			if err != nil {
				b.Fatal(err)
			}
			s := trainers.Settings{C: 0.1, Epsilon: 0.01, Solver: trainers.OneSlack, Threads: t}
			c0, t0 := cputime.ProcessSeconds(), time.Now()
			res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
			wall[k] += time.Since(t0).Seconds()
			cpu[k] += cputime.ProcessSeconds() - c0
			if err != nil {
				b.Fatal(err)
			}
			primal[k] = res.Primal
		}
		round++
		if primal[0] != primal[1] {
			b.Fatalf("primal %v with 1 thread, %v with 2", primal[0], primal[1])
		}
	}
	n := float64(b.N)
	for k, t := range threads {
		b.ReportMetric(wall[k]/n, fmt.Sprintf("wall-s/%d-thread", t))
		b.ReportMetric(cpu[k]/n, fmt.Sprintf("cpu-s/%d-thread", t))
	}
	b.ReportMetric(wall[1]/wall[0], "wall-ratio")
	b.ReportMetric(cpu[1]/cpu[0], "cpu-ratio")
}

// BenchmarkSegmentCRF is BenchmarkCRF for the semi-Markov segmentation model
// on Cora: a whole CRF training (C = 1), its L-BFGS iterations, the time per
// iteration and the objective at full precision.
func BenchmarkSegmentCRF(b *testing.B) {
	m := benchSegmentModel(b)
	var iters int
	var primal float64
	for b.Loop() {
		res, err := trainers.CRF(context.Background(), m, trainers.CRFSettings{C: 1})
		if err != nil {
			b.Fatal(err)
		}
		iters, primal = res.Iterations, res.Primal
	}
	b.ReportMetric(float64(iters), "lbfgs-iters")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*max(iters, 1)), "ns/lbfgs-iter")
	b.Logf("objective %.17g after %d iterations", primal, iters)
}

// encode turns the sequences ids into model instances, their attributes
// mapped through idx, as the unit skeleton (runBound) does.
func encode[T any](d *preparedData, idx *features.Index, ids []int, build func(attrs [][]int32, s structpred.Sequence) T) []T {
	out := make([]T, len(ids))
	for j, i := range ids {
		out[j] = build(idx.Encode(d.attrsOf(i)), d.seqs[i])
	}
	return out
}

// BenchmarkSegmentVsSequence trains every trainer on the chain and on the
// semi-Markov model of Cora split 0 (25% train), alternating the two so that
// a shared machine's load falls on both alike, and reports the CPU seconds
// of each training and their ratio (segmentation / sequence).
func BenchmarkSegmentVsSequence(b *testing.B) {
	chainModel, segModel := benchModel(b, "cora"), benchSegmentModel(b)
	for _, tc := range []struct {
		trainer string
		params  trainers.Values
	}{
		{trainers.Margin, trainers.Values{"C": 0.1}},
		{trainers.Slack, trainers.Values{"C": 0.01}},
		{trainers.ApproxSlack, trainers.Values{"C": 0.01}},
		{trainers.PosLearn, trainers.Values{"C": 0.01}},
		{trainers.PerceptronName, trainers.Values{"epochs": 10}},
		{trainers.MIRAName, trainers.Values{"epochs": 10, "k": 5}},
		{trainers.SubgradientName, trainers.Values{"epochs": 10, "C": 0.1}},
		{trainers.CRFName, trainers.Values{"C": 10}},
	} {
		b.Run(tc.trainer, func(b *testing.B) {
			var cpu [2]float64
			for b.Loop() {
				c0 := cputime.ProcessSeconds()
				if _, err := trainers.Train(context.Background(), tc.trainer, trainers.Model[[]int](chainModel), tc.params); err != nil {
					b.Fatal(err)
				}
				c1 := cputime.ProcessSeconds()
				if _, err := trainers.Train(context.Background(), tc.trainer, trainers.Model[[]structpred.Segment](segModel), tc.params); err != nil {
					b.Fatal(err)
				}
				cpu[0] += c1 - c0
				cpu[1] += cputime.ProcessSeconds() - c1
			}
			b.ReportMetric(cpu[0]/float64(b.N), "seq-cpu-s")
			b.ReportMetric(cpu[1]/float64(b.N), "seg-cpu-s")
			b.ReportMetric(cpu[1]/cpu[0], "ratio")
		})
	}
}
