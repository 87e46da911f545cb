package semimarkov_test

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// checkKBest compares a k-best list with the brute-force ranking all (sorted
// by decreasing objective, in Compare order among ties). Scores must match
// rank by rank, which for tied scores is the multiset check; when exact is
// set, the segmentations must match too (the documented tie rule). Every
// entry must be a distinct segmentation of the model whose Score is obj of
// it.
func checkKBest(t *testing.T, ctx string, s *semimarkov.Scores, got, all []semimarkov.Result, k int, obj func([]structpred.Segment) float64, exact bool) {
	t.Helper()
	want := all[:min(k, len(all))]
	if len(got) != len(want) {
		t.Fatalf("%s: %d results, want %d", ctx, len(got), len(want))
	}
	for i, g := range got {
		if err := semimarkov.CheckSegmentation(g.Segments, s.N, s.K, s.L); err != nil || g.Segments == nil {
			t.Fatalf("%s: rank %d %v: %v", ctx, i, g.Segments, err)
		}
		for _, h := range got[:i] {
			if semimarkov.Compare(g.Segments, h.Segments) == 0 {
				t.Errorf("%s: %v returned twice", ctx, g.Segments)
			}
		}
		if !approx(g.Score, want[i].Score) {
			t.Errorf("%s: rank %d score %v, brute force %v", ctx, i, g.Score, want[i].Score)
		}
		if v := obj(g.Segments); !approx(v, g.Score) {
			t.Errorf("%s: rank %d Score %v but objective of %v is %v", ctx, i, g.Score, g.Segments, v)
		}
		if i > 0 && g.Score > got[i-1].Score {
			t.Errorf("%s: scores not decreasing at rank %d: %v > %v", ctx, i, g.Score, got[i-1].Score)
		}
		if exact && !slices.Equal(g.Segments, want[i].Segments) {
			t.Errorf("%s: rank %d %v, want %v (score %v)", ctx, i, g.Segments, want[i].Segments, want[i].Score)
		}
	}
	// Fresh slices: appending to one entry must not write into another.
	if len(got) > 1 && len(got[0].Segments) > 0 {
		before := slices.Clone(got[1].Segments)
		_ = append(got[0].Segments, structpred.Segment{Start: -1})
		if !slices.Equal(got[1].Segments, before) {
			t.Errorf("%s: results share storage", ctx)
		}
	}
}

