//go:build !noasm && !gccgo && !safe

package lbfgs

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// The assembly kernel computes what its Go version does, bit for bit, on
// every length's tail and on signed zeros.
func TestAxpyDotKernel(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for n := range 40 {
		d, v, w := make([]float64, n), make([]float64, n), make([]float64, n)
		for j := range n {
			d[j], v[j], w[j] = rng.NormFloat64(), rng.NormFloat64()*1e3, rng.NormFloat64()
			if j%5 == 0 {
				d[j], v[j] = math.Copysign(0, -1), 0
			}
		}
		d2 := slices.Clone(d)
		alpha := rng.NormFloat64()
		got, want := axpyDot(d, alpha, v, w), axpyDotGo(d2, alpha, v, w)
		if math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("n = %d: %v, Go %v", n, got, want)
		}
		for j := range d {
			if math.Float64bits(d[j]) != math.Float64bits(d2[j]) {
				t.Errorf("n = %d: d[%d] = %v, Go %v", n, j, d[j], d2[j])
			}
		}
	}
}

// The other assembly kernels compute what their Go versions do, bit for
// bit, including which elements of the trial point moved.
func TestPairAndLastPassKernels(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	vec := func(n int, zeroEvery int) []float64 {
		v := make([]float64, n)
		for j := range v {
			v[j] = rng.NormFloat64()
			if zeroEvery > 0 && j%zeroEvery == 0 {
				v[j] = math.Copysign(0, -1)
			}
		}
		return v
	}
	bitsEq := func(a, b []float64) bool {
		return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Float64bits(x) == math.Float64bits(y) })
	}
	for n := range 40 {
		x, xp, g, gp := vec(n, 3), vec(n, 0), vec(n, 4), vec(n, 0)
		s1, y1, d1 := make([]float64, n), make([]float64, n), make([]float64, n)
		s2, y2, d2 := make([]float64, n), make([]float64, n), make([]float64, n)
		a1, b1, c1 := newPair(s1, y1, d1, x, xp, g, gp)
		a2, b2, c2 := newPairGo(s2, y2, d2, x, xp, g, gp)
		if !bitsEq([]float64{a1, b1, c1}, []float64{a2, b2, c2}) || !bitsEq(s1, s2) || !bitsEq(y1, y2) || !bitsEq(d1, d2) {
			t.Errorf("n = %d: newPair differs from its Go version", n)
		}
		for _, still := range []int{-1, 0, n - 1} { // the one element that moves (-1: none)
			d, v := vec(n, 5), vec(n, 0)
			alpha := rng.NormFloat64()
			xs := vec(n, 0)
			for j := range d {
				if j != still {
					d[j], v[j] = 0, 0 // d[j] = −0, xt[j] = x[j]: unmoved
				}
			}
			dGo := slices.Clone(d)
			xt1, xt2 := make([]float64, n), make([]float64, n)
			p1, m1 := lastPass(d, alpha, v, g, xt1, xs)
			p2, m2 := lastPassGo(dGo, alpha, v, g, xt2, xs)
			if math.Float64bits(p1) != math.Float64bits(p2) || m1 != m2 || !bitsEq(d, dGo) || !bitsEq(xt1, xt2) {
				t.Errorf("n = %d, moved element %d: lastPass gave %v %v, Go %v %v", n, still, p1, m1, p2, m2)
			}
			if want := still >= 0 && still < n; m2 != want {
				t.Errorf("n = %d: moved %v with element %d moving", n, m2, still)
			}
		}
	}
}
