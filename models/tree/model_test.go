package tree_test

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/decoders/mst/bruteforce"
	"github.com/maxmargin/repro/models/tree"
	"github.com/maxmargin/repro/trainers"
)

// The tree model implements the capabilities margin scaling, PosLearn, the
// perceptron and k-best MIRA need; these fail to compile if one drifts.
var (
	_ trainers.Model[[]int]                = (*tree.Model)(nil)
	_ trainers.LossAugmentedDecoder[[]int] = (*tree.Model)(nil)
	_ trainers.PositionDecoder[[]int]      = (*tree.Model)(nil)
	_ trainers.KBestDecoder[[]int]         = (*tree.Model)(nil)
	_ trainers.Forker[[]int]               = (*tree.Model)(nil)
)

// randInstance draws a sentence of n words whose arcs have 1–3 of attrs
// feature ids, and a random gold tree.
func randInstance(rng *rand.Rand, n, attrs int) tree.Instance {
	m := n + 1
	x := tree.Instance{N: n, Start: make([]int32, m*m+1), Heads: make([]int, m)}
	for h := range m {
		for d := range m {
			x.Start[h*m+d] = int32(len(x.IDs))
			if d == 0 || h == d {
				continue
			}
			ids := []int32{}
			for range 1 + rng.IntN(3) {
				ids = append(ids, int32(rng.IntN(attrs)))
			}
			slices.Sort(ids)
			x.IDs = append(x.IDs, slices.Compact(ids)...)
		}
	}
	x.Start[m*m] = int32(len(x.IDs))
	x.Heads[0] = -1
	placed := []int{0}
	for _, d := range rng.Perm(n) {
		x.Heads[d+1] = placed[rng.IntN(len(placed))]
		placed = append(placed, d+1)
	}
	return x
}

// Every decoder-facing method against enumeration of all trees.
func TestModelBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const attrs = 12
	for n := 1; n <= 5; n++ {
		for trial := range 6 {
			x := randInstance(rng, n, attrs)
			m, err := tree.New([]tree.Instance{x}, attrs, mst.Decoder{})
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, attrs)
			for i := range w {
				w[i] = rng.NormFloat64()
			}
			name := fmt.Sprintf("n=%d/trial %d", n, trial)
			score := func(y []int) float64 { return m.Score(0, w, y) }
			for _, scale := range []float64{0, 1, 2.5} {
				got := m.LossAugmented(0, w, scale)
				want, _ := bruteforce.Best(n, func(y []int) float64 { return score(y) + scale*m.Loss(0, y) }, nil)
				if g := score(got) + scale*m.Loss(0, got); math.Abs(g-want.Score) > 1e-9 {
					t.Errorf("%s scale %v: loss-augmented value %v, best %v", name, scale, g, want.Score)
				}
			}
			// Delta features: w·δf(y) = s(truth) − s(y).
			for y := range bruteforce.Trees(n) {
				if d := m.DeltaFeatures(0, y).Dot(w); math.Abs(d-(score(x.Heads)-score(y))) > 1e-9 {
					t.Fatalf("%s: w·δf(%v) = %v, want %v", name, y, d, score(x.Heads)-score(y))
				}
				if d := m.DeltaScore(0, w, y); math.Abs(d-(score(x.Heads)-score(y))) > 1e-9 {
					t.Fatalf("%s: DeltaScore(%v) = %v, want %v", name, y, d, score(x.Heads)-score(y))
				}
				added := make([]float64, attrs)
				m.AddDelta(0, y, -1.5, func(j int32, v float64) { added[j] += v })
				want := make([]float64, attrs)
				m.DeltaFeatures(0, y).AddTo(want, -1.5)
				if !slices.Equal(added, want) {
					t.Fatalf("%s: AddDelta(%v, −1.5) = %v, want %v", name, y, added, want)
				}
			}
			// PosLearn's violators: per word, the best tree wrong there.
			vs := m.PositionViolators(0, w, nil)
			for _, v := range vs {
				d := v.Position + 1
				want, ok := bruteforce.Best(n, score, func(y []int) bool { return y[d] != x.Heads[d] })
				if !ok || math.Abs(v.Score-want.Score) > 1e-9 || v.Y[d] == x.Heads[d] || v.Loss != 1 || math.Abs(score(v.Y)-v.Score) > 1e-9 {
					t.Errorf("%s: violator at word %d %+v, best wrong there scores %v", name, d, v, want.Score)
				}
			}
			wrongable := 0
			for d := 1; d <= n; d++ {
				if _, ok := bruteforce.Best(n, score, func(y []int) bool { return y[d] != x.Heads[d] }); ok {
					wrongable++
				}
			}
			if len(vs) != wrongable {
				t.Errorf("%s: %d violators, %d words can be wrong", name, len(vs), wrongable)
			}
			// k-best with loss augmentation: the top scores in order.
			var all []float64
			for y := range bruteforce.Trees(n) {
				all = append(all, score(y)+m.Loss(0, y))
			}
			slices.Sort(all)
			slices.Reverse(all)
			kb := m.KBest(0, w, 1, 4)
			for j, y := range kb {
				if g := score(y) + m.Loss(0, y); math.Abs(g-all[j]) > 1e-9 {
					t.Errorf("%s: k-best %d scores %v, want %v", name, j, g, all[j])
				}
			}
			if len(kb) != min(4, len(all)) {
				t.Errorf("%s: %d k-best trees, want %d", name, len(kb), min(4, len(all)))
			}
		}
	}
}

