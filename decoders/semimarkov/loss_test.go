package semimarkov_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// literalLoss is sec. 4.3.2 written out: for each predicted segment (t, u, y)
// with u = End-1, search the truth for its span, else charge p_y plus r_y'
// for every true segment with t ≤ t' ≤ u.
func literalLoss(l semimarkov.Loss, truth, pred []structpred.Segment) float64 {
	var total float64
	for _, s := range pred {
		t, u := s.Start, s.End-1
		matched := false
		for _, g := range truth {
			if g.Start == t && g.End-1 == u {
				total += l.Misclass[g.Label*l.K+s.Label]
				matched = true
			}
		}
		if matched {
			continue
		}
		total += l.Precision[s.Label]
		for _, g := range truth {
			if t <= g.Start && g.Start <= u {
				total += l.Recall[g.Label]
			}
		}
	}
	return total
}

// matchLoss is the same loss by spans: p for every predicted span that is not
// a true span, r for every true span that is not predicted, M for each shared
// span.
func matchLoss(l semimarkov.Loss, truth, pred []structpred.Segment) float64 {
	type span struct{ s, e int }
	trueLab, predLab := map[span]int{}, map[span]int{}
	for _, g := range truth {
		trueLab[span{g.Start, g.End}] = g.Label
	}
	for _, g := range pred {
		predLab[span{g.Start, g.End}] = g.Label
	}
	var total float64
	for sp, y := range predLab {
		if y0, ok := trueLab[sp]; ok {
			total += l.Misclass[y0*l.K+y]
		} else {
			total += l.Precision[y]
		}
	}
	for sp, y0 := range trueLab {
		if _, ok := predLab[sp]; !ok {
			total += l.Recall[y0]
		}
	}
	return total
}

func TestLossOf(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 6; n++ {
		for k := 1; k <= 3; k++ {
			rng := newRand(uint64(10*n + k))
			for _, nl := range randLosses(rng, k) {
				for range 3 {
					truth := randTruth(rng, n, k, max(n, 1))
					if got := nl.loss.Of(truth, truth); got != 0 {
						t.Errorf("n=%d k=%d %s: loss of the truth %v = %v", n, k, nl.name, truth, got)
					}
					var maxLoss float64
					for _, pred := range bruteforce.Segmentations(n, k, 3) {
						got := nl.loss.Of(truth, pred)
						maxLoss = max(maxLoss, got)
						lit, mat := literalLoss(nl.loss, truth, pred), matchLoss(nl.loss, truth, pred)
						if !approx(got, lit) || !approx(got, mat) {
							t.Errorf("n=%d k=%d %s: Of(%v, %v) = %v, literal %v, by spans %v", n, k, nl.name, truth, pred, got, lit, mat)
						}
						var sum float64
						for _, s := range pred {
							sum += nl.loss.Segment(truth, s)
						}
						if sum != got {
							t.Errorf("n=%d k=%d %s: Σ Segment = %v, Of = %v", n, k, nl.name, sum, got)
						}
					}
					if got := nl.loss.Max(truth, 3); !approx(got, maxLoss) {
						t.Errorf("n=%d k=%d %s: Max(%v, 3) = %v, brute force %v", n, k, nl.name, truth, got, maxLoss)
					}
				}
			}
		}
	}
}

// TestLossHand pins the literal reading of "t ≤ t' ≤ u" on one example.
func TestLossHand(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	l := semimarkov.Loss{K: 2, Precision: []float64{1, 10}, Recall: []float64{100, 1000}, Misclass: []float64{0, 7, 5, 0}}
	truth := []structpred.Segment{seg(0, 2, 0), seg(2, 3, 1), seg(3, 6, 0)}
	tests := []struct {
		pred []structpred.Segment
		want float64
	}{
		{truth, 0},
		// Same spans, labels swapped on the first two: M[0][1] + M[1][0].
		{[]structpred.Segment{seg(0, 2, 1), seg(2, 3, 0), seg(3, 6, 0)}, 7 + 5},
		// (0,3,0) covers the starts of the first two true segments; (3,4,1)
		// the start of the third; (4,6,1) no start, but its own span is new.
		{[]structpred.Segment{seg(0, 3, 0), seg(3, 4, 1), seg(4, 6, 1)}, (1 + 100 + 1000) + (10 + 100) + 10},
		// A true segment that merely overlaps (ends inside) is not charged:
		// (1,3,0) contains the start 2 only.
		{[]structpred.Segment{seg(0, 1, 0), seg(1, 3, 0), seg(3, 6, 0)}, (1 + 100) + (1 + 1000)},
	}
	for i, tt := range tests {
		if got := l.Of(truth, tt.pred); got != tt.want {
			t.Errorf("case %d: Of = %v, want %v", i, got, tt.want)
		}
	}
}

