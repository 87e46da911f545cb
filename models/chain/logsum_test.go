package chain

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

// coraLike draws instances of Cora's shape in miniature: k labels, a few
// frequent attributes and many rare ones, real values on request.
func coraLike(rng *rand.Rand, instances, numAttrs, k int, values bool) []Instance {
	data := make([]Instance, instances)
	for i := range data {
		n := 1 + rng.IntN(25)
		x := Instance{Attrs: make([][]int32, n), Labels: make([]int, n)}
		if values {
			x.Values = make([][]float64, n)
		}
		for tok := range n {
			for range 1 + rng.IntN(20) {
				a := int32(rng.IntN(10))
				if rng.IntN(2) == 0 {
					a = int32(rng.IntN(numAttrs))
				}
				x.Attrs[tok] = append(x.Attrs[tok], a)
			}
			if values && rng.IntN(3) > 0 {
				for range x.Attrs[tok] {
					x.Values[tok] = append(x.Values[tok], []float64{1, -0.5, 0, rng.NormFloat64()}[rng.IntN(4)])
				}
			}
			x.Labels[tok] = rng.IntN(k)
		}
		data[i] = x
	}
	return data
}

// TestLogLossSumMatchesLoop checks LogLossSum against one LogLoss call
// per instance, bit for bit: the full model (a loop), and models
// restricted to their seen pairs, which LogLossSum evaluates in the full
// layout (dense), with binary and real values, the CRF and entropy-margin
// settings, and transitions on and off. A second call must agree with the
// first (the scratch is reused), and a model whose full layout is too
// large for the dense evaluation must agree too.
func TestLogLossSumMatchesLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 6))
	const numAttrs, k = 200, 13
	for trial := range 8 {
		values, edges, restrict := trial%2 == 1, trial%4 < 3, trial < 6
		name := fmt.Sprintf("values=%v/edges=%v/seen=%v", values, edges, restrict)
		data := coraLike(rng, 5, numAttrs, k, values)
		m, err := New(data, numAttrs, k, edges, decoders.Cost{})
		if err != nil {
			t.Fatal(err)
		}
		if restrict {
			if err := m.Restrict(SeenPairs(data, numAttrs, k)); err != nil {
				t.Fatal(err)
			}
		}
		if restrict != (m.pairs != nil && Dim(numAttrs, k, edges) <= denseFactor*m.Dim()) {
			t.Fatalf("%s: dense evaluation %v, want %v (%d pairs)", name, !restrict, restrict, m.Dim())
		}
		w := make([]float64, m.Dim())
		for j := range w {
			w[j] = 0.5 * rng.NormFloat64()
		}
		for _, set := range []struct{ beta, scale float64 }{{1, 0}, {5, 1}} {
			want, wantG := 0.0, make([]float64, m.Dim())
			for i := range m.Len() {
				want += m.LogLoss(i, w, set.beta, set.scale, wantG)
			}
			for call := range 2 {
				g := make([]float64, m.Dim())
				got, err := m.LogLossSum(w, set.beta, set.scale, g, nil)
				if err != nil {
					t.Fatal(err)
				}
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s β=%v call %d: sum %v, loop %v", name, set.beta, call, got, want)
				}
				if j, ok := bitsEqual(g, wantG); !ok {
					t.Fatalf("%s β=%v call %d: gradient[%d] %v, loop %v", name, set.beta, call, j, g[j], wantG[j])
				}
			}
			if got, _ := m.LogLossSum(w, set.beta, set.scale, nil, nil); math.Float64bits(got) != math.Float64bits(want) {
				t.Fatalf("%s β=%v: sum without gradient %v, loop %v", name, set.beta, got, want)
			}
		}
	}
	// A restricted model too sparse for the dense evaluation: the loop.
	data := coraLike(rng, 2, 5000, k, false)
	m, err := New(data, 5000, k, true, decoders.Cost{})
	if err == nil {
		err = m.Restrict(SeenPairs(data, 5000, k))
	}
	if err != nil {
		t.Fatal(err)
	}
	if Dim(5000, k, true) <= denseFactor*m.Dim() {
		t.Fatalf("%d pairs of 5000 attributes: dense", m.Dim())
	}
	w := make([]float64, m.Dim())
	want, wantG := 0.0, make([]float64, m.Dim())
	for i := range m.Len() {
		want += m.LogLoss(i, w, 1, 0, wantG)
	}
	g := make([]float64, m.Dim())
	if got, err := m.LogLossSum(w, 1, 0, g, nil); err != nil || got != want {
		t.Fatalf("sparse: sum %v, %v; loop %v", got, err, want)
	}
	if j, ok := bitsEqual(g, wantG); !ok {
		t.Fatalf("sparse: gradient[%d] %v, loop %v", j, g[j], wantG[j])
	}
}

