package features_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/features"
)

// tf-idf by hand on three documents, fitted on the first two: the third's
// words unseen in training carry nothing, and its idf comes from the
// training part alone.
func TestBagOfWordsByHand(t *testing.T) {
	t.Parallel()
	docs := [][]string{
		{"The", "cat", "sat", ",", "the", "CAT", "."},
		{"the", "dog", "1961", "ran"},
		{"A", "zebra", "and", "the", "dog"},
	}
	b, err := features.FitBagOfWords(docs, []int{0, 1}, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Vocabulary: cat dog ran sat the (sorted; "," "." "1961" dropped).
	var words []string
	for j := range b.Dim() {
		words = append(words, b.Word(j))
	}
	if !slices.Equal(words, []string{"cat", "dog", "ran", "sat", "the"}) {
		t.Fatalf("vocabulary %v", words)
	}
	idf1 := math.Log(3.0/2) + 1 // in one of two training documents
	idf2 := 1.0                 // in both
	norm := func(v ...float64) []float64 {
		var s float64
		for _, x := range v {
			s += x * x
		}
		for i := range v {
			v[i] /= math.Sqrt(s)
		}
		return v
	}
	for _, tc := range []struct {
		doc  int
		idx  []int32
		vals []float64
	}{
		{0, []int32{0, 3, 4}, norm(2*idf1, idf1, 2*idf2)},
		{1, []int32{1, 2, 4}, norm(idf1, idf1, idf2)},
		{2, []int32{1, 4}, norm(idf1, idf2)},
	} {
		v := b.Transform(docs[tc.doc])
		if !slices.Equal(v.Idx, tc.idx) {
			t.Fatalf("doc %d: indices %v, want %v", tc.doc, v.Idx, tc.idx)
		}
		for e := range v.Val {
			if math.Abs(v.Val[e]-tc.vals[e]) > 1e-15 {
				t.Errorf("doc %d: values %v, want %v", tc.doc, v.Val, tc.vals)
				break
			}
		}
	}
	if v := b.Transform([]string{"zebra"}); len(v.Idx) != 0 {
		t.Errorf("unknown words only: %v", v)
	}
	if b2, _ := features.FitBagOfWords(docs, []int{0, 1}, 2); b2.Dim() != 1 || b2.Word(0) != "the" {
		t.Errorf("MinDF 2: %d words", b2.Dim())
	}
}

func TestBagOfWordsErrors(t *testing.T) {
	t.Parallel()
	docs := [][]string{{"a"}, {"b"}}
	for _, tc := range []struct {
		train []int
		want  string
	}{
		{nil, "no training documents"},
		{[]int{2}, "training index 2 outside [0, 2)"},
		{[]int{0, 0}, "training index 0 given twice"},
	} {
		if _, err := features.FitBagOfWords(docs, tc.train, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("train %v: error %v, want %q", tc.train, err, tc.want)
		}
	}
}
