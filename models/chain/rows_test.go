package chain

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// TestRowKernelsMatchGonumCalls checks sumRows and addRows against
// sumRowsGo and addRowsGo bit for bit, at every K up to 35 (every chunk
// combination of the assembly), with and without values, repeated and
// empty attribute lists, and signed zeros and mixed magnitudes in w and d.
func TestRowKernelsMatchGonumCalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 3))
	draw := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			switch rng.IntN(10) {
			case 0:
				xs[i] = 0
			case 1:
				xs[i] = math.Copysign(0, -1)
			default:
				xs[i] = rng.NormFloat64() * math.Exp(10*rng.NormFloat64())
			}
		}
		return xs
	}
	const numAttrs = 40
	for k := 1; k <= 35; k++ {
		for trial := range 12 {
			name := fmt.Sprintf("K=%d/trial=%d", k, trial)
			attrs := make([]int32, rng.IntN(30))
			for j := range attrs {
				attrs[j] = int32(rng.IntN(numAttrs)) // repeats included
			}
			var vals []float64
			if trial%2 == 1 {
				vals = draw(len(attrs))
			}
			w := draw(numAttrs*k + k*k)
			got, want := draw(k), draw(k)
			if !sumRows(got, w, attrs, vals, numAttrs) {
				t.Fatalf("%s: sumRows refused ids in range", name)
			}
			sumRowsGo(want, w, attrs, vals)
			if j, ok := bitsEqual(got, want); !ok {
				t.Fatalf("%s: sumRows[%d] = %v, want %v", name, j, got[j], want[j])
			}
			d := draw(k)
			g := draw(numAttrs * k)
			g2 := append([]float64(nil), g...)
			if !addRows(g, attrs, vals, d, numAttrs) {
				t.Fatalf("%s: addRows refused ids in range", name)
			}
			addRowsGo(g2, attrs, vals, d)
			if j, ok := bitsEqual(g, g2); !ok {
				t.Fatalf("%s: addRows[%d] = %v, want %v", name, j, g[j], g2[j])
			}
		}
	}
}

// TestRowKernelsRefuseOutOfRange checks that the kernels touch nothing
// when an id lies outside the table, values do not match the ids, or the
// table is shorter than numAttrs rows.
func TestRowKernelsRefuseOutOfRange(t *testing.T) {
	const k, numAttrs = 3, 4
	w := make([]float64, numAttrs*k)
	for _, tt := range []struct {
		name     string
		attrs    []int32
		vals     []float64
		numAttrs int
	}{
		{"id past the end", []int32{0, numAttrs}, nil, numAttrs},
		{"negative id", []int32{-1}, nil, numAttrs},
		{"values short", []int32{0, 1}, []float64{1}, numAttrs},
		{"table short", []int32{0}, nil, numAttrs + 1},
	} {
		row := []float64{7, 7, 7}
		if sumRows(row, w, tt.attrs, tt.vals, tt.numAttrs) || row[0] != 7 {
			t.Errorf("%s: sumRows accepted, row %v", tt.name, row)
		}
		if addRows(w, tt.attrs, tt.vals, row, tt.numAttrs) || w[0] != 0 {
			t.Errorf("%s: addRows accepted", tt.name)
		}
	}
}

// bitsEqual reports the first index where got and want differ as bits.
func bitsEqual(got, want []float64) (int, bool) {
	for i := range got {
		if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
			return i, false
		}
	}
	return 0, len(got) == len(want)
}
