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

	// KBest lists, (boundary, label, rank) flattened: H(i, y) and B(i, p)
	// entries with their back-pointers, list lengths and merge cursors
	khScore, kbScore []float64
	khLen, khRank    []int32
	kbNext, kbRank   []int32
	khCount, kbCount []int32
	kHeads, kLeft    []int32   // merge cursors and entries left in each list
	kVals            []float64 // the value of each list head
	kEnds            []int     // end of each decoded segmentation in segs
	kTotal           []int     // segmentation counts of prefixes, to bound k

	// ForwardBackward tables (both passes), scratch rows, the log-space
	// pass's factored transition sums, and the scaled pass's potential and
	// exponentiated transitions
	fbAlpha, fbEnter, fbH, fbBeta   []float64
	fbMax, fbSum                    []float64
	fbLabels                        labelSums
	fbPhi, fbInv, fbTrans, fbTransT []float64
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
