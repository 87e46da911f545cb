package chain

// denseFactor bounds the scratch of LogLossSum's dense evaluation: a model
// restricted to pairs is evaluated in the full attribute × label layout
// only while that layout is at most denseFactor times the model's weight
// vector, so that the two scratch vectors never cost more memory than
// 2·denseFactor weight vectors (CRF training keeps 2m + 4 = 16 of them at
// L-BFGS's default m = 6). On Cora the full layout is 9.3 times the seen
// pairs'.
const denseFactor = 16

// denseScratch is LogLossSum's full-layout copy of a restricted model's
// weights and its gradient there, for the pairs it was made for.
type denseScratch struct {
	pairs *Pairs
	w, g  []float64 // A·K (+ K²) each; w is 0 at every pair not listed
}

// LogLossSum returns Σ_i LogLoss(i, w, beta, lossScale, grad) over the
// training instances, summed in order, and adds their gradients into grad
// (a trainers.LogLossSummer). check, if not nil, is called before each
// instance, and its first error ends the sum and is returned.
//
// A model restricted to pairs (Restrict) is evaluated in the full layout
// when that is at most denseFactor times Dim: w is spread over an A·K
// table with zeros at the pairs not listed, the full model's loops (whole
// K-wide rows, in SIMD) score the instances and collect their gradients in
// that layout, and the listed pairs' entries are added into grad at the
// end. That forms the same sums in the same order as the pair loops of
// LogLoss: a score adds +0 where the pair loops add nothing, which changes
// no sum (a sum that starts at +0 is never −0), and each gradient entry is
// the same sequence of additions, from +0. So with grad zero on entry, as
// CRF training passes it, the result and the gradient are LogLoss's bit
// for bit; otherwise the gradient differs from theirs by the rounding of
// adding it last. The model keeps the two full-layout vectors for its
// next calls (each fork its own).
func (m *Model) LogLossSum(w []float64, beta, lossScale float64, grad []float64, check func(i int) error) (float64, error) {
	var sum float64
	dense := m.pairs != nil && Dim(m.attrs, m.k, m.edges) <= denseFactor*m.Dim()
	fw, fg := w, grad
	p := m.pairs
	if dense {
		fw, fg = m.spread(w, grad != nil)
		p = nil
	}
	for i, x := range m.data {
		if check != nil {
			if err := check(i); err != nil {
				return 0, err
			}
		}
		sum += m.logLoss(x, fw, beta, lossScale, fg, p)
	}
	if dense && grad != nil {
		m.gather(fg, grad)
	}
	return sum, nil
}

// spread returns w in the full layout and, if withGrad, a zeroed gradient
// in it.
func (m *Model) spread(w []float64, withGrad bool) (fw, fg []float64) {
	d, k := &m.dense, m.k
	n := Dim(m.attrs, k, m.edges)
	if d.pairs != m.pairs || len(d.w) != n {
		*d = denseScratch{pairs: m.pairs, w: make([]float64, n)}
	}
	pr := m.pairs
	for a := range m.attrs {
		row := d.w[a*k : (a+1)*k]
		for q := pr.Start[a]; q < pr.Start[a+1]; q++ {
			row[pr.Label[q]] = w[q]
		}
	}
	if m.edges {
		copy(d.w[m.attrs*k:], w[pr.Len():pr.Len()+k*k])
	}
	if !withGrad {
		return d.w, nil
	}
	if len(d.g) != n {
		d.g = make([]float64, n)
	} else {
		clear(d.g)
	}
	return d.w, d.g
}

// gather adds the listed pairs' and the transitions' entries of the
// full-layout gradient fg into grad.
func (m *Model) gather(fg, grad []float64) {
	k, pr := m.k, m.pairs
	for a := range m.attrs {
		row := fg[a*k : (a+1)*k]
		for q := pr.Start[a]; q < pr.Start[a+1]; q++ {
			grad[q] += row[pr.Label[q]]
		}
	}
	if m.edges {
		addTo(grad[pr.Len():pr.Len()+k*k], fg[m.attrs*k:])
	}
}
