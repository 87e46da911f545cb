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

// withValues gives the model's instances attribute values drawn from rng:
// per token, none (binary), or a value for each attribute, some of them 1,
// 0 or negative, so both scoring paths are exercised side by side.
func withValues(t *testing.T, rng *rand.Rand, m *Model) *Model {
	t.Helper()
	data := make([]Instance, len(m.data))
	for i, x := range m.data {
		x.Values = make([][]float64, len(x.Attrs))
		for p, attrs := range x.Attrs {
			if rng.IntN(3) == 0 {
				continue
			}
			x.Values[p] = make([]float64, len(attrs))
			for j := range attrs {
				x.Values[p][j] = []float64{1, 0, -0.5, 2.5, rng.NormFloat64()}[rng.IntN(5)]
			}
		}
		data[i] = x
	}
	v, err := New(data, m.attrs, m.k, m.edges, m.cost)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// denseFeatures is f(x, y) written out literally from the package doc; a
// model restricted to pairs (Restrict) has a feature for a listed pair
// only, found by a linear search of its table.
func denseFeatures(m *Model, x Instance, y []int) []float64 {
	f := make([]float64, m.Dim())
	trans := m.attrs * m.k
	if m.pairs != nil {
		trans = len(m.pairs.Label)
	}
	for t, attrs := range x.Attrs {
		for j, a := range attrs {
			v := 1.0
			if x.Values != nil && x.Values[t] != nil {
				v = x.Values[t][j]
			}
			if m.pairs == nil {
				f[int(a)*m.k+y[t]] += v
				continue
			}
			for q := m.pairs.Start[a]; q < m.pairs.Start[a+1]; q++ {
				if int(m.pairs.Label[q]) == y[t] {
					f[q] += v
				}
			}
		}
		if m.edges && t > 0 {
			f[trans+y[t-1]*m.k+y[t]]++
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
			checkAgainstBruteForce(t, m, w, s, cost)
		}
	}
}

// Attribute values (CRFsuite's scaling values) scale the features in every
// oracle alike: the same brute-force checks on models whose tokens carry
// values.
func TestValuesAgainstBruteForce(t *testing.T) {
	t.Parallel()
	for seed := range uint64(10) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)+1000))
			cost := costFor(rng, s.cost, s.k)
			m, w := randomModel(t, rng, s.n, s.k, s.edges, cost)
			checkAgainstBruteForce(t, withValues(t, rng, m), w, s, cost)
		}
	}
}

