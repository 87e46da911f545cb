package datasets

import (
	"bytes"
	"compress/gzip"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/structpred"
)

const conll2000Fixture = "testdata/conll2000_tiny.txt"

// parseConll parses text, failing the test on an error.
func parseConll(t testing.TB, text, name string, f CoNLLFormat) (*Corpus, []*ParseError) {
	t.Helper()
	c, repairs, err := ParseCoNLL(strings.NewReader(text), name, f)
	if err != nil {
		t.Fatal(err)
	}
	return c, repairs
}

// writeConll writes c in f, failing the test on an error.
func writeConll(t testing.TB, c *Corpus, f CoNLLFormat) string {
	t.Helper()
	var b bytes.Buffer
	if err := WriteCoNLL(&b, c, f); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// checkChunkSequence verifies the invariants of a sequence read in a chunk
// scheme: labels in range, every segment one B-T I-T… chunk in order, and
// every token outside the segments labelled O.
func checkChunkSequence(t testing.TB, s structpred.Sequence, labels []string) {
	t.Helper()
	if len(s.Tokens) == 0 || len(s.Tokens) != len(s.Labels) {
		t.Fatalf("%s: %d tokens, %d labels", s.ID, len(s.Tokens), len(s.Labels))
	}
	for _, col := range s.Columns {
		if len(col) != len(s.Tokens) {
			t.Fatalf("%s: a column of %d values for %d tokens", s.ID, len(col), len(s.Tokens))
		}
	}
	inSeg := make([]bool, len(s.Tokens))
	next := 0
	for _, g := range s.Segments {
		if g.Start < next || g.End <= g.Start || g.End > len(s.Tokens) || g.Label < 0 || g.Label >= len(labels) {
			t.Fatalf("%s: bad segment %+v", s.ID, g)
		}
		typ, ok := strings.CutPrefix(labels[g.Label], "B-")
		if !ok || s.Labels[g.Start] != g.Label {
			t.Fatalf("%s: segment %+v labelled %q starts with %d", s.ID, g, labels[g.Label], s.Labels[g.Start])
		}
		for p := g.Start + 1; p < g.End; p++ {
			if labels[s.Labels[p]] != "I-"+typ {
				t.Fatalf("%s: token %d of segment %+v is %q", s.ID, p, g, labels[s.Labels[p]])
			}
		}
		for p := g.Start; p < g.End; p++ {
			inSeg[p] = true
		}
		next = g.End
	}
	for p, l := range s.Labels {
		if l < 0 || l >= len(labels) || (labels[l] == "O") == inSeg[p] {
			t.Fatalf("%s: token %d label %d, in a segment: %v", s.ID, p, l, inSeg[p])
		}
	}
}

func TestCoNLL2000Fixture(t *testing.T) {
	f := CoNLL2000().Format
	c, repairs, err := LoadCoNLL(conll2000Fixture, f)
	if err != nil || repairs != nil {
		t.Fatal(err, repairs)
	}
	wantLabels := []string{"O", "B-ADVP", "I-ADVP", "B-NP", "I-NP", "B-PP", "I-PP", "B-VP", "I-VP"}
	if !slices.Equal(c.Labels, wantLabels) {
		t.Errorf("labels %q, want %q", c.Labels, wantLabels)
	}
	if len(c.Sequences) != 3 {
		t.Fatalf("%d sequences, want 3", len(c.Sequences))
	}
	tokens, chunks := 0, map[string]int{}
	for i, s := range c.Sequences {
		checkChunkSequence(t, s, c.Labels)
		if want := []int{1, 11, 16}[i]; s.Line != want || s.Doc != 0 {
			t.Errorf("sequence %d: line %d doc %d, want line %d doc 0", i, s.Line, s.Doc, want)
		}
		tokens += len(s.Tokens)
		for _, g := range s.Segments {
			chunks[c.Labels[g.Label][2:]]++
		}
	}
	if want := map[string]int{"NP": 7, "VP": 3, "PP": 1, "ADVP": 1}; tokens != 20 || !reflect.DeepEqual(chunks, want) {
		t.Errorf("%d tokens, chunks %v; want 20 and %v", tokens, chunks, want)
	}
	// "She gave the agency its money .": two adjacent NPs stay two chunks.
	s := c.Sequences[2]
	wantSegs := []structpred.Segment{seg(0, 1, 3), seg(1, 2, 7), seg(2, 4, 3), seg(4, 6, 3)}
	if !slices.Equal(s.Segments, wantSegs) || s.ID != "conll2000_tiny.txt-2" {
		t.Errorf("%s: segments %v, want %v", s.ID, s.Segments, wantSegs)
	}
	if got := s.Columns[0]; len(s.Columns) != 1 || strings.Join(got, " ") != "PRP VBD DT NN PRP$ NN ." {
		t.Errorf("POS column %q", s.Columns)
	}
	want, err := os.ReadFile(conll2000Fixture)
	if err != nil {
		t.Fatal(err)
	}
	if got := writeConll(t, c, f); got != string(want) {
		t.Errorf("written back:\n%s\nwant the fixture:\n%s", got, want)
	}
}

// gzipFile writes the gzip compression of data to path.
func gzipFile(t *testing.T, path string, data []byte) {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write(data); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCoNLL2000Dataset reads the CoNLL-2000 layout from a data directory
// (test.txt gzip-compressed, as the task site serves it) and checks that a
// missing file says where to get it.
func TestCoNLL2000Dataset(t *testing.T) {
	d := CoNLL2000()
	dir := t.TempDir()
	_, _, err := d.Load(dir, SourceFlag)
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	for _, want := range []string{
		filepath.Join(dir, "conll2000", "train.txt"), "chosen by --data", "REPRO_DATA",
		"https://www.clips.uantwerpen.be/conll2000/chunking/", "train.txt, test.txt", "<data dir>/conll2000",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	data, err := os.ReadFile(conll2000Fixture)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "conll2000"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "conll2000", "train.txt"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	gzipFile(t, filepath.Join(dir, "conll2000", "test.txt"), data[:bytes.Index(data, []byte("\n\n"))+2])
	cs, repairs, err := d.Load(dir, SourceFlag)
	if err != nil || repairs != nil {
		t.Fatal(err, repairs)
	}
	if len(cs) != 2 || len(cs[0].Sequences) != 3 || len(cs[1].Sequences) != 1 || cs[1].Name != "conll2000" {
		t.Fatalf("loaded %d corpora", len(cs))
	}
	if !slices.Equal(cs[0].Labels, cs[1].Labels) || !reflect.DeepEqual(cs[0].Sequences[0].Labels, cs[1].Sequences[0].Labels) {
		t.Errorf("train and test disagree on labels: %q / %q", cs[0].Labels, cs[1].Labels)
	}
}

// schemeSentences are three sentences (word, POS and chunk columns, label
// last) in every scheme: the first has adjacent chunks of one type and of
// different types.
var schemeSentences = map[Scheme][3]string{
	IOB1:  {"I-PER I-PER B-PER O I-LOC I-ORG I-ORG B-ORG", "O I-MISC", "I-LOC"},
	IOB2:  {"B-PER I-PER B-PER O B-LOC B-ORG I-ORG B-ORG", "O B-MISC", "B-LOC"},
	IOE1:  {"I-PER E-PER I-PER O I-LOC I-ORG E-ORG I-ORG", "O I-MISC", "I-LOC"},
	IOE2:  {"I-PER E-PER E-PER O E-LOC I-ORG E-ORG E-ORG", "O E-MISC", "E-LOC"},
	IOBES: {"B-PER E-PER S-PER O S-LOC B-ORG E-ORG S-ORG", "O S-MISC", "S-LOC"},
}

// schemeText builds a file of two documents holding the scheme's sentences.
func schemeText(s Scheme) string {
	var b strings.Builder
	for i, tags := range schemeSentences[s] {
		if i != 1 {
			b.WriteString(DocStart + " -X- -X- O\n\n")
		}
		for k, tag := range strings.Fields(tags) {
			word := string(rune('a'+i)) + string(rune('a'+k))
			b.WriteString(word + " NN I-NP " + tag + "\n")
		}
		b.WriteString("\n")
	}
	return b.String()
}

var fourColumns = []string{ColumnWord, "pos", "chunk", ColumnLabel}

// TestCoNLLRoundTripEveryScheme reads the same chunks in every scheme into
// the same corpus and writes each back byte for byte.
func TestCoNLLRoundTripEveryScheme(t *testing.T) {
	var first *Corpus
	for _, s := range chunkSchemes {
		f := CoNLLFormat{Columns: fourColumns, Scheme: s}
		text := schemeText(s)
		c, repairs := parseConll(t, text, "x.txt", f)
		if repairs != nil {
			t.Fatalf("%s: repairs %v", s, repairs)
		}
		for _, seq := range c.Sequences {
			checkChunkSequence(t, seq, c.Labels)
		}
		if docs := []int{c.Sequences[0].Doc, c.Sequences[1].Doc, c.Sequences[2].Doc}; !slices.Equal(docs, []int{1, 1, 2}) {
			t.Errorf("%s: docs %v, want [1 1 2]", s, docs)
		}
		if first == nil {
			first = c
		} else if !reflect.DeepEqual(c, first) {
			t.Errorf("%s: corpus differs from %s's:\n%+v\n%+v", s, chunkSchemes[0], c, first)
		}
		if got := writeConll(t, c, f); got != text {
			t.Errorf("%s: written back:\n%s\nwant:\n%s", s, got, text)
		}
		for _, to := range chunkSchemes {
			got := writeConll(t, c, CoNLLFormat{Columns: fourColumns, Scheme: to})
			if got != schemeText(to) {
				t.Errorf("%s written as %s:\n%s\nwant:\n%s", s, to, got, schemeText(to))
			}
		}
	}
	if want := []string{"O", "B-LOC", "I-LOC", "B-MISC", "I-MISC", "B-ORG", "I-ORG", "B-PER", "I-PER"}; !slices.Equal(first.Labels, want) {
		t.Errorf("labels %q, want %q", first.Labels, want)
	}
}

func TestParseCoNLLErrors(t *testing.T) {
	iob2 := CoNLLFormat{Columns: []string{ColumnWord, "pos", ColumnLabel}, Scheme: IOB2}
	for _, tc := range []struct {
		name, text string
		f          CoNLLFormat
		want       string
	}{
		{"too few columns", "a NN B-X\nb I-X\n", iob2, `x.txt:2: 2 columns, want 3 (word pos label)`},
		{"too many columns", "a NN B-X\n\nb NN I-X x\n", iob2, `x.txt:3: 4 columns, want 3`},
		{"undeclared count changes", "a NN B-X\nb I-X\n", CoNLLFormat{Scheme: IOB2}, `x.txt:2: 2 columns, want 3 (as many as on the first token line)`},
		{"one column", "a\n", CoNLLFormat{Scheme: IOB2}, `x.txt:1: 1 column(s)`},
		{"IOB2 I after O", "a NN O\nb NN I-X\n", iob2, `x.txt:2: field "label": I-X after O: IOB2 starts every chunk with B- (is the file IOB1?)`},
		{"IOB2 I after other type", "a NN B-Y\nb NN I-X\n", iob2, `x.txt:2: field "label": I-X after B-Y`},
		{"IOB2 I at sentence start", "a NN B-X\n\nb NN I-X\n", iob2, `x.txt:3: field "label": I-X after the sentence start`},
		{"IOB1 B after O", "a O\nb B-X\n", CoNLLFormat{Scheme: IOB1}, `x.txt:2: field "label": B-X after O: IOB1 writes B- only`},
		{"IOE1 E before O", "a E-X\nb O\n", CoNLLFormat{Scheme: IOE1}, `x.txt:1: field "label": E-X before O`},
		{"IOE2 I at sentence end", "a I-X\n\n", CoNLLFormat{Scheme: IOE2}, `x.txt:1: field "label": I-X before the sentence end`},
		{"IOBES B before O", "a B-X\nb O\n", CoNLLFormat{Scheme: IOBES}, `x.txt:1: field "label": B-X before O: IOBES ends`},
		{"prefix foreign to scheme", "a NN O\nb NN E-X\n", iob2, `x.txt:2: field "label": tag "E-X" is not O or one of B-TYPE, I-TYPE in iob2`},
		{"undeclared type", "a B-X\n\nb B-Y\n", CoNLLFormat{Scheme: IOB2, Types: []string{"X"}}, `x.txt:3: field "label": type "Y" is not among the declared types [X]`},
		{"undeclared plain label", "a NN\nb VB\n", CoNLLFormat{Scheme: Plain, Types: []string{"NN"}}, `x.txt:2: field "label": type "VB"`},
		{"empty file", "", iob2, `x.txt: no sentences: the file is empty`},
		{"only blank and docstart", "\n-DOCSTART- -X- O\n\n", iob2, `x.txt:3: no sentences`},
		{"docstart inside sentence", "a NN B-X\n-DOCSTART- -X- O\n", iob2, `x.txt:2: -DOCSTART- inside a sentence`},
		{"invalid UTF-8", "a NN O\nb\xf1o NN O\n", iob2, `x.txt:2: invalid UTF-8 at byte 2 (0xf1); declare encoding latin-1`},
		{"no scheme", "a O\n", CoNLLFormat{}, `x.txt: format: no label encoding declared`},
		{"unknown scheme", "a O\n", CoNLLFormat{Scheme: "bilou"}, `unknown label encoding "bilou"`},
		{"unknown encoding", "a O\n", CoNLLFormat{Scheme: IOB2, Encoding: "cp1252"}, `unknown text encoding "cp1252"`},
		{"duplicate column", "a O\n", CoNLLFormat{Scheme: IOB2, Columns: []string{"word", "word"}}, `column "word" declared twice`},
		{"word is label", "a O\n", CoNLLFormat{Scheme: IOB2, Columns: []string{"label", "pos"}}, `the word and label columns are both column 1`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := ParseCoNLL(strings.NewReader(tc.text), "x.txt", tc.f)
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a *ParseError", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %q, want it to contain %q", err, tc.want)
			}
		})
	}
}

