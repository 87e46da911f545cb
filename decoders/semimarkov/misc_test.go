package semimarkov_test

import (
	"reflect"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

func TestPanics(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	good := semimarkov.NewScores(3, 2, 2)
	truth := []structpred.Segment{seg(0, 2, 0), seg(2, 3, 1)}
	d := semimarkov.DefaultLoss(2)
	tests := []struct {
		name string
		f    func()
	}{
		{"nil scores", func() { semimarkov.Viterbi(nil, nil) }},
		{"short Unary", func() { semimarkov.Viterbi(&semimarkov.Scores{N: 3, K: 2, L: 2, Unary: make([]float64, 11)}, nil) }},
		{"K×K Trans", func() {
			semimarkov.ComputeSpanMarginals(&semimarkov.Scores{N: 3, K: 2, L: 2, Unary: make([]float64, 12), Trans: make([]float64, 4)}, nil)
		}},
		{"L=0", func() { semimarkov.Viterbi(&semimarkov.Scores{N: 0, K: 2, L: 0}, nil) }},
		{"K=0", func() { semimarkov.NewScores(2, 0, 1) }},
		{"N<0", func() { semimarkov.Viterbi(&semimarkov.Scores{N: -1, K: 1, L: 1}, nil) }},
		{"truth gap", func() { semimarkov.LossAugmented(good, []structpred.Segment{seg(0, 1, 0), seg(2, 3, 0)}, d, 1, nil) }},
		{"truth short", func() { semimarkov.BestExcluding(good, truth[:1], d, 1, nil) }},
		{"truth label", func() { semimarkov.LossCount(good, []structpred.Segment{seg(0, 3, 2)}, d, nil) }},
		{"loss K", func() { semimarkov.LossAugmented(good, truth, semimarkov.DefaultLoss(3), 1, nil) }},
		{"loss shape", func() {
			semimarkov.LossAugmented(good, truth, semimarkov.Loss{K: 2, Precision: []float64{1}, Recall: d.Recall, Misclass: d.Misclass}, 1, nil)
		}},
		{"Score too long", func() { good.Score([]structpred.Segment{seg(0, 3, 0)}) }},
		{"Score short", func() { good.Score(truth[:1]) }},
		{"Seg range", func() { good.Seg(2, 4, 0, 2) }},
		{"Seg prev", func() { good.Seg(0, 1, 0, 3) }},
		{"Of mismatch", func() { d.Of(truth, []structpred.Segment{seg(0, 2, 0)}) }},
		{"Segment range", func() { d.Segment(truth, seg(2, 4, 0)) }},
		{"Max maxLen", func() { d.Max(truth, 0) }},
		{"Best range", func() { semimarkov.ComputeSpanMarginals(good, nil).Best(0, 3, 0) }},
		{"Segmentation label", func() { semimarkov.ComputeSpanMarginals(good, nil).Segmentation(0, 1, 2) }},
		{"Forward 0", func() { semimarkov.ComputeSpanMarginals(good, nil).Forward(0, 0) }},
		{"Backward p", func() { semimarkov.ComputeSpanMarginals(good, nil).Backward(0, 3) }},
		{"Violators truth", func() { semimarkov.ComputeSpanMarginals(good, nil).Violators(truth[:1], d, 0, nil) }},
		{"SpanIndex", func() { semimarkov.SpanIndex(3, 2, 0, 3) }},
		{"KBest nil", func() { semimarkov.KBest(nil, 2, nil) }},
		{"LossAugmentedKBest truth", func() { semimarkov.LossAugmentedKBest(good, truth[:1], d, 1, 2, nil) }},
		{"LossAugmentedKBest loss K", func() { semimarkov.LossAugmentedKBest(good, truth, semimarkov.DefaultLoss(3), 1, 2, nil) }},
		{"ForwardBackward short Unary", func() {
			semimarkov.ForwardBackward(&semimarkov.Scores{N: 3, K: 2, L: 2, Unary: make([]float64, 11)}, nil)
		}},
		{"LossAugmentedForwardBackward truth", func() {
			semimarkov.LossAugmentedForwardBackward(good, []structpred.Segment{seg(0, 1, 0), seg(2, 3, 0)}, d, 1, nil)
		}},
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

// TestWorkspaceReuse runs every decoder on problems of growing and shrinking
// size through one Workspace and checks that it changes nothing.
func TestWorkspaceReuse(t *testing.T) {
	t.Parallel()
	rng := newRand(3)
	ws := new(semimarkov.Workspace)
	shapes := []struct{ n, k, l int }{{8, 3, 4}, {2, 2, 1}, {0, 1, 1}, {12, 4, 5}, {5, 3, 3}, {12, 4, 5}}
	for _, sh := range shapes {
		s := randScores(rng, floatScores, sh.n, sh.k, sh.l)
		truth := randTruth(rng, sh.n, sh.k, sh.l+1)
		loss := randLosses(rng, sh.k)[1].loss
		check := func(name string, f func(ws *semimarkov.Workspace) any) {
			if a, b := f(ws), f(nil); !reflect.DeepEqual(a, b) {
				t.Errorf("%v %s: with workspace %v, without %v", sh, name, a, b)
			}
		}
		check("Viterbi", func(ws *semimarkov.Workspace) any { return semimarkov.Viterbi(s, ws) })
		check("LossAugmented", func(ws *semimarkov.Workspace) any { return semimarkov.LossAugmented(s, truth, loss, 2, ws) })
		check("BestExcluding", func(ws *semimarkov.Workspace) any {
			r, ok := semimarkov.BestExcluding(s, truth, loss, 0.5, ws)
			return []any{r, ok}
		})
		check("LossCount", func(ws *semimarkov.Workspace) any {
			r, err := semimarkov.LossCount(s, truth, loss, ws)
			return []any{r, err}
		})
		check("SpanMarginals", func(ws *semimarkov.Workspace) any { return semimarkov.ComputeSpanMarginals(s, ws) })
		check("KBest", func(ws *semimarkov.Workspace) any { return semimarkov.KBest(s, 7, ws) })
		check("LossAugmentedKBest", func(ws *semimarkov.Workspace) any {
			return semimarkov.LossAugmentedKBest(s, truth, loss, 1.5, 4, ws)
		})
		check("ForwardBackward", func(ws *semimarkov.Workspace) any { return semimarkov.ForwardBackward(s, ws) })
		check("LossAugmentedForwardBackward", func(ws *semimarkov.Workspace) any {
			return semimarkov.LossAugmentedForwardBackward(s, truth, loss, 1.5, ws)
		})
	}
}

// TestAllocs: with a warm Workspace the Viterbi family allocates only the
// returned segmentation, KBest the returned list and one array for all its
// segmentations, and ForwardBackward the result and one array for its tables.
func TestAllocs(t *testing.T) {
	s := randScores(newRand(5), floatScores, 30, 13, 6)
	truth := randTruth(newRand(6), 30, 13, 6)
	loss := semimarkov.DefaultLoss(13)
	ws := new(semimarkov.Workspace)
	tests := []struct {
		name   string
		f      func()
		allocs float64
	}{
		{"Viterbi", func() { semimarkov.Viterbi(s, ws) }, 1},
		{"LossAugmented", func() { semimarkov.LossAugmented(s, truth, loss, 1, ws) }, 1},
		{"BestExcluding", func() { semimarkov.BestExcluding(s, truth, loss, 1, ws) }, 1},
		{"KBest", func() { semimarkov.KBest(s, 5, ws) }, 2},
		{"LossAugmentedKBest", func() { semimarkov.LossAugmentedKBest(s, truth, loss, 1, 5, ws) }, 2},
		{"ForwardBackward", func() { semimarkov.ForwardBackward(s, ws) }, 2},
		{"LossAugmentedForwardBackward", func() { semimarkov.LossAugmentedForwardBackward(s, truth, loss, 1, ws) }, 2},
	}
	for _, tt := range tests {
		tt.f()
		if a := testing.AllocsPerRun(20, tt.f); a > tt.allocs {
			t.Errorf("%s: %v allocations per call, want %v", tt.name, a, tt.allocs)
		}
	}
}
