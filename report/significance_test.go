package report

import (
	"math"
	"testing"

	"github.com/maxmargin/repro/metrics"
)

// def is the registered metric name.
func def(t *testing.T, name string) metrics.Def {
	t.Helper()
	d, ok := metrics.Lookup(name)
	if !ok {
		t.Fatalf("no metric %q", name)
	}
	return d
}

// outcomesOf builds outcomes of one sentence per entry: right[s] says which
// tokens are right, spans[s] = {true, predicted, matched}.
func outcomesOf(right [][]bool, spans [][3]int) *Outcomes {
	var o Outcomes
	for s := range right {
		o.Add(right[s], spans[s][0], spans[s][1], spans[s][2])
	}
	return &o
}

func TestMcNemarByHand(t *testing.T) {
	// 20 tokens in 2 sentences: A alone right on 10, B alone on 2, both on 8.
	ra, rb := make([]bool, 20), make([]bool, 20)
	for i := range 20 {
		ra[i] = i < 10 || i >= 12
		rb[i] = i >= 10
	}
	sp := [][3]int{{1, 1, 1}, {1, 1, 1}}
	a := outcomesOf([][]bool{ra[:10], ra[10:]}, sp)
	b := outcomesOf([][]bool{rb[:10], rb[10:]}, sp)
	tokenError := def(t, metrics.TokenError)
	got, err := McNemar(a, b, tokenError)
	if err != nil {
		t.Fatal(err)
	}
	// Exact: 2·P(X ≤ 2), X ~ Bin(12, ½) = 2·(1 + 12 + 66)/4096.
	// Corrected chi-square: (|10 − 2| − 1)²/12 = 49/12, p = P(χ²₁ ≥ 49/12).
	const exact, chi, chiP = 2 * 79.0 / 4096, 49.0 / 12, 0.04331
	if got.OnlyA != 10 || got.OnlyB != 2 || got.Tokens != 20 || math.Abs(got.MeanDiff-(-40)) > 1e-12 {
		t.Errorf("counts %+v", got)
	}
	if math.Abs(got.P-exact) > 1e-12 || math.Abs(got.ChiSquare-chi) > 1e-12 || math.Abs(got.ChiSquareP-chiP) > 1e-4 {
		t.Errorf("p %v (want %v), chi² %v (want %v), its p %v (want %v)", got.P, exact, got.ChiSquare, chi, got.ChiSquareP, chiP)
	}
	// Swapping A and B flips the difference and keeps p.
	back, _ := McNemar(b, a, tokenError)
	if back.P != got.P || back.MeanDiff != -got.MeanDiff || back.OnlyA != got.OnlyB {
		t.Errorf("swapped %+v", back)
	}
	// Identical systems: nothing discordant, p = 1.
	if same, _ := McNemar(a, a, tokenError); same.P != 1 || same.MeanDiff != 0 {
		t.Errorf("identical systems %+v", same)
	}
	// Different test sets cannot be paired.
	short := outcomesOf([][]bool{ra[:10]}, sp[:1])
	if _, err := McNemar(a, short, tokenError); err == nil {
		t.Error("paired outcomes of different test sets")
	}
}

// McNemar's difference is the tested metric's, A − B: an error's for an
// error, an accuracy's for a score, so that its sign reads as the tables'
// other differences do.
func TestMcNemarDiffIsTheMetrics(t *testing.T) {
	t.Parallel()
	// Four one-token items (sentences whose tree is right or not): A gets
	// 3 right, B 1; A alone on 2, B alone on none.
	a := outcomesOf([][]bool{{true}, {true}, {true}, {false}}, [][3]int{{1, 1, 1}, {1, 1, 1}, {1, 1, 1}, {1, 1, 0}})
	b := outcomesOf([][]bool{{true}, {false}, {false}, {false}}, [][3]int{{1, 1, 1}, {1, 1, 0}, {1, 1, 0}, {1, 1, 0}})
	tests := []struct {
		metric string
		want   float64 // A − B in points
	}{
		{metrics.TreeAccuracy, +50},    // 75 % − 25 %
		{metrics.ErrorRate, -50},       // 25 % − 75 %
		{metrics.TokenError, -50},      // as the error rate
		{metrics.AttachmentError, -50}, // an error too
	}
	for _, tt := range tests {
		got, err := McNemar(a, b, def(t, tt.metric))
		if err != nil {
			t.Fatal(err)
		}
		// 2·P(X ≤ 0), X ~ Bin(2, ½) = 2/4.
		if got.MeanDiff != tt.want || got.OnlyA != 2 || got.OnlyB != 0 || got.P != 0.5 {
			t.Errorf("%s: %+v, want diff %v, only A 2, only B 0, p 0.5", tt.metric, got, tt.want)
		}
	}
}

