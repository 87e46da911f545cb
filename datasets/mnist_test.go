package datasets

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// idx builds an IDX file: the header words, then the data.
func idx(header []uint32, data []byte) []byte {
	var b bytes.Buffer
	for _, h := range header {
		binary.Write(&b, binary.BigEndian, h)
	}
	b.Write(data)
	return b.Bytes()
}

// fixtureImages are three 2 × 3 images, the pixels of image i being
// i·10 + j at position j except that pixels of value 0 stay 0.
func fixtureImages() []byte {
	var px []byte
	for i := range 3 {
		for j := range 6 {
			px = append(px, byte(i*10+j))
		}
	}
	return idx([]uint32{IDXImagesMagic, 3, 2, 3}, px)
}

func fixtureLabels() []byte { return idx([]uint32{IDXLabelsMagic, 3}, []byte{7, 0, 7}) }

func TestReadIDXImages(t *testing.T) {
	m, err := ReadIDXImages(bytes.NewReader(fixtureImages()), "x-images-idx3-ubyte")
	if err != nil {
		t.Fatal(err)
	}
	if m.Count != 3 || m.Rows != 2 || m.Cols != 3 || len(m.Pixels) != 18 {
		t.Fatalf("got %d images of %d × %d, %d bytes; want 3 of 2 × 3, 18 bytes", m.Count, m.Rows, m.Cols, len(m.Pixels))
	}
	if got := m.Image(2); !slices.Equal(got, []byte{20, 21, 22, 23, 24, 25}) {
		t.Errorf("image 3 = %v", got)
	}
	labels, err := ReadIDXLabels(bytes.NewReader(fixtureLabels()), "x-labels-idx1-ubyte")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(labels, []byte{7, 0, 7}) {
		t.Errorf("labels %v", labels)
	}
}

// Each malformed file fails with a ParseError naming the file and the
// field at fault.
func TestReadIDXErrors(t *testing.T) {
	px := make([]byte, 6)
	var gz bytes.Buffer
	zw := gzip.NewWriter(&gz)
	zw.Write(fixtureImages())
	zw.Close()
	for _, tc := range []struct {
		name   string
		labels bool
		data   []byte
		field  string
		msg    string
	}{
		{"empty", false, nil, "magic", "ends inside its 16-byte header"},
		{"short header", false, idx([]uint32{IDXImagesMagic, 1}, nil), "rows", "ends inside"},
		{"labels as images", false, fixtureLabels(), "magic", "swapped"},
		{"images as labels", true, fixtureImages(), "magic", "swapped"},
		{"still gzip'd", false, gz.Bytes(), "magic", "gzip"},
		{"wrong magic", false, idx([]uint32{0x0903, 1, 2, 3}, px), "magic", "want 0x00000803"},
		{"no images", false, idx([]uint32{IDXImagesMagic, 0, 2, 3}, nil), "count", "not in [1,"},
		{"zero rows", false, idx([]uint32{IDXImagesMagic, 1, 0, 3}, px), "rows", "not in [1,"},
		{"huge columns", false, idx([]uint32{IDXImagesMagic, 1, 2, 1 << 20}, px), "columns", "not in [1,"},
		{"huge count", false, idx([]uint32{IDXImagesMagic, 1 << 30, 2, 3}, px), "count", "not in [1,"},
		{"truncated pixels", false, idx([]uint32{IDXImagesMagic, 2, 2, 3}, px), "pixels", "image 2 of the 2"},
		{"trailing pixels", false, idx([]uint32{IDXImagesMagic, 1, 2, 3}, append(px, 1)), "", "trailing bytes"},
		{"no labels", true, idx([]uint32{IDXLabelsMagic, 0}, nil), "count", "not in [1,"},
		{"truncated labels", true, idx([]uint32{IDXLabelsMagic, 4}, []byte{1, 2}), "labels", "2 labels of the 4"},
		{"trailing labels", true, idx([]uint32{IDXLabelsMagic, 1}, []byte{1, 2}), "", "trailing bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var err error
			if tc.labels {
				_, err = ReadIDXLabels(bytes.NewReader(tc.data), "f.idx")
			} else {
				_, err = ReadIDXImages(bytes.NewReader(tc.data), "f.idx")
			}
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if pe.File != "f.idx" || pe.Field != tc.field || !strings.Contains(err.Error(), tc.msg) {
				t.Errorf("error %q (file %q, field %q), want file f.idx, field %q, containing %q", err, pe.File, pe.Field, tc.field, tc.msg)
			}
		})
	}
}

