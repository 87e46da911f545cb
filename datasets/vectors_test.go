package datasets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// A libsvm dataset loads as one-token items of one class each, with the
// classes of every part in label order, its vectors and parts; a cost
// matrix is checked against the classes; the blobs need no file.
func TestLoadVectors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for name, text := range map[string]string{"train.txt": "2 1:1\n-1 3:0.5\n", "test.txt": "7 2:1\n"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := Declaration{Name: "v", Format: FormatLibSVM, Train: "train.txt", Test: "test.txt"}
	l, err := Load(dir, "test", d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Labels, []string{"-1", "2", "7"}) || !slices.Equal(l.Parts, []int{PartTrain, PartTrain, PartTest}) || len(l.Vectors) != 3 {
		t.Fatalf("labels %v, parts %v, %d vectors", l.Labels, l.Parts, len(l.Vectors))
	}
	if s := l.Sequences[1]; s.Labels[0] != 0 || s.ID != "train.txt:2" || l.Vectors[1].Idx[0] != 2 {
		t.Errorf("item 1: %+v, vector %+v", s, l.Vectors[1])
	}
	d.Cost = [][]float64{{0, 1}, {1, 0}}
	if _, err := Load(dir, "test", d); err == nil || !strings.Contains(err.Error(), "cost: 2 rows for 3 classes (the classes, in order: [-1 2 7])") {
		t.Errorf("a 2×2 cost over 3 classes: %v", err)
	}
	d.Cost = [][]float64{{0, 1}, {1, 0}}
	d.Format = FormatCoNLL
	if err := d.Check(); err == nil || !strings.Contains(err.Error(), "cost: a cost matrix applies to vector files") {
		t.Errorf("a cost matrix on a column file: %v", err)
	}
	b, _ := Builtin("blobs")
	l, err = Load("", "", b)
	if err != nil || len(l.Labels) != 4 || len(l.Vectors) != 240 || l.Parts != nil {
		t.Fatalf("blobs: %v", err)
	}
}

func TestCheckCost(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cost [][]float64
		want string
	}{
		{nil, ""},
		{[][]float64{{0, 2}, {0.5, 0}}, ""},
		{[][]float64{{0, 1}}, "1 rows for 2 classes"},
		{[][]float64{{0, 1}, {1}}, "row 2 has 1 entries"},
		{[][]float64{{0, -1}, {1, 0}}, "row 1, entry 2: -1 is not a finite non-negative cost"},
		{[][]float64{{1, 1}, {1, 0}}, "row 1, entry 1: the cost of the true class must be 0"},
	} {
		err := CheckCost(tc.cost, 2)
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: %v, want %q", tc.cost, err, tc.want)
		}
	}
}
