package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseCRFsuite(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		labels []string
		seqs   [][]string    // per sequence, the labels of its tokens
		names  [][][]string  // per sequence, per token
		values [][][]float64 // nil: all 1
	}{
		{
			name:   "binary attributes, two sequences",
			in:     "B-NP\tw[0]=An\t__BOS__\nI-NP\tw[0]=AP\n\nO\tw[0]=.\n\n",
			labels: []string{"B-NP", "I-NP", "O"},
			seqs:   [][]string{{"B-NP", "I-NP"}, {"O"}},
			names:  [][][]string{{{"w[0]=An", "__BOS__"}, {"w[0]=AP"}}, {{"w[0]=."}}},
		},
		{
			name:   "no final blank line, no final newline",
			in:     "a\tx\n\nb\ty",
			labels: []string{"a", "b"},
			seqs:   [][]string{{"a"}, {"b"}},
			names:  [][][]string{{{"x"}}, {{"y"}}},
		},
		{
			name:   "values, empty value, escapes",
			in:     "y\tlen:2.5\tw=a\\:b\tback\\\\slash:-1e-3\tfoo\\bar\tflag:\n",
			labels: []string{"y"},
			seqs:   [][]string{{"y"}},
			names:  [][][]string{{{"len", "w=a:b", `back\slash`, `foo\bar`, "flag"}}},
			values: [][][]float64{{{2.5, 1, -1e-3, 1, 1}}},
		},
		{
			name:   "escaped label, empty fields skipped, trailing blank lines",
			in:     "B\\:X\t\tx\t\n\n\n\n",
			labels: []string{"B:X"},
			seqs:   [][]string{{"B:X"}},
			names:  [][][]string{{{"x"}}},
		},
		{
			name:   "an item without attributes; spaces belong to names",
			in:     "a\nb\tw=New York\n",
			labels: []string{"a", "b"},
			seqs:   [][]string{{"a", "b"}},
			names:  [][][]string{{nil, {"w=New York"}}},
		},
		{
			name:   "a repeated attribute counts twice",
			in:     "a\tx\ty\tx\n\nb\tz:0.5\tz:0.5\n",
			labels: []string{"a", "b"},
			seqs:   [][]string{{"a"}, {"b"}},
			names:  [][][]string{{{"x", "y"}}, {{"z"}}},
			values: [][][]float64{{{2, 1}}, nil},
		},
		{
			name:   "values only in a later sequence",
			in:     "a\tx\n\na\tx\nb\ty:0\n",
			labels: []string{"a", "b"},
			seqs:   [][]string{{"a"}, {"a", "b"}},
			names:  [][][]string{{{"x"}}, {{"x"}, {"y"}}},
			values: [][][]float64{nil, {nil, {0}}},
		},
		{
			name:   "hexadecimal value",
			in:     "a\tx:0x1p-2\n",
			labels: []string{"a"},
			seqs:   [][]string{{"a"}},
			names:  [][][]string{{{"x"}}},
			values: [][][]float64{{{0.25}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, a, err := ParseCRFsuite(strings.NewReader(tt.in), "x.txt")
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Labels, tt.labels) {
				t.Errorf("labels %q, want %q", c.Labels, tt.labels)
			}
			var seqs [][]string
			for _, s := range c.Sequences {
				checkSequence(t, s, len(c.Labels))
				var ls []string
				for _, y := range s.Labels {
					ls = append(ls, c.Labels[y])
				}
				seqs = append(seqs, ls)
			}
			if !reflect.DeepEqual(seqs, tt.seqs) {
				t.Errorf("sequences %q, want %q", seqs, tt.seqs)
			}
			if !reflect.DeepEqual(a.Names, tt.names) {
				t.Errorf("names %q, want %q", a.Names, tt.names)
			}
			if !reflect.DeepEqual(a.Values, tt.values) {
				t.Errorf("values %v, want %v", a.Values, tt.values)
			}
			if a.Valued() != (tt.values != nil) {
				t.Errorf("Valued() = %v", a.Valued())
			}
		})
	}
}

