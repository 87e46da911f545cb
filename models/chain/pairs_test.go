package chain

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

// restricted returns m restricted to the pairs its instances show, over a
// random weight vector of the restricted length, and that vector expanded
// to the full model's layout (zeros for pairs not listed).
func restricted(t *testing.T, rng *rand.Rand, m *Model) (*Model, []float64, []float64) {
	t.Helper()
	r := *m
	r.scratch = scratch{}
	if err := r.Restrict(SeenPairs(m.data, m.attrs, m.k)); err != nil {
		t.Fatal(err)
	}
	w := make([]float64, r.Dim())
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	full := make([]float64, m.Dim())
	p := r.pairs
	for a := range m.attrs {
		for q := p.Start[a]; q < p.Start[a+1]; q++ {
			full[a*m.k+int(p.Label[q])] = w[q]
		}
	}
	if m.edges {
		copy(full[m.attrs*m.k:], w[p.Len():])
	}
	return &r, w, full
}

// A model restricted to its seen pairs answers every oracle as enumeration
// over its own features does, and as the full model does with the missing
// pairs' weights at 0 (scores, decodings, losses; feature vectors and
// gradients agree on the listed pairs and transitions).
func TestPairsAgainstBruteForceAndFullModel(t *testing.T) {
	t.Parallel()
	for seed := range uint64(8) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)+77))
			cost := costFor(rng, s.cost, s.k)
			m, _ := randomModel(t, rng, s.n, s.k, s.edges, cost)
			if seed%2 == 1 {
				m = withValues(t, rng, m)
			}
			r, w, full := restricted(t, rng, m)
			if r.Dim() >= m.Dim() && s.k > 1 && seed == 0 {
				t.Logf("%+v: no pair unseen (%d weights)", s, r.Dim())
			}
			checkAgainstBruteForce(t, r, w, s, cost)
			for i := range m.Len() {
				y := m.LossAugmented(i, full, 1)
				if got := r.LossAugmented(i, w, 1); !slices.Equal(got, y) {
					t.Fatalf("%+v: restricted LossAugmented %v, full %v", s, got, y)
				}
				gr, gf := make([]float64, r.Dim()), make([]float64, m.Dim())
				vr, vf := r.LogLoss(i, w, 1, 0.5, gr), m.LogLoss(i, full, 1, 0.5, gf)
				if math.Abs(vr-vf) > 1e-12*math.Max(1, math.Abs(vf)) {
					t.Fatalf("%+v: restricted log loss %v, full %v", s, vr, vf)
				}
				checkRestricted(t, r, m, gr, gf)
				dr, df := make([]float64, r.Dim()), make([]float64, m.Dim())
				r.DeltaFeatures(i, y).AddTo(dr, 1)
				m.DeltaFeatures(i, y).AddTo(df, 1)
				checkRestricted(t, r, m, dr, df)
				if s.cost == "real" {
					continue
				}
				sr, sf := make([]float64, r.Dim()), make([]float64, m.Dim())
				if _, err := r.SlackLogLoss(i, w, 1, 1, sr); err != nil {
					t.Fatal(err)
				}
				if _, err := m.SlackLogLoss(i, full, 1, 1, sf); err != nil {
					t.Fatal(err)
				}
				checkRestricted(t, r, m, sr, sf)
			}
		}
	}
}

// checkRestricted compares a restricted model's vector with the full
// model's on every listed pair and transition.
func checkRestricted(t *testing.T, r, m *Model, got, full []float64) {
	t.Helper()
	p := r.pairs
	for a := range m.attrs {
		for q := p.Start[a]; q < p.Start[a+1]; q++ {
			if want := full[a*m.k+int(p.Label[q])]; math.Abs(got[q]-want) > 1e-12 {
				t.Fatalf("pair (%d, %d): %v, full model %v", a, p.Label[q], got[q], want)
			}
		}
	}
	if m.edges && !slices.EqualFunc(got[p.Len():], full[m.attrs*m.k:], func(a, b float64) bool { return math.Abs(a-b) <= 1e-12 }) {
		t.Fatalf("transitions %v, full model %v", got[p.Len():], full[m.attrs*m.k:])
	}
}

func TestSeenPairs(t *testing.T) {
	t.Parallel()
	data := []Instance{
		{Attrs: [][]int32{{0, 2}, {2}}, Labels: []int{1, 0}},
		{Attrs: [][]int32{{2, 0}, {}}, Labels: []int{1, 2}},
	}
	p := SeenPairs(data, 4, 3)
	if want := (Pairs{Start: []int32{0, 1, 1, 3, 3}, Label: []int32{1, 0, 1}}); !slices.Equal(p.Start, want.Start) || !slices.Equal(p.Label, want.Label) {
		t.Fatalf("SeenPairs = %+v, want %+v", *p, want)
	}
	m, err := New(data, 4, 3, true, decoders.Hamming(3))
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Restrict(p); err != nil || m.Dim() != 3+9 {
		t.Fatalf("Restrict: %v, Dim %d, want 12", err, m.Dim())
	}
	for _, bad := range []Pairs{
		{Start: []int32{0, 1}, Label: []int32{0}},
		{Start: []int32{0, 2, 2, 2, 2}, Label: []int32{1, 1}},
		{Start: []int32{0, 1, 1, 1, 1}, Label: []int32{3}},
		{Start: []int32{0, 2, 1, 2, 2}, Label: []int32{0, 1}},
	} {
		if err := m.Restrict(&bad); err == nil {
			t.Errorf("Restrict(%+v) accepted", bad)
		}
	}
}
