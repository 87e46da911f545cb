package datasets

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestSynthDraw(t *testing.T) {
	t.Parallel()
	for _, name := range SynthNames() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s, err := Synth(name)
			if err != nil {
				t.Fatal(err)
			}
			k, d := s.Classes(), len(s.Means[0])
			a, err := s.Draw(SynthTrainPerClass, 3, "train", true)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := s.Draw(SynthTrainPerClass, 3, "train", true)
			c, _ := s.Draw(SynthTrainPerClass, 3, "test", true)
			e, _ := s.Draw(SynthTrainPerClass, 4, "train", true)
			if len(a.Items) != k*SynthTrainPerClass || a.Dim != d+1 {
				t.Fatalf("%d items, Dim %d", len(a.Items), a.Dim)
			}
			if !slices.Equal(a.Items[5].X.Val, b.Items[5].X.Val) || slices.Equal(a.Items[5].X.Val, c.Items[5].X.Val) || slices.Equal(a.Items[5].X.Val, e.Items[5].X.Val) {
				t.Error("same seed and part differ, or another part or seed agrees")
			}
			// Per class: the mean within 4 standard errors of the spec's,
			// the variance within 10%, the bias coordinate 1.
			sd := math.Sqrt(s.Var)
			for cl, m := range s.Means {
				sum, sq := make([]float64, d), make([]float64, d)
				n := 0
				for i, x := range a.Items {
					if int(x.Label) != i%k {
						t.Fatalf("item %d has class %v, want %d", i, x.Label, i%k)
					}
					if i%k != cl {
						continue
					}
					if x.X.Val[d] != 1 {
						t.Fatalf("item %d: bias %v", i, x.X.Val[d])
					}
					n++
					for j := range d {
						sum[j] += x.X.Val[j]
						sq[j] += (x.X.Val[j] - m[j]) * (x.X.Val[j] - m[j])
					}
				}
				for j := range d {
					if mean := sum[j] / float64(n); math.Abs(mean-m[j]) > 4*sd/math.Sqrt(float64(n)) {
						t.Errorf("class %d coordinate %d: mean %v, want %v", cl, j, mean, m[j])
					}
					if v := sq[j] / float64(n); math.Abs(v-s.Var) > 0.1*s.Var {
						t.Errorf("class %d coordinate %d: variance %v, want %v", cl, j, v, s.Var)
					}
				}
			}
			nb, _ := s.Draw(2, 3, "train", false)
			if nb.Dim != d || len(nb.Items[0].X.Val) != d {
				t.Errorf("without bias: Dim %d, %d values", nb.Dim, len(nb.Items[0].X.Val))
			}
		})
	}
	if _, err := Synth("synth4"); err == nil {
		t.Error("synth4: no error")
	}
	bad := SynthSpec{Name: "bad", Means: [][]float64{{0}, {1, 2}}, Var: 1, Cost: zeroOneCost(2)}
	if _, err := bad.Draw(1, 1, "x", false); err == nil {
		t.Error("ragged means: no error")
	}
	bad = SynthSpec{Name: "bad", Means: [][]float64{{0}, {1}}, Var: 1, Cost: zeroOneCost(3)}
	if _, err := bad.Draw(1, 1, "x", false); err == nil {
		t.Error("wrong cost size: no error")
	}
}

// TestSynthCosts pins the cost matrices section 8.1 describes.
func TestSynthCosts(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		cheap [2]int // the pair confused at 0.1; {0, 0} for none
	}{{"synth1", [2]int{}}, {"synth2", [2]int{1, 2}}, {"synth3", [2]int{2, 3}}} {
		s, _ := Synth(tc.name)
		k := s.Classes()
		for g := range k {
			for y := range k {
				want := 1.0
				switch {
				case g == y:
					want = 0
				case tc.cheap != [2]int{} && (g == tc.cheap[0] && y == tc.cheap[1] || g == tc.cheap[1] && y == tc.cheap[0]):
					want = 0.1
				}
				if got := s.Cost[g*k+y]; got != want {
					t.Errorf("%s: cost(%d, %d) = %v, want %v", tc.name, g, y, got, want)
				}
			}
		}
	}
}

