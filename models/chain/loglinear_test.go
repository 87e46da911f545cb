package chain

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
	"github.com/maxmargin/repro/trainers"
)

// bruteLogLoss computes the loss and its gradient by enumerating every
// labeling: value (1/β) log Σ_y exp(β v(y)) − s(y_i) with v = s + λ·L, and
// gradient Σ_y p(y) f(y) − f(y_i).
func bruteLogLoss(m *Model, i int, w []float64, beta, lossScale float64) (float64, []float64) {
	x := m.data[i]
	ys := bruteforce.Labelings(len(x.Labels), m.k)
	vals := make([]float64, len(ys))
	top := math.Inf(-1)
	for j, y := range ys {
		vals[j] = beta * (dot(w, denseFeatures(m, x, y)) + lossScale*m.cost.Loss(x.Labels, y))
		top = max(top, vals[j])
	}
	var z float64
	for _, v := range vals {
		z += math.Exp(v - top)
	}
	grad := make([]float64, m.Dim())
	for j, y := range ys {
		p := math.Exp(vals[j]-top) / z
		for d, f := range denseFeatures(m, x, y) {
			grad[d] += p * f
		}
	}
	for d, f := range denseFeatures(m, x, x.Labels) {
		grad[d] -= f
	}
	return (top+math.Log(z))/beta - dot(w, denseFeatures(m, x, x.Labels)), grad
}

func TestLogLossAgainstBruteForce(t *testing.T) {
	t.Parallel()
	params := []struct{ beta, lossScale float64 }{{1, 0}, {1, 1}, {0.3, 2}, {4, 0.5}}
	for seed := range uint64(5) {
		for _, s := range shapes {
			for _, p := range params {
				rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)))
				m, w := randomModel(t, rng, s.n, s.k, s.edges, costFor(rng, s.cost, s.k))
				if seed%2 == 1 { // attribute values (CRFsuite's scaling values)
					m = withValues(t, rng, m)
				}
				for i := range m.Len() {
					wantV, wantG := bruteLogLoss(m, i, w, p.beta, p.lossScale)
					// The gradient is added into grad: start from ones.
					grad := make([]float64, m.Dim())
					for j := range grad {
						grad[j] = 1
					}
					got := m.LogLoss(i, w, p.beta, p.lossScale, grad)
					if math.Abs(got-wantV) > 1e-9*math.Max(1, math.Abs(wantV)) {
						t.Fatalf("%+v %+v: LogLoss = %v, brute force %v", s, p, got, wantV)
					}
					for j := range grad {
						if math.Abs(grad[j]-1-wantG[j]) > 1e-9 {
							t.Fatalf("%+v %+v: grad[%d] = %v, brute force %v", s, p, j, grad[j]-1, wantG[j])
						}
					}
					if v := m.LogLoss(i, w, p.beta, p.lossScale, nil); v != got {
						t.Fatalf("value without gradient %v ≠ %v", v, got)
					}
				}
			}
		}
	}
}

func TestLogLossFiniteDifferences(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name            string
		n, k            int
		edges           bool
		beta, lossScale float64
	}{
		{"crf", 4, 3, true, 1, 0},
		{"entropy-margin", 5, 2, true, 2, 1},
		{"no edges", 3, 3, false, 0.5, 1},
		{"values", 4, 3, true, 1, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rng := rand.New(rand.NewPCG(5, uint64(tt.n)))
			m, w := randomModel(t, rng, tt.n, tt.k, tt.edges, decoders.Hamming(tt.k))
			if tt.name == "values" {
				m = withValues(t, rng, m)
			}
			for i := range m.Len() {
				grad := make([]float64, m.Dim())
				m.LogLoss(i, w, tt.beta, tt.lossScale, grad)
				f := func(w []float64) float64 { return m.LogLoss(i, w, tt.beta, tt.lossScale, nil) }
				num := fd.Gradient(nil, f, w, &fd.Settings{Formula: fd.Central})
				for j := range grad {
					if math.Abs(grad[j]-num[j]) > 1e-5 {
						t.Errorf("instance %d: grad[%d] = %v, finite differences %v", i, j, grad[j], num[j])
					}
				}
			}
		})
	}
}

