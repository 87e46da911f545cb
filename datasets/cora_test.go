package datasets

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/maxmargin/repro/structpred"
)

func label(t *testing.T, name string) int {
	t.Helper()
	i := slices.Index(CoraLabels(), name)
	if i < 0 {
		t.Fatalf("no label %q", name)
	}
	return i
}

func seg(start, end, label int) structpred.Segment {
	return structpred.Segment{Start: start, End: end, Label: label}
}

func TestCoraLabelsSorted(t *testing.T) {
	l := CoraLabels()
	if len(l) != 13 || !slices.IsSorted(l) {
		t.Fatalf("CoraLabels() = %v, want 13 sorted names", l)
	}
	l[0] = "changed"
	if CoraLabels()[0] != "author" {
		t.Fatal("CoraLabels shares its backing array between calls")
	}
}

func TestParseCora(t *testing.T) {
	au, ti, da, pa := label(t, "author"), label(t, "title"), label(t, "date"), label(t, "pages")
	tests := []struct {
		name  string
		input string
		want  []structpred.Sequence
	}{
		{
			name:  "basic",
			input: "<NEWREFERENCE>\n<author> A. Cau, </author> <title> On X. </title>\n",
			want: []structpred.Sequence{{
				ID: "cora-0", Line: 2,
				Tokens:   []string{"A.", "Cau,", "On", "X."},
				Labels:   []int{au, au, ti, ti},
				Segments: []structpred.Segment{seg(0, 2, au), seg(2, 4, ti)},
			}},
		},
		{
			name:  "glued tags",
			input: "<NEWREFERENCE>\n<date>(1995).</date><title>On</title> <pages>1-2 </pages>",
			want: []structpred.Sequence{{
				ID: "cora-0", Line: 2,
				Tokens:   []string{"(1995).", "On", "1-2"},
				Labels:   []int{da, ti, pa},
				Segments: []structpred.Segment{seg(0, 1, da), seg(1, 2, ti), seg(2, 3, pa)},
			}},
		},
		{
			name:  "same label twice stays two segments",
			input: "<NEWREFERENCE>\n<date> 1990. </date> <date> (1995). </date>\n",
			want: []structpred.Sequence{{
				ID: "cora-0", Line: 2,
				Tokens:   []string{"1990.", "(1995)."},
				Labels:   []int{da, da},
				Segments: []structpred.Segment{seg(0, 1, da), seg(1, 2, da)},
			}},
		},
		{
			name:  "crlf, blank lines, stray angle bracket",
			input: "\r\n<NEWREFERENCE>\r\n<title> a<b x>y </title>\r\n\r\n<NEWREFERENCE>\r\n\t<date> 1992 </date>\r\n",
			want: []structpred.Sequence{
				{
					ID: "cora-0", Line: 3,
					Tokens:   []string{"a<b", "x>y"},
					Labels:   []int{ti, ti},
					Segments: []structpred.Segment{seg(0, 2, ti)},
				},
				{
					ID: "cora-1", Line: 6,
					Tokens:   []string{"1992"},
					Labels:   []int{da},
					Segments: []structpred.Segment{seg(0, 1, da)},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCora(strings.NewReader(tt.input), "t.txt")
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != "cora" || !reflect.DeepEqual(c.Labels, CoraLabels()) {
				t.Errorf("corpus header = %q %v", c.Name, c.Labels)
			}
			if !reflect.DeepEqual(c.Sequences, tt.want) {
				t.Errorf("sequences\n got %+v\nwant %+v", c.Sequences, tt.want)
			}
		})
	}
}

func TestParseCoraErrors(t *testing.T) {
	const ref = "<NEWREFERENCE>\n"
	tests := []struct {
		name  string
		input string
		line  int
		field string
		msg   string // substring of Msg
	}{
		{"unclosed", ref + "<author> A. </author> <title> On", 2, "title", "unclosed tag <title>"},
		{"mismatch", ref + "<author> A. </title>", 2, "author", "closing tag </title> does not match <author>"},
		{"closing without opening", ref + "<author> A. </author> </title>", 2, "", "closing tag </title> without an opening tag"},
		{"nested", ref + "<author> A. <title> B </title> </author>", 2, "author", "nested tag <title> inside <author>"},
		{"text outside", ref + "<author> A. </author> and", 2, "", `text "and" outside any tag`},
		{"text glued outside", ref + "<author> A. </author>x", 2, "", `text "x" outside any tag`},
		{"unknown tag", ref + "<year> 1992 </year>", 2, "", "unknown tag <year>"},
		{"upper-case tag", ref + "<Title> On </Title>", 2, "", "unknown tag <Title>"},
		{"unknown closing tag", ref + "<title> On </year>", 2, "title", "unknown tag </year>"},
		{"separator inside line", ref + "<title> On <NEWREFERENCE>", 2, "title", "must be on a line of its own"},
		{"empty reference", ref + "   \n", 2, "", "empty reference"},
		{"empty field", ref + "<author> A. </author> <title> </title>", 2, "title", "empty field"},
		{"no separator", "<author> A. </author>\n", 1, "", "without a preceding <NEWREFERENCE>"},
		{"two references on one separator", ref + "<author> A. </author>\n<title> B </title>\n", 3, "", "without a preceding"},
		{"separator at end", ref + "<author> A. </author>\n<NEWREFERENCE>\n", 3, "", "<NEWREFERENCE> with no reference after it"},
		{"separator twice", ref + ref + "<author> A. </author>\n", 1, "", "<NEWREFERENCE> with no reference after it"},
		{"empty input", "", 0, "", "no references"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCora(strings.NewReader(tt.input), "t.txt")
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.File != "t.txt" || pe.Line != tt.line || pe.Field != tt.field || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("got %#v, want line %d field %q msg containing %q", pe, tt.line, tt.field, tt.msg)
			}
		})
	}
}

