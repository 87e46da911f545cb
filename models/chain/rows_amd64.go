//go:build !noasm && !gccgo && !safe

package chain

// sumRows is sumRowsGo in SSE2 for ids in [0, numAttrs); it reports false,
// and does nothing, unless rowsFit holds (which is what makes the
// assembly's reads safe).
func sumRows(row, w []float64, attrs []int32, vals []float64, numAttrs int) bool {
	if !rowsFit(attrs, vals, numAttrs, len(row), len(w)) {
		return false
	}
	sumRowsSSE2(row, w, attrs, vals)
	return true
}

// addRows is addRowsGo in SSE2, with sumRows's contract.
func addRows(grad []float64, attrs []int32, vals, d []float64, numAttrs int) bool {
	if !rowsFit(attrs, vals, numAttrs, len(d), len(grad)) {
		return false
	}
	addRowsSSE2(grad, attrs, vals, d)
	return true
}

//go:noescape
func sumRowsSSE2(row, w []float64, attrs []int32, vals []float64)

//go:noescape
func addRowsSSE2(grad []float64, attrs []int32, vals, d []float64)
