package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// Vector is one example of a file of labelled feature vectors: its label,
// its features (0-based: the file's index j is X's index j−1) and the
// 1-based line it was read from (0 if generated).
type Vector struct {
	Line  int
	Label float64
	X     structpred.SparseVec
}

// Vectors is a file of labelled feature vectors, such as a libsvm file or
// a generated data set. Dim is the number of features: the largest index
// the file uses (1-based), so every X index is below it.
type Vectors struct {
	Name  string
	Items []Vector
	Dim   int
}

// Classes returns the distinct labels, sorted: the class of a label is its
// position in this list.
func (v *Vectors) Classes() []float64 {
	var out []float64
	for _, x := range v.Items {
		out = append(out, x.Label)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// ClassIDs returns the position in classes (sorted, as Classes returns
// them, possibly over several files) of every item's label; a label that
// is not in classes is an error naming the item's file and line.
func (v *Vectors) ClassIDs(classes []float64) ([]int, error) {
	ids := make([]int, len(v.Items))
	for i, x := range v.Items {
		c, ok := slices.BinarySearch(classes, x.Label)
		if !ok {
			return nil, &ParseError{File: v.Name, Line: x.Line, Msg: fmt.Sprintf("label %v is not one of the %d classes %v", x.Label, len(classes), classes)}
		}
		ids[i] = c
	}
	return ids, nil
}

// MaxLibSVMLine bounds the bytes of one line of a libsvm file, so that a
// file that is not one (no line ends) fails with a clear error rather than
// exhausting memory. 16 MiB holds a million features of 16 characters.
const MaxLibSVMLine = 16 << 20

// ParseLibSVM reads labelled feature vectors in the libsvm/svmlight format,
// name being the file name in errors:
//
//	<label> <index>:<value> <index>:<value> ... [# comment]
//
// one example per line, fields separated by spaces or tabs. The rules:
//
//   - The label is a finite number ("1", "-1", "+1", "3.0"); "3" and
//     "3.0" are the same class.
//   - Indices are decimal integers from 1 to 2³¹−1, strictly increasing
//     along the line (as libsvm requires); values are finite numbers
//     (explicit zeros are kept). A line with a label alone is the zero
//     vector.
//   - '#' starts a comment to the end of the line; blank and comment-only
//     lines are skipped. A CR before the LF is dropped.
//   - svmlight's qid:<n> (query ids of ranking data) is refused, not
//     ignored: a ranking file read as classification data would lose the
//     grouping that defines it. So are multi-label lines ("1,3 ...").
//   - A line longer than MaxLibSVMLine bytes and a file without examples
//     are errors.
//
// Every error is a [*ParseError] naming the file, the line and, for a
// malformed field, its position on the line (the label is field 1) and
// text.
func ParseLibSVM(r io.Reader, name string) (*Vectors, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), MaxLibSVMLine)
	out := &Vectors{Name: name}
	line := 0
	for sc.Scan() {
		line++
		text := sc.Text()
		if c := strings.IndexByte(text, '#'); c >= 0 {
			text = text[:c]
		}
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		v, dim, err := parseLibSVMLine(fields)
		if err != nil {
			return nil, &ParseError{File: name, Line: line, Msg: err.Error()}
		}
		v.Line = line
		out.Items = append(out.Items, v)
		out.Dim = max(out.Dim, dim)
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, &ParseError{File: name, Line: line + 1, Msg: fmt.Sprintf("line longer than %d bytes (not a libsvm file?)", MaxLibSVMLine)}
		}
		return nil, &ParseError{File: name, Line: line + 1, Msg: "read error", Err: err}
	}
	if len(out.Items) == 0 {
		return nil, &ParseError{File: name, Msg: "no examples: the file is empty"}
	}
	return out, nil
}

// parseLibSVMLine parses the fields of one example; dim is its largest
// (1-based) index.
func parseLibSVMLine(fields []string) (v Vector, dim int, err error) {
	bad := func(f int, format string, args ...any) error {
		return fmt.Errorf("field %d %q: %s", f+1, fields[f], fmt.Sprintf(format, args...))
	}
	label := fields[0]
	switch {
	case strings.HasPrefix(label, "qid:"):
		return v, 0, bad(0, "the line starts with qid: the label is missing")
	case strings.Contains(label, ","):
		return v, 0, bad(0, "a multi-label line; only one label per example is supported")
	case strings.Contains(label, ":"):
		return v, 0, bad(0, "the line starts with a feature: the label is missing")
	}
	if v.Label, err = parseFinite(label); err != nil {
		return v, 0, bad(0, "label is not a finite number")
	}
	n := len(fields) - 1
	v.X = structpred.SparseVec{Idx: make([]int32, 0, n), Val: make([]float64, 0, n)}
	for f := 1; f < len(fields); f++ {
		idx, val, ok := strings.Cut(fields[f], ":")
		switch {
		case !ok:
			return v, 0, bad(f, "not index:value")
		case idx == "qid":
			return v, 0, bad(f, "qid (ranking data, svmlight's query id) is not supported")
		}
		j, err := strconv.ParseInt(idx, 10, 64)
		if err != nil || j < 1 || j > math.MaxInt32 {
			return v, 0, bad(f, "index %q is not an integer from 1 to %d", idx, math.MaxInt32)
		}
		if dim > 0 && int(j) <= dim {
			return v, 0, bad(f, "index %d after %d: indices must increase along the line", j, dim)
		}
		x, err := parseFinite(val)
		if err != nil {
			return v, 0, bad(f, "value %q is not a finite number", val)
		}
		dim = int(j)
		v.X.Idx = append(v.X.Idx, int32(j-1))
		v.X.Val = append(v.X.Val, x)
	}
	return v, dim, nil
}

