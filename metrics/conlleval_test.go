package metrics

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

func tags(s string) []string { return strings.Fields(s) }

// report returns c's conlleval-format report.
func report(t *testing.T, c *ChunkCounts) string {
	t.Helper()
	var b strings.Builder
	if err := c.WriteReport(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// TestConllevalHandWorked scores sentences whose conlleval output is worked
// out by hand in the comments: the chunk starts and ends follow the
// script's startOfChunk and endOfChunk, and a chunk is correct when both
// sides start it at the same token with the same type and end it at the
// same token.
func TestConllevalHandWorked(t *testing.T) {
	for _, tc := range []struct {
		name        string
		truth, pred [][]string // sentences
		want        string
	}{
		{
			// B after I of the same type (IOB1): truth has two PER chunks,
			// [0,2) and [2,3) (I→B starts one); the prediction one, [0,3).
			// Both start PER at 0, but at 2 the truth ends (I,B) and the
			// prediction does not (I,I): not correct. Tags differ at 2 only:
			// accuracy 3/4.
			name:  "B after I of the same type",
			truth: [][]string{tags("I-PER I-PER B-PER O")},
			pred:  [][]string{tags("I-PER I-PER I-PER O")},
			want: "processed 4 tokens with 2 phrases; found: 1 phrases; correct: 0.\n" +
				"accuracy:  75.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n" +
				"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n",
		},
		{
			// I- after O: (O,I) starts a chunk like (O,B), so both sides have
			// LOC [1,3), ended by (I,O) on both: correct. The tags differ at
			// 1 (B-LOC against I-LOC): accuracy 3/4.
			name:  "I after O",
			truth: [][]string{tags("O B-LOC I-LOC O")},
			pred:  [][]string{tags("O I-LOC I-LOC O")},
			want: "processed 4 tokens with 1 phrases; found: 1 phrases; correct: 1.\n" +
				"accuracy:  75.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n" +
				"              LOC: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
		},
		{
			// Type change mid-chunk: I-ORG then I-PER ends ORG and starts PER
			// (types differ), so the prediction has ORG [0,2) and PER [2,3)
			// against the truth's ORG [0,3). Nothing correct; ORG found 1,
			// PER found 1 with no true PER (recall 0 by convention).
			name:  "type changes mid-chunk",
			truth: [][]string{tags("B-ORG I-ORG I-ORG O")},
			pred:  [][]string{tags("B-ORG I-ORG I-PER O")},
			want: "processed 4 tokens with 1 phrases; found: 2 phrases; correct: 0.\n" +
				"accuracy:  75.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n" +
				"              ORG: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n" +
				"              PER: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n",
		},
		{
			// Sentence boundaries: I-PER at the end of one sentence and at the
			// start of the next would be one chunk in one sentence; the
			// boundary ends the first and (O,I) starts the second. Both sides
			// agree: 2 of 2 correct, accuracy 4/4. In the third sentence the
			// prediction ends LOC early ((B,O) against (B,I)): not correct;
			// its tags differ at 1: 5/6 overall.
			name: "sentence boundaries",
			truth: [][]string{
				tags("O I-PER"), tags("I-PER O"), tags("B-LOC I-LOC"),
			},
			pred: [][]string{
				tags("O I-PER"), tags("I-PER O"), tags("B-LOC O"),
			},
			// PER: 2 true, 2 found, 2 correct. LOC: 1, 1, 0.
			// Overall P = R = 2/3 = 66.67, F1 66.67; accuracy 5/6 = 83.33.
			want: "processed 6 tokens with 3 phrases; found: 3 phrases; correct: 2.\n" +
				"accuracy:  83.33%; precision:  66.67%; recall:  66.67%; FB1:  66.67\n" +
				"              LOC: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n" +
				"              PER: precision: 100.00%; recall: 100.00%; FB1: 100.00  2\n",
		},
		{
			// IOE2 read directly: truth I E | E is NP [0,2) and NP [2,3)
			// ((E,E) ends and starts); the prediction I I E is one NP [0,3).
			// At 2 the truth ends (E,E), the prediction does not (I,E):
			// nothing correct. Tags differ at 1: accuracy 3/4.
			name:  "IOE",
			truth: [][]string{tags("I-NP E-NP E-NP O")},
			pred:  [][]string{tags("I-NP I-NP E-NP O")},
			want: "processed 4 tokens with 2 phrases; found: 1 phrases; correct: 0.\n" +
				"accuracy:  75.00%; precision:   0.00%; recall:   0.00%; FB1:   0.00\n" +
				"               NP: precision:   0.00%; recall:   0.00%; FB1:   0.00  1\n",
		},
		{
			// Hyphenated types split at the first '-' (conlleval since
			// 2004): B-X-Y is type X-Y. Both sides: one X-Y chunk, correct.
			name:  "hyphen in type",
			truth: [][]string{tags("B-X-Y I-X-Y")},
			pred:  [][]string{tags("B-X-Y I-X-Y")},
			want: "processed 2 tokens with 1 phrases; found: 1 phrases; correct: 1.\n" +
				"accuracy: 100.00%; precision: 100.00%; recall: 100.00%; FB1: 100.00\n" +
				"              X-Y: precision: 100.00%; recall: 100.00%; FB1: 100.00  1\n",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c ChunkCounts
			for i := range tc.truth {
				if err := c.AddTags(tc.truth[i], tc.pred[i]); err != nil {
					t.Fatal(err)
				}
			}
			if got := report(t, &c); got != tc.want {
				t.Errorf("report:\n%s\nwant:\n%s", got, tc.want)
			}
		})
	}
}

// TestConllevalIOBESConvertedFirst scores IOBES tags after converting them
// to IOB2, as the doc says. Truth S B E O is PER [0,1), PER [1,3); the
// prediction S S S O is PER [0,1), [1,2), [2,3). In IOB2: truth B B I O,
// prediction B B B O. [0,1) is correct ((B,B) ends both); [1,..) starts on
// both but at 2 only the prediction ends ((B,B) against (B,I)). So 1
// correct of 2 true and 3 found: P 33.33, R 50.00, F1 = 2·(1/3)(1/2)/(5/6)
// = 40.00. Tags differ at 2: accuracy 75.00. The raw IOBES tags are refused.
func TestConllevalIOBESConvertedFirst(t *testing.T) {
	truth, err := datasets.ConvertTags(tags("S-PER B-PER E-PER O"), datasets.IOBES, datasets.IOB2)
	if err != nil {
		t.Fatal(err)
	}
	pred, err := datasets.ConvertTags(tags("S-PER S-PER S-PER O"), datasets.IOBES, datasets.IOB2)
	if err != nil {
		t.Fatal(err)
	}
	var c ChunkCounts
	if err := c.AddTags(truth, pred); err != nil {
		t.Fatal(err)
	}
	want := "processed 4 tokens with 2 phrases; found: 3 phrases; correct: 1.\n" +
		"accuracy:  75.00%; precision:  33.33%; recall:  50.00%; FB1:  40.00\n" +
		"              PER: precision:  33.33%; recall:  50.00%; FB1:  40.00  3\n"
	if got := report(t, &c); got != want {
		t.Errorf("report:\n%s\nwant:\n%s", got, want)
	}
	var raw ChunkCounts
	if err := raw.AddTags(tags("S-PER O"), tags("S-PER O")); err == nil || !strings.Contains(err.Error(), "IOBES") {
		t.Errorf("raw IOBES: err = %v, want a pointer to converting IOBES", err)
	}
}

func TestConllevalErrorsCountNothing(t *testing.T) {
	for _, tc := range []struct{ truth, pred []string }{
		{tags("O B-X"), tags("O")},
		{tags("O X"), tags("O O")},
		{tags("O B-"), tags("O O")},
		{tags("O O"), tags("O Q-X")},
	} {
		var c ChunkCounts
		if err := c.AddTags(tc.truth, tc.pred); err == nil {
			t.Errorf("%q / %q: no error", tc.truth, tc.pred)
		}
		if c.Tokens != 0 || c.All != (ChunkTally{}) {
			t.Errorf("%q / %q: counted %+v after an error", tc.truth, tc.pred, c)
		}
	}
}

func TestConllevalEmpty(t *testing.T) {
	var c ChunkCounts
	if got, want := report(t, &c), "processed 0 tokens with 0 phrases; found: 0 phrases; correct: 0.\n"; got != want {
		t.Errorf("report %q, want %q", got, want)
	}
	if c.TokenError() != 0 || c.All.F1() != 0 {
		t.Errorf("empty counts: token error %v, F1 %v", c.TokenError(), c.All.F1())
	}
}

// randomTags draws n tags over types X and Y with the given prefixes.
func randomTags(rng *rand.Rand, n int, prefixes string) []string {
	out := make([]string, n)
	for i := range out {
		k := rng.IntN(1 + 2*len(prefixes))
		if k == 0 {
			out[i] = "O"
			continue
		}
		k--
		out[i] = string(prefixes[k/2]) + "-" + []string{"X", "Y"}[k%2]
	}
	return out
}

// TestConllevalIsExactChunkMatch checks the state machine against its
// meaning for IOB1/IOB2 tags: the correct chunks are those with the same
// (start, end, type) in the chunks datasets decodes from each side (which
// are conlleval's chunks), and per-sentence counts add up (Merge).
func TestConllevalIsExactChunkMatch(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var total, merged ChunkCounts
	for range 2000 {
		n := 1 + rng.IntN(8)
		truth, pred := randomTags(rng, n, "BI"), randomTags(rng, n, "BI")
		var c ChunkCounts
		if err := c.AddTags(truth, pred); err != nil {
			t.Fatal(err)
		}
		tc, _, err := datasets.IOB1.Decode(truth)
		if err != nil {
			t.Fatal(err)
		}
		pc, _, err := datasets.IOB1.Decode(pred)
		if err != nil {
			t.Fatal(err)
		}
		set := make(map[datasets.Chunk]bool)
		for _, ch := range tc {
			set[ch] = true
		}
		match := 0
		for _, ch := range pc {
			if set[ch] {
				match++
			}
		}
		if c.All != (ChunkTally{True: len(tc), Pred: len(pc), Correct: match}) {
			t.Fatalf("%q / %q: counts %+v, want %d true %d found %d correct", truth, pred, c.All, len(tc), len(pc), match)
		}
		if err := total.AddTags(truth, pred); err != nil {
			t.Fatal(err)
		}
		merged.Merge(c)
	}
	if report(t, &total) != report(t, &merged) {
		t.Errorf("merged per-sentence counts differ:\n%s\n%s", report(t, &total), report(t, &merged))
	}
}

func TestConllevalAddLabels(t *testing.T) {
	names := datasets.BIOLabels([]string{"LOC", "PER"}) // O B-LOC I-LOC B-PER I-PER
	var c ChunkCounts
	if err := c.AddLabels([]int{3, 4, 0, 1}, []int{3, 4, 0, 2}, names); err != nil {
		t.Fatal(err)
	}
	if c.All != (ChunkTally{True: 2, Pred: 2, Correct: 2}) || c.CorrectTags != 3 {
		t.Errorf("counts %+v, %d correct tags; want 2/2/2 and 3", c.All, c.CorrectTags)
	}
	if err := c.AddLabels([]int{5}, []int{0}, names); err == nil {
		t.Error("label 5 of 5: no error")
	}
}
