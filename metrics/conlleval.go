package metrics

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// ChunkTally counts the chunks of one type (or of all types): in the truth,
// in the prediction, and predicted exactly (same first token, last token and
// type).
type ChunkTally struct {
	True, Pred, Correct int
}

// Precision returns Correct/Pred in percent, 0 when nothing was predicted
// (conlleval's convention).
func (t ChunkTally) Precision() float64 { return percent(t.Correct, t.Pred) }

// Recall returns Correct/True in percent, 0 when there is nothing to find.
func (t ChunkTally) Recall() float64 { return percent(t.Correct, t.True) }

// F1 returns the harmonic mean of precision and recall, 0 when both are 0.
func (t ChunkTally) F1() float64 {
	p, r := t.Precision(), t.Recall()
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

func percent(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return 100 * float64(a) / float64(b)
}

// ChunkCounts accumulates conlleval's statistics (the CoNLL-2000/2003 shared
// tasks' evaluation script, version 2004-01-26) over sentences; the zero
// value is ready to use and counts add up over sentences, so sentence
// subsets (a bootstrap) can be scored by summing per-sentence counts.
type ChunkCounts struct {
	Tokens      int                   // tokens scored
	CorrectTags int                   // tokens whose predicted tag equals the true one
	All         ChunkTally            // chunks of every type
	ByType      map[string]ChunkTally // per chunk type
}

// chunkTag is a tag split as conlleval splits it: at the first '-'.
type chunkTag struct{ prefix, typ string }

// splitChunkTag parses a tag for AddTags: "O" or B-, I- or E- with a type.
func splitChunkTag(s string) (chunkTag, error) {
	if s == "O" {
		return chunkTag{prefix: "O"}, nil
	}
	p, typ, ok := strings.Cut(s, "-")
	if !ok || typ == "" || (p != "B" && p != "I" && p != "E") {
		return chunkTag{}, fmt.Errorf("tag %q is not O, B-TYPE, I-TYPE or E-TYPE (convert IOBES tags to IOB2 first)", s)
	}
	return chunkTag{p, typ}, nil
}

// AddTags scores one sentence given its true and predicted tags, exactly as
// conlleval scores a sentence followed by a blank line. Tags are "O" or
// B-, I- or E-TYPE, split at the first '-'. conlleval's chunk rules (see
// chunkEnd and chunkStart) read IOB1, IOB2, IOE1 and IOE2 and any mix of
// them, but not IOBES (an S- tag never starts a chunk and E- then B- of one
// type does not split one): convert IOBES tags first (datasets.ConvertTags).
// A tag outside that form is an error and nothing is counted.
//
// A chunk counts as correct when both sequences start a chunk at the same
// token with the same type and both end it at the same token. The token
// accuracy compares whole tags, so with IOB1 input a B-/I- confusion is a
// token error even where the chunks agree.
func (c *ChunkCounts) AddTags(truth, pred []string) error {
	if len(truth) != len(pred) {
		return fmt.Errorf("truth has %d tags, prediction %d", len(truth), len(pred))
	}
	ts := make([]chunkTag, len(truth))
	ps := make([]chunkTag, len(pred))
	for i := range truth {
		var err error
		if ts[i], err = splitChunkTag(truth[i]); err != nil {
			return fmt.Errorf("truth token %d: %w", i, err)
		}
		if ps[i], err = splitChunkTag(pred[i]); err != nil {
			return fmt.Errorf("prediction token %d: %w", i, err)
		}
	}
	if c.ByType == nil {
		c.ByType = make(map[string]ChunkTally)
	}
	outside := chunkTag{prefix: "O"}
	lastT, lastP := outside, outside
	inCorrect := false // the chunk open in both is correct so far
	// One extra step with O on both sides is conlleval's sentence boundary:
	// it closes every open chunk and is not counted as a token.
	for i := 0; i <= len(ts); i++ {
		t, p := outside, outside
		if i < len(ts) {
			t, p = ts[i], ps[i]
		}
		endT, endP := chunkEnd(lastT, t), chunkEnd(lastP, p)
		if inCorrect {
			switch {
			case endT && endP && lastP.typ == lastT.typ:
				inCorrect = false
				c.countCorrect(lastT.typ)
			case endT != endP || p.typ != t.typ:
				inCorrect = false
			}
		}
		startT, startP := chunkStart(lastT, t), chunkStart(lastP, p)
		if startT && startP && p.typ == t.typ {
			inCorrect = true
		}
		if startT {
			c.All.True++
			c.tally(t.typ, func(x *ChunkTally) { x.True++ })
		}
		if startP {
			c.All.Pred++
			c.tally(p.typ, func(x *ChunkTally) { x.Pred++ })
		}
		if i < len(ts) {
			if t == p {
				c.CorrectTags++
			}
			c.Tokens++
		}
		lastT, lastP = t, p
	}
	return nil
}

func (c *ChunkCounts) countCorrect(typ string) {
	c.All.Correct++
	c.tally(typ, func(x *ChunkTally) { x.Correct++ })
}

func (c *ChunkCounts) tally(typ string, f func(*ChunkTally)) {
	x := c.ByType[typ]
	f(&x)
	c.ByType[typ] = x
}

// chunkEnd is conlleval's endOfChunk: whether a chunk ended between the
// previous and the current token.
func chunkEnd(prev, cur chunkTag) bool {
	switch prev.prefix + cur.prefix {
	case "BB", "BO", "IB", "IO", "EE", "EI", "EO":
		return true
	}
	return prev.prefix != "O" && prev.typ != cur.typ
}

// chunkStart is conlleval's startOfChunk: whether a chunk started between
// the previous and the current token.
func chunkStart(prev, cur chunkTag) bool {
	switch prev.prefix + cur.prefix {
	case "BB", "IB", "OB", "OI", "EE", "EI", "OE":
		return true
	}
	return cur.prefix != "O" && prev.typ != cur.typ
}

// AddLabels is AddTags for label ids: names[id] is the tag of label id.
func (c *ChunkCounts) AddLabels(truth, pred []int, names []string) error {
	tags := func(ids []int) ([]string, error) {
		out := make([]string, len(ids))
		for i, id := range ids {
			if id < 0 || id >= len(names) {
				return nil, fmt.Errorf("label %d outside the %d labels", id, len(names))
			}
			out[i] = names[id]
		}
		return out, nil
	}
	t, err := tags(truth)
	if err != nil {
		return fmt.Errorf("truth: %w", err)
	}
	p, err := tags(pred)
	if err != nil {
		return fmt.Errorf("prediction: %w", err)
	}
	return c.AddTags(t, p)
}

// Merge adds the counts of o to c.
func (c *ChunkCounts) Merge(o ChunkCounts) {
	c.Tokens += o.Tokens
	c.CorrectTags += o.CorrectTags
	c.All.True += o.All.True
	c.All.Pred += o.All.Pred
	c.All.Correct += o.All.Correct
	if len(o.ByType) > 0 && c.ByType == nil {
		c.ByType = make(map[string]ChunkTally, len(o.ByType))
	}
	for typ, x := range o.ByType {
		y := c.ByType[typ]
		y.True += x.True
		y.Pred += x.Pred
		y.Correct += x.Correct
		c.ByType[typ] = y
	}
}

// Accuracy returns the percentage of tokens whose tag was predicted exactly.
func (c *ChunkCounts) Accuracy() float64 { return percent(c.CorrectTags, c.Tokens) }

// TokenError returns 100 − Accuracy, the token error of Table 1; 0 when no
// token was scored.
func (c *ChunkCounts) TokenError() float64 {
	if c.Tokens == 0 {
		return 0
	}
	return 100 - c.Accuracy()
}

// Types returns the chunk types seen in the truth or the prediction, sorted
// as conlleval sorts them (by bytes).
func (c *ChunkCounts) Types() []string {
	out := make([]string, 0, len(c.ByType))
	for typ := range c.ByType {
		out = append(out, typ)
	}
	slices.Sort(out)
	return out
}

// WriteReport writes the counts in conlleval's own output format, so that a
// report can be compared with the script's line by line.
func (c *ChunkCounts) WriteReport(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "processed %d tokens with %d phrases; found: %d phrases; correct: %d.\n",
		c.Tokens, c.All.True, c.All.Pred, c.All.Correct)
	if c.Tokens > 0 {
		fmt.Fprintf(&b, "accuracy: %6.2f%%; precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f\n",
			c.Accuracy(), c.All.Precision(), c.All.Recall(), c.All.F1())
	}
	for _, typ := range c.Types() {
		x := c.ByType[typ]
		fmt.Fprintf(&b, "%17s: precision: %6.2f%%; recall: %6.2f%%; FB1: %6.2f  %d\n",
			typ, x.Precision(), x.Recall(), x.F1(), x.Pred)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