// TestParseCoNLLRepair reads tags the scheme forbids as conlleval does when
// Repair is set, and returns each as the error a strict read would raise.
func TestParseCoNLLRepair(t *testing.T) {
	const text = "a NN O\nb NN I-X\nc NN I-X\nd NN B-Y\n\ne NN I-Y\n"
	f := CoNLLFormat{Columns: []string{ColumnWord, "pos", ColumnLabel}, Scheme: IOB2, Repair: true}
	c, repairs := parseConll(t, text, "x.txt", f)
	var got []string
	for _, r := range repairs {
		got = append(got, r.Error())
	}
	want := []string{
		`x.txt:2: field "label": I-X after O: IOB2 starts every chunk with B- (is the file IOB1?)`,
		`x.txt:6: field "label": I-Y after the sentence start: IOB2 starts every chunk with B- (is the file IOB1?)`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("repairs:\n%q\nwant:\n%q", got, want)
	}
	// O B-X I-X B-Y | B-Y: labels O B-X I-X B-Y I-Y.
	if l := c.Sequences[0].Labels; !slices.Equal(l, []int{0, 1, 2, 3}) || !slices.Equal(c.Sequences[1].Labels, []int{3}) {
		t.Errorf("labels %v %v", l, c.Sequences[1].Labels)
	}
	f.Repair = false
	if _, _, err := ParseCoNLL(strings.NewReader(text), "x.txt", f); err == nil || err.Error() != want[0] {
		t.Errorf("strict: err = %v, want %q", err, want[0])
	}
}

