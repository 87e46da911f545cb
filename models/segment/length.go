package segment

import (
	"fmt"
	"math"
	"slices"

	"github.com/maxmargin/repro/structpred"
)

// MaxSegmentLength chooses the decoders' maximum segment length L from the
// training data: the smallest L such that at least a fraction quantile of
// all training segments are at most L tokens long (quantile = 1 gives the
// longest training segment), then capped at limit if limit > 0. The result is
// at least 1 (also for data without segments). Training segments longer than
// the result are kept by New and counted by Model.LongSegments. It returns an
// error unless 0 < quantile ≤ 1.
func MaxSegmentLength(train []Instance, quantile float64, limit int) (int, error) {
	if !(quantile > 0 && quantile <= 1) {
		return 0, fmt.Errorf("segment length quantile must be in (0, 1], got %v", quantile)
	}
	var lens []int
	for _, x := range train {
		for _, g := range x.Segments {
			lens = append(lens, g.Len())
		}
	}
	l := 1
	if len(lens) > 0 {
		slices.Sort(lens)
		// The smallest index j with (j+1)/len ≥ quantile; the small
		// tolerance keeps e.g. 0.9·10 from rounding up to 10.
		j := int(math.Ceil(quantile*float64(len(lens))-1e-9)) - 1
		l = max(1, lens[max(0, j)])
	}
	if limit > 0 {
		l = min(l, limit)
	}
	return l, nil
}

// TokenLabels returns the label each of n tokens receives from segs (the
// per-token labelling a segmentation induces, for token error). Tokens no
// segment covers get -1; segment parts outside [0, n) are ignored.
func TokenLabels(segs []structpred.Segment, n int) []int {
	return tokenLabelsInto(nil, segs, n)
}
