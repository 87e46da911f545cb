package trainers

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

// The joint constraint is the sum of the violated picks with its indices in
// increasing order, whether few indices are touched or many (several in
// one word of the bitset, and touches spread over many summary words).
func TestJointBuilderSumsInIndexOrder(t *testing.T) {
	t.Parallel()
	const dim = 4000
	for _, tc := range []struct {
		name         string
		picks, width int // picks per instance, entries per constraint
	}{
		{"sparse", 1, 3},
		{"dense", 4, 200},
	} {
		rng := rand.New(rand.NewPCG(7, 8))
		picks := make([][]pick, 10)
		want := make([]float64, dim)
		wantB := 0.0
		for i := range picks {
			for g := range tc.picks {
				idx := make([]int32, 0, tc.width)
				for _, j := range rng.Perm(dim)[:tc.width] {
					idx = append(idx, int32(j))
				}
				slices.Sort(idx)
				k := &structpred.Constraint{Group: i*tc.picks + g, A: structpred.SparseVec{Idx: idx, Val: make([]float64, len(idx))}, B: float64(i + 1)}
				for p := range k.A.Val {
					k.A.Val[p] = float64(rng.IntN(5) + 1)
				}
				v := 1.0
				if g%2 == 1 {
					v = -1 // not violated: left out
				} else {
					k.A.AddTo(want, 1)
					wantB += k.B
				}
				pv := new(packedVec)
				packVec(pv, k.A)
				picks[i] = append(picks[i], pick{group: k.Group, a: pv, b: k.B, v: v})
			}
		}
		j := newJointBuilder(dim)
		for range 2 { // a second sum starts from a clean builder
			j.sum(picks, nil)
			packed, b := j.constraint()
			a := packed.Unpack()
			if b != wantB || !slices.IsSorted(a.Idx) {
				t.Fatalf("%s: b = %v (want %v), indices sorted %v", tc.name, b, wantB, slices.IsSorted(a.Idx))
			}
			got := make([]float64, dim)
			a.AddTo(got, 1)
			if !slices.Equal(got, want) {
				t.Errorf("%s: the joint a differs from the sum of the violated picks", tc.name)
			}
		}
	}
}
