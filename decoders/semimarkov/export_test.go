package semimarkov

// Test hooks: the log-space pass and the rule that chooses between it and
// the scaled pass.

// MaxScaledRange is maxScaledRange.
const MaxScaledRange = maxScaledRange

// ScaledRange returns scaledRange's R + ln(K·L) for s, which is exact while
// it is at most MaxScaledRange (scaledRange stops counting beyond); 0 for
// N = 0.
func ScaledRange(s *Scores) float64 {
	s.check()
	if s.N == 0 {
		return 0
	}
	ws := new(Workspace)
	r, _ := scaledRange(s.N, s.K, s.L, s.Unary, s.trans(ws), ws)
	return r
}

// ScaledApplies reports whether ForwardBackward takes the scaled pass on s.
func ScaledApplies(s *Scores) bool {
	return s.N > 0 && ScaledRange(s) <= maxScaledRange
}

// ForwardBackwardLog runs the log-space pass whatever the scores.
func ForwardBackwardLog(s *Scores) *Posteriors {
	s.check()
	ws := new(Workspace)
	dst := &Posteriors{N: s.N, K: s.K, L: s.L, Segment: make([]float64, s.N*s.L*s.K), Trans: make([]float64, (s.K+1)*s.K)}
	if s.N > 0 {
		forwardBackwardLog(dst, s.N, s.K, s.L, s.Unary, s.trans(ws), ws)
	}
	return dst
}
