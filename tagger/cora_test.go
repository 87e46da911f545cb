package tagger

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// coraFixture writes n references in Cora's tagged format, whose words
// decide their fields.
func coraFixture(seed uint64, n int) string {
	rng := rand.New(rand.NewPCG(seed, 5))
	fields := []struct {
		tag   string
		words []string
	}{
		{"author", []string{"A.", "Smith,", "B.", "Jones,", "and"}},
		{"title", []string{"learning", "structured", "models", "with", "margins"}},
		{"journal", []string{"Journal", "of", "Machine", "Research,"}},
		{"date", []string{"1998.", "2004.", "(2008)."}},
	}
	var b strings.Builder
	for range n {
		b.WriteString("<NEWREFERENCE>\n")
		for k, f := range fields {
			if k == 2 && rng.IntN(2) == 0 {
				continue
			}
			fmt.Fprintf(&b, "<%s>", f.tag)
			for range 1 + rng.IntN(3) {
				b.WriteString(" " + f.words[rng.IntN(len(f.words))])
			}
			fmt.Fprintf(&b, " </%s> ", f.tag)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// TestCoraSequenceAndSegmentation trains both tasks on Cora-format text
// (detected as such, citation features by default), evaluates them on
// their training data (no error: the fixture is learnable) and tags bare
// tokens with plain labels.
func TestCoraSequenceAndSegmentation(t *testing.T) {
	t.Parallel()
	text := coraFixture(4, 40)
	d, err := ParseData(strings.NewReader(text), "refs.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Format.Kind != FormatCora {
		t.Fatalf("format %+v, want Cora", d.Format)
	}
	for _, task := range []string{Sequence, Segmentation} {
		m, _, err := Train(context.Background(), d, Options{Task: task, Trainer: "perceptron"})
		if err != nil {
			t.Fatal(err)
		}
		if m.Features.Kind != Citation || m.Task != task {
			t.Errorf("%s: features %q, task %q", task, m.Features.Kind, m.Task)
		}
		e, err := m.Evaluate(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		if e.TokenErrors != 0 || e.Spans.All.Correct != e.Spans.All.True || (task == Segmentation) != (e.Segments != nil) {
			t.Errorf("%s: %d token errors, spans %+v", task, e.TokenErrors, e.Spans.All)
		}
		out := tagText(t, m, "A.\nSmith,\nlearning\nmodels\n2004.\n")
		if got := columnOf(out, -1); !slices.Equal(got, []string{"author", "author", "title", "title", "date"}) {
			t.Errorf("%s: tagged %q", task, out)
		}
	}
}
