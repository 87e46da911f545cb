package datasets_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/structpred"
)

// img returns a 128-pixel token with the given pixels on.
func img(on ...int) string {
	b := bytes.Repeat([]byte{'0'}, datasets.OCRPixels)
	for _, i := range on {
		b[i] = '1'
	}
	return string(b)
}

// full is the token with every pixel on.
var full = strings.Repeat("1", datasets.OCRPixels)

// row formats one OCR line (with the file's trailing tab) whose pixels are
// the token tok.
func row(id int, letter string, next, word, pos, fold int, tok string) string {
	f := []string{strconv.Itoa(id), letter, strconv.Itoa(next), strconv.Itoa(word), strconv.Itoa(pos), strconv.Itoa(fold)}
	for _, p := range tok {
		f = append(f, string(p))
	}
	return strings.Join(f, "\t") + "\t\n"
}

// letters returns the label indices of a lower-case word.
func letters(w string) []int {
	out := make([]int, len(w))
	for i := range w {
		out[i] = int(w[i] - 'a')
	}
	return out
}

// ocrSeq builds the sequence ParseOCR should produce for a word.
func ocrSeq(id string, line int, word string, toks ...string) structpred.Sequence {
	s := structpred.Sequence{ID: id, Line: line, Tokens: toks, Labels: letters(word)}
	for i, l := range s.Labels {
		s.Segments = append(s.Segments, structpred.Segment{Start: i, End: i + 1, Label: l})
	}
	return s
}

// tinySeqs and tinyFolds are the contents of testdata/ocr_tiny.data.
func tinySeqs() []structpred.Sequence {
	return []structpred.Sequence{
		ocrSeq("ocr-w1-f0", 1, "cab", img(0, 7, 120), img(1), img()),
		ocrSeq("ocr-w2-f1", 4, "ox", full, img(127)),
		ocrSeq("ocr-w3-f0", 6, "zed", img(8, 9, 10), img(64), img(3, 100)),
	}
}

var tinyFolds = []int{0, 1, 0}

func gzipped(t testing.TB, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestParseOCR(t *testing.T) {
	plain := row(1, "o", 2, 7, 1, 3, img(5)) + row(2, "x", -1, 7, 2, 3, img(6)) + row(3, "i", -1, 9, 1, 0, img())
	tests := []struct {
		name  string
		input string
		want  []structpred.Sequence
		folds []int
	}{
		{
			name:  "consecutive words",
			input: plain,
			want: []structpred.Sequence{
				ocrSeq("ocr-w7-f3", 1, "ox", img(5), img(6)),
				ocrSeq("ocr-w9-f0", 3, "i", img()),
			},
			folds: []int{3, 0},
		},
		{
			name:  "gzip",
			input: gzipped(t, plain),
			want: []structpred.Sequence{
				ocrSeq("ocr-w7-f3", 1, "ox", img(5), img(6)),
				ocrSeq("ocr-w9-f0", 3, "i", img()),
			},
			folds: []int{3, 0},
		},
		{
			// Chaining follows next_id, not line order; words come in the
			// order of their first letters.
			name: "interleaved and out of order",
			input: row(40, "b", 10, 2, 2, 5, img(1)) +
				row(30, "q", 40, 2, 1, 5, img(0)) +
				row(20, "h", 50, 1, 1, 9, full) +
				row(10, "c", -1, 2, 3, 5, img(2)) +
				row(50, "i", -1, 1, 2, 9, img(127)),
			want: []structpred.Sequence{
				ocrSeq("ocr-w2-f5", 2, "qbc", img(0), img(1), img(2)),
				ocrSeq("ocr-w1-f9", 3, "hi", full, img(127)),
			},
			folds: []int{5, 9},
		},
		{
			name: "no trailing tab, CRLF, blank lines",
			input: "\n" + strings.TrimSuffix(row(1, "z", 2, 4, 1, 2, img(3)), "\t\n") + "\r\n\r\n" +
				row(2, "y", -1, 4, 2, 2, img(4)) + "\n",
			want:  []structpred.Sequence{ocrSeq("ocr-w4-f2", 2, "zy", img(3), img(4))},
			folds: []int{2},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, folds, err := datasets.ParseOCRFolds(strings.NewReader(tt.input), "letter.data")
			if err != nil {
				t.Fatal(err)
			}
			if c.Name != "ocr" || !slices.Equal(c.Labels, datasets.OCRLabels()) {
				t.Errorf("name %q, labels %v", c.Name, c.Labels)
			}
			if !reflect.DeepEqual(c.Sequences, tt.want) {
				t.Errorf("sequences:\n got %+v\nwant %+v", c.Sequences, tt.want)
			}
			if !slices.Equal(folds, tt.folds) {
				t.Errorf("folds = %v, want %v", folds, tt.folds)
			}
			fromIDs, err := datasets.OCRFolds(c)
			if err != nil || !slices.Equal(fromIDs, tt.folds) {
				t.Errorf("OCRFolds = %v, %v; want %v", fromIDs, err, tt.folds)
			}
			c2, err := datasets.ParseOCR(strings.NewReader(tt.input), "letter.data")
			if err != nil || !reflect.DeepEqual(c2, c) {
				t.Errorf("ParseOCR differs from ParseOCRFolds: %v", err)
			}
		})
	}
}