// The sign test pools the items of several splits and counts, per item,
// which system is better on the metric alone; counts and p by hand.
func TestSignByHand(t *testing.T) {
	t.Parallel()
	// Span counts {true, predicted, matched} of five sentences in two
	// splits, and their sentence F1 (2·matched/(true+predicted)):
	//   split 1: A {4,4,4}=100 {2,3,1}=40  {2,2,1}=50
	//            B {4,4,3}=75  {2,2,1}=50  {2,6,2}=50
	//   split 2: A {1,1,1}=100 {5,5,4}=80
	//            B {1,1,0}=0   {5,5,5}=100
	// A better on sentences 1 and 4, B on 2 and 5, a tie on 3 (by value:
	// its counts differ).
	one := func(n int, right bool) []bool {
		r := make([]bool, n)
		for i := range r {
			r[i] = right
		}
		return r
	}
	a1 := outcomesOf([][]bool{one(4, true), one(2, true), one(3, true)}, [][3]int{{4, 4, 4}, {2, 3, 1}, {2, 2, 1}})
	b1 := outcomesOf([][]bool{one(4, false), one(2, true), one(3, true)}, [][3]int{{4, 4, 3}, {2, 2, 1}, {2, 6, 2}})
	a2 := outcomesOf([][]bool{one(1, true), one(5, false)}, [][3]int{{1, 1, 1}, {5, 5, 4}})
	b2 := outcomesOf([][]bool{one(1, false), one(5, true)}, [][3]int{{1, 1, 0}, {5, 5, 5}})
	// Exact-tree outcomes of the same five sentences (one token each):
	// A right on 1, 2, 3, 4; B on 2, 3, 5.
	tree := func(right ...bool) *Outcomes {
		var rs [][]bool
		var sp [][3]int
		for _, r := range right {
			rs, sp = append(rs, []bool{r}), append(sp, [3]int{1, 1, 0})
		}
		return outcomesOf(rs, sp)
	}
	ta1, tb1 := tree(true, true, true), tree(false, true, true)
	ta2, tb2 := tree(true, false), tree(false, true)
	// Eleven splits of one item: A right on 0..9, B on 9 and 10, so A is
	// better on 9, B on 1, a tie on 1: 2·P(X ≤ 1), X ~ Bin(10, ½) =
	// 2·11/1024.
	var many [2][]*Outcomes
	for i := range 11 {
		many[0] = append(many[0], tree(i < 10))
		many[1] = append(many[1], tree(i >= 9))
	}
	tests := []struct {
		name             string
		metric           string
		a, b             []*Outcomes
		betterA, betterB int
		ties, splits     int
		p                float64
	}{
		// 2·P(X ≤ 2), X ~ Bin(4, ½) = 2·11/16, capped at 1.
		{"bracket F1, two splits", metrics.BracketF1, []*Outcomes{a1, a2}, []*Outcomes{b1, b2}, 2, 2, 1, 2, 1},
		{"span F1 reads the same counts", metrics.SpanF1, []*Outcomes{a1, a2}, []*Outcomes{b1, b2}, 2, 2, 1, 2, 1},
		{"swapped", metrics.BracketF1, []*Outcomes{b1, b2}, []*Outcomes{a1, a2}, 2, 2, 1, 2, 1},
		{"one split", metrics.BracketF1, []*Outcomes{a1}, []*Outcomes{b1}, 1, 1, 1, 1, 1},
		// A alone right on 1 and 4, B alone on 5: 2·P(X ≤ 1), X ~ Bin(3, ½) = 2·4/8.
		{"exact trees", metrics.TreeAccuracy, []*Outcomes{ta1, ta2}, []*Outcomes{tb1, tb2}, 2, 1, 2, 2, 1},
		// Token shares of the span outcomes: A 1, 1, 1 | 1, 0; B 0, 1, 1 | 0, 1.
		{"token error: sentence accuracy", metrics.TokenError, []*Outcomes{a1, a2}, []*Outcomes{b1, b2}, 2, 1, 2, 2, 1},
		{"eleven splits", metrics.TreeAccuracy, many[0], many[1], 9, 1, 1, 11, 2 * 11.0 / 1024},
		{"identical", metrics.BracketF1, []*Outcomes{a1, a2}, []*Outcomes{a1, a2}, 0, 0, 5, 2, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := def(t, tt.metric)
			if !d.Has(metrics.Sign) {
				d.Tests |= metrics.Sign // the test, not the registry's choice of metrics
			}
			got, err := Sign(tt.a, tt.b, d)
			if err != nil {
				t.Fatal(err)
			}
			want := SignTest{Items: tt.betterA + tt.betterB + tt.ties, Splits: tt.splits, BetterA: tt.betterA, BetterB: tt.betterB, Ties: tt.ties}
			p := got.P
			got.P = 0
			if got != want || math.Abs(p-tt.p) > 1e-12 {
				t.Errorf("got %+v p %v, want %+v p %v", got, p, want, tt.p)
			}
		})
	}
}

