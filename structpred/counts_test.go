package structpred

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestRadixSort(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n      int
		maxKey uint64
	}{{0, 10}, {1, 10}, {255, 1 << 20}, {256, 1 << 20}, {300, 3}, {5000, 1 << 22}, {5000, 1 << 40}, {2000, 1<<64 - 1}}
	rng := rand.New(rand.NewPCG(1, 1))
	var count []int
	for _, tt := range tests {
		keys := make([]uint64, tt.n)
		for i := range keys {
			keys[i] = rng.Uint64N(tt.maxKey)
			if tt.maxKey == 1<<64-1 {
				keys[i] = rng.Uint64()
			}
		}
		want := slices.Sorted(slices.Values(keys))
		got, spare := radixSort(keys, make([]uint64, tt.n), tt.maxKey, &count)
		if !slices.Equal(got, want) || len(spare) != tt.n {
			t.Errorf("n=%d maxKey=%d: radixSort wrong", tt.n, tt.maxKey)
		}
	}
}

// CountAccumulator's vector equals Accumulator's for the same ±1 entries,
// bit for bit: few entries (the comparison sort), many (the radix sort),
// repeated indices that cancel, and an empty one.
func TestCountAccumulatorMatchesAccumulator(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(4, 2))
	var c CountAccumulator
	var a Accumulator
	for _, tt := range []struct{ n, dim int }{{0, 10}, {7, 10}, {200, 50}, {3000, 100000}, {5000, 300}} {
		for range 2 { // reused after Reset
			c.Reset()
			a.Reset()
			for range tt.n {
				i, v := int32(rng.IntN(tt.dim)), 1.0
				if rng.IntN(2) == 0 {
					v = -1
				}
				c.Add(i, v)
				a.Add(i, v)
			}
			got, want := c.Vec(tt.dim), a.Vec()
			if !slices.Equal(got.Idx, want.Idx) || !slices.Equal(got.Val, want.Val) {
				t.Fatalf("%d entries below %d: CountAccumulator %v, Accumulator %v", tt.n, tt.dim, got, want)
			}
		}
	}
}
