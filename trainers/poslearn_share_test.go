package trainers

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/models/chain"
)

// PosLearn's constraints for positions that share a violator share its δf,
// and each constraint equals the one built for its position alone.
func TestPosLearnSharesEqualViolators(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	const n, tokens, k, attrs = 4, 9, 3, 12
	data := make([]chain.Instance, n)
	for i := range data {
		x := chain.Instance{Attrs: make([][]int32, tokens), Labels: make([]int, tokens)}
		for j := range tokens {
			x.Attrs[j] = []int32{int32(rng.IntN(attrs / 2)), int32(attrs/2 + rng.IntN(attrs/2))}
			x.Labels[j] = rng.IntN(k)
		}
		data[i] = x
	}
	m, err := chain.New(data, attrs, k, true, decoders.Hamming(k))
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = rng.NormFloat64() // a w that gets most positions wrong
	}
	sep, err := newPosLearnSeparator[[]int](m, 0)
	if err != nil {
		t.Fatal(err)
	}
	ps := sep.(*posLearnSeparator[[]int])
	keepAll := func(int) float64 { return -1 }
	shared := 0
	for i := range n {
		got, err := ps.Separate(i, w, keepAll, nil)
		if err != nil {
			t.Fatal(err)
		}
		vs := ps.d.PositionViolators(i, w, nil)
		if len(got) != len(vs) {
			t.Fatalf("instance %d: %d constraints for %d violators", i, len(got), len(vs))
		}
		first := map[*int32]bool{}
		for j, v := range vs {
			want := slackConstraint[[]int](m, ps.offset[i]+v.Position, i, v.Y, v.Loss)
			if !reflect.DeepEqual(got[j], want) {
				t.Errorf("instance %d position %d: constraint %+v, want %+v", i, v.Position, got[j], want)
			}
			if len(got[j].A.Idx) > 0 {
				p := &got[j].A.Idx[0]
				if first[p] {
					shared++
				}
				first[p] = true
			}
		}
	}
	if shared == 0 {
		t.Error("no two positions shared a δf, though the MAP is wrong at several")
	}
}
