//go:build !noasm && !gccgo && !safe

package lbfgs

// axpyDot sets d += alpha·v and returns w·d (see axpyDotGo), in SSE2.
func axpyDot(d []float64, alpha float64, v, w []float64) float64 {
	n := len(d)
	return axpyDotSSE2(d, alpha, v[:n], w[:n])
}

//go:noescape
func axpyDotSSE2(d []float64, alpha float64, v, w []float64) float64

// newPair is newPairGo in SSE2.
func newPair(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	n := len(x)
	return newPairSSE2(s[:n], y[:n], dir[:n], x, xp[:n], g[:n], gp[:n])
}

// lastPass is lastPassGo in SSE2.
func lastPass(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	n := len(d)
	return lastPassSSE2(d, alpha, v[:n], g[:n], xt[:n], x[:n])
}

//go:noescape
func newPairSSE2(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64)

//go:noescape
func lastPassSSE2(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool)
