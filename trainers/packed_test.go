package trainers

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func TestKindOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		x    float64
		want valueKind
	}{
		{0, kindInt8},
		{-3, kindInt8},
		{127, kindInt8},
		{-128, kindInt8},
		{128, kindInt16},
		{-32768, kindInt16},
		{40000, kindFloat32},
		{0.5, kindFloat32},
		{math.Inf(-1), kindFloat32},
		{math.Copysign(0, -1), kindFloat32}, // an integer would lose the sign
		{0.1, kindFloat64},
		{1 << 40, kindFloat32},
		{1<<40 + 1, kindFloat64},
		{math.NaN(), kindFloat64},
	} {
		if got := kindOf(tc.x); got != tc.want {
			t.Errorf("kindOf(%v) = %v, want %v", tc.x, got, tc.want)
		}
	}
}

// A packed vector gives the SparseVec's entries back, and its Dot, AddTo and
// SquaredNorm are bit-identical to the SparseVec's, for every value kind and
// for index gaps below and above a uint16's range; one packedVec is reused across
// kinds, as a cache slot is.
func TestPackedVecMatchesSparseVec(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	const dim = 1 << 29
	w := func(i int32) float64 { return math.Sin(float64(i)) * 1e3 }
	values := map[string]func() float64{
		"int8":    func() float64 { return float64(rng.IntN(255) - 127) },
		"int16":   func() float64 { return float64(rng.IntN(60000) - 30000) },
		"float32": func() float64 { return float64(float32(rng.NormFloat64())) },
		"float64": func() float64 { return rng.NormFloat64() },
		"mixed": func() float64 {
			if rng.IntN(50) == 0 {
				return 0.3
			}
			return 1
		},
	}
	var p packedVec
	for _, name := range []string{"int8", "float64", "int16", "mixed", "float32", "int8"} {
		for _, maxGap := range []int{1, 127, 128, 1 << 14, 1 << 21, 1 << 28} {
			n := rng.IntN(40)
			v := structpred.SparseVec{}
			i := int32(rng.IntN(maxGap))
			for range n {
				if int(i) >= dim {
					break
				}
				v.Idx = append(v.Idx, i)
				v.Val = append(v.Val, values[name]())
				i += int32(1 + rng.IntN(maxGap))
			}
			packVec(&p, v)
			got := p.Unpack()
			if !slices.Equal(got.Idx, v.Idx) || !slices.Equal(got.Val, v.Val) || p.Len() != v.Len() {
				t.Fatalf("%s, gaps < %d: unpacked %v, want %v", name, maxGap, got, v)
			}
			// Dense vectors as long as the largest index needs.
			size := 1
			if len(v.Idx) > 0 {
				size = int(v.Idx[len(v.Idx)-1]) + 1
			}
			if size > 1<<22 {
				continue // Dot and AddTo are checked on the smaller gaps
			}
			dense := make([]float64, size)
			for k := range dense {
				dense[k] = w(int32(k))
			}
			if a, b := p.Dot(dense), v.Dot(dense); math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("%s, gaps < %d: Dot %v, SparseVec's %v", name, maxGap, a, b)
			}
			if a, b := p.SquaredNorm(), v.SquaredNorm(); math.Float64bits(a) != math.Float64bits(b) {
				t.Errorf("%s, gaps < %d: SquaredNorm %v, SparseVec's %v", name, maxGap, a, b)
			}
			d1, d2 := slices.Clone(dense), slices.Clone(dense)
			p.AddTo(d1, -0.7)
			v.AddTo(d2, -0.7)
			if !slices.Equal(d1, d2) {
				t.Errorf("%s, gaps < %d: AddTo differs from SparseVec's", name, maxGap)
			}
		}
	}
}

// Small integers, the usual feature differences, take three bytes an entry
// instead of a SparseVec's twelve when indices are near each other, and
// five (no more than an int32 index and an int8) when they are far apart;
// storage is sized exactly, with nothing left over from appends.
func TestPackedVecIsCompact(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name          string
		gap, perEntry int
	}{
		{"near", 3, 3},
		{"far", 1 << 16, 5},
	} {
		v := structpred.SparseVec{}
		for i := range 10000 {
			v.Idx = append(v.Idx, int32(tc.gap*(i+1)))
			v.Val = append(v.Val, float64(i%5-2))
		}
		var p packedVec
		packVec(&p, v)
		if got, want := p.Bytes(), tc.perEntry*v.Len(); got != want {
			t.Errorf("%s: packed %d entries into %d bytes, want %d", tc.name, v.Len(), got, want)
		}
	}
}

