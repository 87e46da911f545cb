package decoders_test

import (
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
)

func TestEmptyChain(t *testing.T) {
	t.Parallel()
	for k := 1; k <= 3; k++ {
		c := decoders.NewChain(0, k)
		h := decoders.Hamming(k)
		for name, s := range map[string]decoders.Scored{
			"Viterbi":       decoders.Viterbi(c, nil),
			"LossAugmented": decoders.LossAugmented(c, []int{}, h, 2, nil),
		} {
			if s.Labels == nil || len(s.Labels) != 0 || s.Score != 0 {
				t.Errorf("K=%d %s = %#v, want empty non-nil labeling with score 0", k, name, s)
			}
		}
		if kb := decoders.KBest(c, 3, nil); len(kb) != 1 || len(kb[0].Labels) != 0 || kb[0].Score != 0 {
			t.Errorf("K=%d KBest = %v, want the single empty labeling", k, kb)
		}
		if _, ok := decoders.BestExcluding(c, []int{}, h, 1, nil); ok {
			t.Errorf("K=%d BestExcluding on N=0 reported ok", k)
		}
		lc, err := decoders.LossCount(c, []int{}, h, nil)
		if err != nil || len(lc) != 1 || lc[0].Labels == nil || lc[0].Score != 0 {
			t.Errorf("K=%d LossCount = %v, %v; want [{[] 0}]", k, lc, err)
		}
		if m := decoders.ComputeMaxMarginals(c, nil); len(m.MM) != 0 {
			t.Errorf("K=%d MM = %v, want empty", k, m.MM)
		}
		fb := decoders.ForwardBackward(c, nil)
		if fb.LogZ != 0 || len(fb.Node) != 0 || len(fb.Edge) != k*k || slices.ContainsFunc(fb.Edge, func(v float64) bool { return v != 0 }) {
			t.Errorf("K=%d ForwardBackward = %+v, want LogZ 0, no nodes, zero K×K edges", k, fb)
		}
	}
}

// TestHandComputed pins results on chains small enough to check by hand,
// including N=1 (no transition is ever used) and K=1 (one labeling).
func TestHandComputed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		c       *decoders.Chain
		viterbi []int
		score   float64
		logZ    float64
	}{
		{
			name:    "N=1 ignores Trans",
			c:       &decoders.Chain{N: 1, K: 3, Unary: []float64{1, 3, 2}, Trans: []float64{9, 9, 9, 9, 9, 9, 9, 9, 9}},
			viterbi: []int{1}, score: 3,
			logZ: math.Log(math.E + math.Exp(3) + math.Exp(2)),
		},
		{
			name:    "K=1",
			c:       &decoders.Chain{N: 3, K: 1, Unary: []float64{1, 2, 3}, Trans: []float64{10}},
			viterbi: []int{0, 0, 0}, score: 26, logZ: 26,
		},
		{
			// Unaries prefer 0 0 but the transition 0→0 is expensive.
			name:    "transition matters",
			c:       &decoders.Chain{N: 2, K: 2, Unary: []float64{1, 0, 1, 0}, Trans: []float64{-5, 0, 0, 0}},
			viterbi: []int{0, 1}, score: 1,
			logZ: math.Log(math.Exp(-3) + math.E + math.E + 1),
		},
		{
			name:    "all tied picks lexicographically smallest",
			c:       &decoders.Chain{N: 3, K: 2, Unary: make([]float64, 6)},
			viterbi: []int{0, 0, 0}, score: 0, logZ: math.Log(8),
		},
	}
	for _, tt := range tests {
		v := decoders.Viterbi(tt.c, nil)
		if !slices.Equal(v.Labels, tt.viterbi) || v.Score != tt.score {
			t.Errorf("%s: Viterbi = %v, want %v %v", tt.name, v, tt.viterbi, tt.score)
		}
		if kb := decoders.KBest(tt.c, 1, nil); !slices.Equal(kb[0].Labels, tt.viterbi) {
			t.Errorf("%s: KBest(1) = %v, want %v", tt.name, kb[0], tt.viterbi)
		}
		if fb := decoders.ForwardBackward(tt.c, nil); !approx(fb.LogZ, tt.logZ) {
			t.Errorf("%s: LogZ = %v, want %v", tt.name, fb.LogZ, tt.logZ)
		}
	}
	one := &decoders.Chain{N: 4, K: 1, Unary: make([]float64, 4)}
	if kb := decoders.KBest(one, 5, nil); len(kb) != 1 {
		t.Errorf("K=1: KBest(5) returned %d labelings, want 1", len(kb))
	}
	if _, ok := decoders.BestExcluding(one, []int{0, 0, 0, 0}, decoders.Hamming(1), 1, nil); ok {
		t.Errorf("K=1: BestExcluding reported ok")
	}
}

