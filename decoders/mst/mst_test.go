package mst_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// forEachInstance runs f on random graphs of every size and score kind, as
// parallel subtests named decoder/kind/n.
func forEachInstance(t *testing.T, f func(t *testing.T, dec mst.Decoder, g *mst.Graph, kind scoreKind, rng *rand.Rand)) {
	for _, dec := range decoders {
		for _, kind := range []scoreKind{floatScores, intScores} {
			t.Run(fmt.Sprintf("%v/%v", dec, kind), func(t *testing.T) {
				t.Parallel()
				rng := rand.New(rand.NewPCG(uint64(kind), 16))
				for _, sz := range sizes {
					for range sz.reps {
						f(t, dec, randGraph(rng, kind, sz.n), kind, rng)
					}
				}
			})
		}
	}
}

func TestDecodeMatchesBruteForce(t *testing.T) {
	forEachInstance(t, func(t *testing.T, dec mst.Decoder, g *mst.Graph, kind scoreKind, _ *rand.Rand) {
		got := dec.Decode(g, nil)
		if err := checkSearched(dec, got.Heads); err != nil {
			t.Fatalf("n=%d: %v", g.N, err)
		}
		if s := g.TreeScore(got.Heads); got.Score != s {
			t.Errorf("n=%d: Score %v, TreeScore of its heads %v", g.N, got.Score, s)
		}
		want, ok := bruteforce.Best(g.N, g.TreeScore, keeps(dec))
		if !ok && g.N > 0 {
			t.Fatalf("n=%d: brute force found no tree", g.N)
		}
		if !approx(got.Score, want.Score) {
			t.Errorf("n=%d: %v scores %v, brute force %v scores %v", g.N, got.Heads, got.Score, want.Heads, want.Score)
		}
		if kind == floatScores && !slices.Equal(got.Heads, want.Heads) && g.N > 0 {
			t.Errorf("n=%d: %v, brute force %v (no ties with float scores)", g.N, got.Heads, want.Heads)
		}
	})
}

func TestLossAugmentedMatchesBruteForce(t *testing.T) {
	forEachInstance(t, func(t *testing.T, dec mst.Decoder, g *mst.Graph, kind scoreKind, rng *rand.Rand) {
		truth := randTree(rng, g.N)
		for _, scale := range []float64{0, 1, 3} {
			got, loss := dec.LossAugmented(g, truth, scale, nil)
			if err := checkSearched(dec, got.Heads); err != nil {
				t.Fatalf("n=%d scale=%v: %v", g.N, scale, err)
			}
			if l := mst.Loss(truth, got.Heads); loss != l {
				t.Errorf("n=%d scale=%v: loss %d, Loss of its heads %d", g.N, scale, loss, l)
			}
			if s := g.TreeScore(got.Heads) + scale*float64(loss); !approx(got.Score, s) {
				t.Errorf("n=%d scale=%v: Score %v, augmented score of its heads %v", g.N, scale, got.Score, s)
			}
			aug := func(h []int) float64 { return g.TreeScore(h) + scale*float64(mst.Loss(truth, h)) }
			want, _ := bruteforce.Best(g.N, aug, keeps(dec))
			if !approx(got.Score, want.Score) {
				t.Errorf("n=%d scale=%v truth=%v: %v scores %v, brute force %v scores %v",
					g.N, scale, truth, got.Heads, got.Score, want.Heads, want.Score)
			}
		}
	})
}

func TestPositionViolatorsMatchBruteForce(t *testing.T) {
	forEachInstance(t, func(t *testing.T, dec mst.Decoder, g *mst.Graph, kind scoreKind, rng *rand.Rand) {
		truth := randTree(rng, g.N)
		if rng.IntN(2) == 0 {
			// Half the time the truth is the MAP tree, so that every
			// position needs a decode with its arc disabled.
			truth = dec.Decode(g, nil).Heads
		}
		got := dec.PositionViolators(g, truth, nil, nil)
		i := 0
		for d := 1; d <= g.N; d++ {
			wrong := func(h []int) bool { return h[d] != truth[d] }
			want, ok := bruteforce.Best(g.N, g.TreeScore, and(keeps(dec), wrong))
			if !ok {
				if i < len(got) && got[i].Position == d {
					t.Errorf("n=%d d=%d: violator %v, but no searched tree is wrong there", g.N, d, got[i].Heads)
				}
				continue
			}
			if i >= len(got) || got[i].Position != d {
				t.Fatalf("n=%d truth=%v: no violator for word %d (brute force %v); got %+v", g.N, truth, d, want.Heads, got)
			}
			v := got[i]
			i++
			if err := checkSearched(dec, v.Heads); err != nil {
				t.Fatalf("n=%d d=%d: %v", g.N, d, err)
			}
			if v.Heads[d] == truth[d] {
				t.Errorf("n=%d d=%d: violator %v is right at %d", g.N, d, v.Heads, d)
			}
			if v.Score != g.TreeScore(v.Heads) || v.Loss != mst.Loss(truth, v.Heads) {
				t.Errorf("n=%d d=%d: violator score %v loss %d, its heads score %v loss %d",
					g.N, d, v.Score, v.Loss, g.TreeScore(v.Heads), mst.Loss(truth, v.Heads))
			}
			if !approx(v.Score, want.Score) {
				t.Errorf("n=%d d=%d truth=%v: %v scores %v, brute force %v scores %v",
					g.N, d, truth, v.Heads, v.Score, want.Heads, want.Score)
			}
		}
		if i != len(got) {
			t.Errorf("n=%d: %d violators, matched %d: %+v", g.N, len(got), i, got)
		}
	})
}

