package align_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/decoders/align/bruteforce"
)

func randomScores(rng *rand.Rand, a int, gap float64) align.Scores {
	sc := align.Scores{A: a, Sub: make([]float64, a*a), Gap: gap}
	for k := range sc.Sub {
		sc.Sub[k] = rng.NormFloat64()
	}
	return sc
}

func randomSeq(rng *rand.Rand, n, a int) []byte {
	s := make([]byte, n)
	for i := range s {
		s[i] = byte(rng.IntN(a))
	}
	return s
}

// Local's score is the best over every alignment, and its alignment
// scores that much, for negative, zero and positive gap scores and empty
// sequences.
func TestLocalMatchesBruteForce(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var w align.Workspace
	for trial := range 300 {
		a := 2 + rng.IntN(3)
		gap := []float64{-1, -0.3, 0, 0.2, rng.NormFloat64()}[trial%5]
		sc := randomScores(rng, a, gap)
		s, u := randomSeq(rng, rng.IntN(5), a), randomSeq(rng, rng.IntN(5), a)
		want, count := bruteforce.Best(s, u, sc)
		got, al := w.Local(s, u, sc)
		if err := al.Check(len(s), len(u)); err != nil {
			t.Fatalf("%v", err)
		}
		if math.Abs(got-want) > 1e-12 || math.Abs(sc.Score(s, u, al)-got) > 1e-12 {
			t.Errorf("s=%v t=%v gap=%v: Local = %v (alignment %v scores %v), best of %d alignments %v",
				s, u, gap, got, al, sc.Score(s, u, al), count, want)
		}
		if ls := w.LocalScore(s, u, sc); ls != got {
			t.Errorf("LocalScore %v, Local %v", ls, got)
		}
	}
}

// By hand: identity +2, mismatch −1, gap −1.
func TestLocalByHand(t *testing.T) {
	t.Parallel()
	sc := align.Scores{A: 4, Sub: make([]float64, 16), Gap: -1}
	for a := range 4 {
		for b := range 4 {
			sc.Sub[a*4+b] = -1
			if a == b {
				sc.Sub[a*4+b] = 2
			}
		}
	}
	var w align.Workspace
	for _, tc := range []struct {
		s, t  []byte
		score float64
		al    string
	}{
		{[]byte{0, 1, 2, 3}, []byte{3, 1, 2, 0}, 4, "1,1:MM"},
		{[]byte{0, 1, 2, 3}, []byte{0, 1, 3}, 5, "0,0:MMDM"},
		{[]byte{0, 0}, []byte{1, 1}, 0, "0,0:"},
		{nil, []byte{1}, 0, "0,0:"},
	} {
		got, al := w.Local(tc.s, tc.t, sc)
		if got != tc.score || al.String() != tc.al {
			t.Errorf("%v vs %v: %v %v, want %v %v", tc.s, tc.t, got, al, tc.score, tc.al)
		}
	}
}

func TestCheck(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		a  align.Alignment
		ok bool
	}{
		{align.Alignment{S: 1, T: 0, Ops: []align.Op{align.Match, align.Delete}}, true},
		{align.Alignment{S: 2, T: 0, Ops: []align.Op{align.Match, align.Delete}}, false},
		{align.Alignment{S: 0, T: 2, Ops: []align.Op{align.Insert}}, false},
		{align.Alignment{S: -1}, false},
		{align.Alignment{Ops: []align.Op{7}}, false},
	} {
		if err := tc.a.Check(3, 2); (err == nil) != tc.ok {
			t.Errorf("%v: Check = %v", tc.a, err)
		}
	}
	if (align.Scores{A: 2, Sub: make([]float64, 3)}).Check() == nil {
		t.Error("Scores with 3 entries for 2 letters accepted")
	}
}

func BenchmarkLocal50(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	sc := randomScores(rng, 20, -0.5)
	s, u := randomSeq(rng, 50, 20), randomSeq(rng, 50, 20)
	var w align.Workspace
	for b.Loop() {
		w.LocalScore(s, u, sc)
	}
}