func TestParseCRFsuiteErrors(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty file", "", "x.txt: no sequences"},
		{"blank lines only", "\n\n", "x.txt:2: no sequences"},
		{"CRLF", "a\tx\r\n", "x.txt:1: carriage return"},
		{"NUL", "a\tx\x00y\n", "x.txt:1: NUL byte"},
		{"invalid UTF-8", "a\tx\n\nb\t\xff\n", "x.txt:3: invalid UTF-8"},
		{"line starts with TAB", "a\tx\n\tb\ty\n", "x.txt:2: the line starts with a TAB"},
		{"label with a value", "a:1\tx\n", `x.txt:1: label "a" has a value`},
		{"declaration", "@weight:2\n", `x.txt:1: label "@weight" starts with '@'`},
		{"empty attribute name", "a\t:2\n", `x.txt:1: attribute ":2" has an empty name`},
		{"value not a number", "a\tx\na\ty:abc\n", `x.txt:2: attribute "y": value "abc" is not a finite number`},
		{"infinite value", "a\ty:inf\n", `x.txt:1: attribute "y": value "inf" is not a finite number`},
		{"NaN value", "a\ty:NaN\n", `value "NaN" is not a finite number`},
		{"second colon", "a\tx:1:2\n", `x.txt:1: attribute "x:1:2": a second unescaped ':'`},
		{"blank line first", "\na\tx\n", "x.txt:1: empty sequence (a blank line before the first item)"},
		{"two blank lines", "a\tx\n\n\nb\ty\n", "x.txt:3: empty sequence (two blank lines in a row)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := ParseCRFsuite(strings.NewReader(tt.in), "x.txt")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestWriteCRFsuiteRoundTrip(t *testing.T) {
	in := "B\\:X\tw=a\\:b\tback\\\\slash:-0.001\tfoo\\bar:2\n\nO\tx\n"
	c, a, err := ParseCRFsuite(strings.NewReader(in), "x.txt")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := WriteCRFsuite(&b, c, a); err != nil {
		t.Fatal(err)
	}
	// foo\bar is written with its backslash escaped, which reads the same.
	if want := "B\\:X\tw=a\\:b\tback\\\\slash:-0.001\tfoo\\\\bar:2\n\nO\tx\n\n"; b.String() != want {
		t.Errorf("wrote %q, want %q", b.String(), want)
	}
	for _, bad := range []struct {
		name string
		c    *Corpus
		a    *Attributes
	}{
		{"label with '@'", &Corpus{Labels: []string{"@x"}, Sequences: c.Sequences[1:]}, &Attributes{Names: a.Names[1:]}},
		{"attribute with a TAB", &Corpus{Labels: c.Labels, Sequences: c.Sequences[1:]}, &Attributes{Names: [][][]string{{{"a\tb"}}}}},
		{"attribute twice", &Corpus{Labels: c.Labels, Sequences: c.Sequences[1:]}, &Attributes{Names: [][][]string{{{"a", "a"}}}}},
		{"empty sequence", &Corpus{Labels: c.Labels, Sequences: c.Sequences[:1]}, &Attributes{Names: [][][]string{{}}}},
	} {
		if err := WriteCRFsuite(&b, bad.c, bad.a); err == nil {
			t.Errorf("%s: written", bad.name)
		}
	}
}

// Fixed parts share one sorted label list, and Load concatenates them with
// their part ids and attributes (values only where the files give some).
func TestLoadCRFsuiteParts(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"train.txt": "b\tx\n\nb\ty\n",
		"test.txt":  "a\tx:2\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	l, err := Load(dir, "test", Declaration{Name: "d", Format: FormatCRFsuite, Train: "train.txt", Test: "test.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(l.Labels, []string{"a", "b"}) || !reflect.DeepEqual(l.Parts, []int{PartTrain, PartTrain, PartTest}) {
		t.Errorf("labels %q parts %v", l.Labels, l.Parts)
	}
	if got := l.Sequences[2].Labels; !reflect.DeepEqual(got, []int{0}) {
		t.Errorf("test labels %v, want [0]", got)
	}
	if !reflect.DeepEqual(l.Attributes.Values, [][][]float64{nil, nil, {{2}}}) {
		t.Errorf("values %v", l.Attributes.Values)
	}
	if _, err := Load(dir, "test", Declaration{Name: "d", Format: FormatCRFsuite, Path: "none.txt"}); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), "none.txt") {
		t.Errorf("missing file: %v", err)
	}
	if err := (Declaration{Name: "d", Format: FormatCRFsuite, Path: "x", Scheme: "iob2"}).Check(); err == nil {
		t.Error("encoding accepted for format crfsuite")
	}
}
