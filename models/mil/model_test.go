package mil_test

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/models/mil"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

var (
	_ trainers.LatentLogLinear[int] = (*mil.Model)(nil)
	_ trainers.Forker[int]          = (*mil.Model)(nil)
)

// bags converts generated bags to the model's.
func bags(gen []datasets.MILBag) []mil.Bag {
	out := make([]mil.Bag, len(gen))
	for i, b := range gen {
		out[i] = mil.Bag{Instances: b.Instances, Label: b.Label}
	}
	return out
}

// smallProblem is a few bags of 2-feature instances, both labels.
func smallProblem() []mil.Bag {
	v := func(a, b float64) structpred.SparseVec {
		return structpred.SparseVec{Idx: []int32{0, 1}, Val: []float64{a, b}}
	}
	return []mil.Bag{
		{Label: 1, Instances: []structpred.SparseVec{v(0.3, -1), v(1.2, 0.4), v(-0.5, 2)}},
		{Label: -1, Instances: []structpred.SparseVec{v(0.1, 0.2), v(-1, 0.7)}},
		{Label: 1, Instances: []structpred.SparseVec{v(2, -0.3)}},
		{Label: -1, Instances: []structpred.SparseVec{v(0.6, -0.6), v(0.2, 1.5), v(-0.4, -0.1), {}}},
	}
}

// enumerated is ℓ_β of section 5 written out over the (y, z) pairs, the
// negative label with H latent states of score 0.
func enumerated(b mil.Bag, w []float64, beta, lambda float64) float64 {
	var zAll, zTruth float64
	for _, x := range b.Instances {
		s := x.Dot(w[:2]) + w[2]
		loss := 0.0
		if b.Label != 1 {
			loss = lambda
		}
		zAll += math.Exp(beta * (s + loss))
		if b.Label == 1 {
			zTruth += math.Exp(beta * s)
		}
	}
	loss := 0.0
	if b.Label != -1 {
		loss = lambda
	}
	h := float64(len(b.Instances))
	zAll += h * math.Exp(beta*loss)
	if b.Label == -1 {
		zTruth = h
	}
	return (math.Log(zAll) - math.Log(zTruth)) / beta
}

func TestLatentLogLossAgainstEnumerationAndFiniteDifferences(t *testing.T) {
	t.Parallel()
	data := smallProblem()
	m, err := mil.New(data, 2)
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{0.7, -0.4, 0.2}
	for _, tc := range []struct{ beta, lambda float64 }{{1, 0}, {1, 1}, {0.1, 1}, {5, 1}, {30, 0.5}} {
		for i, b := range data {
			got := m.LatentLogLoss(i, w, tc.beta, tc.lambda, nil)
			if want := enumerated(b, w, tc.beta, tc.lambda); math.Abs(got-want) > 1e-12*max(1, math.Abs(want)) {
				t.Errorf("β %v λ %v bag %d: ℓ %v, enumeration %v", tc.beta, tc.lambda, i, got, want)
			}
			grad := make([]float64, 3)
			m.LatentLogLoss(i, w, tc.beta, tc.lambda, grad)
			num := fd.Gradient(nil, func(x []float64) float64 { return m.LatentLogLoss(i, x, tc.beta, tc.lambda, nil) }, w, &fd.Settings{Formula: fd.Central, Step: 1e-6})
			for j := range grad {
				if math.Abs(grad[j]-num[j]) > 1e-6*max(1, math.Abs(num[j])) {
					t.Errorf("β %v λ %v bag %d: ∂ℓ/∂w_%d = %v, finite differences %v", tc.beta, tc.lambda, i, j, grad[j], num[j])
				}
			}
		}
	}
}

