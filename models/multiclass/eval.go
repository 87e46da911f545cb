package multiclass

import (
	"fmt"
	"slices"

	"github.com/maxmargin/repro/decoders"
)

// The task's metrics: the error rate (%) and the average cost Δ, over the
// per-item outcomes (correct or not) that paired tests use.

// Outcomes reports for every item whether the predicted class is the true
// one.
func Outcomes(truth, pred []int) ([]bool, error) {
	if len(truth) != len(pred) {
		return nil, fmt.Errorf("%d true classes but %d predictions", len(truth), len(pred))
	}
	out := make([]bool, len(truth))
	for i, g := range truth {
		out[i] = g == pred[i]
	}
	return out, nil
}

// ErrorRate returns the percentage of items predicted wrongly (0 for no
// items).
func ErrorRate(truth, pred []int) (float64, error) {
	ok, err := Outcomes(truth, pred)
	if err != nil || len(ok) == 0 {
		return 0, err
	}
	wrong := 0
	for _, c := range ok {
		if !c {
			wrong++
		}
	}
	return 100 * float64(wrong) / float64(len(ok)), nil
}

// AverageCost returns the mean of Δ(truth_i, pred_i) under cost (a zero
// cost means 0/1, which makes it the error rate as a fraction); 0 for no
// items.
func AverageCost(cost decoders.Cost, truth, pred []int) (float64, error) {
	if len(truth) != len(pred) {
		return 0, fmt.Errorf("%d true classes but %d predictions", len(truth), len(pred))
	}
	if len(truth) == 0 {
		return 0, nil
	}
	if cost.M == nil {
		cost = decoders.Hamming(max(slices.Max(truth), slices.Max(pred)) + 1)
	}
	if err := cost.Validate(); err != nil {
		return 0, err
	}
	var sum float64
	for i, g := range truth {
		if g < 0 || g >= cost.K || pred[i] < 0 || pred[i] >= cost.K {
			return 0, fmt.Errorf("item %d: classes %d and %d, cost has %d", i, g, pred[i], cost.K)
		}
		sum += cost.M[g*cost.K+pred[i]]
	}
	return sum / float64(len(truth)), nil
}
