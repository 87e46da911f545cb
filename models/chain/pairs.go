package chain

import "fmt"

// Pairs restricts a model's state features to listed attribute–label
// pairs, as CRFsuite's default model keeps only the pairs seen in its
// training data: attribute a has weights for labels Label[Start[a]:Start[a+1]]
// (ascending), and pair j's weight is w[j]. Transitions follow the pairs,
// at w[len(Label) + y'·K + y]. A pair not listed has no feature: it
// contributes nothing to scores, feature vectors or gradients, as a weight
// held at 0 would in the full model.
type Pairs struct {
	Start []int32 // len A+1, nondecreasing from 0
	Label []int32
}

// SeenPairs returns the attribute–label pairs of the instances: a with y
// whenever attribute a occurs at a token labelled y (whatever its value).
func SeenPairs(data []Instance, numAttrs, k int) *Pairs {
	words := (k + 63) / 64
	seen := make([]uint64, numAttrs*words) // bit y of attribute a's words
	for _, x := range data {
		for t, attrs := range x.Attrs {
			y := x.Labels[t]
			for _, a := range attrs {
				if int(a) < numAttrs {
					seen[int(a)*words+y/64] |= 1 << (y % 64)
				}
			}
		}
	}
	p := &Pairs{Start: make([]int32, numAttrs+1)}
	for a := range numAttrs {
		for y := range k {
			if seen[a*words+y/64]&(1<<(y%64)) != 0 {
				p.Label = append(p.Label, int32(y))
			}
		}
		p.Start[a+1] = int32(len(p.Label))
	}
	return p
}

// Len returns the number of pairs: the state weights.
func (p *Pairs) Len() int { return len(p.Label) }

// Check reports a table that does not fit numAttrs attributes and k
// labels: Start's length and order, labels out of range or not ascending.
func (p *Pairs) Check(numAttrs, k int) error {
	if len(p.Start) != numAttrs+1 || p.Start[0] != 0 || int(p.Start[numAttrs]) != len(p.Label) {
		return fmt.Errorf("attribute–label pairs: %d offsets for %d attributes and %d pairs", len(p.Start), numAttrs, len(p.Label))
	}
	for a := range numAttrs {
		lo, hi := p.Start[a], p.Start[a+1]
		if hi < lo {
			return fmt.Errorf("attribute–label pairs: attribute %d: offsets %d > %d", a, lo, hi)
		}
		for j := lo; j < hi; j++ {
			if y := p.Label[j]; y < 0 || int(y) >= k || j > lo && y <= p.Label[j-1] {
				return fmt.Errorf("attribute–label pairs: attribute %d: labels %v not ascending in [0, %d)", a, p.Label[lo:hi], k)
			}
		}
	}
	return nil
}

// index returns the weight index of pair (a, y), or -1 if it is not listed.
func (p *Pairs) index(a int32, y int) int32 {
	lo, hi := p.Start[a], p.Start[a+1]
	for j := lo; j < hi; j++ {
		if l := p.Label[j]; l >= int32(y) {
			if l == int32(y) {
				return j
			}
			return -1
		}
	}
	return -1
}

// Restrict makes m's state features the pairs p only (nil: every
// attribute–label pair, the default), changing Dim and the layout of the
// weights. Call it before training or forking.
func (m *Model) Restrict(p *Pairs) error {
	if p != nil {
		if err := p.Check(m.attrs, m.k); err != nil {
			return err
		}
	}
	m.pairs, m.pairIdx = p, nil
	if p != nil && m.k <= 256 {
		m.pairIdx = newPairIndex(p, m.k)
	}
	return nil
}

// Pairs returns the model's attribute–label pairs (nil: all of them).
func (m *Model) Pairs() *Pairs { return m.pairs }

// DimPairs returns the length of the weight vector of a model restricted
// to p with k labels (a model file's reader checks its weights with it).
func DimPairs(p *Pairs, k int, edges bool) int {
	if edges {
		return p.Len() + k*k
	}
	return p.Len()
}

// transBase returns the index of the first transition weight.
func (m *Model) transBase() int { return transBase(m.pairs, m.attrs, m.k) }

// transBase returns the index of the first transition weight of a model
// with the pairs p (nil: all of numAttrs × k).
func transBase(p *Pairs, numAttrs, k int) int {
	if p != nil {
		return p.Len()
	}
	return numAttrs * k
}
