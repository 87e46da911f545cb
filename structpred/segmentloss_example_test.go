package structpred_test

import (
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// The section 4.3.2 loss of a prediction that merges two true segments of
// three tokens: one segment not among the true ones (precision 1) into
// which both true segments start (recall 1 each).
func ExampleSegmentLoss_Of() {
	truth := []structpred.Segment{{Start: 0, End: 2, Label: 0}, {Start: 2, End: 3, Label: 1}}
	pred := []structpred.Segment{{Start: 0, End: 3, Label: 0}}
	fmt.Println(structpred.DefaultSegmentLoss(2).Of(truth, pred))
	fmt.Println(structpred.CheckTree([]int{-1, 2, 1}))
	// Output:
	// 3
	// no word attaches to the root
}
