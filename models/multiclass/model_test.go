package multiclass_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/internal/forktest"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
)

var zeroCost decoders.Cost

// randomData draws n instances over d features and k classes: dense
// vectors, or sparse ones with about half the features present.
func randomData(rng *rand.Rand, n, d, k int, sparse bool) []multiclass.Instance {
	data := make([]multiclass.Instance, n)
	for i := range data {
		var x structpred.SparseVec
		for j := range d {
			if sparse && rng.IntN(2) == 0 {
				continue
			}
			x.Idx = append(x.Idx, int32(j))
			x.Val = append(x.Val, rng.NormFloat64())
		}
		data[i] = multiclass.Instance{X: x, Label: rng.IntN(k)}
	}
	return data
}

// randomCost draws a cost matrix with zero diagonal, some zero
// off-diagonal entries and repeated values; integer or not.
func randomCost(rng *rand.Rand, k int, integer bool) decoders.Cost {
	c := decoders.Cost{K: k, M: make([]float64, k*k)}
	for a := range k {
		for b := range k {
			if a == b || rng.IntN(5) == 0 {
				continue
			}
			if integer {
				c.M[a*k+b] = float64(1 + rng.IntN(3))
			} else {
				c.M[a*k+b] = []float64{0.1, 0.35, 1, 2.5}[rng.IntN(4)]
			}
		}
	}
	return c
}

func randomW(rng *rand.Rand, n int) []float64 {
	w := make([]float64, n)
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	return w
}

// jointFeatures is f(x, y) = e_y ⊗ x as a dense vector of K·D entries,
// built without the model.
func jointFeatures(x structpred.SparseVec, y, d, k int) []float64 {
	f := make([]float64, d*k)
	for e, j := range x.Idx {
		f[y*d+int(j)] = x.Val[e]
	}
	return f
}

func dot(a, b []float64) float64 {
	var s float64
	for j := range a {
		s += a[j] * b[j]
	}
	return s
}

// augmented returns s_i(y) + scale·Δ(y_i, y) for every class, by the
// dense joint feature map and the cost matrix.
func augmented(x multiclass.Instance, w []float64, cost decoders.Cost, scale float64, d int) []float64 {
	k := cost.K
	v := make([]float64, k)
	for y := range k {
		v[y] = dot(jointFeatures(x.X, y, d, k), w) + scale*cost.M[x.Label*k+y]
	}
	return v
}

func TestNewRejectsBadInput(t *testing.T) {
	t.Parallel()
	vec := func(idx []int32, val []float64) structpred.SparseVec { return structpred.SparseVec{Idx: idx, Val: val} }
	tests := []struct {
		name string
		data []multiclass.Instance
		d, k int
		cost decoders.Cost
		want string
	}{
		{"no classes", nil, 2, 0, zeroCost, "0 classes"},
		{"cost size", nil, 2, 3, decoders.Hamming(2), "cost matrix is for 2 classes"},
		{"cost diagonal", nil, 2, 2, decoders.Cost{K: 2, M: []float64{1, 1, 1, 0}}, "diagonal"},
		{"negative cost", nil, 2, 2, decoders.Cost{K: 2, M: []float64{0, -1, 1, 0}}, "non-negative"},
		{"too many weights", nil, 1 << 30, 4, zeroCost, "beyond the int32"},
		{"label", []multiclass.Instance{{X: vec(nil, nil), Label: 2}}, 2, 2, zeroCost, "instance 0: class 2 outside [0, 2)"},
		{"index", []multiclass.Instance{{}, {X: vec([]int32{2}, []float64{1}), Label: 1}}, 2, 2, zeroCost, "instance 1: feature index 2 outside [0, 2)"},
		{"order", []multiclass.Instance{{X: vec([]int32{1, 1}, []float64{1, 1})}}, 2, 2, zeroCost, "not strictly increasing"},
		{"lengths", []multiclass.Instance{{X: vec([]int32{1}, nil)}}, 2, 2, zeroCost, "1 indices but 0 values"},
		{"nan", []multiclass.Instance{{X: vec([]int32{0}, []float64{math.NaN()})}}, 2, 2, zeroCost, "value NaN"},
	}
	for _, tt := range tests {
		_, err := multiclass.New(tt.data, tt.d, tt.k, tt.cost)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to mention %q", tt.name, err, tt.want)
		}
	}
}