// Values that are all 1 give bit for bit what binary attributes give: the
// scores, feature differences and log-loss gradients.
func TestUnitValuesEqualBinary(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	bin, w := randomModel(t, rng, 5, 3, true, decoders.Hamming(3))
	data := make([]Instance, len(bin.data))
	for i, x := range bin.data {
		x.Values = make([][]float64, len(x.Attrs))
		for p, attrs := range x.Attrs {
			x.Values[p] = ones(len(attrs))
		}
		data[i] = x
	}
	val, err := New(data, bin.attrs, bin.k, bin.edges, bin.cost)
	if err != nil {
		t.Fatal(err)
	}
	y := []int{2, 0, 1, 1, 0}
	for i := range bin.Len() {
		if a, b := bin.Score(i, w, y), val.Score(i, w, y); a != b {
			t.Errorf("instance %d: score %v with values 1, %v binary", i, b, a)
		}
		if a, b := bin.DeltaFeatures(i, y), val.DeltaFeatures(i, y); !sameVec(a, b) {
			t.Errorf("instance %d: δf %v with values 1, %v binary", i, b, a)
		}
		ga, gb := make([]float64, bin.Dim()), make([]float64, bin.Dim())
		va, vb := bin.LogLoss(i, w, 1, 0, ga), val.LogLoss(i, w, 1, 0, gb)
		if va != vb || !slices.Equal(ga, gb) {
			t.Errorf("instance %d: log loss %v %v with values 1, %v %v binary", i, vb, gb, va, ga)
		}
		sa, sb := make([]float64, bin.Dim()), make([]float64, bin.Dim())
		if _, err := bin.SlackLogLoss(i, w, 1, 1, sa); err != nil {
			t.Fatal(err)
		}
		if _, err := val.SlackLogLoss(i, w, 1, 1, sb); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(sa, sb) {
			t.Errorf("instance %d: slack log-loss gradient %v with values 1, %v binary", i, sb, sa)
		}
	}
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// checkAgainstBruteForce compares every oracle of m with enumeration.
func checkAgainstBruteForce(t *testing.T, m *Model, w []float64, s shape, cost decoders.Cost) {
	t.Helper()
	for i := range m.Len() {
		x := m.data[i]
		score := func(y []int) float64 { return dot(w, denseFeatures(m, x, y)) }
		loss := func(y []int) float64 { return cost.Loss(x.Labels, y) }
		truthF := denseFeatures(m, x, x.Labels)
		for _, y := range bruteforce.Labelings(s.n, s.k) {
			if got, want := m.Score(i, w, y), score(y); math.Abs(got-want) > 1e-9 {
				t.Fatalf("Score = %v, want %v", got, want)
			}
			want := score(x.Labels) - score(y)
			if got := m.DeltaScore(i, w, y); math.Abs(got-want) > 1e-9 {
				t.Fatalf("DeltaScore(%v) = %v, want %v", y, got, want)
			}
			m.PinScores(i, w)
			if got := m.DeltaScore(i, w, y); math.Abs(got-want) > 1e-9 {
				t.Fatalf("pinned DeltaScore(%v) = %v, want %v", y, got, want)
			}
			m.UnpinScores()
			d := m.DeltaFeatures(i, y)
			dense := make([]float64, m.Dim())
			d.AddTo(dense, 1)
			added := make([]float64, m.Dim())
			m.AddDelta(i, y, 2, func(j int32, v float64) { added[j] += v })
			yf := denseFeatures(m, x, y)
			for j := range dense {
				if math.Abs(dense[j]-(truthF[j]-yf[j])) > 1e-12 {
					t.Fatalf("δf[%d] = %v, want %v", j, dense[j], truthF[j]-yf[j])
				}
				if math.Abs(added[j]-2*(truthF[j]-yf[j])) > 1e-12 {
					t.Fatalf("AddDelta at scale 2: [%d] = %v, want %v", j, added[j], 2*(truthF[j]-yf[j]))
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
		{"values for other tokens", []Instance{{Attrs: [][]int32{{0}}, Values: [][]float64{{1}, {1}}, Labels: []int{0}}}, 2, decoders.Cost{}},
		{"values for other attributes", []Instance{{Attrs: [][]int32{{0}}, Values: [][]float64{{1, 2}}, Labels: []int{0}}}, 2, decoders.Cost{}},
		{"infinite value", []Instance{{Attrs: [][]int32{{0}}, Values: [][]float64{{math.Inf(1)}}, Labels: []int{0}}}, 2, decoders.Cost{}},
		{"NaN value", []Instance{{Attrs: [][]int32{{0}}, Values: [][]float64{{math.NaN()}}, Labels: []int{0}}}, 2, decoders.Cost{}},
	}
	for _, tt := range tests {
		if _, err := New(tt.data, 1, tt.k, true, tt.cost); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
	if _, err := New(nil, 1<<28, 9, true, decoders.Cost{}); err == nil {
		t.Error("more weights than int32 indices reach: accepted")
	}
}

// The emission scores are summed with SIMD adds (gonum's floats); they must
// round exactly as the scalar loop Score's callers and every committed
// result were computed with: v added, or s·v rounded and then added, in
// attribute order. Label counts that are not multiples of the SIMD width
// and weights of wildly different magnitudes make any other rounding show.
func TestScoresRoundAsScalarSums(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const numAttrs, n = 300, 12
	for _, k := range []int{1, 2, 3, 7, 13, 26} {
		for _, valued := range []bool{false, true} {
			x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
			if valued {
				x.Values = make([][]float64, n)
			}
			for p := range n {
				x.Labels[p] = rng.IntN(k)
				for a := range int32(numAttrs) {
					if rng.IntN(4) == 0 {
						x.Attrs[p] = append(x.Attrs[p], a)
						if valued {
							x.Values[p] = append(x.Values[p], rng.NormFloat64()*math.Pow(10, float64(rng.IntN(7)-3)))
						}
					}
				}
			}
			m, err := New([]Instance{x}, numAttrs, k, true, decoders.Cost{})
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, m.Dim())
			for j := range w {
				w[j] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
			}
			got := m.scores(x, w).Unary
			for p, attrs := range x.Attrs {
				for c := range k {
					var want float64
					for j, a := range attrs {
						if valued {
							want += x.Values[p][j] * w[int(a)*k+c]
						} else {
							want += w[int(a)*k+c]
						}
					}
					if g := got[p*k+c]; math.Float64bits(g) != math.Float64bits(want) {
						t.Fatalf("K=%d valued=%v: score of token %d label %d = %v, scalar sum %v", k, valued, p, c, g, want)
					}
				}
			}
		}
	}
}

// LossAugmented and KBest at scale 0 skip the cost table; they must
// pick exactly the labelings the augmented passes pick, ties included
// (weights of a few small integers, or all zero, tie often).
func TestDecodingAtZeroLossScale(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(15, 16))
	for trial := range 200 {
		m, w := randomModel(t, rng, 1+rng.IntN(6), 1+rng.IntN(4), trial%2 == 0, decoders.Cost{})
		for j := range w {
			w[j] = float64(rng.IntN(3)-1) * float64(trial%3)
		}
		for i := range m.Len() {
			x := m.data[i]
			want := decoders.LossAugmented(m.scores(x, w), x.Labels, m.cost, 0, nil).Labels
			if got := m.LossAugmented(i, w, 0); !slices.Equal(got, want) {
				t.Fatalf("trial %d instance %d: LossAugmented(0) = %v, the augmented pass %v", trial, i, got, want)
			}
			for _, k := range []int{1, 3, 7} {
				want := decoders.LossAugmentedKBest(m.scores(x, w), x.Labels, m.cost, 0, k, nil)
				got := m.KBest(i, w, 0, k)
				if len(got) != len(want) {
					t.Fatalf("trial %d instance %d: KBest(0, %d) has %d entries, the augmented pass %d", trial, i, k, len(got), len(want))
				}
				for j := range got {
					if !(slices.Equal(got[j], want[j].Labels)) {
						t.Fatalf("trial %d instance %d: KBest(0, %d)[%d] = %v, the augmented pass %v", trial, i, k, j, got[j], want[j].Labels)
					}
				}
			}
		}
	}
}
