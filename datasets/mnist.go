package datasets

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// The IDX headers of LeCun's MNIST files: two zero bytes, the element
// type (0x08: unsigned byte) and the number of dimensions.
const (
	IDXImagesMagic = 0x00000803 // images: count × rows × columns bytes
	IDXLabelsMagic = 0x00000801 // labels: count bytes
)

// Bounds on an IDX header, so that a damaged or hostile header fails with
// a clear error before anything is allocated: 1<<24 items, and images of at
// most 1<<12 pixels a side (MNIST's are 28 × 28). The product is bounded
// by what is read, not allocated up front.
const (
	MaxIDXItems = 1 << 24
	MaxIDXSide  = 1 << 12
)

// MNISTImages are the images of an IDX image file: Count images of Rows ×
// Cols pixels, row-major, one byte each (0 the background, 255 full ink).
type MNISTImages struct {
	Count, Rows, Cols int
	Pixels            []byte // Count·Rows·Cols bytes, image after image
}

// Image returns image i's pixels.
func (m *MNISTImages) Image(i int) []byte {
	n := m.Rows * m.Cols
	return m.Pixels[i*n : (i+1)*n]
}

// ReadIDXImages reads an (uncompressed) IDX image file, name being the
// file name in errors: the magic number 0x00000803 and three big-endian
// uint32 sizes (count, rows, columns), then count·rows·columns bytes and
// nothing more. Every error is a [*ParseError] naming the file and the
// header field or the image at fault.
func ReadIDXImages(r io.Reader, name string) (*MNISTImages, error) {
	var h [4]uint32
	if err := readHeader(r, name, []string{"magic", "count", "rows", "columns"}, h[:], IDXImagesMagic, "an IDX image file (idx3-ubyte)"); err != nil {
		return nil, err
	}
	for i, f := range []struct {
		field string
		max   uint32
	}{{"count", MaxIDXItems}, {"rows", MaxIDXSide}, {"columns", MaxIDXSide}} {
		if v := h[i+1]; v < 1 || v > f.max {
			return nil, &ParseError{File: name, Field: f.field, Msg: fmt.Sprintf("%d is not in [1, %d]", v, f.max)}
		}
	}
	m := &MNISTImages{Count: int(h[1]), Rows: int(h[2]), Cols: int(h[3])}
	size := m.Rows * m.Cols
	// Read image by image, so that a header promising more than the file
	// holds costs no more memory than the file's bytes.
	buf := make([]byte, size)
	m.Pixels = make([]byte, 0, min(m.Count*size, 64<<20))
	for i := range m.Count {
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, &ParseError{File: name, Field: "pixels", Msg: fmt.Sprintf("truncated: image %d of the %d the header counts", i+1, m.Count), Err: err}
		}
		m.Pixels = append(m.Pixels, buf...)
	}
	if err := checkEnd(r, name, fmt.Sprintf("the %d images of %d × %d pixels", m.Count, m.Rows, m.Cols)); err != nil {
		return nil, err
	}
	return m, nil
}

// ReadIDXLabels reads an (uncompressed) IDX label file, name being the
// file name in errors: the magic number 0x00000801 and a big-endian uint32
// count, then count bytes and nothing more. Every error is a
// [*ParseError] naming the file and the field at fault.
func ReadIDXLabels(r io.Reader, name string) ([]byte, error) {
	var h [2]uint32
	if err := readHeader(r, name, []string{"magic", "count"}, h[:], IDXLabelsMagic, "an IDX label file (idx1-ubyte)"); err != nil {
		return nil, err
	}
	if h[1] < 1 || h[1] > MaxIDXItems {
		return nil, &ParseError{File: name, Field: "count", Msg: fmt.Sprintf("%d is not in [1, %d]", h[1], MaxIDXItems)}
	}
	labels, err := io.ReadAll(io.LimitReader(r, int64(h[1])))
	if err != nil {
		return nil, &ParseError{File: name, Field: "labels", Msg: "read error", Err: err}
	}
	if len(labels) < int(h[1]) {
		return nil, &ParseError{File: name, Field: "labels", Msg: fmt.Sprintf("truncated: %d labels of the %d the header counts", len(labels), h[1])}
	}
	if err := checkEnd(r, name, fmt.Sprintf("the %d labels", h[1])); err != nil {
		return nil, err
	}
	return labels, nil
}

// readHeader reads len(fields) big-endian uint32s into h, the first the
// magic number, which must be magic (the file is what: for the message),
// checked before the rest is read.
func readHeader(r io.Reader, name string, fields []string, h []uint32, magic uint32, what string) error {
	for i, f := range fields {
		if err := binary.Read(r, binary.BigEndian, &h[i]); err != nil {
			if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
				return &ParseError{File: name, Field: f, Msg: fmt.Sprintf("the file ends inside its %d-byte header", 4*len(fields))}
			}
			return &ParseError{File: name, Field: f, Msg: "read error", Err: err}
		}
		if i == 0 {
			if err := checkMagic(name, h[0], magic, what); err != nil {
				return err
			}
		}
	}
	return nil
}

