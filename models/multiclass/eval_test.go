package multiclass_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/multiclass"
)

func TestMetrics(t *testing.T) {
	t.Parallel()
	synth := decoders.Cost{K: 3, M: []float64{0, 1, 1, 1, 0, 0.1, 1, 0.1, 0}}
	tests := []struct {
		name        string
		truth, pred []int
		cost        decoders.Cost
		errRate     float64
		avgCost     float64
		outcomes    []bool
	}{
		{"empty", nil, nil, decoders.Cost{}, 0, 0, []bool{}},
		{"0/1", []int{0, 1, 2, 2}, []int{0, 2, 2, 0}, decoders.Cost{}, 50, 0.5, []bool{true, false, true, false}},
		{"costs", []int{0, 1, 2, 2}, []int{0, 2, 2, 0}, synth, 50, (0.1 + 1) / 4, []bool{true, false, true, false}},
		{"all wrong", []int{1, 2}, []int{2, 1}, synth, 100, 0.1, []bool{false, false}},
	}
	for _, tt := range tests {
		e, err := multiclass.ErrorRate(tt.truth, tt.pred)
		if err != nil || e != tt.errRate {
			t.Errorf("%s: ErrorRate = %v, %v; want %v", tt.name, e, err, tt.errRate)
		}
		c, err := multiclass.AverageCost(tt.cost, tt.truth, tt.pred)
		if err != nil || math.Abs(c-tt.avgCost) > 1e-15 {
			t.Errorf("%s: AverageCost = %v, %v; want %v", tt.name, c, err, tt.avgCost)
		}
		o, err := multiclass.Outcomes(tt.truth, tt.pred)
		if err != nil || !slices.Equal(o, tt.outcomes) {
			t.Errorf("%s: Outcomes = %v, %v; want %v", tt.name, o, err, tt.outcomes)
		}
	}
	for _, bad := range []struct {
		truth, pred []int
		cost        decoders.Cost
		want        string
	}{
		{[]int{0}, []int{0, 1}, decoders.Cost{}, "1 true classes but 2 predictions"},
		{[]int{0, 3}, []int{0, 1}, synth, "item 1: classes 3 and 1, cost has 3"},
		{[]int{0}, []int{0}, decoders.Cost{K: 2, M: []float64{1, 0, 0, 0}}, "diagonal"},
	} {
		if _, err := multiclass.AverageCost(bad.cost, bad.truth, bad.pred); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("AverageCost(%v, %v) error %v, want %q", bad.truth, bad.pred, err, bad.want)
		}
	}
	if _, err := multiclass.ErrorRate([]int{0}, nil); err == nil {
		t.Error("ErrorRate of unequal lengths: no error")
	}
}
