package semimarkov

import "github.com/maxmargin/repro/structpred"

// Workspace holds scratch buffers that the decoders reuse across calls, so
// that hot loops do not allocate once the buffers have grown to the largest
// problem seen. A Workspace is not safe for concurrent use: keep one per
// goroutine. The zero value is ready to use, and every function also accepts a
// nil *Workspace, in which case it allocates fresh buffers.
type Workspace struct {
	zeros []float64 // (K+1)*K zero transition table for scores without one
	loss  []float64 // per-segment losses, laid out like Unary
	aug   []float64 // loss-augmented unaries

	// truth index: label and end of the true segment starting at each token
	tLabel, tEnd []int32

	// backward pass: h[i*K+y], b[i*(K+1)+p] and their back-pointers
	h, b        []float64
	next, first []int32
	segs        []structpred.Segment // decoding scratch

	// LossCount tables
	lcH, lcB []float64
	lcLoss   []int
	lcSuf    []int
}

// orNew returns w, or a fresh Workspace if w is nil.
func (w *Workspace) orNew() *Workspace {
	if w == nil {
		return new(Workspace)
	}
	return w
}

// grow returns (*buf)[:n], reallocating only when the capacity is too small.
// The contents are unspecified.
func grow[T any](buf *[]T, n int) []T {
	if cap(*buf) < n {
		*buf = make([]T, n)
	}
	return (*buf)[:n]
}
