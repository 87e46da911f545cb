package report

import (
	"math"
	"testing"
)

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
	got, err := McNemar(a, b)
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
	back, _ := McNemar(b, a)
	if back.P != got.P || back.MeanDiff != -got.MeanDiff || back.OnlyA != got.OnlyB {
		t.Errorf("swapped %+v", back)
	}
	// Identical systems: nothing discordant, p = 1.
	if same, _ := McNemar(a, a); same.P != 1 || same.MeanDiff != 0 {
		t.Errorf("identical systems %+v", same)
	}
	// Different test sets cannot be paired.
	short := outcomesOf([][]bool{ra[:10]}, sp[:1])
	if _, err := McNemar(a, short); err == nil {
		t.Error("paired outcomes of different test sets")
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