// TestLatentHingeIsTheLimit: |ℓ_β − hinge| ≤ log(2H)/β, so ℓ_β tends
// to MI-SVM's hinge as β grows.
func TestLatentHingeIsTheLimit(t *testing.T) {
	t.Parallel()
	data := smallProblem()
	m, _ := mil.New(data, 2)
	for _, w := range [][]float64{{0.7, -0.4, 0.2}, {0, 0, 0}, {-2, 1, 3}} {
		for i, b := range data {
			hinge := m.LatentHinge(i, w, 1)
			for _, beta := range []float64{1, 10, 1e3, 1e6} {
				l := m.LatentLogLoss(i, w, beta, 1, nil)
				if d := math.Abs(l - hinge); d > math.Log(float64(2*len(b.Instances)))/beta+1e-12 {
					t.Errorf("w %v bag %d β %v: ℓ %v, hinge %v", w, i, beta, l, hinge)
				}
			}
		}
	}
	// MI-SVM's hinge by hand: a positive bag with best instance 0.5 pays
	// 0.5, a negative one with best instance 0.5 pays 1.5.
	one := func(x float64) structpred.SparseVec { return structpred.SparseVec{Idx: []int32{0}, Val: []float64{x}} }
	hm, _ := mil.New([]mil.Bag{{Label: 1, Instances: []structpred.SparseVec{one(0.5), one(-1)}}, {Label: -1, Instances: []structpred.SparseVec{one(0.5), one(-1)}}}, 1)
	if p, n := hm.LatentHinge(0, []float64{1, 0}, 1), hm.LatentHinge(1, []float64{1, 0}, 1); p != 0.5 || n != 1.5 {
		t.Errorf("hinges %v and %v, want 0.5 and 1.5", p, n)
	}
}

func TestPredict(t *testing.T) {
	t.Parallel()
	one := func(x float64) structpred.SparseVec { return structpred.SparseVec{Idx: []int32{0}, Val: []float64{x}} }
	m, _ := mil.New(nil, 1)
	xs := []structpred.SparseVec{one(-1), one(0.3), one(-2)}
	w := []float64{1, 0}
	// Scores −1, 0.3, −2: the maximum 0.3 > 0 (β = ∞); at β = 100 the soft
	// maximum 0.3 − log 3/100 > 0; at β = 1 log((e^{−1} + e^{0.3} +
	// e^{−2})/3) = −0.48 < 0; the mean −0.9 (β → 0) is negative.
	for _, tc := range []struct {
		beta float64
		want int
	}{{math.Inf(1), 1}, {100, 1}, {1, -1}, {0.01, -1}} {
		if got := m.Predict(xs, w, tc.beta); got != tc.want {
			t.Errorf("β %v: %d, want %d", tc.beta, got, tc.want)
		}
	}
	if got := m.Predict(xs, []float64{1, -0.5}, math.Inf(1)); got != -1 {
		t.Errorf("bias −0.5: %d, want −1", got)
	}
	if got := m.Predict(xs, []float64{1, 1}, 0.01); got != 1 {
		t.Errorf("bias 1, β 0.01: %d, want +1 (mean score 0.1)", got)
	}
}

func TestNewRejects(t *testing.T) {
	t.Parallel()
	one := structpred.SparseVec{Idx: []int32{0}, Val: []float64{1}}
	for name, tc := range map[string]struct {
		bags []mil.Bag
		dim  int
	}{
		"label 0":       {[]mil.Bag{{Label: 0, Instances: []structpred.SparseVec{one}}}, 1},
		"empty bag":     {[]mil.Bag{{Label: 1}}, 1},
		"feature 1 ≥ D": {[]mil.Bag{{Label: 1, Instances: []structpred.SparseVec{{Idx: []int32{1}, Val: []float64{1}}}}}, 1},
		"NaN":           {[]mil.Bag{{Label: 1, Instances: []structpred.SparseVec{{Idx: []int32{0}, Val: []float64{math.NaN()}}}}}, 1},
	} {
		if _, err := mil.New(tc.bags, tc.dim); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestCapabilities(t *testing.T) {
	t.Parallel()
	m, _ := mil.New(smallProblem(), 2)
	if err := trainers.Check[int](trainers.LatentLBetaName, m, trainers.Values{"C": 1.0, "beta": 1.0}); err != nil {
		t.Errorf("latent-lbeta: %v", err)
	}
	if err := trainers.Check[int]("crf", m, nil); err == nil {
		t.Error("crf accepted a latent model")
	}
	// DeltaFeatures and Score agree (the uniform-latent view).
	w := []float64{0.7, -0.4, 0.2}
	for i := range m.Len() {
		y := -m.Truth(i)
		if d, want := m.DeltaFeatures(i, y).Dot(w), m.Score(i, w, m.Truth(i))-m.Score(i, w, y); math.Abs(d-want) > 1e-12 {
			t.Errorf("bag %d: w·δf %v, score difference %v", i, d, want)
		}
	}
	f := m.Fork().(*mil.Model)
	if f.LatentLogLoss(0, w, 2, 1, nil) != m.LatentLogLoss(0, w, 2, 1, nil) {
		t.Error("fork differs")
	}
}
