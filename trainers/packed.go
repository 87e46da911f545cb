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
	if len(gaps) == len(vals) { // every gap takes one slot: no decoding
		return dotRest(gaps, vals, w, 0, 0)
	}
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

// dotEach sets dst[k] = vec(k).Dot(w) for every k < len(dst), bit for bit.
// One Dot is a chain of dependent additions, so it runs at one entry per
// addition's latency; dotEach sums four vectors of one value kind in one
// loop, each in its own index order, so that their chains overlap. The
// solvers' hottest loops are such batches: a Gram row, a group's or a
// cache's violations.
func dotEach(w, dst []float64, vec func(k int) *packedVec) {
	var waiting [kindFloat64 + 1][4]*packedVec
	var at [kindFloat64 + 1][4]int
	var n [kindFloat64 + 1]int
	for k := range dst {
		p := vec(k)
		kd := p.kind()
		waiting[kd][n[kd]], at[kd][n[kd]] = p, k
		if n[kd]++; n[kd] == 4 {
			s := dot4Of(kd, waiting[kd], 4, w)
			for l, j := range at[kd] {
				dst[j] = s[l]
			}
			n[kd] = 0
		}
	}
	for kd := range waiting {
		switch m := n[kd]; m {
		case 0:
		case 1:
			dst[at[kd][0]] = waiting[kd][0].Dot(w)
		default: // two or three: the last one fills the idle lanes
			ps := waiting[kd]
			for l := m; l < 4; l++ {
				ps[l] = ps[m-1]
			}
			s := dot4Of(valueKind(kd), ps, m, w)
			for l := range m {
				dst[at[kd][l]] = s[l]
			}
		}
	}
}

// kind returns the kind of p's values, as Dot reads it.
func (p *packedVec) kind() valueKind {
	switch {
	case p.i8 != nil:
		return kindInt8
	case p.i16 != nil:
		return kindInt16
	case p.f32 != nil:
		return kindFloat32
	}
	return kindFloat64
}

// dot4Of returns the dot products with w of the first lanes of the four
// vectors (the others repeat one of them); they hold values of kind kd.
func dot4Of(kd valueKind, p [4]*packedVec, lanes int, w []float64) [4]float64 {
	g := [4][]uint16{p[0].gaps, p[1].gaps, p[2].gaps, p[3].gaps}
	switch kd {
	case kindInt8:
		return dot4(g, [4][]int8{p[0].i8, p[1].i8, p[2].i8, p[3].i8}, lanes, w)
	case kindInt16:
		return dot4(g, [4][]int16{p[0].i16, p[1].i16, p[2].i16, p[3].i16}, lanes, w)
	case kindFloat32:
		return dot4(g, [4][]float32{p[0].f32, p[1].f32, p[2].f32, p[3].f32}, lanes, w)
	}
	return dot4(g, [4][]float64{p[0].f64, p[1].f64, p[2].f64, p[3].f64}, lanes, w)
}

// dot4 is four dotPacked calls run together up to the shortest vector's
// length, each finished alone after that. When a vector has a two-slot
// gap, the first lanes are summed one by one instead.
func dot4[T packedValue](g [4][]uint16, v [4][]T, lanes int, w []float64) [4]float64 {
	for l := range v {
		if len(g[l]) != len(v[l]) {
			var s [4]float64
			for k := range lanes {
				s[k] = dotPacked(g[k], v[k], w)
			}
			return s
		}
	}
	n := min(len(v[0]), len(v[1]), len(v[2]), len(v[3]))
	g0, g1, g2, g3 := g[0][:n], g[1][:n], g[2][:n], g[3][:n]
	v0, v1, v2, v3 := v[0][:n], v[1][:n], v[2][:n], v[3][:n]
	var s0, s1, s2, s3 float64
	var i0, i1, i2, i3 int32
	for j := range n {
		i0 += int32(g0[j])
		s0 += float64(v0[j]) * w[i0]
		i1 += int32(g1[j])
		s1 += float64(v1[j]) * w[i1]
		i2 += int32(g2[j])
		s2 += float64(v2[j]) * w[i2]
		i3 += int32(g3[j])
		s3 += float64(v3[j]) * w[i3]
	}
	return [4]float64{
		dotRest(g[0][n:], v[0][n:], w, i0, s0),
		dotRest(g[1][n:], v[1][n:], w, i1, s1),
		dotRest(g[2][n:], v[2][n:], w, i2, s2),
		dotRest(g[3][n:], v[3][n:], w, i3, s3),
	}
}

// dotRest continues a dot product of one-slot gaps from index i and sum s.
func dotRest[T packedValue](gaps []uint16, vals []T, w []float64, i int32, s float64) float64 {
	gaps = gaps[:len(vals)]
	for j, x := range vals {
		i += int32(gaps[j])
		s += float64(x) * w[i]
	}
	return s
}

func addPacked[T packedValue](gaps []uint16, vals []T, dst []float64, scale float64) {
	if len(gaps) == len(vals) { // every gap takes one slot: no decoding
		gaps = gaps[:len(vals)]
		i := int32(0)
		for j, x := range vals {
			i += int32(gaps[j])
			dst[i] += scale * float64(x)
		}
		return
	}
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
