package bruteforce_test

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
)

// count is the number of segmentations, from c(i) = k·Σ_{len=1..l} c(i-len).
func count(n, k, l int) int {
	c := make([]int, n+1)
	c[0] = 1
	for i := 1; i <= n; i++ {
		for ln := 1; ln <= min(l, i); ln++ {
			c[i] += k * c[i-ln]
		}
	}
	return c[n]
}

func TestSegmentations(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	tests := []struct {
		n, k, l int
		want    [][]structpred.Segment // nil: only the count is checked
		count   int
	}{
		{n: 0, k: 2, l: 3, want: [][]structpred.Segment{{}}, count: 1},
		{n: 1, k: 2, l: 3, want: [][]structpred.Segment{{seg(0, 1, 0)}, {seg(0, 1, 1)}}, count: 2},
		{n: 2, k: 1, l: 2, want: [][]structpred.Segment{{seg(0, 1, 0), seg(1, 2, 0)}, {seg(0, 2, 0)}}, count: 2},
		{n: 2, k: 2, l: 2, want: [][]structpred.Segment{
			{seg(0, 1, 0), seg(1, 2, 0)}, {seg(0, 1, 0), seg(1, 2, 1)}, {seg(0, 2, 0)},
			{seg(0, 1, 1), seg(1, 2, 0)}, {seg(0, 1, 1), seg(1, 2, 1)}, {seg(0, 2, 1)},
		}, count: 6},
		{n: 3, k: 2, l: 2, count: 16}, // 2³ + 2² + 2²
		{n: 3, k: 1, l: 1, count: 1},
		{n: 4, k: 3, l: 4, count: 3 * 4 * 4 * 4}, // 3·(3+1)^(n-1) when l ≥ n
		{n: 6, k: 3, l: 4, count: count(6, 3, 4)},
		{n: 2, k: 0, l: 2, count: 0},
		{n: 2, k: 2, l: 0, count: 0},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("n=%d/k=%d/l=%d", tt.n, tt.k, tt.l)
		got := bruteforce.Segmentations(tt.n, tt.k, tt.l)
		if len(got) != tt.count {
			t.Errorf("%s: %d segmentations, want %d", name, len(got), tt.count)
		}
		if tt.want != nil && !slices.EqualFunc(got, tt.want, slices.Equal) {
			t.Errorf("%s: got %v, want %v", name, got, tt.want)
		}
		for i, y := range got {
			if err := semimarkov.CheckSegmentation(y, tt.n, tt.k, tt.l); err != nil {
				t.Errorf("%s: %v invalid: %v", name, y, err)
			}
			if y == nil {
				t.Errorf("%s: segmentation %d is nil", name, i)
			}
			if i > 0 && semimarkov.Compare(got[i-1], y) >= 0 {
				t.Errorf("%s: %v not before %v in Compare order", name, got[i-1], y)
			}
		}
	}
}

func TestBest(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	// Score = number of segments: the finest segmentation wins, and among
	// the tied ones (any labels) the all-zero one comes first.
	f := func(y []structpred.Segment) float64 { return float64(len(y)) }
	got, ok := bruteforce.Best(3, 2, 2, f, nil)
	want := []structpred.Segment{seg(0, 1, 0), seg(1, 2, 0), seg(2, 3, 0)}
	if !ok || !slices.Equal(got.Segments, want) || got.Score != 3 {
		t.Errorf("Best = %v, %v; want %v with score 3", got, ok, want)
	}
	notFinest := func(y []structpred.Segment) bool { return len(y) < 3 }
	got, ok = bruteforce.Best(3, 2, 2, f, notFinest)
	want = []structpred.Segment{seg(0, 1, 0), seg(1, 3, 0)}
	if !ok || !slices.Equal(got.Segments, want) || got.Score != 2 {
		t.Errorf("Best(keep) = %v, %v; want %v with score 2", got, ok, want)
	}
	if _, ok := bruteforce.Best(3, 2, 2, f, func([]structpred.Segment) bool { return false }); ok {
		t.Error("Best with nothing kept reported ok")
	}
	all := bruteforce.Enumerate(2, 2, 2, f)
	if len(all) != 6 || all[2].Score != 1 || all[0].Score != 2 {
		t.Errorf("Enumerate = %v", all)
	}
}

func TestSortedAndPosteriors(t *testing.T) {
	t.Parallel()
	seg := func(s, e, y int) structpred.Segment { return structpred.Segment{Start: s, End: e, Label: y} }
	// Two tokens, one label, segments of up to 2 tokens: [0,1)[1,2) scores
	// 0 and [0,2) scores log 3, so they have probabilities 1/4 and 3/4.
	f := func(y []structpred.Segment) float64 {
		if len(y) == 1 {
			return math.Log(3)
		}
		return 0
	}
	sorted := bruteforce.Sorted(2, 1, 2, f)
	if len(sorted) != 2 || !slices.Equal(sorted[0].Segments, []structpred.Segment{seg(0, 2, 0)}) {
		t.Errorf("Sorted = %v, want [0,2) first", sorted)
	}
	// Ties keep Compare order.
	tied := bruteforce.Sorted(2, 2, 1, func([]structpred.Segment) float64 { return 0 })
	for i := 1; i < len(tied); i++ {
		if semimarkov.Compare(tied[i-1].Segments, tied[i].Segments) >= 0 {
			t.Errorf("Sorted ties out of Compare order: %v", tied)
		}
	}
	p := bruteforce.Posteriors(2, 1, 2, f)
	s := semimarkov.NewScores(2, 1, 2)
	near := func(a, b float64) bool { return math.Abs(a-b) < 1e-12 }
	want := map[int]float64{s.Index(0, 1, 0): 0.25, s.Index(1, 2, 0): 0.25, s.Index(0, 2, 0): 0.75}
	for i, v := range p.Segment {
		if !near(v, want[i]) {
			t.Errorf("Segment[%d] = %v, want %v", i, v, want[i])
		}
	}
	// START→0 once per segmentation, 0→0 only in the finer one.
	if !near(p.LogZ, math.Log(4)) || !near(p.Trans[1], 1) || !near(p.Trans[0], 0.25) {
		t.Errorf("LogZ = %v, Trans = %v; want log 4, [0.25 1]", p.LogZ, p.Trans)
	}
	if e := bruteforce.Posteriors(0, 2, 2, f); e.LogZ != 0 || len(e.Segment) != 0 {
		t.Errorf("Posteriors on no tokens = %+v", e)
	}
}