// Scores, δf and their shortcuts agree with the joint feature map built
// densely.
func TestJointFeatureMap(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	const n, d, k = 6, 5, 4
	for _, sparse := range []bool{false, true} {
		data := randomData(rng, n, d, k, sparse)
		m, err := multiclass.New(data, d, k, zeroCost)
		if err != nil {
			t.Fatal(err)
		}
		if m.Dim() != k*d || m.Len() != n {
			t.Fatalf("Dim %d Len %d", m.Dim(), m.Len())
		}
		w := randomW(rng, m.Dim())
		for i, x := range data {
			ft := jointFeatures(x.X, x.Label, d, k)
			for y := range k {
				f := jointFeatures(x.X, y, d, k)
				if got, want := m.Score(i, w, y), dot(f, w); math.Abs(got-want) > 1e-12 {
					t.Errorf("Score(%d, %d) = %v, want %v", i, y, got, want)
				}
				df := m.DeltaFeatures(i, y)
				for e := 1; e < len(df.Idx); e++ {
					if df.Idx[e] <= df.Idx[e-1] {
						t.Fatalf("δf indices not increasing: %v", df.Idx)
					}
				}
				dense := make([]float64, m.Dim())
				df.AddTo(dense, 1)
				added := make([]float64, m.Dim())
				m.AddDelta(i, y, 2, func(j int32, v float64) { added[j] += v / 2 })
				for j := range dense {
					if want := ft[j] - f[j]; dense[j] != want || added[j] != want {
						t.Fatalf("instance %d class %d: δf[%d] = %v (AddDelta %v), want %v", i, y, j, dense[j], added[j], want)
					}
				}
				if got, want := m.DeltaScore(i, w, y), m.Score(i, w, x.Label)-m.Score(i, w, y); math.Abs(got-want) > 1e-12 {
					t.Errorf("DeltaScore(%d, %d) = %v, want %v", i, y, got, want)
				}
			}
			if got, want := m.Predict(x.X, w), m.LossAugmented(i, w, 0); got != want {
				t.Errorf("Predict = %d, LossAugmented at scale 0 = %d", got, want)
			}
		}
	}
}

// Every decoder agrees with enumerating the classes under the dense
// feature map, for integer and real costs with zero off-diagonal entries.
func TestDecodersMatchEnumeration(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	const n, d, k = 8, 4, 5
	for trial := range 20 {
		data := randomData(rng, n, d, k, trial%2 == 0)
		cost := randomCost(rng, k, trial%3 == 0)
		m, err := multiclass.New(data, d, k, cost)
		if err != nil {
			t.Fatal(err)
		}
		w := randomW(rng, m.Dim())
		for i, x := range data {
			for _, scale := range []float64{0, 0.5, 1, 3} {
				v := augmented(x, w, cost, scale, d)
				if got, want := v[m.LossAugmented(i, w, scale)], slices.Max(v); got != want {
					t.Errorf("LossAugmented value %v, want %v", got, want)
				}
				y, ok := m.BestExcluding(i, w, scale)
				wrong := slices.Delete(slices.Clone(v), x.Label, x.Label+1)
				if !ok || y == x.Label || v[y] != slices.Max(wrong) {
					t.Errorf("BestExcluding = %d %v, value %v, want %v", y, ok, v[y], slices.Max(wrong))
				}
				for _, kk := range []int{1, 3, k, k + 2} {
					best := m.KBest(i, w, scale, kk)
					sorted := slices.Clone(v)
					slices.Sort(sorted)
					slices.Reverse(sorted)
					if len(best) != min(kk, k) {
						t.Fatalf("KBest(%d) gave %d", kk, len(best))
					}
					for r, y := range best {
						if v[y] != sorted[r] {
							t.Errorf("KBest(%d)[%d] value %v, want %v", kk, r, v[y], sorted[r])
						}
					}
				}
			}
			checkBestPerLoss(t, m, i, w, augmented(x, w, cost, 0, d), cost.M[x.Label*k:(x.Label+1)*k])
			checkViolators(t, m, i, w, augmented(x, w, cost, 0, d), cost.M[x.Label*k:(x.Label+1)*k], x.Label)
		}
	}
}

