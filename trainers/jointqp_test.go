package trainers

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

// randJoint returns a random sparse vector of small integers, packed and
// dense.
func randJoint(rng *rand.Rand, dim int) (packedVec, []float64) {
	dense := make([]float64, dim)
	var sv structpred.SparseVec
	for i := range dim {
		if x := float64(rng.IntN(7) - 3); x != 0 && rng.IntN(2) == 0 {
			dense[i] = x
			sv.Idx = append(sv.Idx, int32(i))
			sv.Val = append(sv.Val, x)
		}
	}
	var p packedVec
	packVec(&p, sv)
	return p, dense
}

func denseDot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// dropInactive keeps exactly the constraints that are active or were idle
// for at most inactiveAfter solves, each with its own vector and Gram row
// (moved left, not clobbered), releases the dropped ones' storage, and a
// later add extends the Gram matrix consistently.
func TestJointQPDropInactive(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	const dim = 12
	drops := 0
	for trial := range 200 {
		q := newJointQP(dim, 1+rng.Float64(), nil, 1)
		var dense [][]float64
		for range 3 + rng.IntN(10) {
			p, d := randJoint(rng, dim)
			q.add(p, 3*rng.Float64(), d, 1, 0)
			dense = append(dense, d)
		}
		if err := q.solve(context.Background(), 1e-9); err != nil {
			t.Fatal(err)
		}
		for k := range q.idle { // make some inactive ones due for dropping
			if q.alpha[k] == 0 && rng.IntN(2) == 0 {
				q.idle[k] = inactiveAfter
			}
		}
		var kept [][]float64
		for k := range q.a {
			if !(q.alpha[k] == 0 && q.idle[k]+1 > inactiveAfter && q.wAlpha[k] == 0) {
				kept = append(kept, dense[k])
			}
		}
		before := len(q.a)
		allA, allGram := q.a[:cap(q.a)], q.gram[:cap(q.gram)]
		q.dropInactive()
		n := len(q.a)
		if n != len(kept) {
			t.Fatalf("trial %d: kept %d constraints, want %d", trial, n, len(kept))
		}
		if n < before {
			drops++
		}
		for i := n; i < before; i++ {
			if allA[i].gaps != nil || allGram[i] != nil {
				t.Fatalf("trial %d: dropped slot %d still holds its vector or row", trial, i)
			}
		}
		p, d := randJoint(rng, dim)
		q.add(p, 1, d, 1, 0)
		kept = append(kept, d)
		for i := range kept {
			if got, want := q.a[i].Dot(kept[i]), denseDot(kept[i], kept[i]); got != want {
				t.Fatalf("trial %d: constraint %d's vector has a·a = %v, want %v", trial, i, got, want)
			}
			for j := range kept {
				if got, want := q.gram[i][j], denseDot(kept[i], kept[j]); got != want {
					t.Fatalf("trial %d: gram[%d][%d] = %v, want %v", trial, i, j, got, want)
				}
			}
		}
	}
	if drops < 50 {
		t.Errorf("only %d of 200 trials dropped a constraint: the test exercises too little", drops)
	}
}
