package trainers_test

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// The HMM baseline on a corpus counted by hand. Attributes: 0 bias, 1..4
// the words a, b, c, d (symbols 0..3), 5 a non-word attribute; labels N = 0,
// V = 1. Training: "a/N b/V", "a/N c/N b/V", "d/V". With rare = 1, c and d
// (seen once) are the unknown class; add-one smoothing over the kept
// symbols a, b and the unknown class:
//
//	P(a|N) = 3/6, P(b|N) = 1/6, P(unk|N) = 2/6
//	P(a|V) = 1/6, P(b|V) = 3/6, P(unk|V) = 2/6
//	P(N|N) = 2/5, P(V|N) = 3/5, P(N|V) = P(V|V) = 1/2
func TestHMMHandCounted(t *testing.T) {
	t.Parallel()
	const bias, other = 0, 5
	tok := func(word int32) []int32 {
		if word < 0 {
			return []int32{bias, other}
		}
		return []int32{bias, word, other}
	}
	inst := func(words []int32, labels []int) chain.Instance {
		x := chain.Instance{Labels: labels}
		for _, w := range words {
			x.Attrs = append(x.Attrs, tok(w))
		}
		return x
	}
	train := []chain.Instance{
		inst([]int32{1, 2}, []int{0, 1}),
		inst([]int32{1, 3, 2}, []int{0, 0, 1}),
		inst([]int32{4}, []int{1}),
	}
	symbol := []int32{-1, 0, 1, 2, 3, -1}
	m, err := chain.New(train, 6, 2, true, decoders.Cost{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := trainers.TrainHMM(context.Background(), m, m.Len(), trainers.HMMParams{}); err == nil {
		t.Fatal("trained an HMM without emission symbols")
	}
	if err := m.SetEmissions(symbol, bias); err != nil {
		t.Fatal(err)
	}
	w, err := trainers.TrainHMM(context.Background(), m, m.Len(), trainers.HMMParams{})
	if err != nil {
		t.Fatal(err)
	}
	emit := [][]float64{{3. / 6, 1. / 6, 2. / 6}, {1. / 6, 3. / 6, 2. / 6}} // [y][a, b, unk]
	trans := [][]float64{{2. / 5, 3. / 5}, {1. / 2, 1. / 2}}
	word := func(w int32) int { // the emission column of a word
		switch w {
		case 1, 2:
			return int(w) - 1
		}
		return 2 // c, d (rare), an unseen word or none
	}
	// Test sentences: a known word, rare words, and a token with no word.
	tests := []chain.Instance{
		inst([]int32{1, 2}, []int{0, 0}),
		inst([]int32{3, -1, 1}, []int{0, 0, 0}),
		inst([]int32{4, 2, 2, 1}, []int{0, 0, 0, 0}),
	}
	tm, err := chain.New(tests, 6, 2, true, decoders.Cost{})
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range tests {
		labelings(len(x.Attrs), 2, func(y []int) {
			want := 0.0
			for p, attrs := range x.Attrs {
				w := int32(-1)
				if len(attrs) == 3 {
					w = attrs[1]
				}
				want += math.Log(emit[y[p]][word(w)])
				if p > 0 {
					want += math.Log(trans[y[p-1]][y[p]])
				}
			}
			if got := tm.Score(i, w, y); math.Abs(got-want) > 1e-12 {
				t.Errorf("sentence %d, labels %v: score %v, want the log joint %v", i, y, got, want)
			}
		})
	}
	// rare 0 keeps c and d as symbols: P(c|N) = (1+1)/(3+5).
	zero := 0
	if w, err = trainers.TrainHMM(context.Background(), m, m.Len(), trainers.HMMParams{Rare: &zero}); err != nil {
		t.Fatal(err)
	}
	if got, want := w[3*2+0], math.Log(2./8)-math.Log(1./8); math.Abs(got-want) > 1e-12 {
		t.Errorf("rare 0: weight of c under N %v, want log P(c|N) − log P(unk|N) = %v", got, want)
	}
}

func ExampleTrainHMM() {
	// Two words (attributes 1 and 2, symbols 0 and 1) beside the bias
	// attribute 0; labels 0 and 1.
	data := []chain.Instance{
		{Attrs: [][]int32{{0, 1}, {0, 2}}, Labels: []int{0, 1}},
		{Attrs: [][]int32{{0, 1}, {0, 2}}, Labels: []int{0, 1}},
	}
	m, _ := chain.New(data, 3, 2, true, decoders.Cost{})
	if err := m.SetEmissions([]int32{-1, 0, 1}, 0); err != nil {
		panic(err)
	}
	w, err := trainers.TrainHMM(context.Background(), m, m.Len(), trainers.HMMParams{})
	if err != nil {
		panic(err)
	}
	fmt.Println(m.Predict(chain.Instance{Attrs: [][]int32{{0, 1}, {0, 2}}}, w))
	// Output: [0 1]
}
