package metrics

import (
	"fmt"
	"math"
	"testing"
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

func ExampleCounts() {
	var c Counts
	_ = c.AddLabels([]int{0, 0, 1, 2}, []int{0, 0, 0, 2})
	fmt.Printf("token error %.1f%%, span F1 %.1f%%\n", c.TokenError(), c.SpanF1())
	// Output: token error 25.0%, span F1 40.0%
}
