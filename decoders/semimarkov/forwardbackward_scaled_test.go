package semimarkov_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// rangedScores draws N(0, 2²) scores and multiplies them by the λ > 0 that
// puts the scaled pass's range (ScaledRange) at frac·MaxScaledRange: the
// range is R + ln(K·L) with R positively homogeneous in the scores (a range
// of transitions plus a max-plus potential), so λ follows from the range of
// the unscaled draw.
func rangedScores(t *testing.T, rng *rand.Rand, n, k, l int, frac float64) *semimarkov.Scores {
	t.Helper()
	s := randScores(rng, floatScores, n, k, l)
	lkl := math.Log(float64(k * l))
	r := semimarkov.ScaledRange(s) - lkl
	if !(r > 0 && r+lkl <= semimarkov.MaxScaledRange) {
		t.Fatalf("unscaled range %v", r)
	}
	lambda := (frac*semimarkov.MaxScaledRange - lkl) / r
	for i := range s.Unary {
		s.Unary[i] *= lambda
	}
	for i := range s.Trans {
		s.Trans[i] *= lambda
	}
	if got := frac * semimarkov.MaxScaledRange; frac < 1 && math.Abs(semimarkov.ScaledRange(s)-got) > 1e-9*got {
		t.Fatalf("range %v after scaling, want %v", semimarkov.ScaledRange(s), got)
	}
	return s
}

// logSpaceSlack is the rounding error to allow for when the reference is the
// log-space pass: each of its cells exponentiates a difference of log values
// as large as |log Z|, losing about ε·|log Z|, and a recursion over N
// boundaries can accumulate N of those. Brute force (slack 0) is exact to
// rounding instead.
func logSpaceSlack(s *semimarkov.Scores, p *semimarkov.Posteriors) float64 {
	const eps = 0x1p-52
	return float64(s.N) * eps * math.Abs(p.LogZ)
}

// reference returns the posteriors to compare with and the slack: brute
// force for problems it can enumerate, else the log-space pass.
func reference(s *semimarkov.Scores) (*semimarkov.Posteriors, float64) {
	if s.N <= 6 {
		return bruteforce.Posteriors(s.N, s.K, s.L, s.Score), 0
	}
	p := semimarkov.ForwardBackwardLog(s)
	return p, logSpaceSlack(s, p)
}

// TestForwardBackwardScaledNearLimit puts the score range just inside and
// just outside the scaled pass's limit: inside, the scaled pass must agree
// with brute force (short sequences) or the log-space pass (long ones);
// outside, the log-space pass must be chosen, and agree too.
func TestForwardBackwardScaledNearLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n, k, l int
		frac    float64
		scaled  bool
	}{
		{4, 3, 3, 0.5, true},
		{5, 3, 3, 0.99, true},
		{6, 2, 4, 0.999, true},
		{6, 3, 2, 0.99, true},
		{200, 13, 6, 0.99, true},
		{500, 5, 10, 0.999, true},
		{5, 3, 3, 1.01, false},
		{6, 2, 4, 1.001, false},
		{200, 13, 6, 1.01, false},
	} {
		t.Run(fmt.Sprintf("N=%d/K=%d/L=%d/range=%v", tt.n, tt.k, tt.l, tt.frac), func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(4) {
				s := rangedScores(t, rand.New(rand.NewPCG(seed, uint64(tt.n))), tt.n, tt.k, tt.l, tt.frac)
				if got := semimarkov.ScaledApplies(s); got != tt.scaled {
					t.Fatalf("seed %d: scaled pass chosen: %v, want %v", seed, got, tt.scaled)
				}
				want, slack := reference(s)
				checkPosteriorsWithin(t, fmt.Sprint("seed ", seed), s, semimarkov.ForwardBackward(s, nil), want, slack)
			}
		})
	}
}

