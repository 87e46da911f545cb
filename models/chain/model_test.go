package chain

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
	"github.com/maxmargin/repro/trainers"
)

// randomModel builds a model over random instances (n tokens, k labels, a
// few attributes per token) and a random weight vector.
func randomModel(t *testing.T, rng *rand.Rand, n, k int, edges bool, cost decoders.Cost) (*Model, []float64) {
	t.Helper()
	const attrs = 6
	var data []Instance
	for range 3 {
		x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
		for p := range n {
			for a := range int32(attrs) {
				if rng.IntN(2) == 0 {
					x.Attrs[p] = append(x.Attrs[p], a)
				}
			}
			x.Labels[p] = rng.IntN(k)
		}
		data = append(data, x)
	}
	m, err := New(data, attrs, k, edges, cost)
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	return m, w
}

// denseFeatures is f(x, y) written out literally from the package doc.
func denseFeatures(m *Model, x Instance, y []int) []float64 {
	f := make([]float64, m.Dim())
	for t, attrs := range x.Attrs {
		for _, a := range attrs {
			f[int(a)*m.k+y[t]]++
		}
		if m.edges && t > 0 {
			f[m.attrs*m.k+y[t-1]*m.k+y[t]]++
		}
	}
	return f
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

type shape struct {
	n, k  int
	edges bool
	cost  string
}

var shapes = []shape{
	{1, 3, true, "hamming"}, {3, 2, true, "hamming"}, {4, 3, true, "integer"},
	{5, 2, false, "hamming"}, {4, 3, true, "real"}, {2, 1, true, "hamming"},
}

func costFor(rng *rand.Rand, name string, k int) decoders.Cost {
	c := decoders.Hamming(k)
	for a := range k {
		for b := range k {
			switch {
			case a == b:
			case name == "integer":
				c.M[a*k+b] = float64(1 + rng.IntN(3))
			case name == "real":
				c.M[a*k+b] = 0.25 + rng.Float64()
			}
		}
	}
	return c
}

func TestModelAgainstBruteForce(t *testing.T) {
	t.Parallel()
	for seed := range uint64(20) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)))
			cost := costFor(rng, s.cost, s.k)
			m, w := randomModel(t, rng, s.n, s.k, s.edges, cost)
			for i := range m.Len() {
				x := m.data[i]
				score := func(y []int) float64 { return dot(w, denseFeatures(m, x, y)) }
				loss := func(y []int) float64 { return cost.Loss(x.Labels, y) }
				truthF := denseFeatures(m, x, x.Labels)
				for _, y := range bruteforce.Labelings(s.n, s.k) {
					if got, want := m.Score(i, w, y), score(y); math.Abs(got-want) > 1e-9 {
						t.Fatalf("Score = %v, want %v", got, want)
					}
					d := m.DeltaFeatures(i, y)
					dense := make([]float64, m.Dim())
					d.AddTo(dense, 1)
					yf := denseFeatures(m, x, y)
					for j := range dense {
						if dense[j] != truthF[j]-yf[j] {
							t.Fatalf("δf[%d] = %v, want %v", j, dense[j], truthF[j]-yf[j])
						}
					}
				}
				// Loss-augmented decoding.
				want, _ := bruteforce.Best(s.n, s.k, func(y []int) float64 { return score(y) + loss(y) }, nil)
				got := m.LossAugmented(i, w, 1)
				if v := score(got) + loss(got); math.Abs(v-want.Score) > 1e-9 {
					t.Fatalf("%+v: LossAugmented value %v, want %v", s, v, want.Score)
				}
				// Best labeling other than the truth.
				want, ok := bruteforce.Best(s.n, s.k, func(y []int) float64 { return score(y) + 0.5*loss(y) },
					func(y []int) bool { return !slices.Equal(y, x.Labels) })
				got, gotOK := m.BestExcluding(i, w, 0.5)
				if ok != gotOK || ok && (slices.Equal(got, x.Labels) || math.Abs(score(got)+0.5*loss(got)-want.Score) > 1e-9) {
					t.Fatalf("%+v: BestExcluding = %v, want %v", s, got, want)
				}
				if s.cost != "real" {
					checkBestPerLoss(t, m, i, w, score, loss)
				}
				checkPositionViolators(t, m, i, w, score)
			}
		}
	}
}