// TestBestWrongAtNoTree covers the cases where every searched tree uses the
// disabled arc.
func TestBestWrongAtNoTree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		dec     mst.Decoder
		n, h, d int
		ok      bool
	}{
		{mst.Decoder{}, 1, 0, 1, false},
		{mst.Decoder{Projective: true}, 1, 0, 1, false},
		{mst.Decoder{}, 2, 0, 1, true},
		{mst.Decoder{SingleRoot: true}, 2, 0, 1, true},
		{mst.Decoder{Projective: true, SingleRoot: true}, 2, 0, 2, true},
	}
	for _, tt := range tests {
		g := mst.NewGraph(tt.n)
		got, ok := tt.dec.BestWrongAt(g, tt.d, tt.h, nil)
		if ok != tt.ok || (ok && got.Heads[tt.d] == tt.h) {
			t.Errorf("%v.BestWrongAt(n=%d, %d → %d) = %v, %v; want ok=%v", tt.dec, tt.n, tt.h, tt.d, got, ok, tt.ok)
		}
	}
}

// TestWorkspaceReuse checks that one Workspace reused over sentences of
// varying length gives what fresh buffers give.
func TestWorkspaceReuse(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for _, dec := range decoders {
		ws := new(mst.Workspace)
		for _, n := range []int{12, 3, 30, 0, 7, 30} {
			g := randGraph(rng, intScores, n)
			truth := randTree(rng, n)
			a, b := dec.Decode(g, ws), dec.Decode(g, nil)
			if !slices.Equal(a.Heads, b.Heads) || a.Score != b.Score {
				t.Errorf("%v n=%d: Decode with a reused workspace %v, fresh %v", dec, n, a, b)
			}
			va, vb := dec.PositionViolators(g, truth, ws, nil), dec.PositionViolators(g, truth, nil, nil)
			if !slices.EqualFunc(va, vb, func(x, y mst.Violator) bool {
				return x.Position == y.Position && slices.Equal(x.Heads, y.Heads) && x.Score == y.Score
			}) {
				t.Errorf("%v n=%d: PositionViolators differ with a reused workspace", dec, n)
			}
			if s := g.TreeScore(a.Heads); a.Score != s {
				t.Errorf("%v n=%d: Score %v, TreeScore %v", dec, n, a.Score, s)
			}
		}
	}
}

// TestChuLiuEdmondsLong checks that non-projective decoding beats or equals
// Eisner and the per-word best heads bound it from above, on sentences too
// long for brute force.
func TestChuLiuEdmondsLong(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	for _, kind := range []scoreKind{floatScores, intScores} {
		for _, n := range []int{20, 60} {
			g := randGraph(rng, kind, n)
			for _, single := range []bool{false, true} {
				cle := mst.Decoder{SingleRoot: single}.Decode(g, nil)
				eis := mst.Decoder{Projective: true, SingleRoot: single}.Decode(g, nil)
				if err := checkSearched(mst.Decoder{SingleRoot: single}, cle.Heads); err != nil {
					t.Fatalf("%v n=%d: %v", kind, n, err)
				}
				if err := checkSearched(mst.Decoder{Projective: true, SingleRoot: single}, eis.Heads); err != nil {
					t.Fatalf("%v n=%d: %v", kind, n, err)
				}
				bound := 0.0
				for d := 1; d <= n; d++ {
					b := g.Arc(0, d)
					for h := 1; h <= n; h++ {
						if h != d {
							b = max(b, g.Arc(h, d))
						}
					}
					bound += b
				}
				if cle.Score < eis.Score-tol || cle.Score > bound+tol {
					t.Errorf("%v n=%d single=%v: CLE %v, Eisner %v, per-word bound %v", kind, n, single, cle.Score, eis.Score, bound)
				}
			}
		}
	}
}

func TestPanics(t *testing.T) {
	t.Parallel()
	g := mst.NewGraph(2)
	tests := []struct {
		name string
		f    func()
	}{
		{"short table", func() { mst.Decoder{}.Decode(&mst.Graph{N: 2, Score: make([]float64, 8)}, nil) }},
		{"negative N", func() { mst.NewGraph(-1) }},
		{"nil graph", func() { mst.Decoder{}.Decode(nil, nil) }},
		{"truth length", func() { mst.Decoder{}.LossAugmented(g, []int{-1, 0}, 1, nil) }},
		{"truth head", func() { mst.Decoder{}.PositionViolators(g, []int{-1, 0, 3}, nil, nil) }},
		{"wrong-at word", func() { mst.Decoder{}.BestWrongAt(g, 0, 1, nil) }},
		{"heads length", func() { g.TreeScore([]int{-1}) }},
		{"loss lengths", func() { mst.Loss([]int{-1}, []int{-1, 0}) }},
	}
	for _, tt := range tests {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: no panic", tt.name)
				}
			}()
			tt.f()
		}()
	}
}

func TestDecoderString(t *testing.T) {
	t.Parallel()
	want := []string{"chu-liu-edmonds", "chu-liu-edmonds/single-root", "eisner", "eisner/single-root"}
	for i, dec := range decoders {
		if got := dec.String(); got != want[i] {
			t.Errorf("String() = %q, want %q", got, want[i])
		}
	}
}
