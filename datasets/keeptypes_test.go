package datasets

import (
	"reflect"
	"strings"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func TestKeepTypes(t *testing.T) {
	const file = "He NN B-NP\nreckons VBZ B-VP\nthe DT B-NP\ndeficit NN I-NP\nin IN B-PP\nMay NNP B-NP\n\n"
	tests := []struct {
		name       string
		keep       []string
		labels     []string
		seqLabels  []int
		segments   []structpred.Segment
		wantErrSub string
	}{
		{
			name: "NP only", keep: []string{"NP"},
			labels:    []string{"O", "B-NP", "I-NP"},
			seqLabels: []int{1, 0, 1, 2, 0, 1},
			segments:  []structpred.Segment{{Start: 0, End: 1, Label: 1}, {Start: 2, End: 4, Label: 1}, {Start: 5, End: 6, Label: 1}},
		},
		{
			name: "two types, corpus order", keep: []string{"VP", "NP"},
			labels:    []string{"O", "B-NP", "I-NP", "B-VP", "I-VP"},
			seqLabels: []int{1, 3, 1, 2, 0, 1},
			segments:  []structpred.Segment{{Start: 0, End: 1, Label: 1}, {Start: 1, End: 2, Label: 3}, {Start: 2, End: 4, Label: 1}, {Start: 5, End: 6, Label: 1}},
		},
		{
			name: "none kept", keep: nil,
			labels:    []string{"O"},
			seqLabels: []int{0, 0, 0, 0, 0, 0},
			segments:  []structpred.Segment{},
		},
		{name: "unknown type", keep: []string{"NX"}, wantErrSub: `chunk type "NX" is not in the corpus (its types: NP, PP, VP)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, _, err := ParseCoNLL(strings.NewReader(file), "t.txt", CoNLLFormat{Scheme: IOB2})
			if err != nil {
				t.Fatal(err)
			}
			err = KeepTypes(c, tt.keep)
			if tt.wantErrSub != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErrSub) {
					t.Fatalf("error %v, want one containing %q", err, tt.wantErrSub)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			s := c.Sequences[0]
			if !reflect.DeepEqual(c.Labels, tt.labels) || !reflect.DeepEqual(s.Labels, tt.seqLabels) || !reflect.DeepEqual(s.Segments, tt.segments) {
				t.Errorf("labels %v, sequence %v, segments %v; want %v, %v, %v", c.Labels, s.Labels, s.Segments, tt.labels, tt.seqLabels, tt.segments)
			}
		})
	}
}

func TestKeepTypesPlainLabels(t *testing.T) {
	c := &Corpus{Labels: []string{"author", "title"}}
	if err := KeepTypes(c, []string{"title"}); err == nil {
		t.Fatal("no error for labels without chunk prefixes")
	}
}