func TestSignRefuses(t *testing.T) {
	t.Parallel()
	a := outcomesOf([][]bool{{true}, {true}}, [][3]int{{1, 1, 1}, {1, 1, 1}})
	short := outcomesOf([][]bool{{true}}, [][3]int{{1, 1, 1}})
	f1 := def(t, metrics.BracketF1)
	tests := []struct {
		name string
		a, b []*Outcomes
		d    metrics.Def
	}{
		{"no sign test declared", []*Outcomes{a}, []*Outcomes{a}, def(t, metrics.CostError)},
		{"different test sets", []*Outcomes{a}, []*Outcomes{short}, f1},
		{"different numbers of splits", []*Outcomes{a, a}, []*Outcomes{a}, f1},
		{"no splits", nil, nil, f1},
		{"no outcomes", []*Outcomes{a}, []*Outcomes{nil}, f1},
	}
	for _, tt := range tests {
		if _, err := Sign(tt.a, tt.b, tt.d); err == nil {
			t.Errorf("%s: accepted", tt.name)
		}
	}
}

func TestSpanF1Bootstrap(t *testing.T) {
	// 40 sentences of 2 true spans; A finds both in 36, B in 28.
	var right [][]bool
	var sa, sb [][3]int
	for s := range 40 {
		right = append(right, []bool{true, true})
		ma, mb := 2, 2
		if s%10 == 0 {
			ma = 1
		}
		if s%5 == 0 || s%5 == 1 {
			mb = 1
		}
		sa, sb = append(sa, [3]int{2, 2, ma}), append(sb, [3]int{2, 2, mb})
	}
	a, b := outcomesOf(right, sa), outcomesOf(right, sb)
	got, err := SpanF1Bootstrap(a, b, 2000, 7)
	if err != nil {
		t.Fatal(err)
	}
	// F1 = matched/true here: A 76/80, B 64/80.
	if math.Abs(got.Diff-15) > 1e-9 || !(got.Low > 0 && got.High > got.Low && got.Low <= 15 && got.High >= 15) || got.P > 0.01 {
		t.Errorf("A clearly better: %+v", got)
	}
	again, _ := SpanF1Bootstrap(a, b, 2000, 7)
	if again != got {
		t.Error("same seed, different result")
	}
	swapped, _ := SpanF1Bootstrap(b, a, 2000, 7)
	if swapped.Diff != -got.Diff || swapped.P != got.P || math.Abs(swapped.Low+got.High) > 1e-9 {
		t.Errorf("swapped %+v vs %+v", swapped, got)
	}
	if same, _ := SpanF1Bootstrap(a, a, 500, 1); same.P != 1 || same.Diff != 0 {
		t.Errorf("identical systems %+v", same)
	}
	if _, err := SpanF1Bootstrap(a, b, 0, 1); err == nil {
		t.Error("no resamples accepted")
	}
}
