//go:build !amd64 || noasm || gccgo || safe

package lbfgs

// axpyDot sets d += alpha·v and returns w·d.
func axpyDot(d []float64, alpha float64, v, w []float64) float64 { return axpyDotGo(d, alpha, v, w) }