func TestParseErrorString(t *testing.T) {
	tests := []struct {
		err  *ParseError
		want string
	}{
		{&ParseError{File: "cora.txt", Line: 12, Field: "title", Msg: "unclosed tag <title>"}, `cora.txt:12: field "title": unclosed tag <title>`},
		{&ParseError{File: "cora.txt", Line: 3, Msg: "empty reference"}, `cora.txt:3: empty reference`},
		{&ParseError{File: "cora.txt", Msg: "no references"}, `cora.txt: no references`},
		{&ParseError{File: "f", Line: 1, Msg: "read error", Err: errors.New("boom")}, `f:1: read error: boom`},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

func TestParseCoraReadErrorIsWrapped(t *testing.T) {
	boom := errors.New("disk on fire")
	r := io.MultiReader(strings.NewReader("<NEWREFERENCE>\n"), iotest.ErrReader(boom))
	_, err := ParseCora(r, "t.txt")
	var pe *ParseError
	if !errors.As(err, &pe) || !errors.Is(err, boom) {
		t.Fatalf("err = %v, want a *ParseError wrapping %v", err, boom)
	}
}

func TestLoadCoraMissing(t *testing.T) {
	_, err := LoadCora(filepath.Join(t.TempDir(), "nope.txt"))
	if !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("err = %v, want os.ErrNotExist", err)
	}
}

// coraDir returns $REPRO_DATA, skipping the test when the Cora file is not
// there.
func coraDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("REPRO_DATA not set; skipping test on the real Cora file")
	}
	if _, err := os.Stat(filepath.Join(dir, "cora", "tagged_references.txt")); err != nil {
		t.Skipf("Cora file not available: %v", err)
	}
	return dir
}

// TestRealCora checks the loader against the counts in the dataset's
// PROVENANCE.md.
func TestRealCora(t *testing.T) {
	c, err := Open(coraDir(t), SourceEnv, "cora")
	if err != nil {
		t.Fatal(err)
	}
	if got := len(c.Sequences); got != 500 {
		t.Fatalf("references = %d, want 500", got)
	}
	segs, toks := map[string]int{}, map[string]int{}
	var nSegs, nToks int
	for i, s := range c.Sequences {
		if s.ID != "cora-"+strconv.Itoa(i) || s.Line != 2*i+2 {
			t.Errorf("sequence %d: ID %q line %d", i, s.ID, s.Line)
		}
		checkSequence(t, s, len(c.Labels))
		for _, g := range s.Segments {
			segs[c.Labels[g.Label]]++
			toks[c.Labels[g.Label]] += g.Len()
		}
		nSegs += len(s.Segments)
		nToks += len(s.Tokens)
	}
	if nSegs != 2778 || nToks != 11609 {
		t.Errorf("segments, tokens = %d, %d; want 2778, 11609", nSegs, nToks)
	}
	want := []struct {
		label          string
		segments, toks int
	}{
		{"author", 490, 2831}, {"booktitle", 230, 1862}, {"date", 497, 642},
		{"editor", 43, 295}, {"institution", 58, 306}, {"journal", 166, 614},
		{"location", 137, 289}, {"note", 30, 122}, {"pages", 289, 443},
		{"publisher", 101, 203}, {"tech", 61, 176}, {"title", 494, 3557},
		{"volume", 182, 269},
	}
	for _, w := range want {
		if segs[w.label] != w.segments || toks[w.label] != w.toks {
			t.Errorf("%s: segments/tokens = %d/%d, want %d/%d", w.label, segs[w.label], toks[w.label], w.segments, w.toks)
		}
	}
	// PROVENANCE.md: references 256 and 389 are identical; 118 has two dates.
	if !reflect.DeepEqual(c.Sequences[256].Tokens, c.Sequences[389].Tokens) {
		t.Error("references 256 and 389 differ")
	}
	dates := 0
	for _, g := range c.Sequences[118].Segments {
		if c.Labels[g.Label] == "date" {
			dates++
		}
	}
	if dates != 2 {
		t.Errorf("reference 118 has %d date segments, want 2", dates)
	}
}

// checkSequence verifies the invariants every parsed sequence must satisfy:
// one label per token, labels in range, and segments tiling the tokens with
// each segment's tokens carrying its label.
func checkSequence(t *testing.T, s structpred.Sequence, nLabels int) {
	t.Helper()
	if len(s.Tokens) == 0 || len(s.Tokens) != len(s.Labels) {
		t.Fatalf("%s: %d tokens, %d labels", s.ID, len(s.Tokens), len(s.Labels))
	}
	next := 0
	for _, g := range s.Segments {
		if g.Start != next || g.End <= g.Start || g.Label < 0 || g.Label >= nLabels {
			t.Fatalf("%s: bad segment %+v after position %d", s.ID, g, next)
		}
		for p := g.Start; p < g.End; p++ {
			if s.Labels[p] != g.Label {
				t.Fatalf("%s: token %d label %d inside segment %+v", s.ID, p, s.Labels[p], g)
			}
		}
		next = g.End
	}
	if next != len(s.Tokens) {
		t.Fatalf("%s: segments end at %d of %d tokens", s.ID, next, len(s.Tokens))
	}
}