// As β → ∞ the loss tends to the margin hinge max_y s(y) + L(y) − s(y_i),
// from above and within log(K^N)/β (Pletscher et al., Lemma 1).
func TestLogLossLargeBetaIsMarginHinge(t *testing.T) {
	t.Parallel()
	const beta = 1e3
	for seed := range uint64(10) {
		rng := rand.New(rand.NewPCG(seed, 77))
		m, w := randomModel(t, rng, 5, 3, true, decoders.Hamming(3))
		for i := range m.Len() {
			x := m.data[i]
			y := m.LossAugmented(i, w, 1)
			hinge := m.Score(i, w, y) + m.Loss(i, y) - m.Score(i, w, x.Labels)
			got := m.LogLoss(i, w, beta, 1, nil)
			bound := float64(len(x.Labels)) * math.Log(3) / beta
			if got < hinge-1e-9 || got > hinge+bound {
				t.Fatalf("β=%v: loss %v, hinge %v (allowed excess %v)", beta, got, hinge, bound)
			}
		}
	}
}

func TestKBestAgainstBruteForce(t *testing.T) {
	t.Parallel()
	for seed := range uint64(10) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)))
			m, w := randomModel(t, rng, s.n, s.k, s.edges, costFor(rng, s.cost, s.k))
			for i := range m.Len() {
				for _, scale := range []float64{0, 1} {
					value := func(y []int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }
					want := bruteforce.Sorted(s.n, s.k, value)
					got := m.KBest(i, w, scale, 4)
					if len(got) != min(4, len(want)) {
						t.Fatalf("%+v: %d labelings, want %d", s, len(got), min(4, len(want)))
					}
					for r, y := range got {
						if math.Abs(value(y)-want[r].Score) > 1e-9 {
							t.Fatalf("%+v scale %v: rank %d value %v, brute force %v", s, scale, r, value(y), want[r].Score)
						}
					}
					if len(got) > 1 && s.n > 0 && &got[0][0] == &got[1][0] {
						t.Fatal("labelings share storage")
					}
				}
			}
		}
	}
}