// TestSynthBayesFloors checks the Bayes-optimal test errors that
// docs/pletscher.md quotes (no classifier does better in expectation), on
// the test draw of seed 1: the 0/1 error of the posterior's argmax and the
// average cost of the cost-minimising rule. Synth1's is also known in
// closed form, 4Φ(−0.5)/3 = 41.14%.
func TestSynthBayesFloors(t *testing.T) {
	if testing.Short() {
		t.Skip("draws 120,000 points")
	}
	t.Parallel()
	for _, tc := range []struct {
		name          string
		vr            float64 // 0: the spec's
		zeroOne, cost float64 // percent
	}{
		{"synth1", 0, 41.35, 41.35},
		{"synth2", 0, 39.6, 16.9},
		{"synth2", 0.0625, 24.7, 4.3}, // standard deviation 0.25 instead of 0.5
		{"synth3", 0, 61.3, 47.8},
	} {
		s, _ := Synth(tc.name)
		if tc.vr > 0 {
			s.Var = tc.vr
		}
		te, err := s.Draw(SynthTestPerClass, 1, "test", false)
		if err != nil {
			t.Fatal(err)
		}
		k := s.Classes()
		var wrong, cost float64
		for _, x := range te.Items {
			g := int(x.Label)
			if s.BayesClass(x.X.Val, true) != g {
				wrong++
			}
			cost += s.Cost[g*k+s.BayesClass(x.X.Val, false)]
		}
		n := float64(len(te.Items))
		if z := 100 * wrong / n; math.Abs(z-tc.zeroOne) > 0.051 {
			t.Errorf("%s (variance %v): Bayes 0/1 error %.2f%%, docs say %.1f%%", tc.name, s.Var, z, tc.zeroOne)
		}
		if c := 100 * cost / n; math.Abs(c-tc.cost) > 0.051 {
			t.Errorf("%s (variance %v): Bayes average cost %.2f%%, docs say %.1f%%", tc.name, s.Var, c, tc.cost)
		}
	}
	if want := 400 * 0.5 * math.Erfc(0.5/math.Sqrt2) / 3; math.Abs(want-41.14) > 0.01 {
		t.Errorf("4Φ(−0.5)/3 = %.3f%%", want)
	}
}

func ExampleSynth() {
	s, _ := Synth("synth2")
	train, _ := s.Draw(SynthTrainPerClass, 1, "train", true)
	fmt.Println(len(train.Items), train.Dim, s.Cost)
	// Output: 6000 3 [0 1 1 1 0 0.1 1 0.1 0]
}

func TestLoadSynthInstances(t *testing.T) {
	for _, name := range SynthNames() {
		t.Run(name, func(t *testing.T) {
			d, ok := Builtin(name)
			if !ok || d.Instances() != SynthInstances {
				t.Fatalf("Builtin(%q) = %+v, %v", name, d, ok)
			}
			l, err := Load("", "", d)
			if err != nil {
				t.Fatal(err)
			}
			spec, _ := Synth(name)
			k := spec.Classes()
			if len(l.Cost) != k || l.Cost[0][1] != spec.Cost[1] || l.Cost[k-1][k-2] != spec.Cost[(k-1)*k+k-2] {
				t.Errorf("cost %v, want the generator's %v", l.Cost, spec.Cost)
			}
			seen := map[int]bool{}
			for in := range SynthInstances {
				s, dev, err := InstanceSplit(l.Parts, l.Instances, in)
				if err != nil {
					t.Fatal(err)
				}
				if len(s.Train) != k*SynthTrainPerClass || len(s.Test) != k*SynthTestPerClass || len(dev) != 0 {
					t.Fatalf("instance %d: %d train, %d test, %d dev", in, len(s.Train), len(s.Test), len(dev))
				}
				// The instance's training part is Draw(seed in+1, "train").
				want, err := spec.Draw(SynthTrainPerClass, uint64(in+1), "train", false)
				if err != nil {
					t.Fatal(err)
				}
				for j, i := range s.Train {
					if seen[i] {
						t.Fatalf("item %d in two instances", i)
					}
					seen[i] = true
					if got := l.Vectors[i].Val; !slices.Equal(got, want.Items[j].X.Val) || l.Sequences[i].Labels[0] != int(want.Items[j].Label) {
						t.Fatalf("instance %d item %d: %v class %d, want %v class %v", in, j, got, l.Sequences[i].Labels[0], want.Items[j].X.Val, want.Items[j].Label)
					}
				}
			}
			if _, _, err := InstanceSplit(l.Parts, l.Instances, SynthInstances); err == nil {
				t.Error("no error for an instantiation beyond the last")
			}
		})
	}
}

func TestSynthDeclarationRefusesFilesAndCost(t *testing.T) {
	for _, d := range []Declaration{
		{Name: "synth2", Format: FormatSynth, Path: "x"},
		{Name: "synth2", Format: FormatSynth, Cost: [][]float64{{0, 1}, {1, 0}}},
	} {
		if err := d.Check(); err == nil {
			t.Errorf("%+v: no error", d)
		}
	}
}