func TestLossValidate(t *testing.T) {
	t.Parallel()
	d := semimarkov.DefaultLoss(2)
	mk := func(p, r, m []float64) semimarkov.Loss {
		return semimarkov.Loss{K: 2, Precision: p, Recall: r, Misclass: m}
	}
	tests := []struct {
		name      string
		l         semimarkov.Loss
		valid     bool
		isInteger bool
	}{
		{"default", d, true, true},
		{"zero", mk([]float64{0, 0}, []float64{0, 0}, []float64{0, 0, 0, 0}), true, true},
		{"real", mk([]float64{0.5, 1}, []float64{1, 1}, []float64{0, 1, 1, 0}), true, false},
		{"negative", mk([]float64{1, 1}, []float64{-1, 1}, []float64{0, 1, 1, 0}), false, false},
		{"diagonal", mk([]float64{1, 1}, []float64{1, 1}, []float64{0, 1, 1, 2}), false, true},
		{"nan", mk([]float64{math.NaN(), 1}, []float64{1, 1}, []float64{0, 1, 1, 0}), false, false},
		{"inf", mk([]float64{1, 1}, []float64{1, 1}, []float64{0, math.Inf(1), 1, 0}), false, false},
		{"shape", mk([]float64{1}, []float64{1, 1}, []float64{0, 1, 1, 0}), false, true},
		{"K=0", semimarkov.Loss{}, false, true},
	}
	for _, tt := range tests {
		if err := tt.l.Validate(); (err == nil) != tt.valid {
			t.Errorf("%s: Validate() = %v, want valid=%v", tt.name, err, tt.valid)
		}
		if got := tt.l.IsInteger(); got != tt.isInteger {
			t.Errorf("%s: IsInteger() = %v, want %v", tt.name, got, tt.isInteger)
		}
	}
	for k := 1; k <= 3; k++ {
		if err := semimarkov.DefaultLoss(k).Validate(); err != nil {
			t.Errorf("DefaultLoss(%d): %v", k, err)
		}
	}
}

func TestCheckSegmentation(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	tests := []struct {
		segs         []structpred.Segment
		n, k, maxLen int
		wantErr      bool
	}{
		{nil, 0, 1, 1, false},
		{[]structpred.Segment{seg(0, 2, 1), seg(2, 3, 0)}, 3, 2, 2, false},
		{[]structpred.Segment{seg(0, 3, 1)}, 3, 2, 0, false}, // no length limit
		{[]structpred.Segment{seg(0, 3, 1)}, 3, 2, 2, true},  // too long
		{[]structpred.Segment{seg(0, 1, 0), seg(2, 3, 0)}, 3, 1, 2, true},
		{[]structpred.Segment{seg(0, 2, 0), seg(1, 3, 0)}, 3, 1, 2, true},
		{[]structpred.Segment{seg(0, 1, 0), seg(1, 1, 0), seg(1, 2, 0)}, 2, 1, 2, true},
		{[]structpred.Segment{seg(0, 2, 2)}, 2, 2, 2, true},
		{[]structpred.Segment{seg(0, 2, -1)}, 2, 2, 2, true},
		{[]structpred.Segment{seg(0, 2, 0)}, 3, 1, 3, true},
		{[]structpred.Segment{seg(1, 3, 0)}, 3, 1, 3, true},
	}
	for i, tt := range tests {
		err := semimarkov.CheckSegmentation(tt.segs, tt.n, tt.k, tt.maxLen)
		if (err != nil) != tt.wantErr {
			t.Errorf("case %d %v: err = %v, want error %v", i, tt.segs, err, tt.wantErr)
		}
	}
}

func TestCompare(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	a := []structpred.Segment{seg(0, 2, 0), seg(2, 3, 1)}
	tests := []struct {
		a, b []structpred.Segment
		want int
	}{
		{a, a, 0},
		{a, []structpred.Segment{seg(0, 3, 0)}, -1}, // same label, ends earlier
		{[]structpred.Segment{seg(0, 3, 0)}, a, 1},
		{a, []structpred.Segment{seg(0, 1, 1), seg(1, 3, 0)}, -1}, // label before length
		{a, []structpred.Segment{seg(0, 2, 0), seg(2, 3, 0)}, 1},
		{a[:1], a, -1},
		{nil, nil, 0},
	}
	for i, tt := range tests {
		if got := semimarkov.Compare(tt.a, tt.b); got != tt.want {
			t.Errorf("case %d: Compare(%v, %v) = %d, want %d", i, tt.a, tt.b, got, tt.want)
		}
	}
}

func TestSpanIndex(t *testing.T) {
	t.Parallel()
	for n := 0; n <= 8; n++ {
		for l := 1; l <= 10; l++ {
			idx := 0
			for s := range n {
				for e := s + 1; e <= min(n, s+l); e++ {
					if got := semimarkov.SpanIndex(n, l, s, e); got != idx {
						t.Errorf("SpanIndex(%d, %d, %d, %d) = %d, want %d", n, l, s, e, got, idx)
					}
					idx++
				}
			}
			if got := semimarkov.SpanCount(n, l); got != idx {
				t.Errorf("SpanCount(%d, %d) = %d, want %d", n, l, got, idx)
			}
		}
	}
}

func ExampleLoss_Of() {
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	truth := []structpred.Segment{seg(0, 2, 0), seg(2, 5, 1)}
	pred := []structpred.Segment{seg(0, 2, 1), seg(2, 3, 1), seg(3, 5, 1)}
	loss := semimarkov.DefaultLoss(2)
	// [0,2) has the right span but the wrong label: M = 1. [2,3) is not a
	// true span and the true [2,5) starts inside it: p + r = 2. [3,5) is not
	// a true span and no true segment starts in it: p = 1.
	fmt.Println(loss.Of(truth, pred), loss.Of(truth, truth))
	// Output: 4 0
}
