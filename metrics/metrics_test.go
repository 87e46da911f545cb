package metrics

import (
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func TestCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name         string
		truth, pred  [][]int
		tokErr, spF1 float64
	}{
		{"perfect", [][]int{{0, 0, 1, 2}}, [][]int{{0, 0, 1, 2}}, 0, 100},
		// truth spans (0,2,0) (2,3,1) (3,4,2); predicted (0,3,0) (3,4,2):
		// 1 token wrong, 1 of 2 predicted spans matches 1 of 3 true: F1 = 2/5.
		{"merged span", [][]int{{0, 0, 1, 2}}, [][]int{{0, 0, 0, 2}}, 25, 40},
		// One sequence right, one all wrong: micro-averaged over 4 tokens;
		// 3 true spans, 3 predicted, 1 match: F1 = 2/6.
		{"two sequences", [][]int{{1, 1}, {0, 1}}, [][]int{{1, 1}, {1, 0}}, 50, 2 * 1.0 / 6 * 100},
	}
	for _, tt := range tests {
		var c Counts
		for i := range tt.truth {
			if err := c.AddLabels(tt.truth[i], tt.pred[i]); err != nil {
				t.Fatal(err)
			}
		}
		if math.Abs(c.TokenError()-tt.tokErr) > 1e-12 || math.Abs(c.SpanF1()-tt.spF1) > 1e-12 {
			t.Errorf("%s: token error %v span F1 %v, want %v %v", tt.name, c.TokenError(), c.SpanF1(), tt.tokErr, tt.spF1)
		}
	}
	var c Counts
	if err := c.AddLabels([]int{1}, []int{1, 2}); err == nil {
		t.Error("length mismatch accepted")
	}
}

func TestAddSegments(t *testing.T) {
	t.Parallel()
	seg := func(a, b, y int) structpred.Segment { return structpred.Segment{Start: a, End: b, Label: y} }
	truth := []structpred.Segment{seg(0, 2, 1), seg(2, 3, 1), seg(3, 5, 0)}
	// Same labels per token, but the two adjacent label-1 segments merged:
	// no token error, and only 1 of 3 true / 2 predicted segments match.
	pred := []structpred.Segment{seg(0, 3, 1), seg(3, 5, 0)}
	var c Counts
	if err := c.AddSegments(truth, pred, 5); err != nil {
		t.Fatal(err)
	}
	if c.TokenError() != 0 || math.Abs(c.SpanF1()-100*2.0/5) > 1e-12 {
		t.Errorf("token error %v, span F1 %v; want 0 and 40", c.TokenError(), c.SpanF1())
	}
	for _, bad := range [][]structpred.Segment{
		{seg(0, 2, 1)},               // does not cover
		{seg(0, 3, 1), seg(2, 5, 0)}, // overlap
		{seg(0, 2, 1), seg(3, 5, 0)}, // gap
		{seg(0, 5, 1), seg(5, 6, 0)}, // past the end
	} {
		if err := c.AddSegments(truth, bad, 5); err == nil {
			t.Errorf("accepted %v", bad)
		}
	}
}

func ExampleCounts() {
	var c Counts
	_ = c.AddLabels([]int{0, 0, 1, 2}, []int{0, 0, 0, 2})
	fmt.Printf("token error %.1f%%, span F1 %.1f%%\n", c.TokenError(), c.SpanF1())
	// Output: token error 25.0%, span F1 40.0%
}

func TestSegmentError(t *testing.T) {
	t.Parallel()
	seg := func(a, b, y int) structpred.Segment { return structpred.Segment{Start: a, End: b, Label: y} }
	truth := []structpred.Segment{seg(0, 2, 1), seg(2, 3, 1), seg(3, 5, 0)}
	tests := []struct {
		name string
		pred []structpred.Segment
		loss float64 // worked out by hand from section 4.3.2, unit penalties
	}{
		{"perfect", truth, 0},
		// (0,3,1) is no true span: precision 1 + recall of the true segments
		// starting at 0 and 2 = 3; (3,5,0) matches.
		{"merged", []structpred.Segment{seg(0, 3, 1), seg(3, 5, 0)}, 3},
		// Right spans, one wrong label: misclassification cost 1.
		{"relabelled", []structpred.Segment{seg(0, 2, 1), seg(2, 3, 0), seg(3, 5, 0)}, 1},
		// One segment over all: precision 1 + 3 recall penalties.
		{"one segment", []structpred.Segment{seg(0, 5, 1)}, 4},
	}
	for _, tt := range tests {
		var c Counts
		if err := c.AddSegments(truth, tt.pred, 5); err != nil {
			t.Fatal(err)
		}
		want := 100 * tt.loss / float64(len(truth)+len(tt.pred))
		if c.SegmentLoss != tt.loss || math.Abs(c.SegmentError()-want) > 1e-12 {
			t.Errorf("%s: loss %v error %v, want %v %v", tt.name, c.SegmentLoss, c.SegmentError(), tt.loss, want)
		}
		if e := c.SegmentError(); e < 0 || e > 100 {
			t.Errorf("%s: error %v outside [0, 100]", tt.name, e)
		}
	}
	var empty Counts
	if empty.SegmentError() != 0 {
		t.Error("empty counts: nonzero segment error")
	}
}
