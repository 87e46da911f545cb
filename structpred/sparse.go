package structpred

import (
	"fmt"
	"math"
	"slices"
)

// SparseVec is a sparse vector with strictly increasing indices.
// The zero value is the empty vector.
type SparseVec struct {
	Idx []int32
	Val []float64
}

// Check reports a malformed vector over dim features: indices and values
// of different lengths, an index outside [0, dim), indices not strictly
// increasing, or a value that is not finite.
func (v SparseVec) Check(dim int) error {
	if len(v.Idx) != len(v.Val) {
		return fmt.Errorf("%d indices but %d values", len(v.Idx), len(v.Val))
	}
	for e, j := range v.Idx {
		switch {
		case j < 0 || int(j) >= dim:
			return fmt.Errorf("feature index %d outside [0, %d)", j, dim)
		case e > 0 && j <= v.Idx[e-1]:
			return fmt.Errorf("feature indices not strictly increasing (%d after %d)", j, v.Idx[e-1])
		case math.IsNaN(v.Val[e]) || math.IsInf(v.Val[e], 0):
			return fmt.Errorf("feature %d has value %v", j, v.Val[e])
		}
	}
	return nil
}

// Len returns the number of stored entries.
func (v SparseVec) Len() int { return len(v.Idx) }

// Dot returns v·w for a dense w.
func (v SparseVec) Dot(w []float64) float64 {
	var s float64
	for k, i := range v.Idx {
		s += v.Val[k] * w[i]
	}
	return s
}

// AddTo adds scale·v to the dense vector dst.
func (v SparseVec) AddTo(dst []float64, scale float64) {
	for k, i := range v.Idx {
		dst[i] += scale * v.Val[k]
	}
}

// SquaredNorm returns ‖v‖².
func (v SparseVec) SquaredNorm() float64 {
	var s float64
	for _, x := range v.Val {
		s += x * x
	}
	return s
}

// DotSparse returns v·u by merging the two sorted index lists.
func (v SparseVec) DotSparse(u SparseVec) float64 {
	var s float64
	i, j := 0, 0
	for i < len(v.Idx) && j < len(u.Idx) {
		switch {
		case v.Idx[i] < u.Idx[j]:
			i++
		case v.Idx[i] > u.Idx[j]:
			j++
		default:
			s += v.Val[i] * u.Val[j]
			i++
			j++
		}
	}
	return s
}

// Scaled returns a copy of v multiplied by s.
func (v SparseVec) Scaled(s float64) SparseVec {
	out := SparseVec{Idx: slices.Clone(v.Idx), Val: make([]float64, len(v.Val))}
	for k, x := range v.Val {
		out.Val[k] = s * x
	}
	return out
}

// IsFinite reports whether every stored value is finite.
func (v SparseVec) IsFinite() bool {
	for _, x := range v.Val {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}

// Accumulator collects (index, value) pairs, summing repeated indices, and
// compacts them into a SparseVec. It is reusable after Reset and is meant to
// be owned by one goroutine.
type Accumulator struct {
	idx []int32
	val []float64
}

// Add records value v at index i.
func (a *Accumulator) Add(i int32, v float64) {
	a.idx = append(a.idx, i)
	a.val = append(a.val, v)
}

// Reset empties the accumulator, keeping its storage.
func (a *Accumulator) Reset() {
	a.idx = a.idx[:0]
	a.val = a.val[:0]
}

// Vec returns the accumulated vector: indices sorted, duplicates summed and
// exact zeros dropped. The result owns fresh storage.
func (a *Accumulator) Vec() SparseVec {
	order := make([]int, len(a.idx))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(x, y int) int { return int(a.idx[x]) - int(a.idx[y]) })
	out := SparseVec{Idx: make([]int32, 0, len(order)), Val: make([]float64, 0, len(order))}
	for _, k := range order {
		i, v := a.idx[k], a.val[k]
		if n := len(out.Idx); n > 0 && out.Idx[n-1] == i {
			out.Val[n-1] += v
			continue
		}
		out.Idx = append(out.Idx, i)
		out.Val = append(out.Val, v)
	}
	// Drop entries that cancelled exactly (δf of positions labelled alike).
	w := 0
	for k := range out.Idx {
		if out.Val[k] != 0 {
			out.Idx[w], out.Val[w] = out.Idx[k], out.Val[k]
			w++
		}
	}
	out.Idx, out.Val = out.Idx[:w], out.Val[:w]
	return out
}