// TestCoNLLLatin1 reads ISO-8859-1 (ñ is 0xF1; a no-break space 0xA0 stays
// inside its token) and writes it back byte for byte.
func TestCoNLLLatin1(t *testing.T) {
	const text = "Coru\xf1a NP B-LOC\nx\xa0y Z O\n\n"
	f := CoNLLFormat{Scheme: IOB2, Encoding: Latin1}
	c, _ := parseConll(t, text, "esp.txt", f)
	if got := c.Sequences[0].Tokens; !slices.Equal(got, []string{"Coruña", "x\u00a0y"}) {
		t.Errorf("tokens %q", got)
	}
	if got := writeConll(t, c, f); got != text {
		t.Errorf("written back %q, want %q", got, text)
	}
	c.Sequences[0].Tokens[0] = "Łódź"
	var b bytes.Buffer
	if err := WriteCoNLL(&b, c, f); err == nil || !strings.Contains(err.Error(), "no Latin-1 encoding") {
		t.Errorf("err = %v, want no Latin-1 encoding", err)
	}
}

// TestCoNLLDefaultColumnsAndPlain reads a file without declared columns (the
// first is the word, the last the label, the others kept) with plain labels.
func TestCoNLLDefaultColumnsAndPlain(t *testing.T) {
	const text = "the x DT\ndog y NN\nbarks z VBZ\n\ncats w NNS\r\n\r\n"
	f := CoNLLFormat{Scheme: Plain}
	c, _ := parseConll(t, text, "pos.txt", f)
	if want := []string{"DT", "NN", "NNS", "VBZ"}; !slices.Equal(c.Labels, want) {
		t.Errorf("labels %q, want %q", c.Labels, want)
	}
	s := c.Sequences[0]
	if !slices.Equal(s.Labels, []int{0, 1, 3}) || !slices.Equal(s.Columns[0], []string{"x", "y", "z"}) || len(s.Segments) != 3 {
		t.Errorf("sequence %+v", s)
	}
	if got, want := writeConll(t, c, f), strings.ReplaceAll(text, "\r", ""); got != want {
		t.Errorf("written back %q, want %q", got, want)
	}
	if got := (CoNLLFormat{Columns: fourColumns}).ExtraColumns(); !slices.Equal(got, []string{"pos", "chunk"}) {
		t.Errorf("ExtraColumns = %q", got)
	}
}

