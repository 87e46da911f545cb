package multiclass_test

import (
	"context"
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
	"github.com/maxmargin/repro/trainers"
)

// tinyTree is the embedding of a taxonomy over 4 classes written out by
// hand (package taxonomy builds such rows from a tree):
//
//	root ─┬─ g(0) ─┬─ h(1) ─┬─ a(2)
//	      │        │        └─ b(3)
//	      │        └─ c(4)
//	      └─ d(5)
//
// with its tree loss (heights in the tree padded to depth 3).
func tinyTree() (multiclass.Embedding, decoders.Cost) {
	row := func(nodes ...int32) structpred.SparseVec {
		return structpred.SparseVec{Idx: nodes, Val: slices.Repeat([]float64{1}, len(nodes))}
	}
	emb := multiclass.Embedding{M: 6, Rows: []structpred.SparseVec{row(0, 1, 2), row(0, 1, 3), row(0, 4), row(5)}}
	cost := decoders.Cost{K: 4, M: []float64{0, 1, 2, 3, 1, 0, 2, 3, 2, 2, 0, 3, 3, 3, 3, 0}}
	return emb, cost
}

// embJoint is f(x, y) = Λ(y) ⊗ x as a dense vector of M·D entries, built
// without the model.
func embJoint(x structpred.SparseVec, y, d int, emb multiclass.Embedding) []float64 {
	f := make([]float64, d*emb.M)
	r := emb.Rows[y]
	for e, n := range r.Idx {
		for k, j := range x.Idx {
			f[int(n)*d+int(j)] += r.Val[e] * x.Val[k]
		}
	}
	return f
}

func dense(v structpred.SparseVec, dim int) []float64 {
	out := make([]float64, dim)
	for e, j := range v.Idx {
		out[j] += v.Val[e]
	}
	return out
}

func close(a, b float64) bool { return math.Abs(a-b) <= 1e-12*max(1, math.Abs(a), math.Abs(b)) }

// The embedded model's scores, feature differences and every decoder
// agree with enumeration over the dense joint feature map Λ(y) ⊗ x.
func TestEmbeddedMatchesEnumeration(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	emb, tree := tinyTree()
	const n, d, k = 8, 3, 4
	for trial := range 10 {
		data := randomData(rng, n, d, k, trial%2 == 0)
		cost := tree
		if trial%3 == 0 {
			cost = randomCost(rng, k, false)
		}
		m, err := multiclass.NewEmbedded(data, d, emb, cost)
		if err != nil {
			t.Fatal(err)
		}
		if m.Dim() != emb.M*d {
			t.Fatalf("Dim %d, want %d", m.Dim(), emb.M*d)
		}
		w := randomW(rng, m.Dim())
		for i, x := range data {
			s := make([]float64, k)
			for y := range k {
				s[y] = dot(embJoint(x.X, y, d, emb), w)
			}
			for y := range k {
				if !close(m.Score(i, w, y), s[y]) {
					t.Errorf("Score(%d, %d) = %v, want %v", i, y, m.Score(i, w, y), s[y])
				}
				df := dense(m.DeltaFeatures(i, y), m.Dim())
				want := embJoint(x.X, x.Label, d, emb)
				for j, v := range embJoint(x.X, y, d, emb) {
					want[j] -= v
				}
				for j := range df {
					if !close(df[j], want[j]) {
						t.Fatalf("DeltaFeatures(%d, %d)[%d] = %v, want %v", i, y, j, df[j], want[j])
					}
				}
				added := make([]float64, m.Dim())
				m.AddDelta(i, y, 2, func(j int32, v float64) { added[j] += v })
				for j := range added {
					if !close(added[j], 2*want[j]) {
						t.Fatalf("AddDelta(%d, %d)[%d] = %v, want %v", i, y, j, added[j], 2*want[j])
					}
				}
				if got := m.DeltaScore(i, w, y); !close(got, s[x.Label]-s[y]) {
					t.Errorf("DeltaScore(%d, %d) = %v, want %v", i, y, got, s[x.Label]-s[y])
				}
				if cw := m.ClassWeights(w, y); !close(x.X.Dot(cw), s[y]) {
					t.Errorf("ClassWeights(%d)·x = %v, want %v", y, x.X.Dot(cw), s[y])
				}
			}
			row := cost.M[x.Label*k : (x.Label+1)*k]
			for _, scale := range []float64{0, 0.5, 1, 3} {
				v := make([]float64, k)
				for y := range k {
					v[y] = s[y] + scale*row[y]
				}
				if got := m.LossAugmented(i, w, scale); !close(v[got], slices.Max(v)) {
					t.Errorf("LossAugmented value %v, want %v", v[got], slices.Max(v))
				}
			}
			ys, scores, _ := m.BestPerLoss(i, w)
			for e, y := range ys {
				for y2 := range k {
					if row[y2] == row[y] && s[y2] > scores[e]+1e-12 {
						t.Errorf("BestPerLoss: class %d beats %d at loss %v", y2, y, row[y])
					}
				}
			}
		}
	}
}

