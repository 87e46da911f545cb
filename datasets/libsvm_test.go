package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

func vec(idx []int32, val []float64) structpred.SparseVec {
	return structpred.SparseVec{Idx: idx, Val: val}
}

func TestParseLibSVM(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		input string
		want  []Vector
		dim   int
	}{
		{"dense", "1 1:0.5 2:-1 3:2e-3\n2 1:0 2:1 3:1\n", []Vector{
			{Line: 1, Label: 1, X: vec([]int32{0, 1, 2}, []float64{0.5, -1, 2e-3})},
			{Line: 2, Label: 2, X: vec([]int32{0, 1, 2}, []float64{0, 1, 1})},
		}, 3},
		{"sparse, signs, tabs", "+1\t7:1  20:3.5\n-1 2:-0.25\n", []Vector{
			{Line: 1, Label: 1, X: vec([]int32{6, 19}, []float64{1, 3.5})},
			{Line: 2, Label: -1, X: vec([]int32{1}, []float64{-0.25})},
		}, 20},
		{"comments, blank lines, CRLF", "# header\r\n\r\n3 1:1 # a comment 2:2\r\n  # indented comment\n3.0\n", []Vector{
			{Line: 3, Label: 3, X: vec([]int32{0}, []float64{1})},
			{Line: 5, Label: 3, X: vec([]int32{}, []float64{})},
		}, 1},
		{"no final newline", "0 5:1", []Vector{{Line: 1, Label: 0, X: vec([]int32{4}, []float64{1})}}, 5},
	}
	for _, tt := range tests {
		got, err := ParseLibSVM(strings.NewReader(tt.input), "t.svm")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		if got.Dim != tt.dim || len(got.Items) != len(tt.want) {
			t.Errorf("%s: Dim %d and %d items, want %d and %d", tt.name, got.Dim, len(got.Items), tt.dim, len(tt.want))
			continue
		}
		for i, w := range tt.want {
			g := got.Items[i]
			if g.Line != w.Line || g.Label != w.Label || !slices.Equal(g.X.Idx, w.X.Idx) || !slices.Equal(g.X.Val, w.X.Val) {
				t.Errorf("%s: item %d = %+v, want %+v", tt.name, i, g, w)
			}
		}
	}
}

func TestParseLibSVMErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, input, want string
	}{
		{"empty", "", "t.svm: no examples: the file is empty"},
		{"comments only", "# x\n\n", "t.svm: no examples"},
		{"bad label", "1 1:1\nx 1:1\n", `t.svm:2: field 1 "x": label is not a finite number`},
		{"nan label", "nan 1:1\n", `t.svm:1: field 1 "nan": label is not a finite number`},
		{"missing label", "1:1 2:2\n", `t.svm:1: field 1 "1:1": the line starts with a feature: the label is missing`},
		{"multi-label", "1,2 1:1\n", `field 1 "1,2": a multi-label line`},
		{"qid", "1 qid:3 1:1\n", `t.svm:1: field 2 "qid:3": qid (ranking data, svmlight's query id) is not supported`},
		{"qid first", "qid:3 1:1\n", `field 1 "qid:3": the line starts with qid`},
		{"no colon", "1 1:1 5\n", `t.svm:1: field 3 "5": not index:value`},
		{"index zero", "1 0:1\n", `field 2 "0:1": index "0" is not an integer from 1 to 2147483647`},
		{"index too large", "1 2147483648:1\n", `index "2147483648" is not an integer`},
		{"index not a number", "1 a:1\n", `index "a" is not an integer`},
		{"decreasing", "1 3:1 2:1\n", `t.svm:1: field 3 "2:1": index 2 after 3: indices must increase along the line`},
		{"repeated", "1 3:1 3:1\n", `index 3 after 3`},
		{"bad value", "1 1:1\n2 1:1 2:abc\n", `t.svm:2: field 3 "2:abc": value "abc" is not a finite number`},
		{"empty value", "1 1:\n", `value "" is not a finite number`},
		{"infinite value", "1 1:1e400\n", `value "1e400" is not a finite number`},
		{"long line", "1" + strings.Repeat(" 1:1", MaxLibSVMLine/4+1) + "\n", "t.svm:1: line longer than 16777216 bytes"},
	}
	for _, tt := range tests {
		_, err := ParseLibSVM(strings.NewReader(tt.input), "t.svm")
		var pe *ParseError
		if !errors.As(err, &pe) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want a *ParseError containing %q", tt.name, err, tt.want)
		}
	}
}

