package datasets

import (
	"fmt"
	"math"
	"slices"
	"testing"
)

func TestMILDraw(t *testing.T) {
	t.Parallel()
	for _, p := range []int{1, 25, 50} {
		s := PletscherMIL(p)
		a, err := s.Draw(400, 7, "train")
		if err != nil {
			t.Fatal(err)
		}
		b, _ := s.Draw(400, 7, "train")
		c, _ := s.Draw(400, 7, "test")
		var posSum, negSum, negSq float64
		var nPos, nNeg int
		for i, bag := range a {
			if want := 1 - 2*(i%2); bag.Label != want {
				t.Fatalf("p %d bag %d: label %d, want %d", p, i, bag.Label, want)
			}
			if len(bag.Instances) != 50 {
				t.Fatalf("p %d bag %d: %d instances", p, i, len(bag.Instances))
			}
			k := 0
			for h, x := range bag.Instances {
				v := x.Val[0]
				if bag.Positive[h] {
					k++
					posSum += v
					nPos++
				} else {
					negSum += v
					negSq += v * v
					nNeg++
				}
			}
			if want := map[bool]int{true: p, false: 0}[bag.Label == 1]; k != want {
				t.Fatalf("p %d bag %d (label %d): %d positives, want %d", p, i, bag.Label, k, want)
			}
		}
		if m := posSum / float64(nPos); math.Abs(m-0.6) > 4/math.Sqrt(float64(nPos)) {
			t.Errorf("p %d: positive mean %v", p, m)
		}
		if m := negSum / float64(nNeg); math.Abs(m) > 4/math.Sqrt(float64(nNeg)) {
			t.Errorf("p %d: negative mean %v", p, m)
		}
		if v := negSq / float64(nNeg); math.Abs(v-1) > 0.1 {
			t.Errorf("p %d: negative variance %v", p, v)
		}
		if !slices.Equal(a[3].Instances[4].Val, b[3].Instances[4].Val) || slices.Equal(a[3].Instances[4].Val, c[3].Instances[4].Val) {
			t.Errorf("p %d: same seed and part differ, or another part agrees", p)
		}
	}
	for _, p := range []int{0, 51} {
		if _, err := PletscherMIL(p).Draw(2, 1, "x"); err == nil {
			t.Errorf("p = %d: no error", p)
		}
	}
}

func TestLoadMILInstances(t *testing.T) {
	for _, p := range []int{1, 25} {
		name := fmt.Sprintf("mil-p%d", p)
		d, ok := Builtin(name)
		if !ok || d.Instances() != MILInstances {
			t.Fatalf("Builtin(%q) = %+v, %v", name, d, ok)
		}
		l, err := Load("", "", d)
		if err != nil {
			t.Fatal(err)
		}
		if n := MILInstances * (MILTrainBags + MILTestBags); len(l.Sequences) != n || len(l.Bags) != n {
			t.Fatalf("%s: %d items, %d bags, want %d", name, len(l.Sequences), len(l.Bags), n)
		}
		s, _, err := InstanceSplit(l.Parts, l.Instances, 3)
		if err != nil {
			t.Fatal(err)
		}
		want, err := PletscherMIL(p).Draw(MILTestBags, 4, "test")
		if err != nil {
			t.Fatal(err)
		}
		if len(s.Train) != MILTrainBags || len(s.Test) != MILTestBags {
			t.Fatalf("%s split 3: %d train, %d test", name, len(s.Train), len(s.Test))
		}
		for j, i := range s.Test {
			if lab := l.Sequences[i].Labels[0]; (lab == 1) != (want[j].Label == 1) || l.Bags[i][7].Val[0] != want[j].Instances[7].Val[0] {
				t.Fatalf("%s split 3 test bag %d differs from Draw(seed 4, test)", name, j)
			}
		}
	}
	if _, err := loadMIL("mil-px"); err == nil {
		t.Error("mil-px: no error")
	}
}
