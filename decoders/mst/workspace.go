package mst

// Workspace holds scratch buffers that the decoders reuse across calls, so
// that once they have grown to the longest sentence seen the only allocation
// of a decode is its result. A Workspace is not safe for concurrent use:
// keep one per goroutine. The zero value is ready to use, and every function
// also accepts a nil *Workspace, in which case it allocates fresh buffers.
type Workspace struct {
	table []float64 // working copy of the score table (augmented, arcs disabled)

	// Chu-Liu/Edmonds: scores, root-count keys and original arcs of the
	// current (contracted) graph, stride 2(N+1)
	w      []float64
	key    []int32
	arc    []int32
	best   []int32 // best incoming neighbour of each live node
	parent []int32 // contraction forest: the supernode a node was merged into
	enter  []int32 // original dependent of the arc entering a node, on expansion
	color  []int32
	live   []int32
	cyc    []int32 // cycle members of all contractions, flattened
	cycArc []int32 // their cycle arcs (original arc index)
	cycOff []int32 // start of each contraction in cyc
	first  []int32 // best before any contraction, of the last full cleDecode

	// Eisner: complete/incomplete spans headed left/right, and their splits
	span  [4][]float64
	split [4][]int32
	stack []int32
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