// The online and log-linear trainers separate the chain problem of
// TestTrainersSeparateChains (each token's attribute names its label).
func TestNewTrainersSeparateChains(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const k, attrs = 3, 3
	var data []Instance
	for range 20 {
		n := 2 + rng.IntN(5)
		x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
		for p := range n {
			x.Labels[p] = rng.IntN(k)
			x.Attrs[p] = []int32{int32(x.Labels[p])}
		}
		data = append(data, x)
	}
	train := map[string]func(m *Model) (*trainers.Result, error){
		trainers.PerceptronName: func(m *Model) (*trainers.Result, error) {
			return trainers.Perceptron[[]int](context.Background(), m, trainers.OnlineSettings{Seed: 1})
		},
		trainers.MIRAName: func(m *Model) (*trainers.Result, error) {
			return trainers.MIRA[[]int](context.Background(), m, trainers.OnlineSettings{Seed: 1, K: 5})
		},
		trainers.SubgradientName: func(m *Model) (*trainers.Result, error) {
			return trainers.Subgradient[[]int](context.Background(), m, trainers.OnlineSettings{Seed: 1, Lambda: 0.01, Epochs: 20})
		},
		trainers.CRFName: func(m *Model) (*trainers.Result, error) {
			return trainers.CRF[[]int](context.Background(), m, trainers.CRFSettings{C: 10})
		},
		trainers.EntropyMarginName: func(m *Model) (*trainers.Result, error) {
			return trainers.CRF[[]int](context.Background(), m, trainers.CRFSettings{C: 10, Beta: 10, LossScale: 1})
		},
		trainers.EntropyMarginName + "/slack": func(m *Model) (*trainers.Result, error) {
			return trainers.CRF[[]int](context.Background(), m, trainers.CRFSettings{C: 10, Beta: 10, LossScale: 1, Rescaling: trainers.Slack})
		},
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range train {
			if !yield(n) {
				return
			}
		}
	}) {
		m, err := New(data, attrs, k, true, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		if err := trainers.CanTrain[[]int](strings.TrimSuffix(name, "/slack"), m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := train[name](m)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, x := range data {
			if got := m.Predict(x, res.W); !slices.Equal(got, x.Labels) {
				t.Errorf("%s: predicted %v, want %v", name, got, x.Labels)
			}
		}
	}
}

// With w = 0 every labeling of a 2-token, 2-label chain scores 0, so the CRF
// loss is log 4 and, with Hamming loss augmentation, log Σ_y e^{L(y)} =
// 2·log(1 + e).
func ExampleModel_LogLoss() {
	data := []Instance{{Attrs: [][]int32{{0}, {1}}, Labels: []int{0, 1}}}
	m, err := New(data, 2, 2, true, decoders.Cost{})
	if err != nil {
		panic(err)
	}
	w := make([]float64, m.Dim())
	grad := make([]float64, m.Dim())
	fmt.Printf("crf: %.6f\n", m.LogLoss(0, w, 1, 0, grad))
	fmt.Printf("entropy-margin: %.6f\n", m.LogLoss(0, w, 1, 1, nil))
	// The state weight of attribute 0 with label 0 (the truth) has gradient
	// P(y_0 = 0) − 1 = −1/2.
	fmt.Printf("grad[0]: %.2f\n", grad[0])
	// Output:
	// crf: 1.386294
	// entropy-margin: 2.626523
	// grad[0]: -0.50
}

// bruteSlackLogLoss enumerates: value (1/β) log Σ_y exp(β Δ(y)(1 + s(y) −
// s(y_i))) and gradient Σ_y p(y) Δ(y) (f(y) − f(y_i)), Δ = λ·L.
func bruteSlackLogLoss(m *Model, i int, w []float64, beta, lossScale float64) (float64, []float64) {
	x := m.data[i]
	truthF := denseFeatures(m, x, x.Labels)
	truth := dot(w, truthF)
	ys := bruteforce.Labelings(len(x.Labels), m.k)
	vals, deltas := make([]float64, len(ys)), make([]float64, len(ys))
	top := math.Inf(-1)
	for j, y := range ys {
		deltas[j] = lossScale * m.cost.Loss(x.Labels, y)
		vals[j] = beta * deltas[j] * (1 + dot(w, denseFeatures(m, x, y)) - truth)
		top = max(top, vals[j])
	}
	var z float64
	for _, v := range vals {
		z += math.Exp(v - top)
	}
	grad := make([]float64, m.Dim())
	for j, y := range ys {
		p := math.Exp(vals[j]-top) / z * deltas[j]
		for d, f := range denseFeatures(m, x, y) {
			grad[d] += p * (f - truthF[d])
		}
	}
	return (top + math.Log(z)) / beta, grad
}

// Both the exp-space sums (slackscaled.go) and the log-space ones (forced,
// and chosen by the model where τ·range is too large for exp space: β =
// 150) agree with enumeration.
func TestSlackLogLossAgainstBruteForce(t *testing.T) {
	t.Parallel()
	params := []struct{ beta, lossScale float64 }{{1, 1}, {0.3, 2}, {4, 0.5}, {2, 0}, {150, 1}}
	for seed := range uint64(4) {
		for _, s := range shapes {
			if s.cost == "real" {
				continue
			}
			for _, p := range params {
				rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)))
				m, w := randomModel(t, rng, s.n, s.k, s.edges, costFor(rng, s.cost, s.k))
				if seed%2 == 1 { // attribute values
					m = withValues(t, rng, m)
				}
				m.forceLogSlack = seed >= 2
				for i := range m.Len() {
					wantV, wantG := bruteSlackLogLoss(m, i, w, p.beta, p.lossScale)
					grad := make([]float64, m.Dim())
					for j := range grad {
						grad[j] = 1
					}
					got, err := m.SlackLogLoss(i, w, p.beta, p.lossScale, grad)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-wantV) > 1e-9*math.Max(1, math.Abs(wantV)) {
						t.Fatalf("%+v %+v: SlackLogLoss = %v, brute force %v", s, p, got, wantV)
					}
					for j := range grad {
						if math.Abs(grad[j]-1-wantG[j]) > 1e-9*math.Max(1, math.Abs(wantG[j])) {
							t.Fatalf("%+v %+v: grad[%d] = %v, brute force %v", s, p, j, grad[j]-1, wantG[j])
						}
					}
				}
			}
		}
	}
}

