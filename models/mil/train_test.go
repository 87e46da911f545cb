package mil_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
	"gonum.org/v1/gonum/optimize"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/models/mil"
	"github.com/maxmargin/repro/trainers"
)

// generated draws n training and nTest test bags of section 8.3 with p
// positives per positive bag.
func generated(t *testing.T, p, n, nTest int, seed uint64) (train, test []mil.Bag) {
	t.Helper()
	s := datasets.PletscherMIL(p)
	tr, err := s.Draw(n, seed, "train")
	if err != nil {
		t.Fatal(err)
	}
	te, err := s.Draw(nTest, seed, "test")
	if err != nil {
		t.Fatal(err)
	}
	return bags(tr), bags(te)
}

// objective is ½‖w‖² + C Σ_i ℓ_β,i(w), written from the model's loss.
func objective(m *mil.Model, c, beta, lambda float64) func([]float64) float64 {
	return func(w []float64) float64 {
		f := 0.5 * (w[0]*w[0] + w[1]*w[1])
		for i := range m.Len() {
			f += c * m.LatentLogLoss(i, w, beta, lambda, nil)
		}
		return f
	}
}

// TestLatentLBetaReachesItsObjective: the trainer ends at a stationary
// point (finite-difference gradient near 0) whose objective is no worse
// than gonum's BFGS on finite-difference gradients reaches from w = 0.
func TestLatentLBetaReachesItsObjective(t *testing.T) {
	t.Parallel()
	train, _ := generated(t, 5, 40, 0, 1)
	for _, tc := range []struct{ beta, lambda float64 }{{1, 0}, {1, 1}, {0.1, 1}, {10, 1}} {
		m, err := mil.New(train, 1)
		if err != nil {
			t.Fatal(err)
		}
		res, err := trainers.Train[int](context.Background(), trainers.LatentLBetaName, m, trainers.Values{"C": 1.0, "beta": tc.beta, "loss_scale": tc.lambda})
		if err != nil {
			t.Fatal(err)
		}
		f := objective(m, 1, tc.beta, tc.lambda)
		if got := f(res.W); math.Abs(got-res.Primal) > 1e-9*max(1, got) {
			t.Errorf("β %v λ %v: Primal %v, objective at W %v", tc.beta, tc.lambda, res.Primal, got)
		}
		g := fd.Gradient(nil, f, res.W, &fd.Settings{Formula: fd.Central, Step: 1e-6})
		if n := math.Hypot(g[0], g[1]); n > 1e-4*max(1, res.Primal) {
			t.Errorf("β %v λ %v: ‖∇‖ = %v at the result", tc.beta, tc.lambda, n)
		}
		ref, err := optimize.Minimize(optimize.Problem{Func: f, Grad: func(grad, x []float64) {
			fd.Gradient(grad, f, x, &fd.Settings{Formula: fd.Central})
		}}, []float64{0, 0}, &optimize.Settings{GradientThreshold: 1e-8}, &optimize.BFGS{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Primal > ref.F+1e-7*max(1, ref.F) {
			t.Errorf("β %v λ %v: objective %v, BFGS from 0 reaches %v", tc.beta, tc.lambda, res.Primal, ref.F)
		}
	}
}

// TestLatentLBetaLearnsEasyBags: with half of a positive bag's instances
// positive (p = 25), the bag mean separates the labels well; every β must
// do better than chance on held-out bags.
func TestLatentLBetaLearnsEasyBags(t *testing.T) {
	t.Parallel()
	train, test := generated(t, 25, 200, 400, 2)
	for _, beta := range []float64{0.1, 1, 100} {
		m, _ := mil.New(train, 1)
		res, err := trainers.Train[int](context.Background(), trainers.LatentLBetaName, m, trainers.Values{"C": 1.0, "beta": beta, "seed": uint64(3)})
		if err != nil {
			t.Fatal(err)
		}
		if acc := m.Accuracy(test, res.W, beta); acc < 60 {
			t.Errorf("β %v: test accuracy %.1f%%, want at least 60%%", beta, acc)
		}
	}
}

// TestLatentLBetaDeterministic: the same data, params and seed give the
// same weights bit for bit.
func TestLatentLBetaDeterministic(t *testing.T) {
	t.Parallel()
	train, _ := generated(t, 1, 60, 0, 4)
	var ws [][]float64
	for range 2 {
		m, _ := mil.New(train, 1)
		res, err := trainers.Train[int](context.Background(), trainers.LatentLBetaName, m, trainers.Values{"C": 1.0, "beta": 10.0, "seed": uint64(9), "restarts": 3})
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, res.W)
	}
	if !slices.Equal(ws[0], ws[1]) {
		t.Errorf("two runs: %v and %v", ws[0], ws[1])
	}
	again, _ := generated(t, 1, 60, 0, 4)
	for i := range train {
		if !slices.Equal(train[i].Instances[7].Val, again[i].Instances[7].Val) {
			t.Fatal("the generator is not deterministic")
		}
	}
}

// TestLatentLBetaRestartsNeverWorsen: more restarts keep the best objective
// (restart 0 is the run from w = 0 in every case).
func TestLatentLBetaRestartsNeverWorsen(t *testing.T) {
	t.Parallel()
	train, _ := generated(t, 1, 60, 0, 5)
	var prev float64
	for k, r := range []int{0, 2, 8} {
		m, _ := mil.New(train, 1)
		res, err := trainers.Train[int](context.Background(), trainers.LatentLBetaName, m, trainers.Values{"C": 1.0, "beta": 1000.0, "seed": uint64(1), "restarts": r})
		if err != nil {
			t.Fatal(err)
		}
		if k > 0 && res.Primal > prev {
			t.Errorf("%d restarts: objective %v, above %v with fewer", r, res.Primal, prev)
		}
		prev = res.Primal
	}
}
