package segment

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// bruteLogLoss computes the loss and its gradient by enumerating every
// segmentation into segments of length ≤ L, with the features written out
// by denseFeatures: value (1/β) log Σ_y exp(β v(y)) − w·f(ŷ_i) with
// v = w·f + λ·L(y_i, ·), and gradient Σ_y p(y) f(y) − f(ŷ_i), where ŷ_i
// is the truth with segments longer than L cut (the truth itself if none).
func bruteLogLoss(m *Model, i int, w []float64, beta, lossScale float64) (float64, []float64) {
	x := m.data[i]
	ys := bruteforce.Segmentations(len(x.Attrs), m.k, m.maxLen)
	feats := make([][]float64, len(ys))
	vals := make([]float64, len(ys))
	top := math.Inf(-1)
	for j, y := range ys {
		feats[j] = denseFeatures(m, x, y)
		vals[j] = beta * (dot(w, feats[j]) + lossScale*m.loss.Of(x.Segments, y))
		top = max(top, vals[j])
	}
	var z float64
	for _, v := range vals {
		z += math.Exp(v - top)
	}
	grad := make([]float64, m.Dim())
	for j := range ys {
		p := math.Exp(vals[j]-top) / z
		for d, f := range feats[j] {
			grad[d] += p * f
		}
	}
	truthF := denseFeatures(m, x, m.reachableTruth(i))
	for d, f := range truthF {
		grad[d] -= f
	}
	return (top+math.Log(z))/beta - dot(w, truthF), grad
}

func TestLogLossAgainstBruteForce(t *testing.T) {
	t.Parallel()
	params := []struct{ beta, lossScale float64 }{{1, 0}, {1, 1}, {0.3, 2}, {4, 0.5}}
	for seed := range uint64(3) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*100+s.k*10+s.l)+21))
			m, w := randomModel(t, rng, s)
			for i := range m.Len() {
				for _, p := range params {
					name := fmt.Sprintf("seed=%d %+v instance %d β=%v λ=%v", seed, s, i, p.beta, p.lossScale)
					wantV, wantG := bruteLogLoss(m, i, w, p.beta, p.lossScale)
					// The gradient is added into grad: start from ones.
					grad := make([]float64, m.Dim())
					for j := range grad {
						grad[j] = 1
					}
					got := m.LogLoss(i, w, p.beta, p.lossScale, grad)
					if !approx(got, wantV) {
						t.Fatalf("%s: LogLoss = %v, brute force %v", name, got, wantV)
					}
					for j := range grad {
						if !approx(grad[j]-1, wantG[j]) {
							t.Fatalf("%s: grad[%d] = %v, brute force %v", name, j, grad[j]-1, wantG[j])
						}
					}
					if v := m.LogLoss(i, w, p.beta, p.lossScale, nil); v != got {
						t.Fatalf("%s: value without gradient %v ≠ %v", name, v, got)
					}
				}
			}
		}
	}
}

// TestLogLossDoesNotAllocate: once the model's scratch has grown, a loss and
// gradient evaluation allocates nothing, for the plain CRF (no tempering, no
// loss term) and for entropy-margin (both), on the scaled forward-backward
// pass and on its log-space fallback (huge β). (Not parallel: AllocsPerRun
// needs the test to itself.)
func TestLogLossDoesNotAllocate(t *testing.T) {
	m, w := randomModel(t, rand.New(rand.NewPCG(3, 4)), shape{6, 3, 3, true, "real", 3})
	grad := make([]float64, m.Dim())
	for _, p := range []struct{ beta, lossScale float64 }{{1, 0}, {2, 1}, {1e5, 1}} {
		for i := range m.Len() {
			m.LogLoss(i, w, p.beta, p.lossScale, grad)
		}
		allocs := testing.AllocsPerRun(10, func() {
			for i := range m.Len() {
				m.LogLoss(i, w, p.beta, p.lossScale, grad)
			}
		})
		if allocs != 0 {
			t.Errorf("β=%v λ=%v: LogLoss allocates %v times per pass", p.beta, p.lossScale, allocs)
		}
	}
}