func checkMagic(name string, got, want uint32, what string) error {
	if got == want {
		return nil
	}
	hint := ""
	switch {
	case got == IDXImagesMagic || got == IDXLabelsMagic:
		hint = " (images and labels swapped?)"
	case got>>16 == 0x1f8b:
		hint = " (still gzip-compressed?)"
	}
	return &ParseError{File: name, Field: "magic", Msg: fmt.Sprintf("0x%08x, want 0x%08x for %s%s", got, want, what, hint)}
}

// checkEnd reports bytes after what the header announced.
func checkEnd(r io.Reader, name, what string) error {
	var b [1]byte
	switch n, err := io.ReadFull(r, b[:]); {
	case n > 0:
		return &ParseError{File: name, Msg: fmt.Sprintf("trailing bytes after %s the header counts", what)}
	case err != nil && !errors.Is(err, io.EOF):
		return &ParseError{File: name, Msg: "read error", Err: err}
	}
	return nil
}

// MNISTVectors makes images and their labels labelled feature vectors:
// item i's features are its pixels scaled to [0, 1] (value/255; zero
// pixels left out, so the vectors are sparse), feature j the pixel at row
// j/Cols, column j%Cols; its label the digit. Line is i+1, the item's
// 1-based place in the files. images and labels name the two files in
// errors; their counts must agree.
func MNISTVectors(m *MNISTImages, labels []byte, images, labelsName string) (*Vectors, error) {
	if m.Count != len(labels) {
		return nil, &ParseError{File: labelsName, Field: "count", Msg: fmt.Sprintf("%d labels for the %d images of %s", len(labels), m.Count, images)}
	}
	v := &Vectors{Name: images, Dim: m.Rows * m.Cols, Items: make([]Vector, m.Count)}
	for i := range v.Items {
		var x structpred.SparseVec
		for j, p := range m.Image(i) {
			if p != 0 {
				x.Idx, x.Val = append(x.Idx, int32(j)), append(x.Val, float64(p)/255)
			}
		}
		v.Items[i] = Vector{Line: i + 1, Label: float64(labels[i]), X: x}
	}
	return v, nil
}

// MNISTLabelFile returns the label file that goes with an MNIST image file,
// by LeCun's naming: "images-idx3" becomes "labels-idx1" in the base name
// (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz).
func MNISTLabelFile(images string) (string, error) {
	dir, base := filepath.Split(images)
	if !strings.Contains(base, "images-idx3") {
		return "", fmt.Errorf("%s: an MNIST image file's name contains images-idx3, which names its label file (images-idx3 → labels-idx1)", images)
	}
	return dir + strings.Replace(base, "images-idx3", "labels-idx1", 1), nil
}

// LoadMNIST reads an MNIST image file and its label file (see
// [MNISTLabelFile]), each gzip-compressed or not, as feature vectors (see
// [MNISTVectors]).
func LoadMNIST(images string) (*Vectors, error) {
	labelsPath, err := MNISTLabelFile(images)
	if err != nil {
		return nil, err
	}
	var m *MNISTImages
	if err := readGzipped(images, func(r io.Reader, name string) (err error) {
		m, err = ReadIDXImages(r, name)
		return err
	}); err != nil {
		return nil, err
	}
	var labels []byte
	if err := readGzipped(labelsPath, func(r io.Reader, name string) (err error) {
		labels, err = ReadIDXLabels(r, name)
		return err
	}); err != nil {
		return nil, err
	}
	return MNISTVectors(m, labels, filepath.Base(images), filepath.Base(labelsPath))
}

// readGzipped opens path and has read parse it, decompressed if it is
// gzip'd; a damaged gzip stream is an error naming the file.
func readGzipped(path string, read func(io.Reader, string) error) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("load mnist: %w", err)
	}
	defer f.Close()
	name := filepath.Base(path)
	r, err := maybeGunzip(f, name)
	if err != nil {
		return err
	}
	return read(r, name)
}

// loadMNIST reads the fixed parts of an MNIST-format corpus: each part an
// image file with its label file beside it; the classes are the digits
// that occur, in numeric order.
func loadMNIST(dir, source string, d Declaration) (*Loaded, error) {
	var parts []*Vectors
	var ids []int
	for part, p := range []string{d.Train, d.Dev, d.Test} {
		if p == "" {
			continue
		}
		path := resolve(dir, p)
		labels, err := MNISTLabelFile(path)
		if err != nil {
			return nil, &FieldError{[]string{"train", "dev", "test"}[part], err.Error()}
		}
		for _, f := range []struct{ abs, rel string }{{path, p}, {labels, filepath.Join(filepath.Dir(p), filepath.Base(labels))}} {
			if _, err := os.Stat(f.abs); err != nil {
				return nil, missing(err, f.abs, f.rel, dir, source, d.Obtain)
			}
		}
		v, err := LoadMNIST(path)
		if err != nil {
			return nil, err
		}
		parts, ids = append(parts, v), append(ids, part)
	}
	c, xs, err := VectorCorpus(d.Name, parts, nil)
	if err != nil {
		return nil, err
	}
	if err := CheckCost(d.Cost, len(c.Labels)); err != nil {
		return nil, &FieldError{"cost", fmt.Sprintf("%v (the classes, in order: %v)", err, c.Labels)}
	}
	l := &Loaded{Corpus: c, Vectors: xs}
	for i, p := range parts {
		for range p.Items {
			l.Parts = append(l.Parts, ids[i])
		}
	}
	return l, nil
}
