package decoders_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/decoders/bruteforce"
)

// rangedChain draws unary and transition scores uniformly in [−a, a] and pins
// the extremes (±a at labels 0 and 1 of every position and of the
// transitions), so that the range R + 2·ln K that chooses between the scaled
// and the log-space pass is exactly 4a + 2·ln K. k must be at least 2.
func rangedChain(rng *rand.Rand, n, k int, a float64) *decoders.Chain {
	c := decoders.NewChain(n, k)
	draw := func(xs []float64) {
		for i := range xs {
			xs[i] = a * (2*rng.Float64() - 1)
		}
		xs[0], xs[1] = a, -a
	}
	for t := range n {
		draw(c.Unary[t*k : (t+1)*k])
	}
	draw(c.Trans)
	return c
}

// halfRange returns the a for which rangedChain's range is frac·MaxScaledRange.
func halfRange(frac float64, k int) float64 {
	return (frac*decoders.MaxScaledRange - 2*math.Log(float64(k))) / 4
}

// checkMarginals compares got with want, LogZ relatively and the marginals
// absolutely (the edge sums relative to N−1), within tol plus slack, and
// checks that got is normalised (within the same bounds).
func checkMarginals(t *testing.T, c *decoders.Chain, got, want *decoders.Marginals, slack float64) {
	t.Helper()
	if d := math.Abs(got.LogZ - want.LogZ); d > (tol+slack)*max(1, math.Abs(want.LogZ)) {
		t.Errorf("LogZ = %v, want %v", got.LogZ, want.LogZ)
	}
	edges := float64(max(c.N-1, 1))
	for _, tab := range []struct {
		name      string
		got, want []float64
		scale     float64
	}{{"Node", got.Node, want.Node, 1}, {"Edge", got.Edge, want.Edge, edges}} {
		if len(tab.got) != len(tab.want) {
			t.Fatalf("len(%s) = %d, want %d", tab.name, len(tab.got), len(tab.want))
		}
		for i, g := range tab.got {
			if math.IsNaN(g) || math.Abs(g-tab.want[i]) > (tol+slack)*tab.scale {
				t.Fatalf("%s[%d] = %v, want %v", tab.name, i, g, tab.want[i])
			}
		}
	}
	for pos := range c.N {
		var s float64
		for _, p := range got.Node[pos*c.K : (pos+1)*c.K] {
			s += p
		}
		if math.Abs(s-1) > tol+slack {
			t.Fatalf("node marginals at %d sum to %v", pos, s)
		}
	}
	var e float64
	for _, p := range got.Edge {
		e += p
	}
	if want := float64(max(c.N-1, 0)); math.Abs(e-want) > (tol+slack)*edges {
		t.Errorf("edge marginals sum to %v, want %v", e, want)
	}
}

// logSpaceSlack is the rounding error to allow for when the reference is the
// log-space pass: each of its cells exponentiates a difference of log values
// as large as |log Z|, losing about ε·|log Z|, and a recursion over N
// positions can accumulate N of those. Brute force (slack 0) is exact to
// rounding instead.
func logSpaceSlack(c *decoders.Chain, m *decoders.Marginals) float64 {
	const eps = 0x1p-52
	return float64(c.N) * eps * math.Abs(m.LogZ)
}

// TestForwardBackwardScaledNearLimit puts the score range just inside and just
// outside the scaled pass's limit: inside, the scaled pass must agree with
// brute force (short chains) or the log-space pass (long ones); outside, the
// log-space pass must be chosen.
func TestForwardBackwardScaledNearLimit(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		n, k   int
		frac   float64
		scaled bool
	}{
		{4, 3, 0.5, true},
		{5, 4, 0.99, true},
		{6, 2, 0.999, true},
		{200, 13, 0.99, true},
		{2000, 5, 0.99, true},
		{5, 4, 1.01, false},
		{200, 13, 1.01, false},
	} {
		t.Run(fmt.Sprintf("N=%d/K=%d/range=%v", tt.n, tt.k, tt.frac), func(t *testing.T) {
			t.Parallel()
			for seed := range uint64(4) {
				c := rangedChain(rand.New(rand.NewPCG(seed, uint64(tt.n))), tt.n, tt.k, halfRange(tt.frac, tt.k))
				if got := decoders.ScaledApplies(c); got != tt.scaled {
					t.Fatalf("scaled pass chosen: %v, want %v", got, tt.scaled)
				}
				want, slack := bruteforceOrLog(c)
				checkMarginals(t, c, decoders.ForwardBackward(c, nil), want, slack)
			}
		})
	}
}

