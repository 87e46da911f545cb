package decoders

// Workspace holds scratch buffers that the decoders reuse across calls, so
// that hot loops do not allocate once the buffers have grown to the largest
// chain seen. A Workspace is not safe for concurrent use: keep one per
// goroutine. The zero value is ready to use, and every function also accepts a
// nil *Workspace, in which case it allocates fresh buffers.
type Workspace struct {
	zeros []float64 // K*K zero transition table for chains without one
	aug   []float64 // loss-augmented unaries
	a, b  []float64 // per-position tables (Viterbi backward pass, alpha/beta)
	tmp   []float64 // K-sized scratch rows
	tmp2  []float64

	// scaled forward-backward: per-position shifts and scale factors,
	// exponentiated unaries and transitions (and their transpose)
	shift, scale []float64
	eu, et, etT  []float64
	// the transition table et and etT were computed from
	etFor []float64

	// list-Viterbi entries, (t, y, rank) flattened
	lScore []float64
	lNext  []int32 // label at t+1 (-1 at the last position)
	lRank  []int32 // rank within the (t+1, next) list
	lCount []int32 // entries in each (t, y) list
	heads  []int32 // per-label merge cursors

	// LossCount tables
	lcTab  []float64
	lcLoss []int
	lcSuf  []int

	// MPM's marginals
	mpm Marginals
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