// A separable treebank: gold trees are the MAP trees of a hidden weight
// vector. Margin scaling and PosLearn reach their objective (the true gap
// within tolerance, one-slack PosLearn through caches of trees) and parse
// the training data; the perceptron and k-best MIRA separate it; slack
// scaling and ApproxSlack are refused.
func TestTrainersOnTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	const attrs = 30
	hidden := make([]float64, attrs)
	for i := range hidden {
		hidden[i] = 3 * rng.NormFloat64()
	}
	var data []tree.Instance
	for range 25 {
		x := randInstance(rng, 3+rng.IntN(4), attrs)
		probe, _ := tree.New(nil, attrs, mst.Decoder{})
		x.Heads = probe.Predict(x, hidden)
		data = append(data, x)
	}
	m, err := tree.New(data, attrs, mst.Decoder{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name string
		v    trainers.Values
	}{
		{"margin", trainers.Values{"C": 10.0}},
		{"poslearn", trainers.Values{"C": 10.0}},
		{"margin", trainers.Values{"C": 10.0, "solver": "one-slack"}},
		{"poslearn", trainers.Values{"C": 10.0, "solver": "one-slack"}}, // caches of trees (DeltaScore, AddDelta)
		{trainers.PerceptronName, trainers.Values{"epochs": 30}},
		{trainers.MIRAName, trainers.Values{"epochs": 30, "k": 3}},
	} {
		res, err := trainers.Train(context.Background(), tt.name, m, tt.v)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		wrong := 0
		for i := range m.Len() {
			wrong += int(m.Loss(i, m.Predict(data[i], res.W)))
		}
		if wrong > 0 {
			t.Errorf("%s %v: %d wrong heads on separable training data", tt.name, tt.v, wrong)
		}
		if tt.v["C"] != nil && !res.Converged {
			t.Errorf("%s: not converged (gap %v)", tt.name, res.Gap)
		}
	}
	for _, name := range []string{"slack", "approx-slack"} {
		if err := trainers.Check(name, m, trainers.Values{"C": 1.0}); err == nil {
			t.Errorf("%s accepted a tree model", name)
		}
	}
}

// New refuses an instance whose flat arc arrays do not describe its
// sentence, naming what is wrong.
func TestNewRejectsMalformedInstances(t *testing.T) {
	const attrs = 5
	for _, tc := range []struct {
		name   string
		breaks func(x *tree.Instance)
		want   string
	}{
		{"too few offsets", func(x *tree.Instance) { x.Start = x.Start[:len(x.Start)-1] }, "arc offsets"},
		{"offsets past the ids", func(x *tree.Instance) { x.IDs = x.IDs[:len(x.IDs)-1] }, "over"},
		{"decreasing offsets", func(x *tree.Instance) { x.Start[2], x.Start[3] = x.Start[3], x.Start[2] }, "decrease"},
		{"id out of range", func(x *tree.Instance) { x.IDs[0] = attrs }, "outside"},
		{"offsets not from 0", func(x *tree.Instance) { x.Start[0] = 1 }, "run from 1"},
		{"not a tree", func(x *tree.Instance) { x.Heads[1], x.Heads[2] = 2, 1 }, "head cycle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			x := randInstance(rand.New(rand.NewPCG(1, 2)), 3, attrs)
			if _, err := tree.New([]tree.Instance{x}, attrs, mst.Decoder{}); err != nil {
				t.Fatalf("the intact instance: %v", err)
			}
			tc.breaks(&x)
			_, err := tree.New([]tree.Instance{x}, attrs, mst.Decoder{})
			if err == nil || !strings.HasPrefix(err.Error(), "instance 0: ") || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error on instance 0 about %q", err, tc.want)
			}
		})
	}
}

// A sentence of no words is a valid instance, and an instance without
// offsets (the zero Instance) has no arc features: both predict the empty
// tree.
func TestEmptySentences(t *testing.T) {
	empty := tree.Instance{N: 0, Start: []int32{0, 0}, Heads: []int{-1}}
	m, err := tree.New([]tree.Instance{empty}, 3, mst.Decoder{})
	if err != nil {
		t.Fatal(err)
	}
	w := []float64{1, 2, 3}
	for _, x := range []tree.Instance{empty, {}} {
		if got := m.Predict(x, w); !slices.Equal(got, []int{-1}) {
			t.Errorf("Predict(%+v) = %v, want [-1]", x, got)
		}
	}
	if got := m.LossAugmented(0, w, 1); !slices.Equal(got, []int{-1}) {
		t.Errorf("LossAugmented = %v, want [-1]", got)
	}
}