func TestMNISTVectors(t *testing.T) {
	m, err := ReadIDXImages(bytes.NewReader(fixtureImages()), "i")
	if err != nil {
		t.Fatal(err)
	}
	v, err := MNISTVectors(m, []byte{7, 0, 7}, "i", "l")
	if err != nil {
		t.Fatal(err)
	}
	if v.Dim != 6 || len(v.Items) != 3 {
		t.Fatalf("dim %d, %d items; want 6, 3", v.Dim, len(v.Items))
	}
	// Image 1's first pixel is 0: left out; the others scaled by 1/255.
	x := v.Items[0].X
	if !slices.Equal(x.Idx, []int32{1, 2, 3, 4, 5}) || x.Val[0] != 1.0/255 || x.Val[4] != 5.0/255 {
		t.Errorf("item 1: %v %v", x.Idx, x.Val)
	}
	if it := v.Items[2]; it.Line != 3 || it.Label != 7 || it.X.Val[5] != 25.0/255 {
		t.Errorf("item 3: line %d, label %v, values %v", it.Line, it.Label, it.X.Val)
	}
	_, err = MNISTVectors(m, []byte{1, 2}, "i", "l")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "l" || pe.Field != "count" || !strings.Contains(err.Error(), "2 labels for the 3 images of i") {
		t.Errorf("count mismatch: %v", err)
	}
}

func TestMNISTLabelFile(t *testing.T) {
	got, err := MNISTLabelFile(filepath.Join("d", "t10k-images-idx3-ubyte.gz"))
	if want := filepath.Join("d", "t10k-labels-idx1-ubyte.gz"); err != nil || got != want {
		t.Errorf("got %q, %v; want %q", got, err, want)
	}
	if _, err := MNISTLabelFile("images.gz"); err == nil || !strings.Contains(err.Error(), "images-idx3") {
		t.Errorf("a name without images-idx3: %v", err)
	}
}

// writeMNIST writes a fixture corpus below dir/mnist: a training part of
// the three fixture images (gzip'd, as LeCun distributes them) and a test
// part of one image (plain).
func writeMNIST(t *testing.T, dir string) {
	t.Helper()
	sub := filepath.Join(dir, "mnist")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	gz := func(b []byte) []byte {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		zw.Write(b)
		zw.Close()
		return buf.Bytes()
	}
	for name, data := range map[string][]byte{
		"train-images-idx3-ubyte.gz": gz(fixtureImages()),
		"train-labels-idx1-ubyte.gz": gz(fixtureLabels()),
		"t10k-images-idx3-ubyte.gz":  idx([]uint32{IDXImagesMagic, 1, 2, 3}, []byte{0, 0, 9, 0, 0, 255}),
		"t10k-labels-idx1-ubyte.gz":  idx([]uint32{IDXLabelsMagic, 1}, []byte{3}),
	} {
		if err := os.WriteFile(filepath.Join(sub, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// The built-in dataset reads the files below the data directory as fixed
// parts, its classes the digits that occur in either part.
func TestLoadMNISTBuiltin(t *testing.T) {
	dir := t.TempDir()
	writeMNIST(t, dir)
	d, ok := Builtin("mnist")
	if !ok || !d.Vectorial() || !d.Fixed() {
		t.Fatalf("builtin mnist: %+v, %v", d, ok)
	}
	l, err := Load(dir, "test", d)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(l.Labels, []string{"0", "3", "7"}) {
		t.Errorf("classes %v", l.Labels)
	}
	if !slices.Equal(l.Parts, []int{PartTrain, PartTrain, PartTrain, PartTest}) {
		t.Errorf("parts %v", l.Parts)
	}
	var got []int
	for _, s := range l.Sequences {
		got = append(got, s.Labels[0])
	}
	if !slices.Equal(got, []int{2, 0, 2, 1}) {
		t.Errorf("classes of the items %v, want 7 0 7 3 as 2 0 2 1", got)
	}
	if x := l.Vectors[3]; !slices.Equal(x.Idx, []int32{2, 5}) || x.Val[1] != 1 {
		t.Errorf("test image: %v %v", x.Idx, x.Val)
	}
	if id := l.Sequences[3].ID; id != "t10k-images-idx3-ubyte.gz:1" {
		t.Errorf("test item ID %q", id)
	}
}

func TestLoadMNISTErrors(t *testing.T) {
	dir := t.TempDir()
	writeMNIST(t, dir)
	if err := os.Remove(filepath.Join(dir, "mnist", "t10k-labels-idx1-ubyte.gz")); err != nil {
		t.Fatal(err)
	}
	d, _ := Builtin("mnist")
	_, err := Load(dir, "test", d)
	if err == nil || !strings.Contains(err.Error(), "t10k-labels-idx1-ubyte.gz") || !strings.Contains(err.Error(), "yann.lecun.com") {
		t.Errorf("missing label file: %v", err)
	}
	for _, tc := range []struct {
		d     Declaration
		field string
	}{
		{Declaration{Name: "m", Format: FormatMNIST, Path: "mnist/train-images-idx3-ubyte.gz"}, "path"},
		{Declaration{Name: "m", Format: FormatMNIST, Train: "mnist/train.gz", Test: "mnist/t10k-images-idx3-ubyte.gz"}, "train"},
	} {
		_, err := Load(dir, "test", tc.d)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != tc.field {
			t.Errorf("%+v: error %v, want one on field %s", tc.d, err, tc.field)
		}
	}
}