func TestParseOCRErrors(t *testing.T) {
	a := func(id, next, word, pos, fold int) string { return row(id, "a", next, word, pos, fold, img()) }
	good := a(1, 2, 1, 1, 0) + a(2, -1, 1, 2, 0)
	corrupt := []byte(gzipped(t, good))
	corrupt[len(corrupt)-8] ^= 0xff // CRC-32 of the uncompressed data
	tests := []struct {
		name  string
		input string
		line  int
		field string
		msg   string
		is    error // if set, the error must wrap it
	}{
		{"empty", "", 0, "", "no letters", nil},
		{"only blank lines", "\n \n\r\n", 0, "", "no letters", nil},
		{"too few columns", a(1, -1, 1, 1, 0) + "1\ta\t-1\t2\t1\t0\t0\t\n", 2, "", "8 tab-separated columns, want 134", nil},
		{"extra column", strings.TrimSuffix(a(1, -1, 1, 1, 0), "\n") + "0\t\n", 1, "", "136 tab-separated columns", nil},
		{"space separated", strings.ReplaceAll(a(1, -1, 1, 1, 0), "\t", " "), 1, "", "1 tab-separated columns", nil},
		{"pixel 2", row(1, "a", -1, 1, 1, 0, img()[:3]+"2"+img()[4:]), 1, "p_0_3", `pixel "2" is not 0 or 1`, nil},
		{"pixel in row 2", a(1, 2, 1, 1, 0) + row(2, "a", -1, 1, 2, 0, img()[:17]+"x"+img()[18:]), 2, "p_2_1", `pixel "x" is not 0 or 1`, nil},
		{"last pixel empty", strings.TrimSuffix(a(1, -1, 1, 1, 0), "0\t\n") + "\t\n", 1, "p_15_7", `pixel "" is not 0 or 1`, nil},
		{"capital letter", row(1, "A", -1, 1, 1, 0, img()), 1, "letter", `"A" is not a letter a-z`, nil},
		{"two letters", row(1, "ab", -1, 1, 1, 0, img()), 1, "letter", `"ab" is not a letter a-z`, nil},
		{"bad id", strings.Replace(a(1, -1, 1, 1, 0), "1", "x", 1), 1, "id", `"x" is not an integer`, nil},
		{"id 0", a(0, -1, 1, 1, 0), 1, "id", "0 out of range", nil},
		{"next_id 0", a(1, 0, 1, 1, 0), 1, "next_id", "0 is neither", nil},
		{"position 0", a(1, -1, 1, 0, 0), 1, "position", "0 out of range", nil},
		{"fold 10", a(1, -1, 1, 1, 10), 1, "fold", "10 out of range [0, 9]", nil},
		{"negative word", a(1, -1, -3, 1, 0), 1, "word_id", "-3 out of range", nil},
		{"duplicate id", good + a(2, -1, 2, 1, 0), 3, "id", "duplicate id 2 (first on line 2)", nil},
		{"next_id names no letter", a(1, 5, 1, 1, 0), 1, "next_id", "next_id 5 names no letter", nil},
		{"word_id changes", a(1, 2, 1, 1, 0) + a(2, -1, 2, 2, 0), 2, "word_id", "word_id 2, but the previous letter (id 1, line 1) has 1", nil},
		{"position skips", a(1, 2, 1, 1, 0) + a(2, -1, 1, 3, 0), 2, "position", "position 3, want 2 after id 1 (line 1)", nil},
		{"chain into a word start", a(1, 2, 1, 1, 0) + a(2, -1, 1, 1, 0), 2, "position", "position 1, want 2", nil},
		{"fold changes", a(1, 2, 1, 1, 0) + a(2, -1, 1, 2, 4), 2, "fold", "fold 4, but the previous letter (id 1, line 1) has 0", nil},
		{"two words share a letter", a(1, 3, 1, 1, 0) + a(2, 3, 1, 1, 0) + a(3, -1, 1, 2, 0), 2, "word_id", "word_id 1 already starts a word on line 1", nil},
		{"merged chains", a(1, 3, 1, 1, 0) + a(2, 4, 2, 1, 0) + a(3, -1, 1, 2, 0) + a(4, 3, 2, 2, 0), 4, "next_id", "next_id 3 names a letter already in a word", nil},
		{"cycle", a(1, 2, 1, 1, 0) + a(2, 3, 1, 2, 0) + a(3, 2, 1, 3, 0), 3, "next_id", "already in a word", nil},
		{"orphan letter", good + a(3, -1, 1, 3, 0), 3, "position", "letter id 3 (position 3) is not reached", nil},
		{"orphan loop", good + a(3, 4, 2, 2, 0) + a(4, 3, 2, 3, 0), 3, "position", "letter id 3 (position 2) is not reached", nil},
		{"bad gzip header", "\x1f\x8bxx", 0, "", "bad gzip header", nil},
		{"corrupt gzip", string(corrupt), 3, "", "corrupt gzip file", gzip.ErrChecksum},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := datasets.ParseOCR(strings.NewReader(tt.input), "letter.data")
			var pe *datasets.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *ParseError", err)
			}
			if pe.File != "letter.data" || pe.Line != tt.line || pe.Field != tt.field || !strings.Contains(pe.Msg, tt.msg) {
				t.Errorf("err = %q (line %d, field %q), want line %d, field %q, message containing %q",
					err, pe.Line, pe.Field, tt.line, tt.field, tt.msg)
			}
			if tt.is != nil && !errors.Is(err, tt.is) {
				t.Errorf("err = %v, want it to wrap %v", err, tt.is)
			}
		})
	}
}

