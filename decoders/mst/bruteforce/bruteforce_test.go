package bruteforce_test

import (
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
)

// TestTreesCounts checks the enumeration against closed forms: (n+1)^(n-1)
// trees (Cayley), n^(n-1) with one root child, and C(3n, n)/(2n+1)
// projective ones (OEIS A001764).
func TestTreesCounts(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n                     int
		all, single, projRoot int
	}{
		{0, 1, 0, 1},
		{1, 1, 1, 1},
		{2, 3, 2, 3},
		{3, 16, 9, 12},
		{4, 125, 64, 55},
		{5, 1296, 625, 273},
		{6, 16807, 7776, 1428},
	}
	for _, tt := range tests {
		var all, single, proj int
		var prev []int
		for heads := range bruteforce.Trees(tt.n) {
			if err := mst.CheckTree(heads); err != nil {
				t.Fatalf("n=%d: Trees yielded %v: %v", tt.n, heads, err)
			}
			if heads[0] != -1 {
				t.Fatalf("n=%d: heads[0] = %d, want -1", tt.n, heads[0])
			}
			if prev != nil && slices.Compare(prev, heads) >= 0 {
				t.Fatalf("n=%d: %v after %v, want increasing lexicographic order", tt.n, heads, prev)
			}
			prev = slices.Clone(heads)
			all++
			if bruteforce.RootChildren(heads) == 1 {
				single++
			}
			if bruteforce.Projective(heads) {
				proj++
			}
		}
		if all != tt.all || single != tt.single || proj != tt.projRoot {
			t.Errorf("n=%d: %d trees, %d single-root, %d projective; want %d, %d, %d",
				tt.n, all, single, proj, tt.all, tt.single, tt.projRoot)
		}
	}
}

func TestProjective(t *testing.T) {
	t.Parallel()
	tests := []struct {
		heads []int
		want  bool
	}{
		{[]int{-1}, true},
		{[]int{-1, 0, 1, 2}, true},
		{[]int{-1, 0, 0, 0}, true},
		{[]int{-1, 3, 0, 0}, false}, // 3 → 1 passes over 2, a child of the root
		{[]int{-1, 0, 4, 1, 1}, false},
		{[]int{-1, 2, 0, 2}, true},
	}
	for _, tt := range tests {
		if got := bruteforce.Projective(tt.heads); got != tt.want {
			t.Errorf("Projective(%v) = %v, want %v", tt.heads, got, tt.want)
		}
	}
}

func TestBest(t *testing.T) {
	t.Parallel()
	flat := func([]int) float64 { return 1 }
	best, ok := bruteforce.Best(3, flat, nil)
	if !ok || !slices.Equal(best.Heads, []int{-1, 0, 0, 0}) || best.Score != 1 {
		t.Errorf("Best = %v, %v; want [-1 0 0 0] 1 (smallest tree among ties)", best, ok)
	}
	if _, ok := bruteforce.Best(3, flat, func([]int) bool { return false }); ok {
		t.Errorf("Best with nothing kept reported ok")
	}
	// Early exit from the iterator must stop the enumeration.
	n := 0
	for range bruteforce.Trees(4) {
		if n++; n == 3 {
			break
		}
	}
	if n != 3 {
		t.Errorf("break after 3 trees counted %d", n)
	}
}
