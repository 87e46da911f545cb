package tagger

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"
)

// TestTagTextLayouts: bare tokens, the training layout without and with its
// label column, tabs, document starts; wrong column counts are errors
// naming the input's line.
func TestTagTextLayouts(t *testing.T) {
	t.Parallel()
	m := trainText(t, nerFixture(5, 60, "iob2"), Format{}, Options{})
	for _, tc := range []struct {
		name, in, want, err string
		missing             []string
	}{
		{name: "bare", in: "John\nSmith\nvisited\nParis\n\nAcme\n", want: "John B-PER\nSmith I-PER\nvisited O\nParis B-LOC\n\nAcme B-ORG\n", missing: []string{"c1"}},
		{name: "unlabelled", in: "John NNP\nvisited X\nOslo NNP\n", want: "John NNP B-PER\nvisited X O\nOslo NNP B-LOC\n"},
		{name: "labelled", in: "John NNP O\nvisited X O\n", want: "John NNP O B-PER\nvisited X O O\n"},
		{name: "tabs", in: "John\tNNP\nLima\tNNP\n", want: "John\tNNP\tB-PER\nLima\tNNP\tB-LOC\n"},
		{name: "crlf", in: "John NNP\r\nLima NNP\r\n", want: "John NNP B-PER\nLima NNP B-LOC\n"},
		{name: "docstart", in: "-DOCSTART- -X- O\n\nAcme NNP O\n", want: "-DOCSTART- -X- O O\n\nAcme NNP O B-ORG\n"},
		{name: "ragged", in: "John NNP\nvisited\n", err: "input.txt:2: 1 columns, want 2 as on the first token line (line 1)"},
		{name: "too many", in: "John NNP O extra\n", err: "input.txt:1: 4 columns; this model reads [1 2 3]"},
	} {
		var out bytes.Buffer
		st, err := m.TagText(context.Background(), strings.NewReader(tc.in), &out, "input.txt")
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
			}
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case out.String() != tc.want:
			t.Errorf("%s: output\n%q\nwant\n%q", tc.name, out.String(), tc.want)
		case !slices.Equal(st.MissingColumns, tc.missing):
			t.Errorf("%s: missing columns %v, want %v", tc.name, st.MissingColumns, tc.missing)
		}
	}
}

// TestTagTextStopsWhenCancelled: a cancelled context stops tagging.
func TestTagTextStopsWhenCancelled(t *testing.T) {
	t.Parallel()
	m := trainText(t, nerFixture(5, 20, "iob2"), Format{}, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.TagText(ctx, strings.NewReader("John\n"), &bytes.Buffer{}, "in"); err != context.Canceled {
		t.Errorf("error %v, want context.Canceled", err)
	}
}