// TestForwardBackwardExtremeLongChains runs chains of 2000 positions with
// ordinary scores (scaled pass), scores uniform in ±1e3 (log-space pass) and
// ordinary scores with one extreme position (which sends the whole chain to
// the log-space pass), checking both passes against each other, the
// normalisation, and log Z against the Viterbi score: max_y s(y) ≤ log Z ≤
// max_y s(y) + N·ln K.
func TestForwardBackwardExtremeLongChains(t *testing.T) {
	t.Parallel()
	const n, k = 2000, 13
	for _, tt := range []struct {
		name   string
		spread float64 // scores uniform in ±spread
		spike  float64 // added to one unary score mid-chain
		scaled bool
	}{
		{"ordinary", 3, 0, true},
		{"extreme", 1e3, 0, false},
		{"one spike", 3, 1e3, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rng := rand.New(rand.NewPCG(1, 2))
			c := decoders.NewChain(n, k)
			for i := range c.Unary {
				c.Unary[i] = tt.spread * (2*rng.Float64() - 1)
			}
			for i := range c.Trans {
				c.Trans[i] = tt.spread * (2*rng.Float64() - 1)
			}
			c.Unary[n/2*k+3] += tt.spike
			if got := decoders.ScaledApplies(c); got != tt.scaled {
				t.Fatalf("scaled pass chosen: %v, want %v", got, tt.scaled)
			}
			got := decoders.ForwardBackward(c, nil)
			want := decoders.ForwardBackwardLog(c)
			checkMarginals(t, c, got, want, logSpaceSlack(c, want))
			v := decoders.Viterbi(c, nil)
			if got.LogZ < v.Score || got.LogZ > v.Score+n*math.Log(k) {
				t.Errorf("LogZ = %v outside [%v, %v + N ln K]", got.LogZ, v.Score, v.Score)
			}
		})
	}
}

// TestForwardBackwardToReuses checks that ForwardBackwardTo overwrites a
// reused result completely (no stale edge sums or log Z) and, with a warm
// Workspace, does not allocate.
func TestForwardBackwardToReuses(t *testing.T) {
	long := randInstance(floatScores, 30, 13, 1).c
	short := randInstance(floatScores, 4, 13, 2).c
	var dst decoders.Marginals
	ws := new(decoders.Workspace)
	decoders.ForwardBackwardTo(&dst, long, ws)
	got := decoders.ForwardBackwardTo(&dst, short, ws)
	want, slack := bruteforceOrLog(short)
	checkMarginals(t, short, got, want, slack)
	if allocs := testing.AllocsPerRun(10, func() { decoders.ForwardBackwardTo(&dst, long, ws) }); allocs != 0 {
		t.Errorf("ForwardBackwardTo allocates %v times per call with a warm workspace", allocs)
	}
}

// bruteforceOrLog returns the reference marginals of c and the slack to
// compare with: brute force for chains it can enumerate, else the log-space
// pass.
func bruteforceOrLog(c *decoders.Chain) (*decoders.Marginals, float64) {
	if c.N <= 6 {
		return bruteforce.Marginals(c), 0
	}
	m := decoders.ForwardBackwardLog(c)
	return m, logSpaceSlack(c, m)
}

// A workspace keeps the exponentiated transitions of its last call for the
// next call with the same table. Calls on one workspace that share a table,
// change it in place, change K, or pass none give, bit for bit, what a
// fresh workspace gives.
func TestForwardBackwardTransitionCache(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	a, b := randChain(rng, floatScores, 6, 4), randChain(rng, floatScores, 9, 4)
	b.Trans = a.Trans // one table for both, as in a CRF pass
	edited := randChain(rng, floatScores, 5, 4)
	edited.Trans = a.Trans
	wider := randChain(rng, floatScores, 5, 5)
	none := randChain(rng, noTrans, 5, 4)
	ws := new(decoders.Workspace)
	for i, step := range []struct {
		c    *decoders.Chain
		edit func()
	}{
		{c: a}, {c: b}, {c: a},
		{c: edited, edit: func() { a.Trans[5] += 0.25 }}, // the same slice, changed in place
		{c: wider}, {c: none}, {c: a},
	} {
		if step.edit != nil {
			step.edit()
		}
		got := decoders.ForwardBackward(step.c, ws)
		want := decoders.ForwardBackward(step.c, nil)
		if got.LogZ != want.LogZ || !slices.Equal(got.Node, want.Node) || !slices.Equal(got.Edge, want.Edge) {
			t.Errorf("call %d: a reused workspace gives %v, a fresh one %v", i, got, want)
		}
	}
}