// Proposals that share one direction (PosLearn's positions with the same
// violator) are packed once, and the cache's picks and slacks are those of
// the unpacked constraints.
func TestInstanceCacheSharesDirections(t *testing.T) {
	t.Parallel()
	shared := structpred.SparseVec{Idx: []int32{0, 2}, Val: []float64{1, -1}}
	own := structpred.SparseVec{Idx: []int32{1}, Val: []float64{2}}
	props := []structpred.Constraint{
		{Group: 0, A: shared, B: 1},
		{Group: 1, A: own, B: 1},
		{Group: 2, A: shared, B: 1},
		{Group: 3, B: 0.5}, // empty direction
	}
	var c instanceCache
	c.push(props, map[vecKey]int32{})
	bt := &c.batches[0]
	if len(bt.vecs) != 3 || bt.cons[0].vec != bt.cons[2].vec {
		t.Fatalf("batch holds %d directions (want 3: shared, own, empty), constraints %+v", len(bt.vecs), bt.cons)
	}
	w := []float64{0.25, 0.5, -0.5}
	p := newPicker(4)
	picks := p.best(&c, 0, nil, w, nil)
	if len(picks) != 4 {
		t.Fatalf("%d picks, want 4", len(picks))
	}
	for g, q := range picks {
		want := props[g].Violation(w)
		if q.group != g || q.v != want || q.b != props[g].B {
			t.Errorf("group %d: pick %+v, want violation %v", g, q, want)
		}
	}
	found := make([]float64, 4)
	p.raise(&c, found, 0, nil, w)
	for g := range found {
		if want := math.Max(0, props[g].Violation(w)); found[g] != want {
			t.Errorf("raise: group %d %v, want %v", g, found[g], want)
		}
	}
}

// Gaps at and around the 2¹⁵ boundary of the one-slot form, and index 0,
// come back exactly, and Dot and AddTo read them where they are.
func TestPackedVecGapBoundaries(t *testing.T) {
	t.Parallel()
	for _, gaps := range [][]int32{
		{0},
		{0, 1, gapLong - 1, gapLong, gapLong + 1},
		{gapLong - 1, 65535, 65536, 1},
		{gapLong, gapLong, 2},
		{1<<31 - 1},
	} {
		v := structpred.SparseVec{}
		i := int32(0)
		for k, g := range gaps {
			i += g
			v.Idx = append(v.Idx, i)
			v.Val = append(v.Val, float64(k+1))
		}
		var p packedVec
		packVec(&p, v)
		got := p.Unpack()
		if !slices.Equal(got.Idx, v.Idx) || !slices.Equal(got.Val, v.Val) {
			t.Errorf("gaps %v: unpacked %v, want %v", gaps, got, v)
			continue
		}
		if last := v.Idx[len(v.Idx)-1]; last < 1<<20 {
			w := make([]float64, last+1)
			for j := range w {
				w[j] = float64(j%7) - 3
			}
			if a, b := p.Dot(w), v.Dot(w); a != b {
				t.Errorf("gaps %v: Dot %v, want %v", gaps, a, b)
			}
			d1, d2 := make([]float64, len(w)), make([]float64, len(w))
			p.AddTo(d1, 2)
			v.AddTo(d2, 2)
			if !slices.Equal(d1, d2) {
				t.Errorf("gaps %v: AddTo differs", gaps)
			}
		}
	}
}

