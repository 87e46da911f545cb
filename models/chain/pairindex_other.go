//go:build !amd64 || noasm || gccgo || safe

package chain

func pairScores(row, w []float64, attrs []int32, vals []float64, start []int32, label []uint8) {
	pairScoresGo(row, w, attrs, vals, start, label)
}

func pairGradient(grad []float64, attrs []int32, vals, d []float64, start []int32, label []uint8) {
	pairGradientGo(grad, attrs, vals, d, start, label)
}
