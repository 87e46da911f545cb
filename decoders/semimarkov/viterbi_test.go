package semimarkov_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// checkResult compares a decoder's result with the brute-force optimum of
// obj: same objective, a valid segmentation, Score equal to obj of the
// returned segmentation, and, when exact, the same segmentation (the
// documented tie rule).
func checkResult(t *testing.T, ctx string, s *semimarkov.Scores, got, want semimarkov.Result, obj func([]structpred.Segment) float64, exact bool) {
	t.Helper()
	if err := semimarkov.CheckSegmentation(got.Segments, s.N, s.K, s.L); err != nil {
		t.Fatalf("%s: %v: %v", ctx, got.Segments, err)
	}
	if !approx(got.Score, want.Score) {
		t.Errorf("%s: score %v, brute force %v (%v vs %v)", ctx, got.Score, want.Score, got.Segments, want.Segments)
	}
	if v := obj(got.Segments); !approx(v, got.Score) {
		t.Errorf("%s: Score %v but objective of %v is %v", ctx, got.Score, got.Segments, v)
	}
	if exact && !slices.Equal(got.Segments, want.Segments) {
		t.Errorf("%s: %v, want %v (score %v)", ctx, got.Segments, want.Segments, want.Score)
	}
}

func TestViterbi(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		got := semimarkov.Viterbi(s, nil)
		want, _ := bruteforce.Best(s.N, s.K, s.L, s.Score, nil)
		checkResult(t, fmt.Sprint("seed ", in.seed), s, got, want, s.Score, in.kind.exact())
		if v := s.Score(got.Segments); v != got.Score {
			t.Errorf("seed %d: Score %v, s.Score %v: not bit-identical", in.seed, got.Score, v)
		}
		if v := partialScore(s, got.Segments, s.K); !approx(v, got.Score) {
			t.Errorf("seed %d: Score %v, from the definition %v", in.seed, got.Score, v)
		}
	})
}

// TestViterbiMatchesChain: with L = 1 and no START transition a
// segmentation is a labeling, and the result, ties included, must be that of
// the linear-chain decoder.
func TestViterbiMatchesChain(t *testing.T) {
	t.Parallel()
	forEachInstance(t, []scoreKind{floatScores, intScores}, func(t *testing.T, in instance) {
		if in.s.L != 1 {
			return
		}
		s := in.s
		clear(s.Trans[s.K*s.K:])
		c := &decoders.Chain{N: s.N, K: s.K, Unary: s.Unary, Trans: s.Trans[:s.K*s.K]}
		got, want := semimarkov.Viterbi(s, nil), decoders.Viterbi(c, nil)
		labels := make([]int, 0, s.N)
		for _, g := range got.Segments {
			labels = append(labels, g.Label)
		}
		if !slices.Equal(labels, want.Labels) || !approx(got.Score, want.Score) {
			t.Errorf("seed %d: semi-Markov %v (%v), chain %v (%v)", in.seed, labels, got.Score, want.Labels, want.Score)
		}
	})
}

func TestLossAugmented(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		for tname, truth := range in.truths() {
			for _, nl := range randLosses(in.rng, s.K) {
				for _, scale := range scales {
					obj := func(y []structpred.Segment) float64 { return s.Score(y) + scale*nl.loss.Of(truth, y) }
					got := semimarkov.LossAugmented(s, truth, nl.loss, scale, nil)
					want, _ := bruteforce.Best(s.N, s.K, s.L, obj, nil)
					ctx := fmt.Sprintf("seed %d %s %s scale %v", in.seed, tname, nl.name, scale)
					checkResult(t, ctx, s, got, want, obj, in.kind.exact() && nl.integer)
				}
			}
		}
	})
}

func TestBestExcluding(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		for tname, truth := range in.truths() {
			for _, nl := range randLosses(in.rng, s.K) {
				for _, scale := range scales {
					obj := func(y []structpred.Segment) float64 { return s.Score(y) + scale*nl.loss.Of(truth, y) }
					notTruth := func(y []structpred.Segment) bool { return !slices.Equal(y, truth) }
					got, ok := semimarkov.BestExcluding(s, truth, nl.loss, scale, nil)
					want, wantOK := bruteforce.Best(s.N, s.K, s.L, obj, notTruth)
					ctx := fmt.Sprintf("seed %d %s %s scale %v", in.seed, tname, nl.name, scale)
					if ok != wantOK {
						t.Fatalf("%s: ok = %v, want %v", ctx, ok, wantOK)
					}
					if !ok {
						continue
					}
					if slices.Equal(got.Segments, truth) {
						t.Errorf("%s: returned the truth", ctx)
					}
					checkResult(t, ctx, s, got, want, obj, in.kind.exact() && nl.integer)
				}
			}
		}
	})
}