// parseFinite parses a finite floating-point number.
func parseFinite(s string) (float64, error) {
	x, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return 0, fmt.Errorf("%v is not finite", x)
	}
	return x, nil
}

// LoadLibSVM reads a libsvm file, gzip-compressed or not; see
// [ParseLibSVM].
func LoadLibSVM(path string) (*Vectors, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load libsvm: %w", err)
	}
	defer f.Close()
	r, err := maybeGunzip(f, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return ParseLibSVM(r, filepath.Base(path))
}

// WriteLibSVM writes v in the libsvm format, one example per line, numbers
// in the shortest form that reads back exactly; zero features are written
// as they are stored. ParseLibSVM of the output gives v's items back.
func WriteLibSVM(w io.Writer, v *Vectors) error {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, x := range v.Items {
		buf = strconv.AppendFloat(buf[:0], x.Label, 'g', -1, 64)
		for e, j := range x.X.Idx {
			buf = append(buf, ' ')
			buf = strconv.AppendInt(buf, int64(j)+1, 10)
			buf = append(buf, ':')
			buf = strconv.AppendFloat(buf, x.X.Val[e], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := bw.Write(buf); err != nil {
			return fmt.Errorf("write libsvm: %w", err)
		}
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write libsvm: %w", err)
	}
	return nil
}

// VectorCorpus makes labelled feature vectors (one file, or the fixed
// parts of one corpus) a corpus of one-token items: item i's label is its
// class, the position of its label among classes (the sorted labels of
// every part, written in the shortest form that reads back exactly, as
// liblinear's predict writes them); its token and ID name its file and
// line (its index, if generated). The vectors are returned in the same order. A label outside
// classes is an error naming its file and line; nil classes means every
// part's labels.
func VectorCorpus(name string, parts []*Vectors, classes []float64) (*Corpus, []structpred.SparseVec, error) {
	if classes == nil {
		for _, p := range parts {
			classes = append(classes, p.Classes()...)
		}
		slices.Sort(classes)
		classes = slices.Compact(classes)
	}
	c := &Corpus{Name: name, Labels: make([]string, len(classes))}
	for k, l := range classes {
		c.Labels[k] = strconv.FormatFloat(l, 'g', -1, 64)
	}
	var xs []structpred.SparseVec
	for _, p := range parts {
		ids, err := p.ClassIDs(classes)
		if err != nil {
			return nil, nil, err
		}
		for i, v := range p.Items {
			id := fmt.Sprintf("%s:%d", p.Name, v.Line)
			if v.Line == 0 { // generated
				id = fmt.Sprintf("%s-%d", p.Name, i)
			}
			c.Sequences = append(c.Sequences, structpred.Sequence{ID: id, Tokens: []string{id}, Labels: []int{ids[i]}})
			xs = append(xs, v.X)
		}
	}
	return c, xs, nil
}

// loadVectorFiles reads a libsvm file, or the fixed parts of one corpus in
// libsvm files with one class list, or generates the blobs; a declared
// cost matrix is checked against the classes.
func loadVectorFiles(dir, source string, d Declaration) (*Loaded, error) {
	var parts []*Vectors
	var ids []int
	switch {
	case d.Format == FormatBlobs:
		v, err := DefaultBlobs()
		if err != nil {
			return nil, err
		}
		parts, ids = []*Vectors{v}, []int{-1}
	case !d.Fixed():
		path := resolve(dir, d.Path)
		v, err := LoadLibSVM(path)
		if err != nil {
			return nil, missing(err, path, d.Path, dir, source, d.Obtain)
		}
		parts, ids = []*Vectors{v}, []int{-1}
	default:
		for part, p := range []string{d.Train, d.Dev, d.Test} {
			if p == "" {
				continue
			}
			path := resolve(dir, p)
			v, err := LoadLibSVM(path)
			if err != nil {
				return nil, missing(err, path, p, dir, source, d.Obtain)
			}
			parts, ids = append(parts, v), append(ids, part)
		}
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
		if ids[i] >= 0 {
			for range p.Items {
				l.Parts = append(l.Parts, ids[i])
			}
		}
	}
	return l, nil
}

// CheckCost reports what is wrong with a cost matrix over k classes: it
// must be k rows of k finite, non-negative numbers with zeros on the
// diagonal (nil, the 0/1 cost, is fine).
func CheckCost(cost [][]float64, k int) error {
	if cost == nil {
		return nil
	}
	if len(cost) != k {
		return fmt.Errorf("%d rows for %d classes", len(cost), k)
	}
	for y, row := range cost {
		if len(row) != k {
			return fmt.Errorf("row %d has %d entries for %d classes", y+1, len(row), k)
		}
		for z, v := range row {
			switch {
			case !(v >= 0) || math.IsInf(v, 0):
				return fmt.Errorf("row %d, entry %d: %v is not a finite non-negative cost", y+1, z+1, v)
			case y == z && v != 0:
				return fmt.Errorf("row %d, entry %d: the cost of the true class must be 0, got %v", y+1, z+1, v)
			}
		}
	}
	return nil
}
