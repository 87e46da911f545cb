package tagger

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/trainers"
)

// trainText reads text as a column file in format f and trains a
// perceptron on it.
func trainText(t *testing.T, text string, f Format, opt Options) *Model {
	t.Helper()
	d, err := ParseData(strings.NewReader(text), "train.txt", f)
	if err != nil {
		t.Fatal(err)
	}
	if opt.Trainer == "" {
		opt.Trainer = trainers.PerceptronName
	}
	m, _, err := Train(context.Background(), d, opt)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// tagText tags text with m and returns the output.
func tagText(t *testing.T, m *Model, text string) string {
	t.Helper()
	var out bytes.Buffer
	if _, err := m.TagText(context.Background(), strings.NewReader(text), &out, "input.txt"); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// TestEncodingsRoundTrip trains on a file in each label encoding the
// column reader supports, stated and detected, and tags the same file: the
// fixture is learnable exactly, so the appended labels must equal the
// file's own, in its own encoding (IOB1's B- only between adjacent chunks
// of a type, IOE1's E-, IOBES's S- and E-), and each output line is the
// input line with one more column.
func TestEncodingsRoundTrip(t *testing.T) {
	t.Parallel()
	for _, sc := range []datasets.Scheme{datasets.IOB1, datasets.IOB2, datasets.IOE1, datasets.IOE2, datasets.IOBES} {
		for _, stated := range []bool{true, false} {
			name := string(sc) + map[bool]string{true: "/stated", false: "/detected"}[stated]
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				text := nerFixture(1, 80, sc)
				f := Format{}
				if stated {
					f.Scheme = string(sc)
				}
				m := trainText(t, text, f, Options{})
				if m.Format.Scheme != string(sc) {
					t.Fatalf("label encoding %q, want %q", m.Format.Scheme, sc)
				}
				out := tagText(t, m, text)
				if got, want := columnOf(out, -1), columnOf(text, -1); !slices.Equal(got, want) {
					t.Fatalf("tagged labels differ from the file's:\n%s", diffLines(got, want))
				}
				in, lines := strings.Split(text, "\n"), strings.Split(out, "\n")
				for i := range in {
					if in[i] != "" && !strings.HasPrefix(lines[i], in[i]+" ") || in[i] == "" && lines[i] != "" {
						t.Fatalf("line %d: %q is not %q with a label appended", i+1, lines[i], in[i])
					}
				}
			})
		}
	}
}

// diffLines lists the first few lines where got and want differ.
func diffLines(got, want []string) string {
	var b strings.Builder
	shown := 0
	for i := range max(len(got), len(want)) {
		var g, w string
		if i < len(got) {
			g = got[i]
		}
		if i < len(want) {
			w = want[i]
		}
		if g != w && shown < 5 {
			fmt.Fprintf(&b, "line %d: got %q, want %q\n", i+1, g, w)
			shown++
		}
	}
	return b.String()
}