// The identity embedding computes exactly what the flat model does.
func TestIdentityEmbeddingIsFlat(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(33, 34))
	const n, d, k = 6, 4, 5
	data := randomData(rng, n, d, k, true)
	cost := randomCost(rng, k, false)
	flat, err := multiclass.New(data, d, k, cost)
	if err != nil {
		t.Fatal(err)
	}
	emb, err := multiclass.NewEmbedded(data, d, multiclass.Identity(k), cost)
	if err != nil {
		t.Fatal(err)
	}
	w := randomW(rng, flat.Dim())
	answer := func(m *multiclass.Model, i int) string {
		grad := make([]float64, m.Dim())
		ll := m.LogLoss(i, w, 2, 1, grad)
		sl, _ := m.SlackLogLoss(i, w, 0.5, 1, grad)
		y := m.LossAugmented(i, w, 1)
		return fmt.Sprint(y, m.DeltaFeatures(i, (y+1)%k), m.KBest(i, w, 1, 3), ll, sl, grad)
	}
	for i := range n {
		if a, b := answer(flat, i), answer(emb, i); a != b {
			t.Errorf("instance %d: flat %s, identity embedding %s", i, a, b)
		}
	}
}

// The log-linear losses' gradients through an embedding match finite
// differences.
func TestEmbeddedLogLossGradients(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(35, 36))
	emb, cost := tinyTree()
	const n, d = 4, 2
	m, err := multiclass.NewEmbedded(randomData(rng, n, d, 4, false), d, emb, cost)
	if err != nil {
		t.Fatal(err)
	}
	w := randomW(rng, m.Dim())
	for i := range n {
		for name, f := range logLosses(m, i, 1.5, 0.5) {
			grad := make([]float64, m.Dim())
			f(w, grad)
			const h = 1e-6
			for j := range w {
				wp, wm := slices.Clone(w), slices.Clone(w)
				wp[j] += h
				wm[j] -= h
				if fd := (f(wp, nil) - f(wm, nil)) / (2 * h); math.Abs(fd-grad[j]) > 1e-5*max(1, math.Abs(fd)) {
					t.Errorf("%s instance %d: ∂/∂w[%d] = %v, finite difference %v", name, i, j, grad[j], fd)
				}
			}
		}
	}
}

