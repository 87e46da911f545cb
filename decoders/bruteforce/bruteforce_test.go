package bruteforce_test

import (
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

func TestLabelings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		n, k int
		want [][]int
	}{
		{0, 3, [][]int{{}}},
		{1, 1, [][]int{{0}}},
		{3, 1, [][]int{{0, 0, 0}}},
		{1, 3, [][]int{{0}, {1}, {2}}},
		{2, 2, [][]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}},
	}
	for _, tt := range tests {
		got := bruteforce.Labelings(tt.n, tt.k)
		if !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("Labelings(%d, %d) = %v, want %v", tt.n, tt.k, got, tt.want)
		}
	}
	if got := len(bruteforce.Labelings(4, 3)); got != 81 {
		t.Errorf("len(Labelings(4, 3)) = %d, want 81", got)
	}
	ys := bruteforce.Labelings(3, 3)
	if !slices.IsSortedFunc(ys, slices.Compare) {
		t.Errorf("Labelings(3, 3) not in lexicographic order")
	}
}

func TestBestSortedMarginals(t *testing.T) {
	t.Parallel()
	c := &decoders.Chain{N: 2, K: 2, Unary: []float64{1, 1, 0, 0}, Trans: []float64{0, 0, 0, 0}}
	best, ok := bruteforce.Best(2, 2, c.Score, nil)
	if !ok || !slices.Equal(best.Labels, []int{0, 0}) || best.Score != 1 {
		t.Errorf("Best = %v, %v; want [0 0] 1 (lowest labeling among ties)", best, ok)
	}
	_, ok = bruteforce.Best(2, 2, c.Score, func([]int) bool { return false })
	if ok {
		t.Errorf("Best with nothing kept reported ok")
	}
	s := bruteforce.Sorted(2, 2, c.Score)
	want := [][]int{{0, 0}, {0, 1}, {1, 0}, {1, 1}}
	for i := range s {
		if !slices.Equal(s[i].Labels, want[i]) {
			t.Errorf("Sorted[%d] = %v, want %v", i, s[i].Labels, want[i])
		}
	}
	m := bruteforce.Marginals(c)
	if got, want := m.LogZ, 1+math.Log(4); math.Abs(got-want) > 1e-12 {
		t.Errorf("LogZ = %v, want %v", got, want)
	}
	if math.Abs(m.Node[1]-0.5) > 1e-12 || math.Abs(m.Edge[0]+m.Edge[1]+m.Edge[2]+m.Edge[3]-1) > 1e-12 {
		t.Errorf("marginals %v %v", m.Node, m.Edge)
	}
}