// TestLoadCoNLLFilesSharesLabels gives files with different types one label
// list.
func TestLoadCoNLLFilesSharesLabels(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	if err := os.WriteFile(a, []byte("x B-PER\ny I-PER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(b, []byte("x O\ny B-LOC\nz B-PER\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cs, _, err := LoadCoNLLFiles([]string{a, b}, CoNLLFormat{Scheme: IOB2})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"O", "B-LOC", "I-LOC", "B-PER", "I-PER"}
	for i, c := range cs {
		if !slices.Equal(c.Labels, want) {
			t.Errorf("file %d: labels %q, want %q", i, c.Labels, want)
		}
		for _, s := range c.Sequences {
			checkChunkSequence(t, s, c.Labels)
		}
	}
	if !slices.Equal(cs[0].Sequences[0].Labels, []int{3, 4}) || !slices.Equal(cs[1].Sequences[0].Labels, []int{0, 1, 3}) {
		t.Errorf("labels %v / %v", cs[0].Sequences[0].Labels, cs[1].Sequences[0].Labels)
	}
}

// conll2003Dir returns $REPRO_DATA, skipping the test when the CoNLL-2003
// files are not there.
func conll2003Dir(t testing.TB) string {
	t.Helper()
	dir := os.Getenv(EnvDataDir)
	if dir == "" {
		t.Skip("REPRO_DATA not set; skipping test on the real CoNLL-2003 files")
	}
	for _, f := range CoNLL2003().Files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Skipf("CoNLL-2003 file not available: %v", err)
		}
	}
	return dir
}