// TestHandComputed pins results small enough to check by hand, in particular
// the tie rule: with all scores zero every segmentation ties.
func TestHandComputed(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	zero := semimarkov.NewScores(3, 2, 2)
	// Label 1 over [1, 3) is worth 5, but entering label 1 from label 0
	// costs 3 and from START nothing.
	trap := semimarkov.NewScores(3, 2, 2)
	trap.Unary[trap.Index(1, 3, 1)] = 5
	trap.Trans[0*2+1] = -3
	one := semimarkov.NewScores(3, 1, 1)
	tests := []struct {
		name      string
		s         *semimarkov.Scores
		truth     []structpred.Segment
		viterbi   []structpred.Segment
		score     float64
		excluding []structpred.Segment // nil: ok must be false
	}{
		{
			name:    "all tied: finest, all label 0",
			s:       zero,
			truth:   []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
			viterbi: []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
			// The next segmentation in Compare order changes the last label
			// before lengthening the second segment.
			excluding: []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 1)},
		},
		{
			name:      "all tied, truth elsewhere",
			s:         zero,
			truth:     []structpred.Segment{seg(0, 3, 1)},
			viterbi:   []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
			excluding: []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
		},
		{
			name:      "transition decides",
			s:         trap,
			truth:     []structpred.Segment{seg(0, 1, 1), seg(1, 3, 1)},
			viterbi:   []structpred.Segment{seg(0, 1, 1), seg(1, 3, 1)},
			score:     5,
			excluding: []structpred.Segment{seg(0, 1, 0), seg(1, 3, 1)}, // 5 - 3
		},
		{
			name:    "one segmentation",
			s:       one,
			truth:   []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
			viterbi: []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
		},
	}
	for _, tt := range tests {
		v := semimarkov.Viterbi(tt.s, nil)
		if !slices.Equal(v.Segments, tt.viterbi) || v.Score != tt.score {
			t.Errorf("%s: Viterbi = %v, want %v %v", tt.name, v, tt.viterbi, tt.score)
		}
		ex, ok := semimarkov.BestExcluding(tt.s, tt.truth, semimarkov.DefaultLoss(tt.s.K), 0, nil)
		if ok != (tt.excluding != nil) || !slices.Equal(ex.Segments, tt.excluding) {
			t.Errorf("%s: BestExcluding = %v, %v; want %v", tt.name, ex, ok, tt.excluding)
		}
	}
}

func TestEmpty(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 3; k++ {
		s := semimarkov.NewScores(0, k, 2)
		truth := []structpred.Segment{}
		loss := semimarkov.DefaultLoss(k)
		for name, r := range map[string]semimarkov.Result{
			"Viterbi":       semimarkov.Viterbi(s, nil),
			"LossAugmented": semimarkov.LossAugmented(s, truth, loss, 2, nil),
		} {
			if r.Segments == nil || len(r.Segments) != 0 || r.Score != 0 {
				t.Errorf("K=%d %s = %#v, want empty non-nil segmentation with score 0", k, name, r)
			}
		}
		if _, ok := semimarkov.BestExcluding(s, truth, loss, 1, nil); ok {
			t.Errorf("K=%d BestExcluding on N=0 reported ok", k)
		}
		lc, err := semimarkov.LossCount(s, truth, loss, nil)
		if err != nil || len(lc) != 1 || lc[0].Segments == nil || lc[0].Score != 0 {
			t.Errorf("K=%d LossCount = %v, %v; want [{[] 0}]", k, lc, err)
		}
		m := semimarkov.ComputeSpanMarginals(s, nil)
		if m.Backward(0, k) != 0 {
			t.Errorf("K=%d β(0, START) = %v, want 0", k, m.Backward(0, k))
		}
		if v := m.Violators(truth, loss, 0, nil); len(v) != 0 {
			t.Errorf("K=%d Violators = %v, want none", k, v)
		}
	}
}

// TestNilTransEqualsZeroTrans: a nil Trans table means all-zero transitions.
func TestNilTransEqualsZeroTrans(t *testing.T) {
	t.Parallel()
	rng := newRand(4)
	s := randScores(rng, noTrans, 6, 3, 3)
	z := *s
	z.Trans = make([]float64, 12)
	if a, b := semimarkov.Viterbi(s, nil), semimarkov.Viterbi(&z, nil); !slices.Equal(a.Segments, b.Segments) || a.Score != b.Score {
		t.Errorf("Viterbi nil Trans %v, zero Trans %v", a, b)
	}
	ma, mb := semimarkov.ComputeSpanMarginals(s, nil), semimarkov.ComputeSpanMarginals(&z, nil)
	if a, b := ma.Best(2, 4, 1), mb.Best(2, 4, 1); a != b {
		t.Errorf("Best nil Trans %v, zero Trans %v", a, b)
	}
}
