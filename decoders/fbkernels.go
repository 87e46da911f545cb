package decoders

import "gonum.org/v1/gonum/floats"

// The scaled forward-backward pass spends its time in two K×K products per
// position: a vector times the exponentiated transitions, and the rank-one
// update of the edge sums. They were K calls each to gonum's axpy, one per
// row; mulVec and addOuter do each in one call (in SSE2 on amd64, holding
// the output in registers), forming every element by the same operations
// in the same order as those calls, so the results are bit for bit the
// same. mulVecGo and addOuterGo are those calls, the pass as it was: the
// reference the kernels are tested against, and the code on other
// architectures.

// mulVecGo sets out[y] = (Σ_p x[p]·m[p·k+y])·u[y] for y, p < k = len(out),
// the sum starting at +0 and adding each product x[p]·m[p·k+y], rounded, in
// order of p; an empty u multiplies by nothing. A zero x[p] is skipped,
// which changes nothing where x and m are finite and nonnegative, as in
// the pass.
func mulVecGo(out, x, m, u []float64) {
	k := len(out)
	clear(out)
	for p, a := range x[:k] {
		if a == 0 {
			continue
		}
		// SIMD axpy: a multiply, then an add, per element, as the scalar
		// loop rounds them (no fused multiply-add).
		floats.AddScaled(out, a, m[p*k:(p+1)*k])
	}
	if len(u) == 0 {
		return
	}
	for y := range out {
		out[y] *= u[y]
	}
}

// addOuterGo adds x[a]·v[b] to edge[a·k+b] for a, b < k = len(x), each
// product rounded before its add; a zero x[a] is skipped, as in mulVecGo.
func addOuterGo(edge, x, v []float64) {
	k := len(x)
	for a, p := range x {
		if p == 0 {
			continue
		}
		floats.AddScaled(edge[a*k:(a+1)*k], p, v[:k])
	}
}
