package decoders

// MPM returns the labeling of maximum posterior marginals of c: at every
// position t the label y that maximises P(y_t = y) under the Gibbs
// distribution P(y) = exp(s(y)) / Z, the lowest label among ties (Pletscher,
// Ong & Buhmann 2010, section 8.2: y_t* = argmax_{y_t} Σ_{y∖y_t} P(y)). It
// decides each position by its own marginal, so the labeling minimises the
// expected Hamming loss under P, and it need not be the MAP labeling nor
// score well as a whole (its transitions may even be improbable). With a
// reused Workspace the only allocation is the returned labeling.
func MPM(c *Chain, ws *Workspace) []int {
	ws = ws.orNew()
	mg := ForwardBackwardTo(&ws.mpm, c, ws)
	labels := make([]int, c.N)
	for t := range labels {
		row := mg.Node[t*c.K : (t+1)*c.K]
		best := 0
		for y, p := range row[1:] {
			if p > row[best] {
				best = y + 1
			}
		}
		labels[t] = best
	}
	return labels
}