func TestLogLossFiniteDifferences(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name            string
		s               shape
		beta, lossScale float64
	}{
		{"crf", shape{5, 3, 3, true, "default", 3}, 1, 0},
		{"entropy-margin", shape{6, 2, 3, true, "real", 3}, 2, 1},
		{"no edges, long truth", shape{6, 3, 2, false, "integer", 5}, 0.5, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(5, uint64(tt.s.n)))
			m, w := randomModel(t, rng, tt.s)
			for i := range m.Len() {
				grad := make([]float64, m.Dim())
				m.LogLoss(i, w, tt.beta, tt.lossScale, grad)
				f := func(w []float64) float64 { return m.LogLoss(i, w, tt.beta, tt.lossScale, nil) }
				num := fd.Gradient(nil, f, w, &fd.Settings{Formula: fd.Central})
				for j := range grad {
					if math.Abs(grad[j]-num[j]) > 1e-5*math.Max(1, math.Abs(num[j])) {
						t.Errorf("instance %d: grad[%d] = %v, finite differences %v", i, j, grad[j], num[j])
					}
				}
			}
		})
	}
}

// As β → ∞ the loss tends to the margin hinge max_y s(y) + L(y) − s(ŷ_i),
// from above and within log(#segmentations)/β (Pletscher et al., Lemma 1),
// with ŷ_i the reachable truth (the truth when no segment is longer than L).
func TestLogLossLargeBetaIsMarginHinge(t *testing.T) {
	t.Parallel()
	for _, beta := range []float64{1e2, 1e3, 1e5} {
		for seed := range uint64(5) {
			for _, s := range shapes {
				rng := rand.New(rand.NewPCG(seed, uint64(s.n*100+s.k*10+s.l)+33))
				m, w := randomModel(t, rng, s)
				for i := range m.Len() {
					y := m.LossAugmented(i, w, 1)
					hinge := m.Score(i, w, y) + m.Loss(i, y) - m.Score(i, w, m.reachableTruth(i))
					got := m.LogLoss(i, w, beta, 1, nil)
					bound := math.Log(float64(len(bruteforce.Segmentations(s.n, s.k, s.l)))) / beta
					slack := 1e-9 * math.Max(1, math.Abs(hinge))
					if got < hinge-slack || got > hinge+bound+slack {
						t.Fatalf("β=%v seed %d %+v: loss %v, hinge %v (allowed excess %v)", beta, seed, s, got, hinge, bound)
					}
				}
			}
		}
	}
}

// A truth with segments longer than L is outside the sum; the loss must
// still be bounded below (by λ·L(ŷ_i) ≥ 0), whatever w, or training drifts
// to weights that score only the undecodable truth.
func TestLogLossBoundedBelowWithLongTruth(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	m, _ := randomModel(t, rng, shape{6, 3, 2, true, "integer", 5})
	long := 0
	for i := range m.Len() {
		if m.reachable[i] == nil {
			continue
		}
		long++
		target := m.reachableTruth(i)
		if err := semimarkov.CheckSegmentation(target, len(m.data[i].Attrs), m.k, m.maxLen); err != nil {
			t.Fatalf("instance %d: reachable truth %v: %v", i, target, err)
		}
		for trial := range 20 {
			w := make([]float64, m.Dim())
			for j := range w {
				w[j] = 50 * rng.NormFloat64()
			}
			// Push w along f(y_i) − f(ŷ_i): it raises the real truth's
			// score alone, the direction in which a loss taken at y_i
			// would fall without bound.
			d := m.DeltaFeatures(i, target)
			for j, id := range d.Idx {
				w[id] += 100 * d.Val[j]
			}
			for _, lossScale := range []float64{0, 1} {
				floor := lossScale * m.Loss(i, target)
				if got := m.LogLoss(i, w, 1, lossScale, nil); got < floor-1e-9 {
					t.Fatalf("instance %d trial %d λ=%v: loss %v below %v", i, trial, lossScale, got, floor)
				}
			}
		}
	}
	if long == 0 {
		t.Fatal("no instance with a segment longer than L: the test checks nothing")
	}
}

