package datasets

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestRandomSplits(t *testing.T) {
	tests := []struct {
		n        int
		fraction float64
		nTrain   int
	}{
		{500, 0.25, 125},
		{10, 0.25, 3}, // round(2.5) = 3
		{2, 0.5, 1},
		{3, 0.01, 1}, // at least one training item
		{3, 0.99, 2}, // at least one test item
		{7, 0.5, 4},
	}
	for _, tt := range tests {
		splits, err := RandomSplits(tt.n, 10, tt.fraction, 42)
		if err != nil {
			t.Fatal(err)
		}
		for k, s := range splits {
			if s.Index != k || len(s.Train) != tt.nTrain || len(s.Train)+len(s.Test) != tt.n {
				t.Fatalf("n=%d f=%v split %d: index %d, %d train, %d test", tt.n, tt.fraction, k, s.Index, len(s.Train), len(s.Test))
			}
			if !slices.IsSorted(s.Train) || !slices.IsSorted(s.Test) {
				t.Fatalf("split %d not sorted", k)
			}
			all := slices.Concat(s.Train, s.Test)
			slices.Sort(all)
			for i, v := range all {
				if v != i {
					t.Fatalf("split %d is not a partition of 0..%d", k, tt.n-1)
				}
			}
			one, err := SplitAt(tt.n, k, tt.fraction, 42)
			if err != nil || !reflect.DeepEqual(one, s) {
				t.Fatalf("SplitAt(%d) = %v, %v; want %v", k, one, err, s)
			}
		}
	}
}

func TestRandomSplitsDiffer(t *testing.T) {
	splits, err := RandomSplits(500, 10, 0.25, 1)
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k < len(splits); k++ {
		if reflect.DeepEqual(splits[k].Train, splits[0].Train) {
			t.Errorf("split %d equals split 0", k)
		}
	}
	other, _ := SplitAt(500, 0, 0.25, 2)
	if reflect.DeepEqual(other.Train, splits[0].Train) {
		t.Error("seed does not change split 0")
	}
}

func TestRandomSplitsInvalid(t *testing.T) {
	tests := []struct {
		name     string
		n, count int
		fraction float64
	}{
		{"n too small", 1, 1, 0.5},
		{"no splits", 10, 0, 0.5},
		{"fraction zero", 10, 1, 0},
		{"fraction one", 10, 1, 1},
		{"fraction NaN", 10, 1, math.NaN()},
	}
	for _, tt := range tests {
		if _, err := RandomSplits(tt.n, tt.count, tt.fraction, 1); err == nil {
			t.Errorf("%s: no error", tt.name)
		}
	}
	if _, err := SplitAt(10, -1, 0.5, 1); err == nil {
		t.Error("negative split index: no error")
	}
}

func TestHoldOut(t *testing.T) {
	tests := []struct {
		name      string
		indices   []int
		fraction  float64
		nTrain    int
		nValidate int
	}{
		{"fifth", []int{9, 3, 5, 7, 1, 11, 13, 15, 17, 19}, 0.2, 8, 2},
		{"two items", []int{4, 2}, 0.5, 1, 1},
		{"tiny fraction", []int{1, 2, 3}, 0.01, 2, 1},
		{"whole", []int{1, 2, 3}, 1, 1, 2},
		{"NaN", []int{1, 2, 3}, math.NaN(), 2, 1},
		{"single item", []int{5}, 0.5, 1, 0},
		{"empty", nil, 0.5, 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			train, val := HoldOut(tt.indices, tt.fraction, 3)
			if len(train) != tt.nTrain || len(val) != tt.nValidate {
				t.Fatalf("sizes %d/%d, want %d/%d", len(train), len(val), tt.nTrain, tt.nValidate)
			}
			if !slices.IsSorted(train) || !slices.IsSorted(val) {
				t.Fatal("parts not sorted")
			}
			all := slices.Concat(train, val)
			slices.Sort(all)
			want := slices.Clone(tt.indices)
			slices.Sort(want)
			if !slices.Equal(all, want) {
				t.Fatalf("parts %v + %v are not a partition of %v", train, val, tt.indices)
			}
			// Order of the input does not matter.
			rev := slices.Clone(tt.indices)
			slices.Reverse(rev)
			train2, val2 := HoldOut(rev, tt.fraction, 3)
			if !slices.Equal(train, train2) || !slices.Equal(val, val2) {
				t.Fatal("result depends on input order")
			}
		})
	}
}