func TestLoadOCRFixture(t *testing.T) {
	for _, file := range []string{"ocr_tiny.data", "ocr_tiny.data.gz"} {
		t.Run(file, func(t *testing.T) {
			c, folds, err := datasets.LoadOCRFolds(filepath.Join("testdata", file))
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(c.Sequences, tinySeqs()) || !slices.Equal(folds, tinyFolds) {
				t.Errorf("got %+v with folds %v", c.Sequences, folds)
			}
			c2, err := datasets.LoadOCR(filepath.Join("testdata", file))
			if err != nil || !reflect.DeepEqual(c2, c) {
				t.Errorf("LoadOCR differs from LoadOCRFolds: %v", err)
			}
		})
	}
}

func TestLoadOCRMissing(t *testing.T) {
	_, err := datasets.LoadOCR(filepath.Join(t.TempDir(), "letter.data.gz"))
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
}

func TestOCRFolds(t *testing.T) {
	tests := []struct {
		id      string
		fold    int
		wantErr string
	}{
		{"ocr-w12-f7", 7, ""},
		{"ocr-w0-f0", 0, ""},
		{"cora-3", 0, "not of the form"},
		{"ocr-w12", 0, "not of the form"},
		{"ocr-wx-f1", 0, "bad word id"},
		{"ocr-w1-f", 0, "bad fold"},
		{"ocr-w1-f10", 0, "fold 10 out of range"},
		{"ocr-w1-f-1", 0, "fold -1 out of range"},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			c := &datasets.Corpus{Sequences: []structpred.Sequence{{ID: "ocr-w1-f2"}, {ID: tt.id}}}
			folds, err := datasets.OCRFolds(c)
			switch {
			case tt.wantErr == "" && (err != nil || !slices.Equal(folds, []int{2, tt.fold})):
				t.Errorf("OCRFolds = %v, %v; want [2 %d]", folds, err, tt.fold)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Errorf("err = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestOpenOCR(t *testing.T) {
	dir := t.TempDir()
	_, err := datasets.Open(dir, datasets.SourceEnv, "ocr")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	for _, want := range []string{filepath.Join(dir, "ocr", "letter.data.gz"), "btaskar/ocr", "zhanibekrysbek/CS512AML", "ocr/letter.data.gz"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}

	data, err := os.ReadFile(filepath.Join("testdata", "ocr_tiny.data.gz"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, "ocr"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ocr", "letter.data.gz"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := datasets.Open(dir, datasets.SourceEnv, "ocr")
	if err != nil {
		t.Fatal(err)
	}
	folds, err := datasets.OCRFolds(c)
	if err != nil || !reflect.DeepEqual(c.Sequences, tinySeqs()) || !slices.Equal(folds, tinyFolds) {
		t.Errorf("Open = %+v, folds %v, %v", c.Sequences, folds, err)
	}
	if !slices.Contains(datasets.KnownDatasets(), "ocr") {
		t.Errorf("KnownDatasets() = %v lacks ocr", datasets.KnownDatasets())
	}
}

// TestOCRRealData checks the counts PROVENANCE.md states for the real file;
// it needs $REPRO_DATA/ocr/letter.data.gz.
func TestOCRRealData(t *testing.T) {
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		t.Skip("REPRO_DATA not set")
	}
	path := filepath.Join(dir, "ocr", "letter.data.gz")
	if _, err := os.Stat(path); err != nil {
		t.Skipf("no OCR data: %v", err)
	}
	c, folds, err := datasets.LoadOCRFolds(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Sequences) != 6877 || len(folds) != 6877 {
		t.Fatalf("%d words, %d folds; want 6877", len(c.Sequences), len(folds))
	}
	letterCount := map[string]int{}
	wordsPerFold := make([]int, datasets.OCRFoldCount)
	lettersPerFold := make([]int, datasets.OCRFoldCount)
	total, minLen, maxLen := 0, 1<<30, 0
	for i, s := range c.Sequences {
		checkOCRSequence(t, s)
		n := len(s.Tokens)
		total += n
		minLen, maxLen = min(minLen, n), max(maxLen, n)
		wordsPerFold[folds[i]]++
		lettersPerFold[folds[i]] += n
		for _, l := range s.Labels {
			letterCount[c.Labels[l]]++
		}
	}
	if total != 52152 || minLen != 3 || maxLen != 14 {
		t.Errorf("%d letters, word length %d..%d; want 52152, 3..14", total, minLen, maxLen)
	}
	if want := []int{626, 704, 684, 698, 693, 651, 739, 717, 690, 675}; !slices.Equal(wordsPerFold, want) {
		t.Errorf("words per fold %v, want %v", wordsPerFold, want)
	}
	if want := []int{4617, 5375, 5110, 5353, 5270, 5001, 5583, 5370, 5331, 5142}; !slices.Equal(lettersPerFold, want) {
		t.Errorf("letters per fold %v, want %v", lettersPerFold, want)
	}
	if len(letterCount) != 26 {
		t.Errorf("%d distinct labels, want 26", len(letterCount))
	}
	for l, want := range map[string]int{"n": 5024, "e": 4955, "i": 4913, "a": 4034, "o": 3897} {
		if letterCount[l] != want {
			t.Errorf("letter %s occurs %d times, want %d", l, letterCount[l], want)
		}
	}
	if w := spell(c, 0); w != "ommanding" || c.Sequences[0].ID != "ocr-w1-f0" {
		t.Errorf("first word %q (%s), want ommanding (ocr-w1-f0)", w, c.Sequences[0].ID)
	}

	fromIDs, err := datasets.OCRFolds(c)
	if err != nil || !slices.Equal(fromIDs, folds) {
		t.Errorf("OCRFolds disagrees with LoadOCRFolds: %v", err)
	}
	splits, err := datasets.AllFoldSplits(folds)
	if err != nil {
		t.Fatal(err)
	}
	for k, s := range splits {
		if len(s.Train) != wordsPerFold[k] || len(s.Train)+len(s.Test) != 6877 {
			t.Errorf("split %d: %d train, %d test", k, len(s.Train), len(s.Test))
		}
	}

	opened, err := datasets.Open(dir, datasets.SourceEnv, "ocr")
	if err != nil || !reflect.DeepEqual(opened, c) {
		t.Errorf("Open(%q, ocr) differs from LoadOCRFolds: %v", dir, err)
	}
}

// spell returns the letters of sequence i.
func spell(c *datasets.Corpus, i int) string {
	var b strings.Builder
	for _, l := range c.Sequences[i].Labels {
		b.WriteString(c.Labels[l])
	}
	return b.String()
}

// checkOCRSequence checks the invariants of a parsed OCR word.
func checkOCRSequence(t *testing.T, s structpred.Sequence) {
	t.Helper()
	if len(s.Tokens) == 0 || len(s.Labels) != len(s.Tokens) || len(s.Segments) != len(s.Tokens) {
		t.Fatalf("%s: %d tokens, %d labels, %d segments", s.ID, len(s.Tokens), len(s.Labels), len(s.Segments))
	}
	for i, tok := range s.Tokens {
		if len(tok) != datasets.OCRPixels || strings.Trim(tok, "01") != "" {
			t.Fatalf("%s: token %d is not %d binary pixels: %q", s.ID, i, datasets.OCRPixels, tok)
		}
		l := s.Labels[i]
		if l < 0 || l >= 26 || s.Segments[i] != (structpred.Segment{Start: i, End: i + 1, Label: l}) {
			t.Fatalf("%s: letter %d: label %d, segment %+v", s.ID, i, l, s.Segments[i])
		}
	}
}

// FuzzParseOCR checks that arbitrary input yields either well-formed words
// whose folds agree with their IDs, or a *ParseError; never a panic.
func FuzzParseOCR(f *testing.F) {
	tiny, err := os.ReadFile(filepath.Join("testdata", "ocr_tiny.data"))
	if err != nil {
		f.Fatal(err)
	}
	two := row(1, "a", 2, 1, 1, 0, img(3)) + row(2, "b", -1, 1, 2, 0, img(4))
	for _, s := range []string{
		string(tiny),
		gzipped(f, string(tiny)),
		two,
		strings.ReplaceAll(two, "\t\n", "\r\n"),
		row(1, "a", 1, 1, 1, 0, img()),
		row(2, "a", -1, 1, 2, 0, img()),
		row(1, "a", -1, 1, 1, 9, img()) + row(1, "b", -1, 2, 1, 9, img()),
		"1\ta\t-1\t1\t1\t0\t\n",
		"\x1f\x8b",
		"",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		c, folds, err := datasets.ParseOCRFolds(bytes.NewReader(input), "fuzz.data")
		if err != nil {
			var pe *datasets.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *ParseError", err)
			}
			return
		}
		if len(c.Sequences) == 0 || len(folds) != len(c.Sequences) {
			t.Fatalf("%d sequences, %d folds", len(c.Sequences), len(folds))
		}
		for _, s := range c.Sequences {
			checkOCRSequence(t, s)
		}
		fromIDs, err := datasets.OCRFolds(c)
		if err != nil || !slices.Equal(fromIDs, folds) {
			t.Fatalf("OCRFolds = %v, %v; want %v", fromIDs, err, folds)
		}
	})
}

func ExampleParseOCR() {
	// line formats one letter of the file: the columns id, letter, next_id,
	// word_id, position and fold, then 128 pixels with only pixel on set.
	line := func(columns string, on int) string {
		pixels := strings.Split(strings.Repeat("0", datasets.OCRPixels), "")
		pixels[on] = "1"
		return columns + "\t" + strings.Join(pixels, "\t") + "\t\n"
	}
	text := line("1\th\t2\t1\t1\t4", 0) + // word 1 "hi", fold 4
		line("2\ti\t-1\t1\t2\t4", 17) +
		line("3\ta\t-1\t2\t1\t0", 127) // word 2 "a", fold 0

	c, folds, err := datasets.ParseOCRFolds(strings.NewReader(text), "letter.data")
	if err != nil {
		log.Fatal(err)
	}
	for i, s := range c.Sequences {
		fmt.Printf("%s fold %d:", s.ID, folds[i])
		for t, tok := range s.Tokens {
			fmt.Printf(" %s (pixel %d on)", c.Labels[s.Labels[t]], strings.IndexByte(tok, '1'))
		}
		fmt.Println()
	}
	// Output:
	// ocr-w1-f4 fold 4: h (pixel 0 on) i (pixel 17 on)
	// ocr-w2-f0 fold 0: a (pixel 127 on)
}

// A letter.data.gz cut short (a partial download) is reported as a
// truncated gzip file at the line where the data stops, wherever the cut
// falls, never as a malformed line.
func TestLoadOCRTruncatedGzip(t *testing.T) {
	full, err := os.ReadFile(filepath.Join("testdata", "ocr_tiny.data.gz"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for _, frac := range []float64{0.2, 0.5, 0.7, 0.9, 0.99} {
		n := int(frac * float64(len(full)))
		path := filepath.Join(dir, fmt.Sprintf("letter-%d.data.gz", n))
		if err := os.WriteFile(path, full[:n], 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := datasets.LoadOCR(path)
		var pe *datasets.ParseError
		if !errors.As(err, &pe) || !strings.Contains(pe.Msg, "truncated gzip file") || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%d of %d bytes: err = %v, want a truncated gzip file", n, len(full), err)
			continue
		}
		if pe.Line < 1 {
			t.Errorf("%d of %d bytes: no line in %v", n, len(full), err)
		}
	}
}
