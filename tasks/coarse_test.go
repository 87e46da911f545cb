package tasks

import (
	"testing"

	"github.com/maxmargin/repro/structpred"
)

// TestHasCoarseTags: a treebank's arc features get the coarse templates only
// when its coarse tags (second column) differ from the fine ones somewhere.
func TestHasCoarseTags(t *testing.T) {
	seq := func(cols ...[]string) structpred.Sequence {
		return structpred.Sequence{Tokens: []string{"a", "b"}, Columns: cols}
	}
	for _, tc := range []struct {
		name string
		seqs []structpred.Sequence
		want bool
	}{
		{"fine only", []structpred.Sequence{seq([]string{"NN", "VB"})}, false},
		{"coarse = fine (DDT)", []structpred.Sequence{seq([]string{"NOUN", "VERB"}, []string{"NOUN", "VERB"})}, false},
		{"fine carries morphology", []structpred.Sequence{
			seq([]string{"NOUN", "VERB"}, []string{"NOUN", "VERB"}),
			seq([]string{"NN|UTR|SIN", "VB|PRS"}, []string{"NOUN", "VERB"}),
		}, true},
	} {
		if got := HasCoarseTags(tc.seqs); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
		for _, s := range tc.seqs {
			if f := sentenceArcs(s, tc.want); f == nil || f.Len() != len(s.Tokens) {
				t.Errorf("%s: arc features of %d words", tc.name, f.Len())
			}
		}
	}
}
