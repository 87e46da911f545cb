//go:build !amd64 || noasm || gccgo || safe

package lbfgs

// axpyDot sets d += alpha·v and returns w·d.
func axpyDot(d []float64, alpha float64, v, w []float64) float64 { return axpyDotGo(d, alpha, v, w) }

func newPair(s, y, dir, x, xp, g, gp []float64) (sy, yy, sg float64) {
	return newPairGo(s, y, dir, x, xp, g, gp)
}

func lastPass(d []float64, alpha float64, v, g, xt, x []float64) (proj float64, moved bool) {
	return lastPassGo(d, alpha, v, g, xt, x)
}
