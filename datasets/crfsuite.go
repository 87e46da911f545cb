package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/maxmargin/repro/structpred"
)

// Attributes are the features a corpus brings with it, as an attribute
// file (format crfsuite) gives them: they are used as given, with no
// feature templates of ours, so that repro and another tool can train on
// identical features.
//
// Names[i][t] lists the attributes of token t of sequence i in file order,
// each at most once. Values scales them (CRFsuite's "scaling value"): nil,
// a nil Values[i] or a nil Values[i][t] means that every value there is 1;
// otherwise Values[i][t][j] belongs to Names[i][t][j]. Reading keeps this
// form canonical (a value list only where some value is not 1), so that
// files of binary attributes cost no values at all.
type Attributes struct {
	Names  [][][]string
	Values [][][]float64
}

// Value returns the value of attribute j of token t of sequence i.
func (a *Attributes) Value(i, t, j int) float64 {
	if a.Values == nil || a.Values[i] == nil || a.Values[i][t] == nil {
		return 1
	}
	return a.Values[i][t][j]
}

// Valued reports whether some attribute has a value other than 1.
func (a *Attributes) Valued() bool { return a != nil && a.Values != nil }

// ParseCRFsuite reads an attribute file in CRFsuite's data format (the
// format `crfsuite learn` reads; CRFsuite 0.12's frontend/iwa.c and
// reader.c), name being the file name in errors and sequence IDs:
//
//	LABEL<TAB>ATTR[:VALUE]<TAB>ATTR[:VALUE]...
//
// one item (token) per line, a blank line after each sequence. The rules
// follow CRFsuite where its reading is well defined:
//
//   - Fields are separated by TABs only (spaces belong to names); empty
//     fields (two TABs in a row, a trailing TAB) are skipped, as CRFsuite
//     skips them.
//   - The first field is the label, the others are attributes. In both,
//     `\:` stands for ':' and `\\` for '\'; a backslash before any other
//     character is itself.
//   - An unescaped ':' ends an attribute's name; what follows is its value
//     (a decimal or hexadecimal floating-point number; empty means 1, as
//     in CRFsuite). Without a value the attribute's value is 1.
//   - An attribute that occurs twice in one item counts twice: CRFsuite
//     adds both, so the values are summed.
//   - Sequence i (from 0, in file order) has ID "<name>-<i>"; the labels
//     are the distinct labels sorted; the tokens are empty strings (the
//     format has no surface forms) and the segments are the maximal runs
//     of one label.
//
// Input on which CRFsuite's reading is accidental is refused with a
// [*ParseError] naming the file and line, rather than read one way here
// and another there: a carriage return (CRLF line ends would make '\r'
// part of the last name), a NUL byte, invalid UTF-8, an empty label (a
// line starting with a TAB; CRFsuite would take the first attribute as
// the label), a label with a value, a label starting with '@' (CRFsuite's
// declarations, e.g. @weight instance weights, which repro does not
// support), an empty attribute name, a value that is not a finite number
// (CRFsuite's atof would read garbage as 0), a second unescaped ':' in a
// field, and an empty sequence (two blank lines in a row, or a blank line
// before the first item; blank lines at the end of the file are
// ignored), which CRFsuite would read as an empty instance and which
// would shift the sequence numbers a split file refers to.
func ParseCRFsuite(r io.Reader, name string) (*Corpus, *Attributes, error) {
	raw, err := readCRFsuite(r, name)
	if err != nil {
		return nil, nil, err
	}
	cs, as := buildCRFsuite([]*crfsuiteRaw{raw})
	return cs[0], as[0], nil
}

// LoadCRFsuite reads an attribute file, gzip-compressed or not; see
// [ParseCRFsuite].
func LoadCRFsuite(path string) (*Corpus, *Attributes, error) {
	cs, as, err := LoadCRFsuiteFiles([]string{path})
	if err != nil {
		return nil, nil, err
	}
	return cs[0], as[0], nil
}

