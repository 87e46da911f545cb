package structpred

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
)

func TestAccumulatorCompacts(t *testing.T) {
	t.Parallel()
	var a Accumulator
	for _, p := range []struct {
		i int32
		v float64
	}{{5, 1}, {2, 2}, {5, -1}, {9, 0.5}, {2, 1}, {0, 3}} {
		a.Add(p.i, p.v)
	}
	v := a.Vec()
	// Index 5 cancels exactly and must disappear; 2 sums to 3.
	if want := []int32{0, 2, 9}; !slices.Equal(v.Idx, want) {
		t.Fatalf("Idx = %v, want %v", v.Idx, want)
	}
	if want := []float64{3, 3, 0.5}; !slices.Equal(v.Val, want) {
		t.Fatalf("Val = %v, want %v", v.Val, want)
	}
	a.Reset()
	if got := a.Vec(); got.Len() != 0 {
		t.Errorf("after Reset: %v", got)
	}
}

func TestSparseVecOps(t *testing.T) {
	t.Parallel()
	u := SparseVec{Idx: []int32{0, 3, 4}, Val: []float64{1, 2, -1}}
	v := SparseVec{Idx: []int32{1, 3, 4, 7}, Val: []float64{5, 3, 2, 1}}
	w := []float64{1, 1, 1, 2, 3, 0, 0, 1}
	dense := func(s SparseVec) []float64 {
		d := make([]float64, len(w))
		s.AddTo(d, 1)
		return d
	}
	var dd float64
	du, dv := dense(u), dense(v)
	for i := range du {
		dd += du[i] * dv[i]
	}
	tests := []struct {
		name      string
		got, want float64
	}{
		{"Dot", u.Dot(w), 1 + 4 - 3},
		{"DotSparse", u.DotSparse(v), dd},
		{"DotSparse symmetric", v.DotSparse(u), dd},
		{"SquaredNorm", u.SquaredNorm(), 6},
		{"Scaled", u.Scaled(-2).Dot(w), -2 * u.Dot(w)},
	}
	for _, tt := range tests {
		if math.Abs(tt.got-tt.want) > 1e-12 {
			t.Errorf("%s = %v, want %v", tt.name, tt.got, tt.want)
		}
	}
	if u.Scaled(2).Val[0] != 2 || u.Val[0] != 1 {
		t.Error("Scaled must copy, not modify")
	}
	if !u.IsFinite() || (SparseVec{Idx: []int32{0}, Val: []float64{math.NaN()}}).IsFinite() {
		t.Error("IsFinite wrong")
	}
	c := Constraint{A: u, B: 5}
	if got := c.Violation(w); got != 5-u.Dot(w) {
		t.Errorf("Violation = %v", got)
	}
}

func TestSegmentsFromLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		labels []int
		want   []Segment
	}{
		{nil, nil},
		{[]int{4}, []Segment{{0, 1, 4}}},
		{[]int{1, 1, 2, 1}, []Segment{{0, 2, 1}, {2, 3, 2}, {3, 4, 1}}},
	}
	for _, tt := range tests {
		if got := SegmentsFromLabels(tt.labels); !slices.Equal(got, tt.want) {
			t.Errorf("SegmentsFromLabels(%v) = %v, want %v", tt.labels, got, tt.want)
		}
	}
}

func ExampleAccumulator() {
	// δf of a labelling that differs from the truth at one token with
	// attributes 0 and 2 (two labels, so weight index = attr*2 + label).
	var a Accumulator
	for _, attr := range []int32{0, 2} {
		a.Add(attr*2+0, +1) // truth label 0
		a.Add(attr*2+1, -1) // predicted label 1
	}
	v := a.Vec()
	fmt.Println(v.Idx, v.Val)
	// Output: [0 1 4 5] [1 -1 1 -1]
}

func TestSparseVecCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		v    SparseVec
		dim  int
		want string // "" for a valid vector, else a fragment of the error
	}{
		{"empty", SparseVec{}, 0, ""},
		{"valid", SparseVec{Idx: []int32{0, 2, 4}, Val: []float64{1, -2, 0}}, 5, ""},
		{"lengths", SparseVec{Idx: []int32{0, 1}, Val: []float64{1}}, 5, "2 indices but 1 values"},
		{"negative index", SparseVec{Idx: []int32{-1}, Val: []float64{1}}, 5, "feature index -1 outside [0, 5)"},
		{"index at dim", SparseVec{Idx: []int32{1, 5}, Val: []float64{1, 1}}, 5, "feature index 5 outside [0, 5)"},
		{"repeated index", SparseVec{Idx: []int32{2, 2}, Val: []float64{1, 1}}, 5, "not strictly increasing (2 after 2)"},
		{"decreasing", SparseVec{Idx: []int32{3, 1}, Val: []float64{1, 1}}, 5, "not strictly increasing (1 after 3)"},
		{"NaN", SparseVec{Idx: []int32{0, 3}, Val: []float64{1, math.NaN()}}, 5, "feature 3 has value NaN"},
		{"infinite", SparseVec{Idx: []int32{1}, Val: []float64{math.Inf(-1)}}, 5, "feature 1 has value -Inf"},
	} {
		err := tc.v.Check(tc.dim)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v, want no error", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}
