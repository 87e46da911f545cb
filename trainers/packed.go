package trainers

import (
	"math"

	"github.com/maxmargin/repro/structpred"
)

// packedVec is a read-only sparse vector stored compactly, for the vectors
// the one-slack solver keeps for many iterations: its per-instance caches
// and its joint constraints, which held most of a parsing or CoNLL'03
// unit's memory as structpred.SparseVec (12 bytes an entry). An index is
// stored as its gap from the previous one in a uint16 (two for a gap of
// 32,768 or more), and values in the narrowest of int8, int16,
// float32 and float64 that holds every one of them exactly: differences of
// indicator features are small integers. So an entry takes 3 bytes where
// SparseVec takes 12, at the same speed (uvarint gaps took 2.6 bytes but
// doubled the solver's time). Dot, AddTo and SquaredNorm visit the entries
// in index order with the same float64 arithmetic as SparseVec's, so
// results are bit-identical to it. Each operation switches on the value
// kind once and runs a loop specialised to it: a per-entry callback would
// slow the solver's hottest loops.
type packedVec struct {
	gaps []uint16
	i8   []int8
	i16  []int16
	f32  []float32
	f64  []float64
}

// valueKind is the narrowest exact storage of a vector's values.
type valueKind int

const (
	kindInt8 valueKind = iota
	kindInt16
	kindFloat32
	kindFloat64
)

// kindOf returns the narrowest kind that holds x exactly. Negative zero is
// kept as a float, since an integer would turn it into +0.
func kindOf(x float64) valueKind {
	integer := x == math.Trunc(x) && !(x == 0 && math.Signbit(x))
	switch {
	case integer && x >= math.MinInt8 && x <= math.MaxInt8:
		return kindInt8
	case integer && x >= math.MinInt16 && x <= math.MaxInt16:
		return kindInt16
	case float64(float32(x)) == x:
		return kindFloat32
	}
	return kindFloat64 // NaN lands here too: NaN ≠ NaN
}

// packVec packs v, reusing dst's storage.
func packVec(dst *packedVec, v structpred.SparseVec) {
	kind, slots, prev := kindInt8, 0, int32(0)
	for k, i := range v.Idx {
		kind = max(kind, kindOf(v.Val[k]))
		slots += gapSlots(i - prev)
		prev = i
	}
	dst.reset(kind, len(v.Idx), slots)
	prev = 0
	for k, i := range v.Idx {
		dst.gaps = appendGap(dst.gaps, i-prev)
		prev = i
		dst.appendValue(kind, v.Val[k])
	}
}

// packDense packs the entries of dense at the increasing indices idx that
// are not zero.
func packDense(dst *packedVec, dense []float64, idx []int32) {
	kind, n, slots, prev := kindInt8, 0, 0, int32(0)
	for _, i := range idx {
		if x := dense[i]; x != 0 {
			kind = max(kind, kindOf(x))
			slots += gapSlots(i - prev)
			prev = i
			n++
		}
	}
	dst.reset(kind, n, slots)
	prev = 0
	for _, i := range idx {
		if x := dense[i]; x != 0 {
			dst.gaps = appendGap(dst.gaps, i-prev)
			prev = i
			dst.appendValue(kind, x)
		}
	}
}

// reset empties p for n entries of the given kind whose gaps take slots
// uint16s, keeping the storage of that kind (and the gaps') when it is
// large enough and dropping the rest.
func (p *packedVec) reset(kind valueKind, n, slots int) {
	old := *p
	*p = packedVec{gaps: capacity(old.gaps, slots)}
	switch kind {
	case kindInt8:
		p.i8 = capacity(old.i8, n)
	case kindInt16:
		p.i16 = capacity(old.i16, n)
	case kindFloat32:
		p.f32 = capacity(old.f32, n)
	default:
		p.f64 = capacity(old.f64, n)
	}
}

// capacity returns s emptied, or a new slice if s cannot hold n.
func capacity[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, 0, n)
	}
	return s[:0]
}

func (p *packedVec) appendValue(kind valueKind, x float64) {
	switch kind {
	case kindInt8:
		p.i8 = append(p.i8, int8(x))
	case kindInt16:
		p.i16 = append(p.i16, int16(x))
	case kindFloat32:
		p.f32 = append(p.f32, float32(x))
	default:
		p.f64 = append(p.f64, x)
	}
}

// Dot returns p·w for a dense w.
func (p *packedVec) Dot(w []float64) float64 {
	switch {
	case p.i8 != nil:
		return dotPacked(p.gaps, p.i8, w)
	case p.i16 != nil:
		return dotPacked(p.gaps, p.i16, w)
	case p.f32 != nil:
		return dotPacked(p.gaps, p.f32, w)
	}
	return dotPacked(p.gaps, p.f64, w)
}

// AddTo adds scale·p to the dense vector dst.
func (p *packedVec) AddTo(dst []float64, scale float64) {
	switch {
	case p.i8 != nil:
		addPacked(p.gaps, p.i8, dst, scale)
	case p.i16 != nil:
		addPacked(p.gaps, p.i16, dst, scale)
	case p.f32 != nil:
		addPacked(p.gaps, p.f32, dst, scale)
	default:
		addPacked(p.gaps, p.f64, dst, scale)
	}
}

// SquaredNorm returns ‖p‖².
func (p *packedVec) SquaredNorm() float64 {
	switch {
	case p.i8 != nil:
		return squaredNorm(p.i8)
	case p.i16 != nil:
		return squaredNorm(p.i16)
	case p.f32 != nil:
		return squaredNorm(p.f32)
	}
	return squaredNorm(p.f64)
}

type packedValue interface {
	int8 | int16 | float32 | float64
}

// A gap below gapLong takes one uint16; a longer one two, the first with
// its top bit set (15 + 16 bits: gaps up to 2³¹, any int32 index).
const gapLong = 1 << 15

// gapSlots returns the uint16s gap d takes.
func gapSlots(d int32) int {
	if d < gapLong {
		return 1
	}
	return 2
}

// appendGap appends gap d ≥ 0.
func appendGap(gaps []uint16, d int32) []uint16 {
	if d < gapLong {
		return append(gaps, uint16(d))
	}
	return append(gaps, gapLong|uint16(d>>16), uint16(d))
}

// nextGap decodes the gap at gaps[pos] and returns it with the position
// after it.
func nextGap(gaps []uint16, pos int) (int32, int) {
	if g := gaps[pos]; g < gapLong {
		return int32(g), pos + 1
	}
	return int32(gaps[pos]&(gapLong-1))<<16 | int32(gaps[pos+1]), pos + 2
}

func dotPacked[T packedValue](gaps []uint16, vals []T, w []float64) float64 {
	var s float64
	i, pos := int32(0), 0
	for _, x := range vals {
		var g int32
		g, pos = nextGap(gaps, pos)
		i += g
		s += float64(x) * w[i]
	}
	return s
}

func addPacked[T packedValue](gaps []uint16, vals []T, dst []float64, scale float64) {
	i, pos := int32(0), 0
	for _, x := range vals {
		var g int32
		g, pos = nextGap(gaps, pos)
		i += g
		dst[i] += scale * float64(x)
	}
}

func squaredNorm[T packedValue](vals []T) float64 {
	var s float64
	for _, x := range vals {
		s += float64(x) * float64(x)
	}
	return s
}
