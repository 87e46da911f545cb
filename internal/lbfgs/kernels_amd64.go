//go:build !noasm && !gccgo && !safe

package lbfgs

// axpyDot sets d += alpha·v and returns w·d (see axpyDotGo), in SSE2.
func axpyDot(d []float64, alpha float64, v, w []float64) float64 {
	n := len(d)
	return axpyDotSSE2(d, alpha, v[:n], w[:n])
}

//go:noescape
func axpyDotSSE2(d []float64, alpha float64, v, w []float64) float64
