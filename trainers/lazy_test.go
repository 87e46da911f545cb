package trainers

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
)

// vectorsOnly hides a separator's lazy methods, so that one-slack's caches
// keep its proposals' vectors.
type vectorsOnly struct{ Separator }

// lazyChain is a random chain problem with binary attributes, most of whose
// positions PosLearn finds violated at first; 5% of the cues are noise.
func lazyChain(t *testing.T, seed uint64) *chain.Model {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 77))
	const n, k, attrs = 12, 3, 30
	data := make([]chain.Instance, n)
	for i := range data {
		tokens := 3 + rng.IntN(6)
		x := chain.Instance{Attrs: make([][]int32, tokens), Labels: make([]int, tokens)}
		for j := range tokens {
			x.Labels[j] = rng.IntN(k)
			cue := x.Labels[j]
			if rng.Float64() < 0.05 {
				cue = rng.IntN(k)
			}
			x.Attrs[j] = []int32{int32(cue), int32(k + rng.IntN(attrs-k))}
		}
		data[i] = x
	}
	m, err := chain.New(data, attrs, k, true, decoders.Hamming(k))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// One-slack PosLearn keeps labelings in its caches, not vectors, and
// reaches the optimum that keeping the vectors reaches, with the same
// predictions: only the dot products' order of additions differs.
func TestLazyCachesReachTheSameOptimum(t *testing.T) {
	t.Parallel()
	for seed := range uint64(3) {
		m := lazyChain(t, seed)
		sep, err := newPosLearnSeparator[[]int](m, 0)
		if err != nil {
			t.Fatal(err)
		}
		s := Settings{C: 10, Epsilon: 1e-4, Solver: OneSlack}.withDefaults()
		lazy, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
		if err != nil {
			t.Fatal(err)
		}
		vectors, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), vectorsOnly{sep}, s)
		if err != nil {
			t.Fatal(err)
		}
		bound := s.C*float64(sep.Groups())*s.Epsilon + 1e-4*math.Max(1, vectors.Primal)
		for _, r := range []*Result{lazy, vectors} {
			if !r.Converged || r.Gap < -1e-9 || r.Gap > bound {
				t.Fatalf("seed %d: converged %v, gap %v outside [0, %v]", seed, r.Converged, r.Gap, bound)
			}
		}
		if d := math.Abs(lazy.Primal - vectors.Primal); d > bound {
			t.Errorf("seed %d: primal %v with labelings, %v with vectors (bound %v)", seed, lazy.Primal, vectors.Primal, bound)
		}
		for i := range m.Len() {
			a := m.LossAugmented(i, lazy.W, 0)
			b := m.LossAugmented(i, vectors.W, 0)
			if !slices.Equal(a, b) {
				t.Errorf("seed %d instance %d: predicts %v with labelings, %v with vectors", seed, i, a, b)
			}
		}
	}
}

// After an oracle pass the caches hold PosLearn's labelings, one per
// distinct labeling, and no vectors; the joint constraint is the sum of the
// violated picks' L·δf, as the vector caches build it.
func TestLazyCachesHoldLabelings(t *testing.T) {
	t.Parallel()
	m := lazyChain(t, 4)
	sep, err := newPosLearnSeparator[[]int](m, 0)
	if err != nil {
		t.Fatal(err)
	}
	run := func(sep Separator) *oneSlackRun {
		o, err := newOneSlackRun(m.Len(), m.Dim(), sep.Groups(), sep, 1, pool{threads: 1}, nil)
		if err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(1, 2))
		for j := range o.qp.w {
			o.qp.w[j] = rng.NormFloat64() // most positions wrong
		}
		if err := o.separate(context.Background(), &Stats{}); err != nil {
			t.Fatal(err)
		}
		return o
	}
	lazy, vectors := run(sep), run(vectorsOnly{sep})
	if lazy.lazy == nil || vectors.lazy != nil {
		t.Fatal("PosLearn's separator should be lazy, vectorsOnly not")
	}
	dirs, cons := 0, 0
	for i := range lazy.caches {
		bt := &lazy.caches[i].batches[0]
		if len(bt.vecs) != 0 {
			t.Fatalf("instance %d: %d vectors cached", i, len(bt.vecs))
		}
		dirs, cons = dirs+len(bt.dirs), cons+len(bt.cons)
		if got, want := len(bt.cons), len(vectors.caches[i].batches[0].cons); got != want {
			t.Errorf("instance %d: %d constraints cached, %d with vectors", i, got, want)
		}
		if got, want := len(bt.dirs), len(vectors.caches[i].batches[0].vecs); got != want {
			t.Errorf("instance %d: %d labelings cached for %d distinct vectors", i, got, want)
		}
	}
	if dirs == 0 || dirs >= cons {
		t.Errorf("%d labelings for %d constraints: want some, shared", dirs, cons)
	}
	a, b := lazy.j.constraint()
	va, vb := vectors.j.constraint()
	if b != vb || !slices.Equal(a.Unpack().Idx, va.Unpack().Idx) || !slices.Equal(a.Unpack().Val, va.Unpack().Val) {
		t.Errorf("joint constraints differ: %v, %v and %v, %v", a.Unpack(), b, va.Unpack(), vb)
	}
	if math.Abs(lazy.j.violation-vectors.j.violation) > 1e-9*math.Max(1, math.Abs(vectors.j.violation)) {
		t.Errorf("joint violation %v with labelings, %v with vectors", lazy.j.violation, vectors.j.violation)
	}
}

// A lazy separator's proposals are checked as vectors' are: a margin or a
// scale that is not finite, a group or a direction out of range.
func TestCheckLazy(t *testing.T) {
	t.Parallel()
	dirs := []lazyDir{{scale: 1}, {scale: math.Inf(1)}}
	for _, tt := range []struct {
		name string
		p    lazyProposal
		want string // "" for accepted
	}{
		{"fine", lazyProposal{group: 2, dir: 0, b: 1}, ""},
		{"NaN margin", lazyProposal{group: 2, dir: 0, b: math.NaN()}, "non-finite"},
		{"infinite scale", lazyProposal{group: 2, dir: 1, b: 1}, "non-finite"},
		{"group out of range", lazyProposal{group: 3, dir: 0, b: 1}, "outside the separator's 3 groups"},
		{"direction out of range", lazyProposal{group: 0, dir: 2, b: 1}, "direction 2 outside the 2 proposed"},
	} {
		err := checkLazy(tt.p, dirs, 3)
		if tt.want == "" && err != nil || tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("%s: %v, want %q", tt.name, err, tt.want)
		}
	}
}