// LoadCRFsuiteFiles reads the parts of one corpus (e.g. train, dev and
// test files), each as [LoadCRFsuite] does, with one label list across
// them: the labels of every part, sorted, so that a label id means the
// same in each part.
func LoadCRFsuiteFiles(paths []string) ([]*Corpus, []*Attributes, error) {
	raws := make([]*crfsuiteRaw, len(paths))
	for i, path := range paths {
		raw, err := loadCRFsuiteRaw(path)
		if err != nil {
			return nil, nil, err
		}
		raws[i] = raw
	}
	cs, as := buildCRFsuite(raws)
	return cs, as, nil
}

func loadCRFsuiteRaw(path string) (*crfsuiteRaw, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load crfsuite: %w", err)
	}
	defer f.Close()
	r, err := maybeGunzip(f, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return readCRFsuite(r, filepath.Base(path))
}

// crfsuiteRaw is a file as read, labels still strings.
type crfsuiteRaw struct {
	name   string
	seqs   []crfsuiteSeq
	labels map[string]bool
}

type crfsuiteSeq struct {
	line   int
	labels []string
	names  [][]string
	values [][]float64 // nil, or per token nil (all 1) or the values
}

// readCRFsuite reads one file; see [ParseCRFsuite] for the rules.
func readCRFsuite(r io.Reader, name string) (*crfsuiteRaw, error) {
	sc, limit := newLineScanner(r, 0)
	sc.Split(scanLinesKeepCR)
	out := &crfsuiteRaw{name: name, labels: map[string]bool{}}
	fail := func(line int, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Msg: fmt.Sprintf(format, args...)}
	}
	var cur crfsuiteSeq
	seen := map[string]int{}   // attribute → its position in the current item
	lineNo, blankSince := 0, 0 // blankSince: the first of the blank lines just read (0: none)
	for sc.Scan() {
		lineNo++
		text := sc.Text()
		switch {
		case strings.ContainsRune(text, '\r'):
			return nil, fail(lineNo, "carriage return: CRFsuite would read it as part of a label or attribute; convert CRLF line ends to LF")
		case strings.ContainsRune(text, 0):
			return nil, fail(lineNo, "NUL byte")
		case !utf8.ValidString(text):
			return nil, fail(lineNo, "invalid UTF-8")
		}
		if text == "" {
			if len(cur.labels) > 0 {
				out.seqs = append(out.seqs, cur)
				cur = crfsuiteSeq{}
			}
			if blankSince == 0 {
				blankSince = lineNo
			}
			continue
		}
		if blankSince > 0 && (len(out.seqs) == 0 || blankSince < lineNo-1) {
			at, what := blankSince+1, "two blank lines in a row" // at the second of them
			if len(out.seqs) == 0 {
				at, what = blankSince, "a blank line before the first item"
			}
			return nil, fail(at, "empty sequence (%s); CRFsuite would read an empty instance and the sequence numbers of a split file would shift", what)
		}
		blankSince = 0
		if len(cur.labels) == 0 {
			cur.line = lineNo
		}
		if err := cur.addItem(text, seen, func(format string, args ...any) error { return fail(lineNo, format, args...) }); err != nil {
			return nil, err
		}
		out.labels[cur.labels[len(cur.labels)-1]] = true
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, lineNo+1, err, limit)
	}
	if len(cur.labels) > 0 {
		out.seqs = append(out.seqs, cur)
	}
	if len(out.seqs) == 0 {
		return nil, fail(lineNo, "no sequences: the file is empty")
	}
	return out, nil
}