// TestRealCoNLL2003 checks the reader against the counts in the dataset's
// PROVENANCE.md (which match Tjong Kim Sang & De Meulder 2003), the two
// B-MISC-after-O glitches of eng.train, and writes every file back in IOB1:
// each token line is the original except the two repaired tags.
func TestRealCoNLL2003(t *testing.T) {
	dir := conll2003Dir(t)
	d := CoNLL2003()
	cs, repairs, err := d.Load(dir, SourceEnv)
	if err != nil {
		t.Fatal(err)
	}
	var repaired []string
	for _, r := range repairs {
		repaired = append(repaired, r.File+":"+itoa(r.Line))
	}
	if want := []string{"eng.train:152428", "eng.train:175436"}; !slices.Equal(repaired, want) {
		t.Errorf("repairs at %q, want %q", repaired, want)
	}
	want := []struct{ docs, sents, tokens, loc, misc, org, per int }{
		{946, 14041, 203621, 7140, 3438, 6321, 6600},
		{216, 3250, 51362, 1837, 922, 1341, 1842},
		{231, 3453, 46435, 1668, 702, 1661, 1617},
	}
	wantLabels := []string{"O", "B-LOC", "I-LOC", "B-MISC", "I-MISC", "B-ORG", "I-ORG", "B-PER", "I-PER"}
	for i, c := range cs {
		if !slices.Equal(c.Labels, wantLabels) {
			t.Errorf("%s: labels %q", d.Files[i], c.Labels)
		}
		tokens, types := 0, map[string]int{}
		pos := map[string]bool{}
		for _, s := range c.Sequences {
			checkChunkSequence(t, s, c.Labels)
			tokens += len(s.Tokens)
			for _, g := range s.Segments {
				types[c.Labels[g.Label][2:]]++
			}
			for _, p := range s.Columns[0] {
				pos[p] = true
			}
		}
		w := want[i]
		got := []int{c.Sequences[len(c.Sequences)-1].Doc, len(c.Sequences), tokens, types["LOC"], types["MISC"], types["ORG"], types["PER"]}
		if !slices.Equal(got, []int{w.docs, w.sents, w.tokens, w.loc, w.misc, w.org, w.per}) {
			t.Errorf("%s: docs, sentences, tokens, LOC, MISC, ORG, PER = %v, want %+v", d.Files[i], got, w)
		}
		if i == 0 && len(pos) != 45 {
			t.Errorf("eng.train: %d POS tags, want 45", len(pos))
		}
		orig, err := os.ReadFile(filepath.Join(dir, d.Files[i]))
		if err != nil {
			t.Fatal(err)
		}
		diff := tokenLineDiffs(strings.Split(string(orig), "\n"), strings.Split(writeConll(t, c, d.Format), "\n"))
		wantDiff := 0
		if i == 0 {
			wantDiff = 2
		}
		if len(diff) != wantDiff {
			t.Errorf("%s written back: %d token lines differ, want %d: %q", d.Files[i], len(diff), wantDiff, diff)
		}
	}
}

// tokenLineDiffs compares two files' token lines (neither blank nor
// document-start lines) in order and lists the pairs that differ.
func tokenLineDiffs(a, b []string) []string {
	keep := func(lines []string) []string {
		var out []string
		for _, l := range lines {
			if l != "" && !strings.HasPrefix(l, DocStart) {
				out = append(out, l)
			}
		}
		return out
	}
	a, b = keep(a), keep(b)
	if len(a) != len(b) {
		return []string{"token line counts " + itoa(len(a)) + " and " + itoa(len(b))}
	}
	var out []string
	for i := range a {
		if a[i] != b[i] {
			out = append(out, a[i]+" → "+b[i])
		}
	}
	return out
}

func itoa(i int) string { return strconv.Itoa(i) }

// BenchmarkLoadCoNLL2003Train reads and converts eng.train (204k tokens).
func BenchmarkLoadCoNLL2003Train(b *testing.B) {
	path := filepath.Join(conll2003Dir(b), CoNLL2003().Files[0])
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := LoadCoNLL(path, CoNLL2003().Format); err != nil {
			b.Fatal(err)
		}
	}
}
