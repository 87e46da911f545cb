package decoders_test

import (
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

// MPM labels every position with the argmax of its marginal, the marginals
// summed over every labeling; where two labels' marginals agree within the
// tolerance either is right (a tie is broken by the marginals as computed,
// whose rounding differs from the enumeration's), and otherwise the label
// must be the one.
func TestMPM(t *testing.T) {
	t.Parallel()
	forEachChain(t, []chainKind{floatScores, intScores, noTrans, bigScores}, func(t *testing.T, in instance) {
		c := in.c
		got := decoders.MPM(c, nil)
		if len(got) != c.N {
			t.Fatalf("seed %d: %d labels for N = %d", in.seed, len(got), c.N)
		}
		want := bruteforce.Marginals(c)
		for pos, y := range got {
			row := want.Node[pos*c.K : (pos+1)*c.K]
			if y < 0 || y >= c.K {
				t.Fatalf("seed %d: label %d at %d out of range", in.seed, y, pos)
			}
			top := slices.Max(row)
			if row[y] < top-tol {
				t.Errorf("seed %d: position %d: label %d has marginal %v, label %d has %v",
					in.seed, pos, y, row[y], slices.Index(row, top), top)
			}
		}
	})
}

// On a chain whose most probable labeling is not made of the most probable
// labels MPM and Viterbi disagree: P(00) = 0.4, P(10) = P(11) = 0.3 put
// P(y_0 = 1) = 0.6 and P(y_1 = 0) = 0.7, so MPM says 10 where MAP says 00.
func TestMPMIsNotMAP(t *testing.T) {
	t.Parallel()
	c := &decoders.Chain{N: 2, K: 2, Unary: make([]float64, 4),
		Trans: []float64{math.Log(0.4), math.Log(1e-12), math.Log(0.3), math.Log(0.3)}}
	if got := decoders.MPM(c, nil); !slices.Equal(got, []int{1, 0}) {
		t.Errorf("MPM = %v, want [1 0]", got)
	}
	if got := decoders.Viterbi(c, nil).Labels; !slices.Equal(got, []int{0, 0}) {
		t.Errorf("Viterbi = %v, want [0 0]", got)
	}
}

// Equal scores everywhere make every marginal 1/K: the lowest label wins.
func TestMPMTies(t *testing.T) {
	t.Parallel()
	c := decoders.NewChain(4, 3)
	if got := decoders.MPM(c, new(decoders.Workspace)); !slices.Equal(got, []int{0, 0, 0, 0}) {
		t.Errorf("MPM of a flat chain = %v, want all 0", got)
	}
}
