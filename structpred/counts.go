package structpred

import "slices"

// CountAccumulator is an Accumulator for entries of ±1, the differences of
// indicator features that make up most models' δf. Its Vec returns what an
// Accumulator's would, in linear time: a δf has thousands of entries in
// scattered order, and sorting them with comparisons dominated the oracles
// that build one per proposal. The entries are radix-sorted as integer keys,
// index<<1 | sign bit, and each index's run of keys is then counted (its +1s,
// then its −1s); the sums are small integers, exact in any order. It is
// reusable after Reset and is meant to be owned by one goroutine.
type CountAccumulator struct {
	keys, buf []uint64
	count     []int
}

// Reset empties the accumulator, keeping its storage.
func (d *CountAccumulator) Reset() { d.keys = d.keys[:0] }

// Add records −1 at index i if v < 0, and +1 otherwise.
func (d *CountAccumulator) Add(i int32, v float64) {
	key := uint64(i) << 1
	if v < 0 {
		key |= 1
	}
	d.keys = append(d.keys, key)
}

// Vec returns the accumulated vector: indices sorted, counts summed and
// indices whose counts cancel dropped. All indices must be below dim. The
// result owns fresh storage.
func (d *CountAccumulator) Vec(dim int) SparseVec {
	if cap(d.buf) < len(d.keys) {
		d.buf = make([]uint64, len(d.keys))
	}
	sorted, spare := radixSort(d.keys, d.buf[:len(d.keys)], uint64(dim)<<1|1, &d.count)
	d.keys, d.buf = sorted[:0], spare[:0]
	// One pass writes each index's net count over the sorted keys in place
	// (there are at most as many indices as keys); then they are copied out.
	n := 0
	for r := 0; r < len(sorted); {
		i, net := sorted[r]>>1, int64(0)
		for ; r < len(sorted) && sorted[r]>>1 == i; r++ {
			net += 1 - 2*int64(sorted[r]&1)
		}
		if net != 0 {
			sorted[n] = i<<32 | uint64(uint32(int32(net)))
			n++
		}
	}
	out := SparseVec{Idx: make([]int32, n), Val: make([]float64, n)}
	for e, kv := range sorted[:n] {
		out.Idx[e], out.Val[e] = int32(kv>>32), float64(int32(uint32(kv)))
	}
	return out
}

// radixBits is the digit width of radixSort: 2^11 counters per pass, two
// passes for keys below 2^22 (Cora's 20,000 attributes and 13 labels).
const radixBits = 11

// radixSort sorts keys (all at most maxKey) using buf, of the same length,
// as scratch, by least-significant-digit radix sort. It returns the sorted
// slice (keys or buf) and the other one. Short inputs use slices.Sort.
func radixSort(keys, buf []uint64, maxKey uint64, count *[]int) (sorted, spare []uint64) {
	if len(keys) < 256 {
		slices.Sort(keys)
		return keys, buf
	}
	const buckets, mask = 1 << radixBits, 1<<radixBits - 1
	if cap(*count) < buckets {
		*count = make([]int, buckets)
	}
	c := (*count)[:buckets]
	for shift := uint(0); shift < 64 && maxKey>>shift != 0; shift += radixBits {
		clear(c)
		for _, k := range keys {
			c[(k>>shift)&mask]++
		}
		sum := 0
		for b, v := range c {
			c[b], sum = sum, sum+v
		}
		for _, k := range keys {
			b := (k >> shift) & mask
			buf[c[b]] = k
			c[b]++
		}
		keys, buf = buf, keys
	}
	return keys, buf
}
