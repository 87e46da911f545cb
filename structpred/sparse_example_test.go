package structpred_test

import (
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

func ExampleSparseVec_Check() {
	ok := structpred.SparseVec{Idx: []int32{0, 3}, Val: []float64{1, 0.5}}
	bad := structpred.SparseVec{Idx: []int32{3, 0}, Val: []float64{1, 0.5}}
	fmt.Println(ok.Check(4))
	fmt.Println(bad.Check(4))
	// Output:
	// <nil>
	// feature indices not strictly increasing (0 after 3)
}