// TestForwardBackwardLongSequences compares the two passes on sequences of
// 500 tokens with segments of up to 10: ordinary scores (scaled pass),
// scores ×1000 (log-space pass), and ordinary scores with one huge segment
// score (which sends the whole sequence to the log-space pass), also checking
// log Z against the Viterbi score: max_y s(y) ≤ log Z ≤ max_y s(y) + log of
// the number of segmentations, at most K·(K+1)^(N−1). Where the log-space
// pass runs, the identities hold to its rounding (logSpaceSlack) only.
func TestForwardBackwardLongSequences(t *testing.T) {
	t.Parallel()
	const n, l = 500, 10
	for _, tt := range []struct {
		name   string
		k      int
		scale  float64 // multiplies N(0, 2²) scores
		spike  float64 // added to one unary score mid-sequence
		scaled bool
	}{
		{"ordinary K=5", 5, 1, 0, true},
		{"ordinary K=13", 13, 1, 0, true},
		{"extreme", 5, 1000, 0, false},
		{"one spike", 5, 1, 1e4, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := randScores(newRand(11), floatScores, n, tt.k, l)
			for i := range s.Unary {
				s.Unary[i] *= tt.scale
			}
			for i := range s.Trans {
				s.Trans[i] *= tt.scale
			}
			s.Unary[s.Index(n/2, n/2+3, 1)] += tt.spike
			if got := semimarkov.ScaledApplies(s); got != tt.scaled {
				t.Fatalf("scaled pass chosen: %v, want %v", got, tt.scaled)
			}
			got := semimarkov.ForwardBackward(s, nil)
			want := semimarkov.ForwardBackwardLog(s)
			slack := logSpaceSlack(s, want)
			checkPosteriorsWithin(t, tt.name, s, got, want, slack)
			v := semimarkov.Viterbi(s, nil)
			bound := math.Log(float64(tt.k)) + (n-1)*math.Log(float64(tt.k+1))
			if r := (tol + slack) * math.Abs(v.Score); got.LogZ < v.Score-r || got.LogZ > v.Score+bound+r {
				t.Errorf("LogZ = %v outside [%v, %v + %v]", got.LogZ, v.Score, v.Score, bound)
			}
		})
	}
}

// TestForwardBackwardToReuses checks that the To variants overwrite a reused
// result completely (no stale probabilities of segments past N, transition
// sums or log Z), whichever pass ran before, and do not allocate with a warm
// Workspace. (Not parallel: AllocsPerRun needs the test to itself.)
func TestForwardBackwardToReuses(t *testing.T) {
	long := randScores(newRand(1), floatScores, 30, 3, 4)
	huge := randScores(newRand(2), bigScores, 30, 3, 4)
	short := randScores(newRand(3), floatScores, 5, 3, 4)
	shortHuge := randScores(newRand(4), bigScores, 5, 3, 4)
	truth := randTruth(newRand(5), 5, 3, 4)
	loss := semimarkov.DefaultLoss(3)
	for _, prev := range []*semimarkov.Scores{long, huge} {
		for _, s := range []*semimarkov.Scores{short, shortHuge} {
			var dst semimarkov.Posteriors
			ws := new(semimarkov.Workspace)
			semimarkov.ForwardBackwardTo(&dst, prev, ws)
			got := semimarkov.ForwardBackwardTo(&dst, s, ws)
			checkPosteriors(t, "after a longer sequence", s, got, bruteforce.Posteriors(s.N, s.K, s.L, s.Score))

			semimarkov.ForwardBackwardTo(&dst, prev, ws)
			got = semimarkov.LossAugmentedForwardBackwardTo(&dst, s, truth, loss, 2, ws)
			obj := func(y []structpred.Segment) float64 { return s.Score(y) + 2*loss.Of(truth, y) }
			checkPosteriors(t, "loss-augmented after a longer sequence", s, got, bruteforce.Posteriors(s.N, s.K, s.L, obj))
		}
	}
	var dst semimarkov.Posteriors
	ws := new(semimarkov.Workspace)
	longTruth := randTruth(newRand(6), 30, 3, 4)
	for _, s := range []*semimarkov.Scores{long, huge} {
		semimarkov.LossAugmentedForwardBackwardTo(&dst, s, longTruth, loss, 1, ws)
		if allocs := testing.AllocsPerRun(10, func() { semimarkov.ForwardBackwardTo(&dst, s, ws) }); allocs != 0 {
			t.Errorf("ForwardBackwardTo allocates %v times per call with a warm workspace", allocs)
		}
		if allocs := testing.AllocsPerRun(10, func() { semimarkov.LossAugmentedForwardBackwardTo(&dst, s, longTruth, loss, 1, ws) }); allocs != 0 {
			t.Errorf("LossAugmentedForwardBackwardTo allocates %v times per call with a warm workspace", allocs)
		}
	}
	if !slices.Equal(dst.Trans, semimarkov.LossAugmentedForwardBackward(huge, longTruth, loss, 1, nil).Trans) {
		t.Errorf("a reused result differs from a fresh one")
	}
}
