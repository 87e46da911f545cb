package trainers

import "github.com/maxmargin/repro/structpred"

// Test helpers for packedVec: reading a vector back, and its storage.

// Len returns the number of stored entries.
func (p *packedVec) Len() int { return len(p.i8) + len(p.i16) + len(p.f32) + len(p.f64) } // at most one is not empty

// Bytes returns the memory the entries take.
func (p *packedVec) Bytes() int {
	return 2*cap(p.gaps) + cap(p.i8) + 2*cap(p.i16) + 4*cap(p.f32) + 8*cap(p.f64)
}

// Unpack returns p as a SparseVec.
func (p *packedVec) Unpack() structpred.SparseVec {
	v := structpred.SparseVec{Idx: make([]int32, 0, p.Len()), Val: make([]float64, 0, p.Len())}
	p.each(func(i int32, x float64) {
		v.Idx = append(v.Idx, i)
		v.Val = append(v.Val, x)
	})
	return v
}

// each calls f on every entry in index order.
func (p *packedVec) each(f func(i int32, x float64)) {
	switch {
	case p.i8 != nil:
		eachPacked(p.gaps, p.i8, f)
	case p.i16 != nil:
		eachPacked(p.gaps, p.i16, f)
	case p.f32 != nil:
		eachPacked(p.gaps, p.f32, f)
	default:
		eachPacked(p.gaps, p.f64, f)
	}
}

func eachPacked[T packedValue](gaps []uint16, vals []T, f func(int32, float64)) {
	i, pos := int32(0), 0
	for _, x := range vals {
		var g int32
		g, pos = nextGap(gaps, pos)
		i += g
		f(i, float64(x))
	}
}
