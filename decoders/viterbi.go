package decoders

// Viterbi returns argmax_y s(y), the lexicographically smallest one among
// ties. With a reused Workspace the only allocation is the returned labeling.
func Viterbi(c *Chain, ws *Workspace) Scored {
	c.check()
	ws = ws.orNew()
	return viterbi(c.N, c.K, c.Unary, c.trans(ws), ws)
}

// LossAugmented returns argmax_y s(y) + scale*cost.Loss(truth, y), the
// margin-scaling inference problem. Score is that augmented value (summed
// along the labeling, so it equals c.Score(y)+scale*cost.Loss(truth,y) up to
// rounding). Ties go to the lexicographically smallest labeling. It panics if
// truth is not a labeling of c or cost.K != c.K. With a reused Workspace the
// only allocation is the returned labeling.
func LossAugmented(c *Chain, truth []int, cost Cost, scale float64, ws *Workspace) Scored {
	c.check()
	cost.check(c, truth)
	ws = ws.orNew()
	return viterbi(c.N, c.K, cost.augment(c, truth, scale, ws), c.trans(ws), ws)
}

// viterbi runs a backward max-product pass and then decodes forwards, taking
// at each position the lowest label that still extends to an optimum. Going
// backwards first is what makes the tie-breaking lexicographic: forward
// back-pointers would settle ties from the last position instead.
func viterbi(n, k int, unary, trans []float64, ws *Workspace) Scored {
	if n == 0 {
		return Scored{Labels: []int{}}
	}
	// beta[t*k+y] = best score of positions t+1..n-1 given y_t = y.
	beta := grow(&ws.a, n*k)
	w := grow(&ws.tmp, k)
	clear(beta[(n-1)*k:])
	for t := n - 2; t >= 0; t-- {
		next := (t + 1) * k
		for y := range w {
			w[y] = unary[next+y] + beta[next+y]
		}
		for y := range k {
			beta[t*k+y] = maxPlus(trans[y*k:(y+1)*k], w)
		}
	}

	labels := make([]int, n)
	for y := range w {
		w[y] = unary[y] + beta[y]
	}
	labels[0] = argmaxPlus(nil, w)
	for t := 1; t < n; t++ {
		for y := range w {
			w[y] = unary[t*k+y] + beta[t*k+y]
		}
		p := labels[t-1]
		labels[t] = argmaxPlus(trans[p*k:(p+1)*k], w)
	}
	return Scored{Labels: labels, Score: pathScore(unary, trans, k, labels)}
}

// maxPlus returns max_i a[i]+b[i] (len(a) == len(b) ≥ 1).
func maxPlus(a, b []float64) float64 {
	b = b[:len(a)]
	best := a[0] + b[0]
	for i := 1; i < len(a); i++ {
		if v := a[i] + b[i]; v > best {
			best = v
		}
	}
	return best
}

// argmaxPlus returns the lowest i maximising a[i]+b[i]; a nil a counts as
// zeros.
func argmaxPlus(a, b []float64) int {
	bi := 0
	if a == nil {
		for i := 1; i < len(b); i++ {
			if b[i] > b[bi] {
				bi = i
			}
		}
		return bi
	}
	b = b[:len(a)]
	best := a[0] + b[0]
	for i := 1; i < len(a); i++ {
		if v := a[i] + b[i]; v > best {
			best, bi = v, i
		}
	}
	return bi
}
