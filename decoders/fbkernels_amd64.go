//go:build !noasm && !gccgo && !safe

package decoders

// mulVec is mulVecGo in SSE2. It checks the lengths the assembly relies on.
func mulVec(out, x, m, u []float64) {
	k := len(out)
	if len(x) < k || len(m) < k*k || len(u) != 0 && len(u) < k {
		panic("decoders: mulVec: short operands")
	}
	mulVecSSE2(out, x, m, u)
}

// addOuter is addOuterGo in SSE2.
func addOuter(edge, x, v []float64) {
	k := len(x)
	if len(v) < k || len(edge) < k*k {
		panic("decoders: addOuter: short operands")
	}
	addOuterSSE2(edge, x, v)
}

//go:noescape
func mulVecSSE2(out, x, m, u []float64)

//go:noescape
func addOuterSSE2(edge, x, v []float64)