// checkBestPerLoss: one entry per distinct loss value, increasing, each
// the best score of its loss.
func checkBestPerLoss(t *testing.T, m *multiclass.Model, i int, w, s, row []float64) {
	t.Helper()
	ys, scores, err := m.BestPerLoss(i, w)
	if err != nil {
		t.Fatal(err)
	}
	best := map[float64]float64{}
	for y, c := range row {
		if b, ok := best[c]; !ok || s[y] > b {
			best[c] = s[y]
		}
	}
	if len(ys) != len(best) || len(scores) != len(ys) {
		t.Fatalf("BestPerLoss gave %d entries for %d loss values", len(ys), len(best))
	}
	for e, y := range ys {
		if e > 0 && !(row[y] > row[ys[e-1]]) {
			t.Errorf("losses not increasing: %v after %v", row[y], row[ys[e-1]])
		}
		if scores[e] != best[row[y]] || s[y] != scores[e] {
			t.Errorf("loss %v: score %v (class %d scores %v), want %v", row[y], scores[e], y, s[y], best[row[y]])
		}
	}
}

// checkViolators: the single position's violator maximises
// Δ(y)·(1 − s(y_i) + s(y)) over Δ(y) > 0, present iff that is positive.
func checkViolators(t *testing.T, m *multiclass.Model, i int, w, s, row []float64, g int) {
	t.Helper()
	want := 0.0
	for y, c := range row {
		if c > 0 {
			want = max(want, c*(1-s[g]+s[y]))
		}
	}
	got := m.PositionViolators(i, w, nil)
	if m.Positions(i) != 1 || len(got) > 1 || (len(got) == 1) != (want > 0) {
		t.Fatalf("%d violators for max value %v", len(got), want)
	}
	if len(got) == 1 {
		v := got[0]
		if v.Position != 0 || v.Loss != row[v.Y] || v.Score != s[v.Y] || v.Loss*(1-s[g]+v.Score) != want {
			t.Errorf("violator %+v, want value %v", v, want)
		}
	}
}

// Forks used from several goroutines at once answer as the model does
// alone (run with -race: a scratch buffer still shared is a data race).
func TestForksAnswerAsTheModelAlone(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	data := randomData(rng, 12, 3, 4, true)
	m, err := multiclass.New(data, 3, 4, randomCost(rng, 4, false))
	if err != nil {
		t.Fatal(err)
	}
	w := randomW(rng, m.Dim())
	forktest.Concurrent(t, m, m.Len(),
		func(m *multiclass.Model) *multiclass.Model { return m.Fork().(*multiclass.Model) },
		func(m *multiclass.Model, i int) string {
			var b strings.Builder
			y := m.LossAugmented(i, w, 1)
			ex, _ := m.BestExcluding(i, w, 0.5)
			ys, scores, _ := m.BestPerLoss(i, w)
			slack, _ := m.SlackLogLoss(i, w, 2, 1, nil)
			fmt.Fprintln(&b, "predict", m.Predict(data[i].X, w), "loss-augmented", y, "delta", m.DeltaFeatures(i, y), "excluding", ex)
			fmt.Fprintln(&b, "per loss", ys, scores, "violators", m.PositionViolators(i, w, nil), "k-best", m.KBest(i, w, 1, 4))
			fmt.Fprintln(&b, "log losses", m.LogLoss(i, w, 2, 1, nil), slack)
			return b.String()
		})
}

// An input from outside the training data may have features beyond D:
// they carry no weight.
func TestPredictIgnoresUnknownFeatures(t *testing.T) {
	t.Parallel()
	m, err := multiclass.New(nil, 2, 2, zeroCost)
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{1, 0, 0, 2} // class 0 likes feature 0, class 1 feature 1
	x := structpred.SparseVec{Idx: []int32{-1, 0, 2, 7}, Val: []float64{100, 1, 100, 100}}
	if got := m.Predict(x, w); got != 0 {
		t.Errorf("Predict = %d, want 0 (only feature 0 is known)", got)
	}
}