// A cache that has turned over many times (slots reused with vectors of
// other kinds and lengths, shared and unshared directions) picks what a
// plain list of the last cacheSize batches picks.
func TestInstanceCacheTurnsOver(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	const groups, dim = 4, 300
	var c instanceCache
	seen := map[vecKey]int32{}
	var history [][]structpred.Constraint
	w := make([]float64, dim)
	p := newPicker(groups)
	for push := range 23 {
		var props []structpred.Constraint
		var shared structpred.SparseVec
		for g := range groups {
			if rng.IntN(4) == 0 {
				continue
			}
			if shared.Len() > 0 && rng.IntN(2) == 0 {
				props = append(props, structpred.Constraint{Group: g, A: shared, B: 1})
				continue
			}
			var a structpred.SparseVec
			for _, j := range rng.Perm(dim)[:1+rng.IntN(40)] {
				a.Idx = append(a.Idx, int32(j))
			}
			slices.Sort(a.Idx)
			for range a.Idx {
				a.Val = append(a.Val, []float64{1, -2, 300, 0.5, rng.NormFloat64()}[rng.IntN(5)])
			}
			shared = a
			props = append(props, structpred.Constraint{Group: g, A: a, B: float64(1 + rng.IntN(3))})
		}
		c.push(props, seen)
		history = append(history, props)
		if len(seen) != 0 {
			t.Fatalf("push %d left %d keys in its scratch map", push, len(seen))
		}
		for j := range w {
			w[j] = rng.NormFloat64()
		}
		got := p.best(&c, 0, nil, w, nil)
		// The reference: every group's most violated constraint over the last
		// cacheSize batches, oldest first, ties keeping the older.
		best := map[int]float64{}
		for _, batch := range history[max(0, len(history)-cacheSize):] {
			for _, k := range batch {
				if v, ok := best[k.Group]; !ok || k.Violation(w) > v {
					best[k.Group] = k.Violation(w)
				}
			}
		}
		if len(got) != len(best) {
			t.Fatalf("push %d: %d picks, want %d", push, len(got), len(best))
		}
		for _, q := range got {
			if q.v != best[q.group] || q.b-q.a.Dot(w) != q.v {
				t.Errorf("push %d, group %d: violation %v, want %v", push, q.group, q.v, best[q.group])
			}
		}
		// raise: max(0, every group's violations over the cache);
		// cachedSlacks: the same without the batch the next push evicts
		// (the oldest, once the ring is full).
		found := make([]float64, groups)
		p.raise(&c, found, 0, nil, w)
		p.cachedSlacks(&c, 0, nil, w)
		batches := history[max(0, len(history)-cacheSize):]
		for g := range groups {
			var all, kept float64
			for b, batch := range batches {
				for _, k := range batch {
					if k.Group != g {
						continue
					}
					all = math.Max(all, k.Violation(w))
					if b > 0 || len(batches) < cacheSize {
						kept = math.Max(kept, k.Violation(w))
					}
				}
			}
			if found[g] != all || p.slack[g] != kept {
				t.Errorf("push %d, group %d: raise %v, cachedSlacks %v; want %v, %v", push, g, found[g], p.slack[g], all, kept)
			}
		}
		p.clearSlacks()
	}
}

// Proposals share a packed direction only when their A is the same vector:
// equal index storage with other values, or a prefix of it, is packed
// apart.
func TestInstanceCacheSharesOnlyTheSameVector(t *testing.T) {
	t.Parallel()
	idx := []int32{0, 1, 2}
	props := []structpred.Constraint{
		{Group: 0, A: structpred.SparseVec{Idx: idx, Val: []float64{1, 1, 1}}, B: 1},
		{Group: 1, A: structpred.SparseVec{Idx: idx, Val: []float64{2, 2, 2}}, B: 1},
		{Group: 2, A: structpred.SparseVec{Idx: idx[:2], Val: []float64{3, 3}}, B: 1},
	}
	var c instanceCache
	c.push(props, map[vecKey]int32{})
	w := []float64{1, 1, 1}
	p := newPicker(3)
	for _, q := range p.best(&c, 0, nil, w, nil) {
		if want := props[q.group].Violation(w); q.v != want {
			t.Errorf("group %d: violation %v, want %v", q.group, q.v, want)
		}
	}
}

// The n-slack working set packs each proposal's vector once per batch:
// constraints of one oracle call that share a vector (PosLearn's positions)
// share its packed copy, and after forget a vector at the same storage is
// packed afresh (the collector may have reused it). Violations and Gram
// entries are those of the unpacked vectors.
func TestWorkingSetSharesPackedVectors(t *testing.T) {
	t.Parallel()
	shared := vec([]int32{0, 2}, []float64{1, -2})
	other := vec([]int32{1, 2}, []float64{3, 1})
	ws := newWorkingSet(3, 1, nil)
	ws.add(structpred.Constraint{Group: 0, A: shared, B: 1})
	ws.add(structpred.Constraint{Group: 1, A: shared, B: 2})
	ws.add(structpred.Constraint{Group: 1, A: other, B: 1})
	if ws.cons[0].a != ws.cons[1].a || ws.cons[1].a == ws.cons[2].a {
		t.Fatalf("packed copies: shared %p %p, other %p", ws.cons[0].a, ws.cons[1].a, ws.cons[2].a)
	}
	ws.forget()
	ws.add(structpred.Constraint{Group: 2, A: shared, B: 1})
	if ws.cons[3].a == ws.cons[0].a {
		t.Error("a vector proposed after forget shares the earlier batch's packed copy")
	}
	w := []float64{0.5, -1, 2}
	for j, k := range []structpred.Constraint{{A: shared, B: 1}, {A: shared, B: 2}, {A: other, B: 1}, {A: shared, B: 1}} {
		if got, want := ws.cons[j].b-ws.cons[j].a.Dot(w), k.Violation(w); got != want {
			t.Errorf("constraint %d: violation %v, want %v", j, got, want)
		}
	}
	if got, want := ws.groups[1].gram[0][1], shared.DotSparse(other); got != want {
		t.Errorf("Gram entry %v, want %v", got, want)
	}
}

