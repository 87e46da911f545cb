package trainers

import (
	"fmt"
	"math"
	"slices"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

// tableModel is a single instance over an explicit list of labelings (the
// whole output space, truth included). Labeling j has its own indicator
// feature j, so with w set to a score table Score(y) = w[j]; the loss is
// Hamming against the truth, so it decomposes over positions. Every oracle is
// enumeration.
type tableModel struct {
	truth []int
	ys    [][]int
}

func (m *tableModel) index(y []int) int {
	for j, z := range m.ys {
		if slices.Equal(y, z) {
			return j
		}
	}
	panic(fmt.Sprintf("labeling %v is not in the table", y))
}

func (m *tableModel) Len() int             { return 1 }
func (m *tableModel) Dim() int             { return len(m.ys) }
func (m *tableModel) Truth(int) []int      { return m.truth }
func (m *tableModel) Positions(int) int    { return len(m.truth) }
func (m *tableModel) posLoss(c, l int) int { return btoi(l != m.truth[c]) }

func (m *tableModel) Score(_ int, w []float64, y []int) float64 { return w[m.index(y)] }

func (m *tableModel) Loss(_ int, y []int) float64 {
	var l int
	for c, v := range y {
		l += m.posLoss(c, v)
	}
	return float64(l)
}

func (m *tableModel) DeltaFeatures(_ int, y []int) structpred.SparseVec {
	var acc structpred.Accumulator
	acc.Add(int32(m.index(m.truth)), 1)
	acc.Add(int32(m.index(y)), -1)
	return acc.Vec()
}

// argmax returns the first labeling maximising f among those kept.
func (m *tableModel) argmax(f func(y []int) float64, keep func(y []int) bool) (best []int, bestV float64, ok bool) {
	for _, y := range m.ys {
		if keep != nil && !keep(y) {
			continue
		}
		if v := f(y); !ok || v > bestV {
			best, bestV, ok = y, v, true
		}
	}
	return best, bestV, ok
}

func (m *tableModel) notTruth(y []int) bool { return !slices.Equal(y, m.truth) }

func (m *tableModel) LossAugmented(i int, w []float64, scale float64) []int {
	y, _, _ := m.argmax(func(y []int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }, nil)
	return y
}

func (m *tableModel) BestExcluding(i int, w []float64, scale float64) ([]int, bool) {
	y, _, ok := m.argmax(func(y []int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }, m.notTruth)
	return y, ok
}

func (m *tableModel) BestPerLoss(i int, w []float64) ([][]int, []float64, error) {
	ys, scores := make([][]int, len(m.truth)+1), make([]float64, len(m.truth)+1)
	for l := range ys {
		var ok bool
		ys[l], scores[l], ok = m.argmax(func(y []int) float64 { return m.Score(i, w, y) },
			func(y []int) bool { return int(m.Loss(i, y)) == l })
		if !ok {
			scores[l] = math.Inf(-1)
		}
	}
	return ys, scores, nil
}

func (m *tableModel) PositionViolators(i int, w []float64, dst []PositionViolator[[]int]) []PositionViolator[[]int] {
	t := m.Score(i, w, m.truth)
	for c := range m.truth {
		y, v, ok := m.argmax(func(y []int) float64 { return float64(m.posLoss(c, y[c])) * (1 - t + m.Score(i, w, y)) },
			func(y []int) bool { return y[c] != m.truth[c] })
		if ok && v > 0 {
			dst = append(dst, PositionViolator[[]int]{Position: c, Y: y, Score: m.Score(i, w, y), Loss: float64(m.posLoss(c, y[c]))})
		}
	}
	return dst
}

// rangedTable is tableModel plus the optional LossRange that ApproxSlack uses
// to bracket its line search.
type rangedTable struct{ *tableModel }

func (m rangedTable) LossRange(int) (lmin, lmax float64) { return 1, float64(len(m.truth)) }

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// proposed returns the table index of the labeling a constraint was built
// from: A = L·(e_truth − e_y), so y is the index with a negative entry.
func proposed(k structpred.Constraint) int {
	for j, v := range k.A.Val {
		if v < 0 {
			return int(k.A.Idx[j])
		}
	}
	return -1
}

// Claim 3.3's counter-example: truth [0 0 0] and y_j = j leading ones
// (losses 1, 2, 3), with scores 0, −1/2, −13/18, −5/6 and slack ξ = 19/36.
func claim33() (*tableModel, []float64, float64) {
	m := &tableModel{truth: []int{0, 0, 0}, ys: [][]int{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {1, 1, 1}}}
	return m, []float64{0, -1.0 / 2, -13.0 / 18, -5.0 / 6}, 19.0 / 36
}

// (a) By direct computation y2 is the only violator: s_j − ξ/L_j > s − 1 is
// −37/36, −71/72, −109/108 against −1. Catches a mistyped example, on which
// the two tests below would prove nothing.
func TestClaim33OnlyY2Violates(t *testing.T) {
	t.Parallel()
	m, w, xi := claim33()
	for j, want := range []bool{false, false, true, false} {
		y := m.ys[j]
		l := m.Loss(0, y)
		violates := l > 0 && w[j]-xi/l > w[0]-1
		if violates != want {
			t.Errorf("y%d: violator = %v, want %v (s − ξ/L = %v)", j, violates, want, w[j]-xi/l)
		}
	}
}

// (b) For no λ ≥ 0 is y2 the loss-augmented argmax over y ≠ y_i of s + λL
// (it would need λ ≥ 2/9 to beat y1 and λ ≤ 1/9 to beat y3), so no search
// over λ can visit it. Checked directly and through the model's top-2 oracle,
// which is what ApproxSlack calls; catches an oracle that can return y2.
func TestClaim33NoLambdaSelectsY2(t *testing.T) {
	t.Parallel()
	m, w, _ := claim33()
	const steps = 100000
	for k := 0; k <= steps; k++ {
		lambda := 10 * float64(k) / steps
		best, bestV := -1, math.Inf(-1)
		for j := 1; j < len(m.ys); j++ {
			if v := w[j] + lambda*m.Loss(0, m.ys[j]); v > bestV {
				best, bestV = j, v
			}
		}
		if best == 2 {
			t.Fatalf("λ=%v: direct argmax is y2", lambda)
		}
		if y, ok := m.BestExcluding(0, w, lambda); !ok || m.index(y) == 2 || m.index(y) != best {
			t.Fatalf("λ=%v: BestExcluding = %v (ok %v), direct argmax y%d", lambda, y, ok, best)
		}
	}
}

// (c) The ApproxSlack separator does not propose y2: its search visits y1
// (λ < 1/6) and y3 (λ > 1/6, e.g. its upper end ξ/L_ε²) and returns y3, the
// one with the higher s − ξ/L (−109/108 against −111/108), which is not
// violated beyond ξ, so cutting-plane would stop; exact slack scaling
// proposes y2 = argmax L(1 − s_truth + s), violated by 10/18 > ξ. Catches an
// ApproxSlack that is secretly exact or ranks its visits by anything but
// s − ξ/L, and an exact slack oracle that picks by score alone.
func TestClaim33ApproxSlackMissesExactViolator(t *testing.T) {
	t.Parallel()
	m, w, xi := claim33()
	slack := func(int) float64 { return xi }
	for _, model := range []Model[[]int]{m, rangedTable{m}} {
		for _, eps := range []float64{1e-6, 1e-3, 0.01} {
			name := fmt.Sprintf("%T eps=%v", model, eps)
			approx, err := NewSeparator(ApproxSlack, model, eps)
			if err != nil {
				t.Fatal(err)
			}
			got, err := approx.Separate(0, w, slack, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || proposed(got[0]) != 3 {
				t.Errorf("%s: ApproxSlack proposed %+v, want y3's constraint", name, got)
			}
			for _, k := range got {
				if v := k.Violation(w); v > xi {
					t.Errorf("%s: ApproxSlack proposal violated by %v > ξ = %v", name, v, xi)
				}
			}

			exact, err := NewSeparator(Slack, model, eps)
			if err != nil {
				t.Fatal(err)
			}
			got, err = exact.Separate(0, w, slack, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || proposed(got[0]) != 2 || got[0].B != 2 || got[0].Loss != 2 {
				t.Fatalf("%s: exact slack proposed %+v, want y2's constraint", name, got)
			}
			if v := got[0].Violation(w); math.Abs(v-10.0/18) > 1e-12 || v <= xi {
				t.Errorf("%s: exact slack violation %v, want 10/18 > ξ = %v", name, v, xi)
			}
		}
	}
}

// section41 is the 4-position example of section 4.1: every labeling of
// {0,1}^4, truth y0 = [0 0 0 0], and w giving score 1 to y0, y1 = [1 1 0 0]
// and (if y2High) y2 = [0 0 1 0], 0 to every other labeling.
func section41(y2High bool) (*tableModel, []float64) {
	m := &tableModel{truth: []int{0, 0, 0, 0}}
	for b := range 16 {
		m.ys = append(m.ys, []int{b >> 3 & 1, b >> 2 & 1, b >> 1 & 1, b & 1})
	}
	w := make([]float64, len(m.ys))
	w[m.index([]int{0, 0, 0, 0})] = 1
	w[m.index([]int{1, 1, 0, 0})] = 1
	if y2High {
		w[m.index([]int{0, 0, 1, 0})] = 1
	}
	return m, w
}

func hinge(x float64) float64 { return math.Max(0, x) }

// bruteLosses enumerates the slack loss max_y L(y)[1 − w·δf(y)]_+ and the
// PosLearn per-position terms max_{y: y_c≠y0_c} L_c(y_c)[1 − w·δf(y)]_+.
func bruteLosses(m *tableModel, w []float64) (slack float64, pos []float64) {
	pos = make([]float64, len(m.truth))
	for _, y := range m.ys {
		h := hinge(1 - m.DeltaFeatures(0, y).Dot(w))
		slack = math.Max(slack, m.Loss(0, y)*h)
		for c := range pos {
			if y[c] != m.truth[c] {
				pos[c] = math.Max(pos[c], float64(m.posLoss(c, y[c]))*h)
			}
		}
	}
	return slack, pos
}

// Section 4.1: slack loss 2 and PosLearn loss 3; lowering y2's score to 0
// leaves the slack loss at 2 but lowers PosLearn's to 2. Computed by
// enumeration and as the summed violations of the separators' constraints at
// ξ = 0. Catches a PosLearn separator that drops or merges positions (it
// would equal slack) and a slack separator that sums rather than maximises.
func TestSection41SlackVersusPosLearn(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		y2High    bool
		wantSlack float64
		wantPos   []float64
	}{
		{"y0 y1 y2 score 1", true, 2, []float64{1, 1, 1, 0}},
		{"y2 scores 0", false, 2, []float64{1, 1, 0, 0}},
	}
	zero := func(int) float64 { return 0 }
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, w := section41(tt.y2High)
			slack, pos := bruteLosses(m, w)
			if slack != tt.wantSlack || !slices.Equal(pos, tt.wantPos) {
				t.Fatalf("enumeration: slack %v per-position %v, want %v %v", slack, pos, tt.wantSlack, tt.wantPos)
			}

			sep, err := NewSeparator(Slack, Model[[]int](m), 0.01)
			if err != nil {
				t.Fatal(err)
			}
			cons, err := sep.Separate(0, w, zero, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(cons) != 1 || cons[0].Violation(w) != tt.wantSlack {
				t.Errorf("slack separator: %+v, want one constraint violated by %v", cons, tt.wantSlack)
			}

			sep, err = NewSeparator(PosLearn, Model[[]int](m), 0.01)
			if err != nil {
				t.Fatal(err)
			}
			if sep.Groups() != 4 {
				t.Errorf("PosLearn groups = %d, want 4", sep.Groups())
			}
			cons, err = sep.Separate(0, w, zero, nil)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]float64, 4)
			for _, k := range cons {
				if got[k.Group] != 0 {
					t.Fatalf("PosLearn: two constraints for position %d", k.Group)
				}
				got[k.Group] = k.Violation(w)
			}
			if !slices.Equal(got, tt.wantPos) {
				t.Errorf("PosLearn per-position violations %v, want %v", got, tt.wantPos)
			}
		})
	}
}

// Regression: when the truth is the only labeling, BestExcluding reports
// ok = false and ApproxSlack used to index an empty list of visited labelings
// (for models without LossRange). Expected: no constraint, no error.
func TestApproxSlackSingleLabeling(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sep  func() (Separator, error)
	}{
		{"table with one labeling", func() (Separator, error) {
			return NewSeparator(ApproxSlack, Model[[]int](&tableModel{truth: []int{0}, ys: [][]int{{0}}}), 0.01)
		}},
		{"toy with one class", func() (Separator, error) {
			return NewSeparator[int](ApproxSlack, newToy([][]float64{{1}}, []int{0}, 1), 0.01)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sep, err := tt.sep()
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("Separate panicked: %v", r)
				}
			}()
			got, err := sep.Separate(0, []float64{0}, func(int) float64 { return 0 }, nil)
			if err != nil || len(got) != 0 {
				t.Errorf("Separate = %v, %v; want no constraint, no error", got, err)
			}
		})
	}
}