// addItem parses one item line into s; seen is scratch space.
func (s *crfsuiteSeq) addItem(text string, seen map[string]int, fail func(string, ...any) error) error {
	fields := strings.Split(text, "\t")
	if fields[0] == "" {
		return fail("the line starts with a TAB: the label is missing (CRFsuite would take the first attribute as the label)")
	}
	label, value, hasValue, err := splitCRFsuiteField(fields[0])
	switch {
	case err != nil:
		return fail("label %q: %v", fields[0], err)
	case strings.HasPrefix(label, "@"):
		return fail("label %q starts with '@': CRFsuite reads the line as a declaration (@weight: an instance weight), which repro does not support", label)
	case hasValue:
		return fail("label %q has a value (':%s'); escape ':' in labels as '\\:'", label, value)
	}
	clear(seen)
	var names []string
	var values []float64 // nil while every value is 1
	for _, f := range fields[1:] {
		if f == "" {
			continue // CRFsuite skips empty fields
		}
		attr, raw, hasValue, err := splitCRFsuiteField(f)
		if err != nil {
			return fail("attribute %q: %v", f, err)
		}
		if attr == "" {
			return fail("attribute %q has an empty name", f)
		}
		v := 1.0
		if hasValue && raw != "" {
			if v, err = strconv.ParseFloat(raw, 64); err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
				return fail("attribute %q: value %q is not a finite number", attr, raw)
			}
		}
		if j, dup := seen[attr]; dup { // counts twice, as in CRFsuite
			if values == nil {
				values = ones(len(names))
			}
			values[j] += v
			continue
		}
		seen[attr] = len(names)
		names = append(names, attr)
		if v != 1 && values == nil {
			values = ones(len(names) - 1)
		}
		if values != nil {
			values = append(values, v)
		}
	}
	if values != nil && !slices.ContainsFunc(values, func(v float64) bool { return v != 1 }) {
		values = nil // duplicates summed back to 1 (e.g. 0.5 twice)
	}
	s.labels = append(s.labels, label)
	s.names = append(s.names, names)
	if values != nil && s.values == nil {
		s.values = make([][]float64, len(s.names)-1)
	}
	if s.values != nil {
		s.values = append(s.values, values)
	}
	return nil
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// splitCRFsuiteField unescapes a field and splits it at its first
// unescaped ':' into name and value. A second unescaped ':' is an error:
// CRFsuite would read an attribute with an empty name there.
func splitCRFsuiteField(f string) (name, value string, hasValue bool, err error) {
	var b strings.Builder
	for i := 0; i < len(f); i++ {
		c := f[i]
		switch {
		case c == '\\' && i+1 < len(f) && (f[i+1] == ':' || f[i+1] == '\\'):
			i++
			c = f[i]
		case c == ':' && hasValue:
			return "", "", false, errors.New("a second unescaped ':'; escape ':' in names as '\\:'")
		case c == ':':
			name, hasValue = b.String(), true
			b.Reset()
			continue
		}
		b.WriteByte(c)
	}
	if hasValue {
		return name, b.String(), true, nil
	}
	return b.String(), "", false, nil
}

// buildCRFsuite turns files read into corpora over one sorted label list.
func buildCRFsuite(raws []*crfsuiteRaw) ([]*Corpus, []*Attributes) {
	set := map[string]bool{}
	for _, raw := range raws {
		for l := range raw.labels {
			set[l] = true
		}
	}
	labels := make([]string, 0, len(set))
	for l := range set {
		labels = append(labels, l)
	}
	slices.Sort(labels)
	ids := make(map[string]int, len(labels))
	for i, l := range labels {
		ids[l] = i
	}
	cs := make([]*Corpus, len(raws))
	as := make([]*Attributes, len(raws))
	for k, raw := range raws {
		c := &Corpus{Name: raw.name, Labels: slices.Clone(labels)}
		a := &Attributes{}
		for i, s := range raw.seqs {
			seq := structpred.Sequence{ID: fmt.Sprintf("%s-%d", raw.name, i), Line: s.line,
				Tokens: make([]string, len(s.labels)), Labels: make([]int, len(s.labels))}
			for t, l := range s.labels {
				seq.Labels[t] = ids[l]
			}
			seq.Segments = structpred.SegmentsFromLabels(seq.Labels)
			c.Sequences = append(c.Sequences, seq)
			a.Names = append(a.Names, s.names)
			if s.values != nil && a.Values == nil {
				a.Values = make([][][]float64, i)
			}
			if a.Values != nil {
				a.Values = append(a.Values, s.values)
			}
		}
		cs[k], as[k] = c, a
	}
	return cs, as
}