// A file written by WriteLibSVM reads back as the items written, gzipped
// or not; classes are the sorted distinct labels.
func TestLibSVMRoundTrip(t *testing.T) {
	t.Parallel()
	v := &Vectors{Name: "x", Dim: 4, Items: []Vector{
		{Label: 2, X: vec([]int32{0, 3}, []float64{0.1, -1e-300})},
		{Label: -1, X: vec([]int32{}, []float64{})},
		{Label: 2.5, X: vec([]int32{1, 2}, []float64{math.Pi, 0})},
	}}
	var b bytes.Buffer
	if err := WriteLibSVM(&b, v); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	plain, zipped := filepath.Join(dir, "a.svm"), filepath.Join(dir, "b.svm.gz")
	if err := os.WriteFile(plain, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	zw.Write(b.Bytes())
	zw.Close()
	if err := os.WriteFile(zipped, z.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{plain, zipped} {
		got, err := LoadLibSVM(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, w := range v.Items {
			g := got.Items[i]
			if g.Label != w.Label || !slices.Equal(g.X.Idx, w.X.Idx) || !slices.Equal(g.X.Val, w.X.Val) || g.Line != i+1 {
				t.Errorf("%s item %d: %+v, want %+v", path, i, g, w)
			}
		}
		if classes := got.Classes(); !slices.Equal(classes, []float64{-1, 2, 2.5}) {
			t.Errorf("Classes = %v", classes)
		}
		if ids, err := got.ClassIDs([]float64{-1, 2, 2.5}); err != nil || !slices.Equal(ids, []int{1, 0, 2}) {
			t.Errorf("ClassIDs = %v, %v", ids, err)
		}
		if _, err := got.ClassIDs([]float64{-1, 2}); err == nil || !strings.Contains(err.Error(), ":3: label 2.5 is not one of the 2 classes") {
			t.Errorf("ClassIDs without label 2.5: %v", err)
		}
	}
	if _, err := LoadLibSVM(filepath.Join(dir, "missing.svm")); err == nil || !strings.Contains(err.Error(), "missing.svm") {
		t.Errorf("missing file: %v", err)
	}
}

// FuzzParseLibSVM checks that arbitrary input yields either examples that
// obey the format's invariants and survive a write-and-read round trip, or
// a *ParseError, never a panic.
func FuzzParseLibSVM(f *testing.F) {
	for _, s := range []string{
		"1 1:0.5 2:-1\n-1 3:2\n",
		"+1\t7:1  20:3.5 # c\r\n\n# x\n3.0\n",
		"1 qid:2 1:1\n", "1 2:1 1:1\n", "1,2 1:1\n", "1 1:\n", "x\n", "",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, input string) {
		v, err := ParseLibSVM(strings.NewReader(input), "fuzz.svm")
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		for _, x := range v.Items {
			if math.IsNaN(x.Label) || math.IsInf(x.Label, 0) || !x.X.IsFinite() || len(x.X.Idx) != len(x.X.Val) {
				t.Fatalf("line %d: bad item %+v", x.Line, x)
			}
			for e, j := range x.X.Idx {
				if j < 0 || int(j) >= v.Dim || (e > 0 && j <= x.X.Idx[e-1]) {
					t.Fatalf("line %d: indices %v with Dim %d", x.Line, x.X.Idx, v.Dim)
				}
			}
		}
		var b bytes.Buffer
		if err := WriteLibSVM(&b, v); err != nil {
			t.Fatal(err)
		}
		back, err := ParseLibSVM(&b, "back.svm")
		if err != nil {
			t.Fatalf("written file does not read back: %v", err)
		}
		for i, x := range v.Items {
			y := back.Items[i]
			if y.Label != x.Label || !slices.Equal(y.X.Idx, x.X.Idx) || !slices.Equal(y.X.Val, x.X.Val) {
				t.Fatalf("item %d: %+v read back as %+v", i, x, y)
			}
		}
	})
}

func TestBlobs(t *testing.T) {
	t.Parallel()
	means := [][]float64{{0, 0}, {1, 0.1}, {1, -0.1}}
	a, err := Blobs(means, 0.5, 2000, 7)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := Blobs(means, 0.5, 2000, 7)
	c, _ := Blobs(means, 0.5, 2000, 8)
	if len(a.Items) != 6000 || a.Dim != 2 {
		t.Fatalf("%d items, Dim %d", len(a.Items), a.Dim)
	}
	if !slices.Equal(a.Items[5].X.Val, b.Items[5].X.Val) || slices.Equal(a.Items[5].X.Val, c.Items[5].X.Val) {
		t.Error("same seed differs or another seed agrees")
	}
	// Per class: the sample mean within 4 standard errors of the centre and
	// the sample variance within 10% of sd².
	for cl, m := range means {
		var sum, sq [2]float64
		n := 0
		for i, x := range a.Items {
			if int(x.Label) != cl || i%3 != cl {
				continue
			}
			n++
			for j, v := range x.X.Val {
				sum[j] += v
				sq[j] += (v - m[j]) * (v - m[j])
			}
		}
		for j := range 2 {
			if mean := sum[j] / float64(n); math.Abs(mean-m[j]) > 4*0.5/math.Sqrt(float64(n)) {
				t.Errorf("class %d coordinate %d: mean %v, centre %v", cl, j, mean, m[j])
			}
			if v := sq[j] / float64(n); math.Abs(v-0.25) > 0.025 {
				t.Errorf("class %d coordinate %d: variance %v, want 0.25", cl, j, v)
			}
		}
	}
	for _, bad := range []struct {
		means [][]float64
		sd    float64
		n     int
	}{{nil, 1, 1}, {[][]float64{{0}, {0, 1}}, 1, 1}, {means, -1, 1}, {means, math.NaN(), 1}, {means, 1, -1}} {
		if _, err := Blobs(bad.means, bad.sd, bad.n, 1); err == nil {
			t.Errorf("Blobs(%v, %v, %d): no error", bad.means, bad.sd, bad.n)
		}
	}
}
