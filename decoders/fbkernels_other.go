//go:build !amd64 || noasm || gccgo || safe

package decoders

func mulVec(out, x, m, u []float64) { mulVecGo(out, x, m, u) }

func addOuter(edge, x, v []float64) { addOuterGo(edge, x, v) }