// On chains too long to enumerate, the exp-space sums agree with the
// log-space ones, value and gradient, wherever the model chooses them:
// Hamming and larger integer costs, temperatures up to where exp space
// gives way (at β = 20 it does for the higher loss levels).
func TestSlackLogLossScaledMatchesLogSpace(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3) {
		for _, cost := range []string{"hamming", "integer"} {
			for _, beta := range []float64{0.1, 1, 5, 20} {
				rng := rand.New(rand.NewPCG(seed, 11))
				m, w := randomModel(t, rng, 12, 4, true, costFor(rng, cost, 4))
				for j := range w {
					w[j] *= 0.5
				}
				for i := range m.Len() {
					gotG, wantG := make([]float64, m.Dim()), make([]float64, m.Dim())
					m.forceLogSlack = false
					got, err := m.SlackLogLoss(i, w, beta, 1, gotG)
					if err != nil {
						t.Fatal(err)
					}
					m.forceLogSlack = true
					want, err := m.SlackLogLoss(i, w, beta, 1, wantG)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
						t.Fatalf("seed %d %s β=%v instance %d: exp space %v, log space %v", seed, cost, beta, i, got, want)
					}
					for j := range gotG {
						if math.Abs(gotG[j]-wantG[j]) > 1e-8*math.Max(1, math.Abs(wantG[j])) {
							t.Fatalf("seed %d %s β=%v instance %d: grad[%d] exp space %v, log space %v", seed, cost, beta, i, j, gotG[j], wantG[j])
						}
					}
				}
			}
		}
	}
}

func TestSlackLogLossFiniteDifferencesAndLimit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(8, 9))
	m, w := randomModel(t, rng, 4, 3, true, costFor(rng, "integer", 3))
	for i := range m.Len() {
		grad := make([]float64, m.Dim())
		if _, err := m.SlackLogLoss(i, w, 1.5, 1, grad); err != nil {
			t.Fatal(err)
		}
		f := func(w []float64) float64 { v, _ := m.SlackLogLoss(i, w, 1.5, 1, nil); return v }
		num := fd.Gradient(nil, f, w, &fd.Settings{Formula: fd.Central})
		for j := range grad {
			if math.Abs(grad[j]-num[j]) > 1e-5*math.Max(1, math.Abs(num[j])) {
				t.Errorf("instance %d: grad[%d] = %v, finite differences %v", i, j, grad[j], num[j])
			}
		}
		// β → ∞: the slack-rescaled hinge max_y L(y)(1 + s(y) − s(y_i)),
		// from above, within log(K^N)/β.
		x := m.data[i]
		truth := m.Score(i, w, x.Labels)
		hinge, _ := bruteforce.Best(4, 3, func(y []int) float64 { return m.Loss(i, y) * (1 + m.Score(i, w, y) - truth) }, nil)
		const beta = 1e3
		got, _ := m.SlackLogLoss(i, w, beta, 1, nil)
		if got < hinge.Score-1e-9 || got > hinge.Score+4*math.Log(3)/beta {
			t.Errorf("instance %d: β=%v loss %v, slack hinge %v", i, beta, got, hinge.Score)
		}
	}
}

func TestSlackLogLossRefusesRealCosts(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 1))
	m, w := randomModel(t, rng, 3, 3, true, costFor(rng, "real", 3))
	if _, err := m.SlackLogLoss(0, w, 1, 1, nil); err == nil {
		t.Error("SlackLogLoss accepted a real-valued cost matrix")
	}
	if _, err := trainers.CRF[[]int](context.Background(), m, trainers.CRFSettings{C: 1, Rescaling: trainers.Slack, LossScale: 1}); err == nil {
		t.Error("CRF with slack rescaling accepted a real-valued cost matrix")
	}
}

// BenchmarkLogLoss times the loss and gradient of one Cora-sized instance
// (30 tokens, 13 labels, 25 of 20,000 attributes per token, Hamming loss):
// forward-backward for LogLoss, the loss-indexed version for SlackLogLoss.
func BenchmarkLogLoss(b *testing.B) {
	const n, k, attrs, perTok = 30, 13, 20000, 25
	rng := rand.New(rand.NewPCG(30, 13))
	x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
	for t := range n {
		for len(x.Attrs[t]) < perTok {
			if a := int32(rng.IntN(attrs)); !slices.Contains(x.Attrs[t], a) {
				x.Attrs[t] = append(x.Attrs[t], a)
			}
		}
		slices.Sort(x.Attrs[t])
		x.Labels[t] = rng.IntN(k)
	}
	m, err := New([]Instance{x}, attrs, k, true, decoders.Cost{})
	if err != nil {
		b.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = 0.1 * rng.NormFloat64()
	}
	grad := make([]float64, m.Dim())
	b.Run("margin", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			m.LogLoss(0, w, 10, 1, grad)
		}
	})
	b.Run("slack", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := m.SlackLogLoss(0, w, 10, 1, grad); err != nil {
				b.Fatal(err)
			}
		}
	})
}