// topRanked returns the k best of ys (in Compare order, as Segmentations
// returns them) by decreasing vals, earlier first among ties: the head of
// bruteforce.Sorted, without sorting every segmentation.
func topRanked(ys [][]structpred.Segment, vals []float64, k int) []semimarkov.Result {
	idx := make([]int, len(ys))
	for j := range idx {
		idx[j] = j
	}
	slices.SortFunc(idx, func(a, b int) int {
		if c := cmp.Compare(vals[b], vals[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	out := make([]semimarkov.Result, min(k, len(ys)))
	for r := range out {
		out[r] = semimarkov.Result{Segments: ys[idx[r]], Score: vals[idx[r]]}
	}
	return out
}

// kbestSizes covers k = 1, small lists, and k above the number of
// segmentations of the smallest shapes.
var kbestSizes = []int{1, 2, 3, 5, 8, 40}

func TestKBest(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		all := bruteforce.Sorted(s.N, s.K, s.L, s.Score)
		for _, k := range kbestSizes {
			got := semimarkov.KBest(s, k, nil)
			ctx := fmt.Sprintf("seed %d k=%d", in.seed, k)
			checkKBest(t, ctx, s, got, all, k, s.Score, in.kind.exact())
			for i, g := range got {
				if v := s.Score(g.Segments); v != g.Score {
					t.Errorf("%s rank %d: Score %v, s.Score %v: not bit-identical", ctx, i, g.Score, v)
				}
			}
		}
		if got := semimarkov.KBest(s, 0, nil); got != nil {
			t.Errorf("KBest(k=0) = %v, want nil", got)
		}
		// k = 1 is Viterbi, ties included: the list merges compare the
		// very values Viterbi compares.
		v, kb := semimarkov.Viterbi(s, nil), semimarkov.KBest(s, 1, nil)
		if !slices.Equal(v.Segments, kb[0].Segments) || v.Score != kb[0].Score {
			t.Errorf("seed %d: KBest(1) = %v, Viterbi = %v", in.seed, kb[0], v)
		}
	})
}

func TestLossAugmentedKBest(t *testing.T) {
	t.Parallel()
	forEachInstance(t, allKinds, func(t *testing.T, in instance) {
		s := in.s
		// Enumerate once per instance; score and loss every segmentation
		// once per truth and loss, and combine them per scale.
		ys := bruteforce.Segmentations(s.N, s.K, s.L)
		scores := make([]float64, len(ys))
		for j, y := range ys {
			scores[j] = s.Score(y)
		}
		losses, vals := make([]float64, len(ys)), make([]float64, len(ys))
		for tname, truth := range in.truths() {
			for _, nl := range randLosses(in.rng, s.K) {
				for j, y := range ys {
					losses[j] = nl.loss.Of(truth, y)
				}
				for _, scale := range scales {
					obj := func(y []structpred.Segment) float64 { return s.Score(y) + scale*nl.loss.Of(truth, y) }
					for j := range vals {
						vals[j] = scores[j] + scale*losses[j]
					}
					all := topRanked(ys, vals, 8)
					ctx := fmt.Sprintf("seed %d %s %s scale %v", in.seed, tname, nl.name, scale)
					exact := in.kind.exact() && (nl.integer || scale == 0)
					for _, k := range []int{1, 3, 8} {
						got := semimarkov.LossAugmentedKBest(s, truth, nl.loss, scale, k, nil)
						checkKBest(t, fmt.Sprintf("%s k=%d", ctx, k), s, got, all, k, obj, exact)
					}
					// The head of the list is the loss-augmented MAP, bit for bit.
					la := semimarkov.LossAugmented(s, truth, nl.loss, scale, nil)
					kb := semimarkov.LossAugmentedKBest(s, truth, nl.loss, scale, 1, nil)
					if !slices.Equal(la.Segments, kb[0].Segments) || la.Score != kb[0].Score {
						t.Errorf("%s: LossAugmentedKBest(1) = %v, LossAugmented = %v", ctx, kb[0], la)
					}
				}
			}
		}
	})
}

// TestKBestTies pins the tie order where every segmentation ties: Compare
// order, which ranks the finest all-zero segmentation first and changes the
// last label before lengthening a segment.
func TestKBestTies(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	s := semimarkov.NewScores(3, 2, 2)
	got := semimarkov.KBest(s, 4, nil)
	want := [][]structpred.Segment{
		{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)},
		{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 1)},
		{seg(0, 1, 0), seg(1, 3, 0)},
		{seg(0, 1, 0), seg(1, 2, 1), seg(2, 3, 0)},
	}
	for i, r := range got {
		if !slices.Equal(r.Segments, want[i]) || r.Score != 0 {
			t.Errorf("rank %d: %v, want %v with score 0", i, r, want[i])
		}
	}
	// A k beyond the number of segmentations returns them all, without
	// tables sized by k.
	all := semimarkov.KBest(s, math.MaxInt, nil)
	if len(all) != len(bruteforce.Segmentations(3, 2, 2)) {
		t.Errorf("KBest(MaxInt) returned %d of %d segmentations", len(all), len(bruteforce.Segmentations(3, 2, 2)))
	}
	for i := 1; i < len(all); i++ {
		if semimarkov.Compare(all[i-1].Segments, all[i].Segments) >= 0 {
			t.Fatalf("tied results out of Compare order at %d: %v, %v", i, all[i-1].Segments, all[i].Segments)
		}
	}
}
