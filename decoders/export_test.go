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
