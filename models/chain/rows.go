package chain

import "gonum.org/v1/gonum/floats"

// A token's emission scores sum one K-wide row of w per attribute, and its
// gradient adds one K-wide row per attribute: with Cora's 13 labels and
// about 23 attributes a token, one gonum call per row was mostly call
// overhead. sumRows and addRows do a token's rows in one call (in SSE2 on
// amd64, holding the output, or the added row, in registers), forming every
// element by the same operations in the same order as those calls, so
// results are bit for bit the same. sumRowsGo and addRowsGo are the calls
// as they were: the reference the kernels are tested against, and the code
// on other architectures.

// rowsFit reports whether the rows of attrs lie in a table of numAttrs
// rows of k: every id in [0, numAttrs), numAttrs·k ≤ n, values (unless
// nil) one per id. sumRows and addRows do nothing unless it holds.
func rowsFit(attrs []int32, vals []float64, numAttrs, k, n int) bool {
	if numAttrs*k > n || vals != nil && len(vals) != len(attrs) {
		return false
	}
	for _, a := range attrs {
		if uint32(a) >= uint32(numAttrs) {
			return false
		}
	}
	return true
}

// sumRowsGo sets row = Σ_j vals[j]·w[a_j·k : a_j·k+k] over a_j = attrs[j],
// k = len(row), starting from +0 and adding in order of j; nil vals means
// every value 1 (each row added as it is).
func sumRowsGo(row, w []float64, attrs []int32, vals []float64) {
	k := len(row)
	clear(row)
	for j, a := range attrs {
		// SIMD adds round as scalar ones: 1·v is exact, and s·v is
		// rounded before it is added (no fused multiply-add).
		if vals == nil {
			floats.Add(row, w[int(a)*k:int(a)*k+k])
			continue
		}
		floats.AddScaled(row, vals[j], w[int(a)*k:int(a)*k+k])
	}
}

// addRowsGo adds vals[j]·d into grad[a_j·k : a_j·k+k] for each a_j =
// attrs[j] in order, k = len(d); nil vals means every value 1 (d added as
// it is). Each product is rounded before its add.
func addRowsGo(grad []float64, attrs []int32, vals, d []float64) {
	k := len(d)
	for j, a := range attrs {
		if vals == nil {
			floats.Add(grad[int(a)*k:int(a)*k+k], d)
			continue
		}
		s, row := vals[j], grad[int(a)*k:int(a)*k+k]
		for y, v := range d {
			row[y] += s * v
		}
	}
}
