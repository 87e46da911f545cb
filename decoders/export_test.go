package decoders

// Test hooks: the log-space pass and the rule that chooses between it and
// the scaled pass.

// MaxScaledRange is maxScaledRange.
const MaxScaledRange = maxScaledRange

// ForwardBackwardLog runs the log-space pass whatever the scores.
func ForwardBackwardLog(c *Chain) *Marginals {
	c.check()
	ws := new(Workspace)
	dst := &Marginals{Node: make([]float64, c.N*c.K), Edge: make([]float64, c.K*c.K)}
	if c.N > 0 {
		forwardBackwardLog(dst, c, c.trans(ws), ws)
	}
	return dst
}

// ScaledApplies reports whether ForwardBackward takes the scaled pass on c.
func ScaledApplies(c *Chain) bool {
	ws := new(Workspace)
	_, ok := scaledRangeOK(c.Unary, c.trans(ws), c.N, c.K, ws)
	return c.N > 0 && ok
}

// KBestWith runs the k-best decoder on c with the one-scan 2-best lists
// (m = 2 only) or the general merges.
func KBestWith(c *Chain, m int, top2 bool) []Scored {
	c.check()
	ws := new(Workspace)
	return kbestWith(c.N, c.K, m, c.Unary, c.trans(ws), ws, top2)
}
