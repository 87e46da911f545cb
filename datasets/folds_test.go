package datasets_test

import (
	"fmt"
	"log"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

func TestFoldSplits(t *testing.T) {
	tests := []struct {
		name    string
		folds   []int
		k       int
		want    datasets.Split
		wantErr string
	}{
		{"middle fold", []int{0, 1, 2, 1, 0, 2}, 1, datasets.Split{Index: 1, Train: []int{1, 3}, Test: []int{0, 2, 4, 5}}, ""},
		{"fold 0", []int{0, 1, 2, 1, 0, 2}, 0, datasets.Split{Index: 0, Train: []int{0, 4}, Test: []int{1, 2, 3, 5}}, ""},
		{"gaps allowed", []int{7, 3, 7}, 3, datasets.Split{Index: 3, Train: []int{1}, Test: []int{0, 2}}, ""},
		{"empty train fold", []int{0, 1, 0}, 2, datasets.Split{}, "fold 2 has no items"},
		{"empty test", []int{4, 4}, 4, datasets.Split{}, "nothing left to test on"},
		{"negative k", []int{0, 1}, -1, datasets.Split{}, "train fold -1"},
		{"negative fold", []int{0, -2, 1}, 0, datasets.Split{}, "item 1 has fold -2"},
		{"no items", nil, 0, datasets.Split{}, "no items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := datasets.FoldSplits(tt.folds, tt.k)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("FoldSplits(%v, %d) = %+v, %v; want %+v", tt.folds, tt.k, got, err, tt.want)
			}
		})
	}
}

func TestAllFoldSplits(t *testing.T) {
	tests := []struct {
		name    string
		folds   []int
		want    []datasets.Split
		wantErr string
	}{
		{
			name:  "three folds",
			folds: []int{2, 0, 1, 0},
			want: []datasets.Split{
				{Index: 0, Train: []int{1, 3}, Test: []int{0, 2}},
				{Index: 1, Train: []int{2}, Test: []int{0, 1, 3}},
				{Index: 2, Train: []int{0}, Test: []int{1, 2, 3}},
			},
		},
		{name: "one fold", folds: []int{0, 0}, wantErr: "need ≥ 2 folds"},
		{name: "empty fold", folds: []int{0, 2, 2}, wantErr: "fold 1 is empty"},
		{name: "fold beyond item count", folds: []int{0, 5}, wantErr: "folds run to 5 but there are only 2 items"},
		{name: "huge fold", folds: []int{0, math.MaxInt}, wantErr: "only 2 items"},
		{name: "negative fold", folds: []int{0, 1, -1}, wantErr: "item 2 has fold -1"},
		{name: "no items", folds: []int{}, wantErr: "no items"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := datasets.AllFoldSplits(tt.folds)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("err = %v, want one containing %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !reflect.DeepEqual(got, tt.want) {
				t.Errorf("AllFoldSplits(%v) = %+v, %v; want %+v", tt.folds, got, err, tt.want)
			}
		})
	}
}

// TestAllFoldSplitsPartition checks that every split partitions the items
// and that each item trains in exactly one split.
func TestAllFoldSplitsPartition(t *testing.T) {
	folds := make([]int, 103)
	for i := range folds {
		folds[i] = (i * 7) % 10
	}
	splits, err := datasets.AllFoldSplits(folds)
	if err != nil {
		t.Fatal(err)
	}
	if len(splits) != 10 {
		t.Fatalf("%d splits, want 10", len(splits))
	}
	trainedIn := make([]int, len(folds))
	for k, s := range splits {
		if s.Index != k || len(s.Train)+len(s.Test) != len(folds) {
			t.Fatalf("split %d: index %d, %d+%d items", k, s.Index, len(s.Train), len(s.Test))
		}
		for _, i := range s.Train {
			if folds[i] != k {
				t.Fatalf("split %d trains on item %d of fold %d", k, i, folds[i])
			}
			trainedIn[i]++
		}
		for _, i := range s.Test {
			if folds[i] == k {
				t.Fatalf("split %d tests on item %d of its own fold", k, i)
			}
		}
	}
	for i, n := range trainedIn {
		if n != 1 {
			t.Fatalf("item %d trains in %d splits", i, n)
		}
	}
}

func ExampleFoldSplits() {
	// folds[i] is the fold of word i, as returned by LoadOCRFolds or OCRFolds.
	folds := []int{0, 1, 2, 0, 1, 2, 2}
	s, err := datasets.FoldSplits(folds, 2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("train on fold 2:", s.Train, "test on the rest:", s.Test)
	// Output:
	// train on fold 2: [2 5 6] test on the rest: [0 1 3 4]
}
