package align_test

import (
	"go/parser"
	"go/token"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	dalign "github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/decoders/align/bruteforce"
	"github.com/maxmargin/repro/models/align"
	"github.com/maxmargin/repro/trainers"
)

var (
	_ trainers.Model[align.Label]                = (*align.Model)(nil)
	_ trainers.LossAugmentedDecoder[align.Label] = (*align.Model)(nil)
	_ trainers.LossCountDecoder[align.Label]     = (*align.Model)(nil)
	_ trainers.Forker[align.Label]               = (*align.Model)(nil)
)

// tiny draws examples short enough to enumerate every alignment.
func tiny(t *testing.T, n int, seed uint64) []align.Example {
	t.Helper()
	xs, err := align.Generate(n, align.GenConfig{Letters: 4, Group: 2, Length: 3, Decoys: 2, DelRate: 0.2, InsRate: 0.2}, seed)
	if err != nil {
		t.Fatal(err)
	}
	return xs
}

func randomW(rng *rand.Rand, n int) []float64 {
	w := make([]float64, n)
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	return w
}

// labeling is one enumerated labeling with its score and loss.
type labeling struct {
	y     align.Label
	score float64
	loss  float64
}

// enumerate lists every labeling of example x: the truth, the homologue's
// other alignments if alternatives, every alignment of every decoy.
func enumerate(x align.Example, w []float64, a int, alternatives bool) []labeling {
	sc := align.Scores(w, a)
	out := []labeling{{align.Label{Decoy: -1, A: x.True}, sc.Score(x.Native, x.Homologue, x.True), 0}}
	if alternatives {
		bruteforce.Alignments(len(x.Native), len(x.Homologue), func(al dalign.Alignment) {
			al.Ops = slices.Clone(al.Ops)
			out = append(out, labeling{align.Label{Decoy: -1, A: al}, sc.Score(x.Native, x.Homologue, al), 0})
		})
	}
	for d, t := range x.Decoys {
		bruteforce.Alignments(len(x.Native), len(t), func(al dalign.Alignment) {
			al.Ops = slices.Clone(al.Ops)
			out = append(out, labeling{align.Label{Decoy: d, A: al}, sc.Score(x.Native, t, al), 1})
		})
	}
	return out
}

// The loss-augmented argmax and the best labeling per loss value equal
// enumeration's, with and without the homologue's alternative alignments;
// scores and feature differences agree with each other.
func TestDecodersMatchEnumeration(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	xs := tiny(t, 12, 7)
	for _, alt := range []bool{false, true} {
		m, err := align.New(xs, 4, align.Options{Alternatives: alt})
		if err != nil {
			t.Fatal(err)
		}
		for trial := range 5 {
			w := randomW(rng, m.Dim())
			w[16] = []float64{-1, 0, 0.5, -0.2, 2}[trial]
			for i, x := range xs {
				all := enumerate(x, w, 4, alt)
				for _, scale := range []float64{0, 0.5, 1, 4} {
					best := math.Inf(-1)
					for _, l := range all {
						best = max(best, l.score+scale*l.loss)
					}
					y := m.LossAugmented(i, w, scale)
					if got := m.Score(i, w, y) + scale*m.Loss(i, y); math.Abs(got-best) > 1e-12 {
						t.Errorf("alt=%v example %d scale %v: LossAugmented %v value %v, enumeration %v", alt, i, scale, y, got, best)
					}
				}
				ys, scores, err := m.BestPerLoss(i, w)
				if err != nil || len(ys) != 2 {
					t.Fatalf("BestPerLoss: %d entries, %v", len(ys), err)
				}
				for k, y := range ys {
					want := math.Inf(-1)
					for _, l := range all {
						if l.loss == float64(k) {
							want = max(want, l.score)
						}
					}
					if m.Loss(i, y) != float64(k) || math.Abs(scores[k]-want) > 1e-12 || math.Abs(m.Score(i, w, y)-scores[k]) > 1e-12 {
						t.Errorf("alt=%v example %d loss %d: %v scores %v, enumeration %v", alt, i, k, y, scores[k], want)
					}
				}
				for _, l := range all[:min(len(all), 40)] {
					if got, want := m.DeltaFeatures(i, l.y).Dot(w), all[0].score-l.score; math.Abs(got-want) > 1e-12 {
						t.Fatalf("w·δΨ(%v) = %v, want %v", l.y, got, want)
					}
				}
			}
		}
	}
}

// Ψ by hand: native 0 1 2, candidate 1 2 2 3, from (1, 0): native 1
// against candidate 1, native 2 against a gap, candidate 2 against a gap:
// one (1, 1) pair and two gap columns.
func TestFeaturesByHand(t *testing.T) {
	t.Parallel()
	s, u := []byte{0, 1, 2}, []byte{1, 2, 2, 3}
	al := dalign.Alignment{S: 1, T: 0, Ops: []dalign.Op{dalign.Match, dalign.Delete, dalign.Insert}}
	f := align.Features(s, u, al, 4)
	if !slices.Equal(f.Idx, []int32{1*4 + 1, 16}) || !slices.Equal(f.Val, []float64{1, 2}) {
		t.Errorf("Ψ = %v", f)
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	t.Parallel()
	ok := align.Example{Native: []byte{0, 1}, Homologue: []byte{1}, True: dalign.Alignment{Ops: []dalign.Op{dalign.Match, dalign.Delete}}, Decoys: [][]byte{{0}}}
	for _, tc := range []struct {
		name string
		edit func(x *align.Example)
		want string
	}{
		{"letter", func(x *align.Example) { x.Decoys = [][]byte{{9}} }, "example 0: a letter outside [0, 4)"},
		{"no decoys", func(x *align.Example) { x.Decoys = nil }, "no decoys"},
		{"alignment", func(x *align.Example) { x.True.Ops = append(x.True.Ops, dalign.Match) }, "true alignment"},
	} {
		x := ok
		tc.edit(&x)
		if _, err := align.New([]align.Example{x}, 4, align.Options{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	if _, err := align.New([]align.Example{ok}, 4, align.Options{}); err != nil {
		t.Error(err)
	}
}

func TestSelectedCountsTiesAsErrors(t *testing.T) {
	t.Parallel()
	xs := tiny(t, 3, 1)
	m, err := align.New(xs, 4, align.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if e := m.ErrorRate(xs, make([]float64, m.Dim())); e != 100 {
		t.Errorf("zero w: error %v%%, want 100", e)
	}
}

func TestEveryCuttingPlaneTrainerAccepts(t *testing.T) {
	t.Parallel()
	m, err := align.New(nil, 4, align.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{trainers.Margin, trainers.Slack} {
		if err := trainers.Check(name, m, trainers.Values{"C": 1.0}); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// TestNoTrainersImport keeps the model independent of the trainers.
func TestNoTrainersImport(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "github.com/maxmargin/repro/trainers" {
				t.Errorf("%s imports trainers", f)
			}
		}
	}
}
