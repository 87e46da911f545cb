package semimarkov_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// checkPosteriors compares forward-backward with the enumeration of every
// segmentation, and checks the identities any posteriors satisfy: each token
// lies in exactly one segment, the first segment follows START, and the
// transitions count the segments.
func checkPosteriors(t *testing.T, ctx string, s *semimarkov.Scores, got, want *semimarkov.Posteriors) {
	t.Helper()
	checkPosteriorsWithin(t, ctx, s, got, want, 0)
}

// checkPosteriorsWithin is checkPosteriors with slack added to every
// tolerance, for results that are only exact to that slack (see
// logSpaceSlack); slack 0 is checkPosteriors.
func checkPosteriorsWithin(t *testing.T, ctx string, s *semimarkov.Scores, got, want *semimarkov.Posteriors, slack float64) {
	t.Helper()
	near := func(a, b float64) bool {
		return approx(a, b) || math.Abs(a-b) <= (tol+slack)*max(1, math.Abs(a), math.Abs(b))
	}
	n, k, l := s.N, s.K, s.L
	if got.N != n || got.K != k || got.L != l || len(got.Segment) != n*l*k || len(got.Trans) != (k+1)*k {
		t.Fatalf("%s: shape N=%d K=%d L=%d, %d segments, %d transitions", ctx, got.N, got.K, got.L, len(got.Segment), len(got.Trans))
	}
	if !near(got.LogZ, want.LogZ) {
		t.Errorf("%s: LogZ = %v, brute force %v", ctx, got.LogZ, want.LogZ)
	}
	for name, gw := range map[string][2][]float64{"Segment": {got.Segment, want.Segment}, "Trans": {got.Trans, want.Trans}} {
		for i, g := range gw[0] {
			if math.IsNaN(g) || g < 0 || !near(g, gw[1][i]) {
				t.Errorf("%s: %s[%d] = %v, brute force %v", ctx, name, i, g, gw[1][i])
			}
		}
	}
	cover := make([]float64, n)
	var segments, first, trans float64
	for st := range n {
		for ln := 1; ln <= min(l, n-st); ln++ {
			for y := range k {
				p := got.Segment[s.Index(st, st+ln, y)]
				segments += p
				for q := st; q < st+ln; q++ {
					cover[q] += p
				}
			}
		}
	}
	for q, c := range cover {
		if !near(c, 1) {
			t.Errorf("%s: token %d is covered with probability %v", ctx, q, c)
		}
	}
	for y := range k {
		first += got.Trans[k*k+y]
	}
	for _, v := range got.Trans {
		trans += v
	}
	if n > 0 && !near(first, 1) || n == 0 && first != 0 {
		t.Errorf("%s: START row sums to %v", ctx, first)
	}
	if !near(trans, segments) {
		t.Errorf("%s: transitions total %v, expected segments %v", ctx, trans, segments)
	}
}

func TestForwardBackward(t *testing.T) {
	t.Parallel()
	forEachInstance(t, []scoreKind{floatScores, intScores, noTrans, bigScores}, func(t *testing.T, in instance) {
		s := in.s
		got := semimarkov.ForwardBackward(s, nil)
		want := bruteforce.Posteriors(s.N, s.K, s.L, s.Score)
		checkPosteriors(t, fmt.Sprint("seed ", in.seed), s, got, want)
		if in.kind != floatScores {
			return
		}
		// Huge segment scores with moderate transitions, and the reverse:
		// the transition sums are factored in the first case and fall back
		// to log-sum-exp in the second.
		for _, part := range []string{"unary", "trans"} {
			big := &semimarkov.Scores{N: s.N, K: s.K, L: s.L, Unary: slices.Clone(s.Unary), Trans: slices.Clone(s.Trans)}
			tab := big.Unary
			if part == "trans" {
				tab = big.Trans
			}
			for i := range tab {
				tab[i] *= 1000
			}
			got := semimarkov.ForwardBackward(big, nil)
			want := bruteforce.Posteriors(s.N, s.K, s.L, big.Score)
			checkPosteriors(t, fmt.Sprintf("seed %d, %s ×1000", in.seed, part), big, got, want)
		}
	})
}

func TestLossAugmentedForwardBackward(t *testing.T) {
	t.Parallel()
	forEachInstance(t, []scoreKind{floatScores, bigScores}, func(t *testing.T, in instance) {
		s := in.s
		for tname, truth := range in.truths() {
			for _, nl := range randLosses(in.rng, s.K)[1:] {
				for _, scale := range []float64{0.5, 3} {
					obj := func(y []structpred.Segment) float64 { return s.Score(y) + scale*nl.loss.Of(truth, y) }
					got := semimarkov.LossAugmentedForwardBackward(s, truth, nl.loss, scale, nil)
					want := bruteforce.Posteriors(s.N, s.K, s.L, obj)
					checkPosteriors(t, fmt.Sprintf("seed %d %s %s scale %v", in.seed, tname, nl.name, scale), s, got, want)
				}
			}
		}
	})
}