func TestKBestAgainstBruteForce(t *testing.T) {
	t.Parallel()
	const k = 4
	for seed := range uint64(5) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*100+s.k*10+s.l)+45))
			m, w := randomModel(t, rng, s)
			for i := range m.Len() {
				x := m.data[i]
				for _, scale := range []float64{0, 0.5, 1} {
					name := fmt.Sprintf("seed=%d %+v instance %d scale %v", seed, s, i, scale)
					value := func(y []structpred.Segment) float64 {
						return dot(w, denseFeatures(m, x, y)) + scale*m.loss.Of(x.Segments, y)
					}
					all := bruteforce.Enumerate(s.n, s.k, s.l, value)
					slices.SortStableFunc(all, func(a, b semimarkov.Result) int { return cmp.Compare(b.Score, a.Score) })
					got := m.KBest(i, w, scale, k)
					if len(got) != min(k, len(all)) {
						t.Fatalf("%s: %d segmentations, want %d", name, len(got), min(k, len(all)))
					}
					for r, y := range got {
						if err := semimarkov.CheckSegmentation(y, s.n, s.k, s.l); err != nil {
							t.Fatalf("%s: rank %d %v: %v", name, r, y, err)
						}
						if !approx(value(y), all[r].Score) {
							t.Fatalf("%s: rank %d %v value %v, brute force %v", name, r, y, value(y), all[r].Score)
						}
						for _, z := range got[:r] {
							if semimarkov.Compare(y, z) == 0 {
								t.Fatalf("%s: %v returned twice", name, y)
							}
						}
					}
					if len(got) > 1 && len(got[0]) > 0 && &got[0][:1][0] == &got[1][:1][0] {
						t.Fatalf("%s: segmentations share storage", name)
					}
					// The best of the list is the loss-augmented MAP.
					if best := m.KBest(i, w, scale, 1); len(best) != 1 || semimarkov.Compare(best[0], m.LossAugmented(i, w, scale)) != 0 {
						t.Fatalf("%s: KBest(1) = %v, LossAugmented = %v", name, best, m.LossAugmented(i, w, scale))
					}
				}
			}
		}
	}
}

// The segmentation model now serves every trainer but the slack-rescaled
// log-linear loss, which it refuses by name.
func TestCanTrainEveryTrainer(t *testing.T) {
	t.Parallel()
	probe, err := New(nil, 1, 2, 1, true, semimarkov.Loss{})
	if err != nil {
		t.Fatal(err)
	}
	all := slices.Concat(trainers.CuttingPlaneTrainers(), trainers.OnlineTrainers(), trainers.LogLinearTrainers())
	for _, name := range []string{trainers.MIRAName, trainers.CRFName, trainers.EntropyMarginName} {
		if !slices.Contains(all, name) {
			t.Fatalf("%s is not a known trainer", name)
		}
	}
	for _, name := range all {
		if err := trainers.CanTrain[[]structpred.Segment](name, probe); err != nil {
			t.Errorf("CanTrain(%q) = %v", name, err)
		}
	}
	_, err = trainers.CRF[[]structpred.Segment](context.Background(), probe,
		trainers.CRFSettings{C: 1, Beta: 2, LossScale: 1, Rescaling: trainers.Slack})
	if err == nil {
		t.Error("CRF with slack rescaling accepted a segmentation model")
	}
}

// k-best MIRA, the CRF and the entropy-margin loss separate the segmentation
// problem of TestTrainersSeparateSegmentations (each token's attribute names
// its segment's label, and neighbouring segments differ in label).
func TestOnlineAndLogLinearTrainersSeparate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const k = 3
	data := separableData(rng, 15, k, 3)
	train := map[string]func(m *Model) (*trainers.Result, error){
		trainers.MIRAName: func(m *Model) (*trainers.Result, error) {
			return trainers.MIRA[[]structpred.Segment](context.Background(), m, trainers.OnlineSettings{Seed: 1, K: 5})
		},
		trainers.CRFName: func(m *Model) (*trainers.Result, error) {
			return trainers.CRF[[]structpred.Segment](context.Background(), m, trainers.CRFSettings{C: 10})
		},
		trainers.EntropyMarginName: func(m *Model) (*trainers.Result, error) {
			return trainers.CRF[[]structpred.Segment](context.Background(), m, trainers.CRFSettings{C: 10, Beta: 10, LossScale: 1})
		},
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range train {
			if !yield(n) {
				return
			}
		}
	}) {
		m, err := New(data, k+3, k, 3, true, semimarkov.Loss{})
		if err != nil {
			t.Fatal(err)
		}
		res, err := train[name](m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for i, x := range data {
			if got := m.Predict(x, res.W); semimarkov.Compare(got, x.Segments) != 0 {
				t.Errorf("%s: instance %d: predicted %v, want %v", name, i, got, x.Segments)
			}
		}
	}
}
