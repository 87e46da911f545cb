//go:build !amd64 || noasm || gccgo || safe

package chain

// sumRows is sumRowsGo for ids in [0, numAttrs); it reports false, and
// does nothing, unless rowsFit holds.
func sumRows(row, w []float64, attrs []int32, vals []float64, numAttrs int) bool {
	if !rowsFit(attrs, vals, numAttrs, len(row), len(w)) {
		return false
	}
	sumRowsGo(row, w, attrs, vals)
	return true
}

// addRows is addRowsGo for ids in [0, numAttrs); it reports false, and
// does nothing, unless rowsFit holds.
func addRows(grad []float64, attrs []int32, vals, d []float64, numAttrs int) bool {
	if !rowsFit(attrs, vals, numAttrs, len(d), len(grad)) {
		return false
	}
	addRowsGo(grad, attrs, vals, d)
	return true
}