// BenchmarkPackedDot times the dot products of a Gram row: 64 joint
// constraints of small-integer differences against a dense vector.
func BenchmarkPackedDot(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	const dim, entries = 1 << 18, 20000
	w := make([]float64, dim)
	for k := range w {
		w[k] = rng.NormFloat64()
	}
	vecs := make([]*packedVec, 64)
	for k := range vecs {
		var v structpred.SparseVec
		for i := int32(rng.IntN(8)); len(v.Idx) < entries-rng.IntN(entries/10); i += int32(1 + rng.IntN(20)) {
			v.Idx = append(v.Idx, i)
			v.Val = append(v.Val, float64(rng.IntN(9)-4))
		}
		vecs[k] = new(packedVec)
		packVec(vecs[k], v)
	}
	dst := make([]float64, len(vecs))
	b.Run("Dot", func(b *testing.B) {
		for b.Loop() {
			for k, p := range vecs {
				dst[k] = p.Dot(w)
			}
		}
	})
	b.Run("dotEach", func(b *testing.B) {
		for b.Loop() {
			dotEach(w, dst, func(k int) *packedVec { return vecs[k] })
		}
	})
	b.Run("AddTo", func(b *testing.B) {
		for b.Loop() {
			for _, p := range vecs {
				p.AddTo(w, 1e-9)
			}
		}
	})
}

// dotEach gives every vector's SparseVec.Dot bit for bit, whatever the
// batch's size (lanes left idle at the end), its mix of value kinds, its
// vectors' lengths (lanes finishing at different entries, empty vectors,
// with their storage nil or reused) and their index gaps (two-slot gaps
// included).
func TestDotEachMatchesDot(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	const dim = 1 << 18
	w := make([]float64, dim)
	for k := range w {
		w[k] = rng.NormFloat64() * 1e3
	}
	values := []func() float64{
		func() float64 { return float64(rng.IntN(255) - 127) },
		func() float64 { return float64(rng.IntN(60000) - 30000) },
		func() float64 { return float64(float32(rng.NormFloat64())) },
		rng.NormFloat64,
	}
	randomVec := func(kinds int) structpred.SparseVec {
		value := values[rng.IntN(kinds)]
		maxGap := []int{2, 40, 1 << 16}[rng.IntN(3)]
		var v structpred.SparseVec
		n := rng.IntN(300)
		if rng.IntN(8) == 0 {
			n = 0
		}
		for i := int32(rng.IntN(maxGap)); len(v.Idx) < n && int(i) < dim; i += int32(1 + rng.IntN(maxGap)) {
			v.Idx = append(v.Idx, i)
			v.Val = append(v.Val, value())
		}
		return v
	}
	pool := make([]packedVec, 14) // reused, as cache slots are
	for trial := range 400 {
		kinds := 1 + trial%4 // one kind only, up to all four mixed
		vecs := make([]*packedVec, rng.IntN(len(pool)))
		want := make([]float64, len(vecs))
		for k := range vecs {
			v := randomVec(kinds)
			if rng.IntN(3) == 0 {
				vecs[k] = new(packedVec)
			} else {
				vecs[k] = &pool[k]
			}
			packVec(vecs[k], v)
			want[k] = v.Dot(w)
		}
		got := make([]float64, len(vecs))
		dotEach(w, got, func(k int) *packedVec { return vecs[k] })
		for k, p := range vecs {
			if math.Float64bits(got[k]) != math.Float64bits(want[k]) {
				t.Fatalf("trial %d: vector %d of %d (kind %d, %d entries): dotEach %v, SparseVec's Dot %v",
					trial, k, len(vecs), p.kind(), p.Len(), got[k], want[k])
			}
		}
	}
}
