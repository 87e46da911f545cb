package tagger

import (
	"context"
	"strings"
	"testing"

	"github.com/maxmargin/repro/metrics"
)

// TestEvaluateCountsByHand: on its own (exactly learnable) training data
// the model makes no error; relabelling one gold LOC chunk as ORG makes
// exactly one token error, one missed ORG and one spurious LOC, and
// nothing else changes.
func TestEvaluateCountsByHand(t *testing.T) {
	t.Parallel()
	text := nerFixture(3, 60, "iob2")
	m := trainText(t, text, Format{}, Options{})
	evaluate := func(text string) *Evaluation {
		d, err := ParseData(strings.NewReader(text), "test.txt", m.Format)
		if err != nil {
			t.Fatal(err)
		}
		e, err := m.Evaluate(context.Background(), d)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	clean := evaluate(text)
	if clean.TokenErrors != 0 || clean.Spans.All.Correct != clean.Spans.All.True || clean.Spans.All.Pred != clean.Spans.All.True || !clean.Chunked {
		t.Fatalf("on the training data: %d token errors, spans %+v, chunked %v", clean.TokenErrors, clean.Spans.All, clean.Chunked)
	}
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if strings.HasSuffix(l, " B-LOC") && !strings.HasSuffix(lines[i+1], " I-LOC") {
			lines[i] = strings.TrimSuffix(l, "B-LOC") + "B-ORG"
			break
		}
	}
	e := evaluate(strings.Join(lines, "\n"))
	want := func(typ string, dTrue, dPred, dCorrect int) {
		t.Helper()
		c, x := clean.Spans.ByType[typ], e.Spans.ByType[typ]
		if x != (metrics.ChunkTally{True: c.True + dTrue, Pred: c.Pred + dPred, Correct: c.Correct + dCorrect}) {
			t.Errorf("%s: %+v, want %+v with true %+d, pred %+d, correct %+d", typ, x, c, dTrue, dPred, dCorrect)
		}
	}
	want("LOC", -1, 0, -1)
	want("ORG", +1, 0, 0)
	want("PER", 0, 0, 0)
	if e.TokenErrors != 1 || e.Tokens != clean.Tokens || e.Sentences != clean.Sentences {
		t.Errorf("%d token errors in %d tokens, %d sentences; want 1 in %d, %d", e.TokenErrors, e.Tokens, e.Sentences, clean.Tokens, clean.Sentences)
	}
	var report strings.Builder
	if err := e.WriteReport(&report); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"token error:", "chunks (conlleval)", "LOC", "ORG", "PER"} {
		if !strings.Contains(report.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, report.String())
		}
	}
}