func TestPerClassSplitAt(t *testing.T) {
	labels := []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 2}
	for _, per := range []int{1, 2, 3} {
		s, err := PerClassSplitAt(labels, 4, per, 7)
		if err != nil {
			t.Fatal(err)
		}
		count := map[int]int{}
		for _, i := range s.Train {
			count[labels[i]]++
		}
		for y := range 3 {
			if count[y] != per {
				t.Errorf("per %d: class %d has %d training items", per, y, count[y])
			}
		}
		if len(s.Train)+len(s.Test) != len(labels) || !slices.IsSorted(s.Train) || !slices.IsSorted(s.Test) {
			t.Errorf("per %d: parts %v %v do not partition the items", per, s.Train, s.Test)
		}
		again, _ := PerClassSplitAt(labels, 4, per, 7)
		if !slices.Equal(again.Train, s.Train) {
			t.Errorf("per %d: not deterministic", per)
		}
		other, _ := PerClassSplitAt(labels, 5, per, 7)
		if per == 2 && slices.Equal(other.Train, s.Train) {
			t.Errorf("splits 4 and 5 are equal")
		}
	}
	for _, bad := range []struct{ k, per int }{{-1, 1}, {0, 0}, {0, 4}} {
		if _, err := PerClassSplitAt(labels, bad.k, bad.per, 7); err == nil {
			t.Errorf("k %d, per %d: no error", bad.k, bad.per)
		}
	}
}

// On a corpus with fixed parts the training items come from the train
// part, drawn as from a corpus of the train part alone, and the test part
// is the whole test set.
func TestPerClassPartSplitAt(t *testing.T) {
	// Items 0-8 train (three per class), 9-10 dev, 11-14 test.
	labels := []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 1, 0, 2, 2, 0, 1}
	parts := []int{0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 2, 2, 2, 2}
	for _, per := range []int{1, 2, 3} {
		s, dev, err := PerClassPartSplitAt(labels, parts, 3, per, 9)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := PerClassSplitAt(labels[:9], 3, per, 9)
		if per < 3 && err != nil {
			t.Fatal(err)
		}
		if per < 3 && !slices.Equal(s.Train, alone.Train) {
			t.Errorf("per %d: train %v, the train part alone draws %v", per, s.Train, alone.Train)
		}
		count := map[int]int{}
		for _, i := range s.Train {
			if parts[i] != PartTrain {
				t.Errorf("per %d: training item %d is of part %d", per, i, parts[i])
			}
			count[labels[i]]++
		}
		for y := range 3 {
			if count[y] != per {
				t.Errorf("per %d: class %d has %d training items", per, y, count[y])
			}
		}
		if !slices.Equal(s.Test, []int{11, 12, 13, 14}) || !slices.Equal(dev, []int{9, 10}) || s.Index != 3 {
			t.Errorf("per %d: test %v, dev %v, index %d", per, s.Test, dev, s.Index)
		}
	}
	if _, _, err := PerClassPartSplitAt(labels, parts, 3, 4, 9); err == nil || !strings.Contains(err.Error(), "3 training items, need 4") {
		t.Errorf("4 per class of 3: %v", err)
	}
	if _, _, err := PerClassPartSplitAt(labels, parts[:3], 3, 1, 9); err == nil {
		t.Error("parts of another length: no error")
	}
}
