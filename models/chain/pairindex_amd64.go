//go:build !noasm && !gccgo && !safe

package chain

// pairScores is pairScoresGo in assembly. Its reads are safe because
// pairIndex.scores checked w and vals against the table, whose offsets and
// labels Restrict checked, and row has the model's K entries.
func pairScores(row, w []float64, attrs []int32, vals []float64, start []int32, label []uint8) {
	pairScoresAsm(row, w, attrs, vals, start, label)
}

// pairGradient is pairGradientGo in assembly, with pairScores's contract.
func pairGradient(grad []float64, attrs []int32, vals, d []float64, start []int32, label []uint8) {
	pairGradientAsm(grad, attrs, vals, d, start, label)
}

//go:noescape
func pairScoresAsm(row, w []float64, attrs []int32, vals []float64, start []int32, label []uint8)

//go:noescape
func pairGradientAsm(grad []float64, attrs []int32, vals, d []float64, start []int32, label []uint8)