// WriteCRFsuite writes a corpus and its attributes in CRFsuite's data
// format, as [ParseCRFsuite] reads it back: ':' and '\' escaped, values
// written where they are not 1 (in Go's shortest form, so they read back
// exactly). A corpus the format cannot hold is an error: an empty
// sequence, a label that is empty or starts with '@', an empty attribute
// name, an attribute twice in one item (a reader adds them up), a TAB,
// line break, NUL or invalid UTF-8 in a name, a non-finite value.
func WriteCRFsuite(w io.Writer, c *Corpus, a *Attributes) error {
	if len(a.Names) != len(c.Sequences) {
		return fmt.Errorf("write crfsuite: %d sequences but attributes for %d", len(c.Sequences), len(a.Names))
	}
	bw := bufio.NewWriter(w)
	for i, s := range c.Sequences {
		if len(s.Labels) == 0 || len(a.Names[i]) != len(s.Labels) {
			return fmt.Errorf("write crfsuite: sequence %d: %d labels, attributes for %d tokens (a sequence needs at least one)", i, len(s.Labels), len(a.Names[i]))
		}
		for t, y := range s.Labels {
			if y < 0 || y >= len(c.Labels) {
				return fmt.Errorf("write crfsuite: sequence %d token %d: label %d outside [0, %d)", i, t, y, len(c.Labels))
			}
			label := c.Labels[y]
			if err := checkCRFsuiteName(label); err != nil || strings.HasPrefix(label, "@") {
				return fmt.Errorf("write crfsuite: label %q cannot be written (empty, starts with '@', or has a TAB, line break, NUL or invalid UTF-8)", label)
			}
			bw.WriteString(escapeCRFsuite(label))
			seen := make(map[string]bool, len(a.Names[i][t]))
			for j, name := range a.Names[i][t] {
				if err := checkCRFsuiteName(name); err != nil {
					return fmt.Errorf("write crfsuite: sequence %d token %d: attribute %q: %w", i, t, name, err)
				}
				if seen[name] {
					return fmt.Errorf("write crfsuite: sequence %d token %d: attribute %q twice (a reader would add the two up)", i, t, name)
				}
				seen[name] = true
				bw.WriteByte('\t')
				bw.WriteString(escapeCRFsuite(name))
				switch v := a.Value(i, t, j); {
				case math.IsInf(v, 0) || math.IsNaN(v):
					return fmt.Errorf("write crfsuite: sequence %d token %d: attribute %q has value %v", i, t, name, v)
				case v != 1:
					bw.WriteByte(':')
					bw.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
				}
			}
			bw.WriteByte('\n')
		}
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// checkCRFsuiteName refuses a name the format cannot carry.
func checkCRFsuiteName(s string) error {
	switch {
	case s == "":
		return errors.New("empty name")
	case strings.ContainsAny(s, "\t\n\r\x00"):
		return errors.New("a TAB, line break or NUL")
	case !utf8.ValidString(s):
		return errors.New("invalid UTF-8")
	}
	return nil
}

var crfsuiteEscaper = strings.NewReplacer(`\`, `\\`, `:`, `\:`)

func escapeCRFsuite(s string) string { return crfsuiteEscaper.Replace(s) }

// scanLinesKeepCR splits at LF only, keeping a CR before it (which the
// CRFsuite reader refuses, as CRFsuite would read it into a field).
func scanLinesKeepCR(data []byte, atEOF bool) (int, []byte, error) {
	if atEOF && len(data) == 0 {
		return 0, nil, nil
	}
	if i := bytes.IndexByte(data, '\n'); i >= 0 {
		return i + 1, data[:i], nil
	}
	if atEOF {
		return len(data), data, nil
	}
	return 0, nil, nil
}