// TestLogLossSumStopsOnCheck checks that check's first error ends the sum
// and is returned, and that a sum after such an interrupted one is whole.
func TestLogLossSumStopsOnCheck(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 7))
	data := coraLike(rng, 6, 100, 5, false)
	m, err := New(data, 100, 5, true, decoders.Cost{})
	if err == nil {
		err = m.Restrict(SeenPairs(data, 100, 5))
	}
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	stop := errors.New("stop")
	var seen []int
	_, err = m.LogLossSum(w, 1, 0, make([]float64, m.Dim()), func(i int) error {
		seen = append(seen, i)
		if i == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) || len(seen) != 4 {
		t.Fatalf("error %v after instances %v, want stop after 0..3", err, seen)
	}
	want, wantG := 0.0, make([]float64, m.Dim())
	for i := range m.Len() {
		want += m.LogLoss(i, w, 1, 0, wantG)
	}
	g := make([]float64, m.Dim())
	if got, err := m.LogLossSum(w, 1, 0, g, nil); err != nil || got != want {
		t.Fatalf("after an interrupted sum: %v, %v; want %v", got, err, want)
	}
	if j, ok := bitsEqual(g, wantG); !ok {
		t.Fatalf("after an interrupted sum: gradient[%d] %v, want %v", j, g[j], wantG[j])
	}
}

// TestLogLossSumAgainstBruteForce checks LogLossSum of full models and of
// models restricted to their seen pairs (the dense evaluation) against
// enumeration: the sum of the instances' losses and gradients, added into
// a gradient that starts at ones, with and without attribute values.
func TestLogLossSumAgainstBruteForce(t *testing.T) {
	t.Parallel()
	params := []struct{ beta, lossScale float64 }{{1, 0}, {0.3, 2}, {4, 0.5}}
	for seed := range uint64(4) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)+5))
			full, _ := randomModel(t, rng, s.n, s.k, s.edges, costFor(rng, s.cost, s.k))
			if seed%2 == 1 {
				full = withValues(t, rng, full)
			}
			seen, _, _ := restricted(t, rng, full)
			for _, m := range []*Model{full, seen} {
				if m.pairs != nil && Dim(m.attrs, m.k, m.edges) > denseFactor*m.Dim() {
					t.Fatalf("%+v: %d seen pairs too few for the dense evaluation", s, m.Dim())
				}
				w := make([]float64, m.Dim())
				for j := range w {
					w[j] = rng.NormFloat64()
				}
				for _, p := range params {
					var wantV float64
					wantG := make([]float64, m.Dim())
					for i := range m.Len() {
						v, g := bruteLogLoss(m, i, w, p.beta, p.lossScale)
						wantV += v
						for j := range g {
							wantG[j] += g[j]
						}
					}
					grad := make([]float64, m.Dim())
					for j := range grad {
						grad[j] = 1
					}
					got, err := m.LogLossSum(w, p.beta, p.lossScale, grad, nil)
					if err != nil {
						t.Fatal(err)
					}
					if math.Abs(got-wantV) > 1e-9*math.Max(1, math.Abs(wantV)) {
						t.Fatalf("%+v %+v seen=%v: LogLossSum = %v, brute force %v", s, p, m.pairs != nil, got, wantV)
					}
					for j := range grad {
						if math.Abs(grad[j]-1-wantG[j]) > 1e-9 {
							t.Fatalf("%+v %+v seen=%v: grad[%d] = %v, brute force %v", s, p, m.pairs != nil, j, grad[j]-1, wantG[j])
						}
					}
				}
			}
		}
	}
}