// TestNilTransEqualsZeroTrans: a nil Trans table means all-zero transitions.
func TestNilTransEqualsZeroTrans(t *testing.T) {
	t.Parallel()
	in := randInstance(noTrans, 5, 3, 4)
	z := *in.c
	z.Trans = make([]float64, 9)
	if a, b := decoders.Viterbi(in.c, nil), decoders.Viterbi(&z, nil); !slices.Equal(a.Labels, b.Labels) || a.Score != b.Score {
		t.Errorf("Viterbi nil Trans %v, zero Trans %v", a, b)
	}
	if a, b := decoders.ForwardBackward(in.c, nil), decoders.ForwardBackward(&z, nil); a.LogZ != b.LogZ || !slices.Equal(a.Edge, b.Edge) {
		t.Errorf("ForwardBackward differs between nil and zero Trans")
	}
}

func TestPanics(t *testing.T) {
	t.Parallel()
	good := decoders.NewChain(3, 2)
	h := decoders.Hamming(2)
	tests := []struct {
		name string
		f    func()
	}{
		{"short Unary", func() { decoders.Viterbi(&decoders.Chain{N: 3, K: 2, Unary: make([]float64, 5)}, nil) }},
		{"bad Trans", func() {
			decoders.KBest(&decoders.Chain{N: 3, K: 2, Unary: make([]float64, 6), Trans: make([]float64, 3)}, 2, nil)
		}},
		{"K=0", func() { decoders.ForwardBackward(&decoders.Chain{N: 0, K: 0}, nil) }},
		{"N<0", func() { decoders.ComputeMaxMarginals(&decoders.Chain{N: -1, K: 2}, nil) }},
		{"nil chain", func() { decoders.Viterbi(nil, nil) }},
		{"short truth", func() { decoders.LossAugmented(good, []int{0, 1}, h, 1, nil) }},
		{"label out of range", func() { decoders.LossCount(good, []int{0, 2, 1}, h, nil) }},
		{"negative label", func() { decoders.BestExcluding(good, []int{0, -1, 1}, h, 1, nil) }},
		{"cost K mismatch", func() { decoders.LossAugmentedKBest(good, []int{0, 1, 1}, decoders.Hamming(3), 1, 2, nil) }},
		{"Score length", func() { good.Score([]int{0}) }},
		{"Loss length", func() { h.Loss([]int{0}, []int{0, 1}) }},
		{"Labeling range", func() { decoders.ComputeMaxMarginals(good, nil).Labeling(3, 0) }},
		{"LabelingInto dst", func() { decoders.ComputeMaxMarginals(good, nil).LabelingInto(make([]int, 2), 0, 0) }},
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

func TestCost(t *testing.T) {
	t.Parallel()
	h := decoders.Hamming(3)
	if want := []float64{0, 1, 1, 1, 0, 1, 1, 1, 0}; h.K != 3 || !slices.Equal(h.M, want) {
		t.Errorf("Hamming(3) = %+v", h)
	}
	if got := h.Loss([]int{0, 1, 2, 2}, []int{0, 2, 2, 0}); got != 2 {
		t.Errorf("Hamming loss = %v, want 2", got)
	}
	asym := decoders.Cost{K: 2, M: []float64{0, 3, 1, 0}}
	if got := asym.Loss([]int{0, 1, 0}, []int{1, 0, 0}); got != 4 {
		t.Errorf("asymmetric loss = %v, want 4", got)
	}
	if got := asym.MaxLoss([]int{0, 1, 0}); got != 7 {
		t.Errorf("MaxLoss = %v, want 7", got)
	}
	tests := []struct {
		name      string
		c         decoders.Cost
		valid     bool
		isInteger bool
	}{
		{"hamming", h, true, true},
		{"real", decoders.Cost{K: 2, M: []float64{0, 0.5, 2, 0}}, true, false},
		{"negative", decoders.Cost{K: 2, M: []float64{0, -1, 1, 0}}, false, false},
		{"diagonal", decoders.Cost{K: 2, M: []float64{1, 1, 1, 0}}, false, true},
		{"nan", decoders.Cost{K: 2, M: []float64{0, math.NaN(), 1, 0}}, false, false},
		{"inf", decoders.Cost{K: 2, M: []float64{0, math.Inf(1), 1, 0}}, false, false},
		{"shape", decoders.Cost{K: 2, M: []float64{0, 1, 1}}, false, true},
		{"K=0", decoders.Cost{}, false, true},
	}
	for _, tt := range tests {
		if err := tt.c.Validate(); (err == nil) != tt.valid {
			t.Errorf("%s: Validate() = %v, want valid=%v", tt.name, err, tt.valid)
		}
		if got := tt.c.IsInteger(); got != tt.isInteger {
			t.Errorf("%s: IsInteger() = %v, want %v", tt.name, got, tt.isInteger)
		}
	}
}
