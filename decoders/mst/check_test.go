package mst_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

func TestCheckTree(t *testing.T) {
	t.Parallel()
	tests := []struct {
		heads   []int
		want    error
		message string
	}{
		{[]int{-1}, nil, ""},
		{[]int{-1, 0}, nil, ""},
		{[]int{0, 0, 1}, nil, ""}, // heads[0] is not looked at
		{[]int{-1, 0, 0, 2}, nil, ""},
		{nil, mst.ErrBadHead, "mst: empty head vector (need at least the root): head out of range"},
		{[]int{-1, 0, 3}, mst.ErrBadHead, "mst: word 2 has head 3, want 0..2: head out of range"},
		{[]int{-1, -1}, mst.ErrBadHead, "mst: word 1 has head -1, want 0..1: head out of range"},
		{[]int{-1, 0, 2}, mst.ErrCycle, "mst: word 2 is its own head: head cycle"},
		{[]int{-1, 2, 1}, mst.ErrNoRoot, "mst: no word attaches to the root"},
		{[]int{-1, 0, 4, 2, 3}, mst.ErrCycle, "mst: word 2 has head 4, 4 has head 3, 3 has head 2: head cycle"},
		{[]int{-1, 0, 1, 5, 3, 4}, mst.ErrCycle, "mst: word 3 has head 5, 5 has head 4, 4 has head 3: head cycle"},
	}
	for _, tt := range tests {
		err := mst.CheckTree(tt.heads)
		if !errors.Is(err, tt.want) || (err == nil) != (tt.want == nil) {
			t.Errorf("CheckTree(%v) = %v, want %v", tt.heads, err, tt.want)
			continue
		}
		if err != nil && err.Error() != tt.message {
			t.Errorf("CheckTree(%v) = %q, want %q", tt.heads, err, tt.message)
		}
	}
}

// TestCheckTreeExhaustive compares CheckTree with the enumeration of trees
// over every head vector of up to 5 words.
func TestCheckTreeExhaustive(t *testing.T) {
	t.Parallel()
	for n := range 6 {
		trees := map[string]bool{}
		for heads := range bruteforce.Trees(n) {
			trees[string(encode(heads))] = true
		}
		heads := make([]int, n+1)
		heads[0] = -1
		count := 0
		for {
			isTree := mst.CheckTree(heads) == nil
			if isTree != trees[string(encode(heads))] {
				t.Fatalf("CheckTree(%v) = %v, enumeration says tree=%v", heads, mst.CheckTree(heads), !isTree)
			}
			if isTree {
				count++
				if mst.IsProjective(heads) != bruteforce.Projective(heads) {
					t.Errorf("IsProjective(%v) = %v, no crossing arcs: %v", heads, !bruteforce.Projective(heads), bruteforce.Projective(heads))
				}
			} else if mst.IsProjective(heads) {
				t.Errorf("IsProjective(%v) = true for a non-tree", heads)
			}
			if !next(heads) {
				break
			}
		}
		if count != len(trees) {
			t.Errorf("n=%d: CheckTree accepts %d head vectors, %d trees", n, count, len(trees))
		}
	}
}

// next advances heads[1:] to the next vector over [0, n] in odometer order.
func next(heads []int) bool {
	n := len(heads) - 1
	for d := n; d >= 1; d-- {
		if heads[d] < n {
			heads[d]++
			return true
		}
		heads[d] = 0
	}
	return false
}

func encode(heads []int) []byte {
	b := make([]byte, len(heads))
	for i, h := range heads[1:] {
		b[i+1] = byte(h)
	}
	return b
}

// TestChuLiuEdmondsTieRule checks the documented tie rule where it defines
// the tree: when every word's best head, the lowest among ties, already
// forms a tree, that tree is the answer.
func TestChuLiuEdmondsTieRule(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	checked := 0
	for range 2000 {
		n := 1 + rng.IntN(8)
		g := mst.NewGraph(n)
		for i := range g.Score {
			g.Score[i] = float64(rng.IntN(3))
		}
		want := make([]int, n+1)
		want[0] = -1
		for d := 1; d <= n; d++ {
			for h := 1; h <= n; h++ {
				if h != d && g.Arc(h, d) > g.Arc(want[d], d) {
					want[d] = h
				}
			}
		}
		if mst.CheckTree(want) != nil {
			continue
		}
		checked++
		if got := (mst.Decoder{}).Decode(g, nil); !slices.Equal(got.Heads, want) {
			t.Fatalf("Decode = %v, per-word lowest best heads %v form a tree", got.Heads, want)
		}
	}
	if checked < 100 {
		t.Errorf("only %d instances had acyclic best heads", checked)
	}
}