func checkBestPerLoss(t *testing.T, m *Model, i int, w []float64, score, loss func([]int) float64) {
	t.Helper()
	ys, scores, err := m.BestPerLoss(i, w)
	if err != nil {
		t.Fatal(err)
	}
	best := map[int]float64{}
	for _, y := range bruteforce.Labelings(len(m.data[i].Labels), m.k) {
		l := int(loss(y))
		if v, seen := best[l]; !seen || score(y) > v {
			best[l] = score(y)
		}
	}
	for l := range ys {
		want, exists := best[l]
		if found := !math.IsInf(scores[l], -1); found != exists {
			t.Fatalf("loss %d: found = %v (score %v), brute force %v", l, found, scores[l], exists)
		}
		if exists && (int(loss(ys[l])) != l || math.Abs(score(ys[l])-want) > 1e-9) {
			t.Fatalf("loss %d: labeling with loss %v score %v, want score %v", l, loss(ys[l]), score(ys[l]), want)
		}
		// The reported score is the labeling's own, exactly as Score
		// computes it (the slack oracle relies on this instead of rescoring).
		if exists && scores[l] != m.Score(i, w, ys[l]) {
			t.Fatalf("loss %d: reported score %v, Score gives %v", l, scores[l], m.Score(i, w, ys[l]))
		}
	}
}

func checkPositionViolators(t *testing.T, m *Model, i int, w []float64, score func([]int) float64) {
	t.Helper()
	x := m.data[i]
	truth := score(x.Labels)
	got := m.PositionViolators(i, w, nil)
	byPos := map[int]trainers.PositionViolator[[]int]{}
	for _, v := range got {
		byPos[v.Position] = v
	}
	for c := range x.Labels {
		objective := func(y []int) float64 { return m.cost.M[x.Labels[c]*m.k+y[c]] * (1 - truth + score(y)) }
		want, ok := bruteforce.Best(len(x.Labels), m.k, objective, func(y []int) bool { return y[c] != x.Labels[c] })
		v, found := byPos[c]
		if !ok || want.Score <= 0 {
			if found {
				t.Fatalf("position %d: violator %v reported, brute-force best value %v", c, v.Y, want.Score)
			}
			continue
		}
		if !found {
			t.Fatalf("position %d: no violator, brute force finds value %v", c, want.Score)
		}
		if v.Y[c] == x.Labels[c] || math.Abs(objective(v.Y)-want.Score) > 1e-9 || math.Abs(v.Score-score(v.Y)) > 1e-9 {
			t.Fatalf("position %d: violator %v value %v, want %v", c, v.Y, objective(v.Y), want.Score)
		}
	}
}

// Every cutting-plane trainer separates a small chain problem whose labels
// follow from the attributes (so a perfect w exists).
func TestTrainersSeparateChains(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const k, attrs = 3, 3
	var data []Instance
	for range 20 {
		n := 2 + rng.IntN(5)
		x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
		for p := range n {
			x.Labels[p] = rng.IntN(k)
			x.Attrs[p] = []int32{int32(x.Labels[p])} // the attribute names the label
		}
		data = append(data, x)
	}
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		m, err := New(data, attrs, k, true, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		sep, err := trainers.NewSeparator[[]int](trainer, m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, trainers.Settings{C: 100, Epsilon: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged || res.Gap < -1e-9 {
			t.Errorf("%s: converged=%v gap=%v", trainer, res.Converged, res.Gap)
		}
		for _, x := range data {
			if got := m.Predict(x, res.W); !slices.Equal(got, x.Labels) {
				t.Errorf("%s: predicted %v, want %v", trainer, got, x.Labels)
			}
		}
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	t.Parallel()
	good := []Instance{{Attrs: [][]int32{{0}}, Labels: []int{1}}}
	tests := []struct {
		name string
		data []Instance
		k    int
		cost decoders.Cost
	}{
		{"label out of range", good, 1, decoders.Cost{}},
		{"length mismatch", []Instance{{Attrs: [][]int32{{0}, {0}}, Labels: []int{0}}}, 2, decoders.Cost{}},
		{"cost for other K", good, 2, decoders.Hamming(3)},
	}
	for _, tt := range tests {
		if _, err := New(tt.data, 1, tt.k, true, tt.cost); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}