// Margin and slack scaling, on both solvers, reach the optimum of the
// taxonomy SSVM (every constraint enumerated over Λ(y) ⊗ x, solved by the
// reference dual solver of train_test.go) within C·n·ε.
func TestEmbeddedCuttingPlaneReachesOptimum(t *testing.T) {
	t.Parallel()
	const eps = 1e-4
	rng := rand.New(rand.NewPCG(37, 38))
	emb, cost := tinyTree()
	const d = 3
	data := noisyData(rng, 10, d-1, 4)
	n := len(data)
	for _, slack := range []bool{false, true} {
		var cs []constraint
		for i, x := range data {
			ft := embJoint(x.X, x.Label, d, emb)
			for y := range 4 {
				delta := cost.M[x.Label*4+y]
				if y == x.Label {
					continue
				}
				a := embJoint(x.X, y, d, emb)
				scale := 1.0
				if slack {
					scale = delta
				}
				for j := range a {
					a[j] = scale * (ft[j] - a[j])
				}
				cs = append(cs, constraint{group: i, a: a, b: delta})
			}
		}
		for _, c := range []float64{0.1, 1} {
			opt := ssvmOptimum(t, cs, n, d*emb.M, c)
			name := trainers.Margin
			if slack {
				name = trainers.Slack
			}
			for _, solver := range trainers.Solvers() {
				m, err := multiclass.NewEmbedded(data, d, emb, cost)
				if err != nil {
					t.Fatal(err)
				}
				res, err := trainers.Train(context.Background(), name, m, trainers.Values{"C": c, "epsilon": eps, "solver": solver})
				if err != nil {
					t.Fatal(err)
				}
				own := ssvmPrimal(cs, n, res.W, c)
				// The solvers certify their w by the gap to the working
				// set's dual: C·n·ε from the oracle plus what the QP's
				// relative tolerance (1e-4) leaves.
				bound := c*float64(n)*eps + 1e-4*max(1, own)
				switch {
				case math.Abs(res.Primal-own) > 1e-9*max(1, own):
					t.Errorf("%s %s C=%v: reported primal %v, at its w the primal is %v", name, solver, c, res.Primal, own)
				case own < opt-1e-7*max(1, opt) || own > opt+res.Gap+1e-9:
					t.Errorf("%s %s C=%v: primal %v, optimum %v, reported gap %v", name, solver, c, own, opt, res.Gap)
				case res.Gap > bound:
					t.Errorf("%s %s C=%v: gap %v above C·n·ε + QP tolerance = %v", name, solver, c, res.Gap, bound)
				}
				t.Logf("%s %s C=%v: primal − optimum = %.3g (C·n·ε = %.3g), gap %.3g, %d iterations, converged %v", name, solver, c, own-opt, c*float64(n)*eps, res.Gap, res.Iterations, res.Converged)
			}
		}
	}
}

// Forks of an embedded model answer as the model does alone.
func TestEmbeddedForks(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(39, 40))
	emb, cost := tinyTree()
	m, err := multiclass.NewEmbedded(randomData(rng, 10, 3, 4, true), 3, emb, cost)
	if err != nil {
		t.Fatal(err)
	}
	w := randomW(rng, m.Dim())
	forktest.Concurrent(t, m, m.Len(),
		func(m *multiclass.Model) *multiclass.Model { return m.Fork().(*multiclass.Model) },
		func(m *multiclass.Model, i int) string {
			var b strings.Builder
			grad := make([]float64, m.Dim())
			fmt.Fprintln(&b, m.LossAugmented(i, w, 1), m.KBest(i, w, 1, 4), m.LogLoss(i, w, 2, 1, grad), grad)
			return b.String()
		})
}

func TestNewEmbeddedRejectsBadInput(t *testing.T) {
	t.Parallel()
	emb, _ := tinyTree()
	bad := emb
	bad.Rows = slices.Clone(emb.Rows)
	bad.Rows[1] = structpred.SparseVec{Idx: []int32{3, 1}, Val: []float64{1, 1}}
	for _, tc := range []struct {
		name string
		emb  multiclass.Embedding
		want string
	}{
		{"unsorted row", bad, "class embedding, class 1: feature indices not strictly increasing"},
		{"empty", multiclass.Embedding{}, "class embedding with 0 classes"},
		{"out of range", multiclass.Embedding{M: 2, Rows: []structpred.SparseVec{{Idx: []int32{2}, Val: []float64{1}}}}, "outside [0, 2)"},
	} {
		if _, err := multiclass.NewEmbedded(nil, 2, tc.emb, zeroCost); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}