// TestForwardBackwardHugeScores uses scores far beyond exp's range on longer
// sequences than brute force can handle: everything must stay finite and
// normalised, and log Z must lie between the MAP score and the MAP score
// plus the log of the number of segmentations.
func TestForwardBackwardHugeScores(t *testing.T) {
	t.Parallel()
	const n, k, l = 40, 5, 4
	for _, scale := range []float64{1, 500, 1e4, 1e6} {
		s := randScores(newRand(7), floatScores, n, k, l)
		for i := range s.Unary {
			s.Unary[i] *= scale
		}
		for i := range s.Trans {
			s.Trans[i] *= scale
		}
		p := semimarkov.ForwardBackward(s, nil)
		v := semimarkov.Viterbi(s, nil)
		// At most K·(K+1)^(N-1) segmentations.
		bound := math.Log(k) + (n-1)*math.Log(k+1)
		if math.IsNaN(p.LogZ) || p.LogZ < v.Score-1e-9*math.Abs(v.Score) || p.LogZ > v.Score+bound+1e-9*math.Abs(v.Score) {
			t.Errorf("scale %v: LogZ = %v, Viterbi %v", scale, p.LogZ, v.Score)
		}
		for i, q := range append(p.Segment, p.Trans...) {
			if math.IsNaN(q) || q < 0 || q > n {
				t.Fatalf("scale %v: marginal %d = %v", scale, i, q)
			}
		}
		// When one segmentation dominates, its segments have probability ~1.
		if scale >= 1e4 {
			for _, g := range v.Segments {
				if q := p.Segment[s.Index(g.Start, g.End, g.Label)]; math.Abs(q-1) > 1e-6 {
					t.Errorf("scale %v: MAP segment %v has probability %v", scale, g, q)
				}
			}
		}
	}
}

// TestForwardBackwardForbidden: a −Inf unary forbids a segment (a common
// way to impose constraints); the sums stay finite and the segment gets
// probability 0.
func TestForwardBackwardForbidden(t *testing.T) {
	t.Parallel()
	s := randScores(newRand(8), floatScores, 5, 2, 3)
	forbidden := s.Index(1, 3, 1)
	s.Unary[forbidden] = math.Inf(-1)
	got := semimarkov.ForwardBackward(s, nil)
	want := bruteforce.Posteriors(s.N, s.K, s.L, s.Score)
	checkPosteriors(t, "forbidden", s, got, want)
	if got.Segment[forbidden] != 0 {
		t.Errorf("forbidden segment has probability %v", got.Segment[forbidden])
	}
}

// TestKBestForwardBackwardEdgeCases: no tokens (the single empty
// segmentation, score 0, Z = 1), and a nil Trans table meaning all zeros.
func TestKBestForwardBackwardEdgeCases(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 3; k++ {
		s := semimarkov.NewScores(0, k, 2)
		truth := []structpred.Segment{}
		loss := semimarkov.DefaultLoss(k)
		for name, r := range map[string][]semimarkov.Result{
			"KBest":              semimarkov.KBest(s, 3, nil),
			"LossAugmentedKBest": semimarkov.LossAugmentedKBest(s, truth, loss, 2, 3, nil),
		} {
			if len(r) != 1 || r[0].Segments == nil || len(r[0].Segments) != 0 || r[0].Score != 0 {
				t.Errorf("K=%d %s = %#v, want one empty non-nil segmentation with score 0", k, name, r)
			}
		}
		for name, p := range map[string]*semimarkov.Posteriors{
			"ForwardBackward":              semimarkov.ForwardBackward(s, nil),
			"LossAugmentedForwardBackward": semimarkov.LossAugmentedForwardBackward(s, truth, loss, 2, nil),
		} {
			if p.LogZ != 0 || len(p.Segment) != 0 || len(p.Trans) != (k+1)*k || slices.ContainsFunc(p.Trans, func(v float64) bool { return v != 0 }) {
				t.Errorf("K=%d %s = %+v, want LogZ 0 and no segments", k, name, p)
			}
		}
	}
	s := randScores(newRand(4), noTrans, 6, 3, 3)
	z := *s
	z.Trans = make([]float64, 12)
	a, b := semimarkov.KBest(s, 6, nil), semimarkov.KBest(&z, 6, nil)
	for i := range a {
		if !slices.Equal(a[i].Segments, b[i].Segments) || a[i].Score != b[i].Score {
			t.Errorf("KBest rank %d: nil Trans %v, zero Trans %v", i, a[i], b[i])
		}
	}
	pa, pb := semimarkov.ForwardBackward(s, nil), semimarkov.ForwardBackward(&z, nil)
	if pa.LogZ != pb.LogZ || !slices.Equal(pa.Segment, pb.Segment) || !slices.Equal(pa.Trans, pb.Trans) {
		t.Errorf("ForwardBackward differs between nil and zero Trans")
	}
}
