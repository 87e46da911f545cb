package datasets

import (
	"bufio"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// The OCR handwriting set of Taskar, Guestrin & Koller (2003), "Max-Margin
// Markov Networks", as used by Crammer et al. (2005) and Pletscher et al.
// (2010, section 8.2): 6,877 handwritten words, 52,152 lower-case letters,
// each rasterised to a 16×8 binary image, split into 10 folds by the file
// itself.
//
// The file letter.data (distributed gzip-compressed as letter.data.gz) holds
// one letter per line, tab-separated, usually with a trailing tab:
//
//	id  letter  next_id  word_id  position  fold  p_0_0 … p_15_7
//
// id is unique; next_id is the id of the next letter of the same word or -1
// after the last letter; position is 1-based within the word; fold is 0..9
// and shared by all letters of a word; the 128 pixels are 0 or 1 in
// row-major order of the 16-row, 8-column image.
//
// The constants below give the image geometry and the number of folds.
const (
	OCRRows      = 16                // image rows
	OCRCols      = 8                 // image columns
	OCRPixels    = OCRRows * OCRCols // pixels per letter, the length of a token
	OCRFoldCount = 10                // folds 0..OCRFoldCount-1
)

// ocrHeaderFields is the number of tab-separated fields before the pixels,
// and ocrColumns the total without the empty field after a trailing tab.
const (
	ocrHeaderFields = 6
	ocrColumns      = ocrHeaderFields + OCRPixels
)

// Names of the OCR columns, used as ParseError.Field.
const (
	ocrFieldID       = "id"
	ocrFieldLetter   = "letter"
	ocrFieldNext     = "next_id"
	ocrFieldWord     = "word_id"
	ocrFieldPosition = "position"
	ocrFieldFold     = "fold"
)

// OCRLabels returns the 26 OCR labels "a".."z": label i is the letter 'a'+i.
// A fresh slice is returned on every call.
func OCRLabels() []string {
	out := make([]string, 26)
	for i := range out {
		out[i] = string(rune('a' + i))
	}
	return out
}

// LoadOCR reads an OCR letter.data file, gzip-compressed or not; see
// [ParseOCR]. The folds are recoverable with [OCRFolds].
func LoadOCR(path string) (*Corpus, error) {
	c, _, err := LoadOCRFolds(path)
	return c, err
}

// LoadOCRFolds is [LoadOCR] that also returns the fold of every word:
// folds[i] is the fold of c.Sequences[i].
func LoadOCRFolds(path string) (*Corpus, []int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load ocr: %w", err)
	}
	defer f.Close()
	return ParseOCRFolds(f, filepath.Base(path))
}

// ParseOCR parses the OCR letter file from r; name is the file name used in
// errors. The input may be gzip-compressed (recognised by the gzip magic
// bytes) or plain text.
//
// Letters are grouped into words as the file's documentation prescribes:
// every letter with position 1 starts a word, which follows next_id until
// -1. Words come in the file order of their first letters. Word i becomes
// sequence i with ID "ocr-w<word_id>-f<fold>" (see [OCRFolds]), Line the line
// of its first letter, one token per letter — its 128 pixels as a string of
// '0' and '1' in row-major order — the letters' labels (index into
// [OCRLabels]) and one segment per letter.
//
// Any departure from the format is a [*ParseError] naming the line and
// column: a wrong number of columns, a non-integer or out-of-range number, a
// label outside a-z, a pixel other than 0 or 1, a duplicate id, and
// inconsistent chaining (a next_id that names no letter or a letter already
// in a word, a position, word_id or fold that does not continue its
// predecessor's, two words with the same word_id, or a letter no word
// reaches). Blank lines are ignored and a trailing CR is tolerated.
func ParseOCR(r io.Reader, name string) (*Corpus, error) {
	c, _, err := ParseOCRFolds(r, name)
	return c, err
}

// ParseOCRFolds is [ParseOCR] that also returns the fold of every word:
// folds[i] is the fold of c.Sequences[i].
func ParseOCRFolds(r io.Reader, name string) (*Corpus, []int, error) {
	r, err := maybeGunzip(r, name)
	if err != nil {
		return nil, nil, err
	}
	letters, err := readOCRLetters(r, name)
	if err != nil {
		return nil, nil, err
	}
	return chainOCRWords(letters, name)
}

// maybeGunzip returns a decompressing reader if r starts with the gzip magic
// bytes and a buffered r otherwise.
func maybeGunzip(r io.Reader, name string) (io.Reader, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	magic, err := br.Peek(2)
	if err != nil && err != io.EOF {
		return nil, &ParseError{File: name, Msg: "read error", Err: err}
	}
	if len(magic) < 2 || magic[0] != 0x1f || magic[1] != 0x8b {
		return br, nil
	}
	zr, err := gzip.NewReader(br)
	if err != nil {
		return nil, &ParseError{File: name, Msg: "bad gzip header", Err: err}
	}
	return zr, nil
}

// ocrLetter is one parsed line of the OCR file.
type ocrLetter struct {
	line     int
	id       int
	label    int
	next     int // -1 for the last letter of a word
	word     int
	position int
	fold     int
	pixels   string
}

// readOCRLetters parses every non-blank line into a letter.
func readOCRLetters(r io.Reader, name string) ([]ocrLetter, error) {
	sc, limit := newLineScanner(r, 0)
	var letters []ocrLetter
	pixels := make([]byte, OCRPixels)
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		l, err := parseOCRLine(line, name, lineNo, pixels)
		if err != nil {
			if rerr := sc.Err(); rerr != nil {
				// The reader failed, and the scanner handed over the part
				// of the line it had: the line is cut, not malformed.
				return nil, readError(name, lineNo, rerr)
			}
			return nil, err
		}
		letters = append(letters, l)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, scanError(name, lineNo+1, err, limit)
	} else if err != nil {
		return nil, readError(name, lineNo+1, err)
	}
	if len(letters) == 0 {
		return nil, &ParseError{File: name, Msg: "no letters"}
	}
	return letters, nil
}

// parseOCRLine parses one letter line; pixels is scratch space of
// [OCRPixels] bytes.
func parseOCRLine(line, file string, lineNo int, pixels []byte) (ocrLetter, error) {
	fail := func(field, format string, args ...any) (ocrLetter, error) {
		return ocrLetter{}, &ParseError{File: file, Line: lineNo, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	fields := strings.Split(line, "\t")
	if n := len(fields); n == ocrColumns+1 && fields[ocrColumns] == "" {
		fields = fields[:ocrColumns] // the usual trailing tab
	}
	if len(fields) != ocrColumns {
		return fail("", "%d tab-separated columns, want %d (6 + %d pixels)", len(fields), ocrColumns, OCRPixels)
	}
	l := ocrLetter{line: lineNo}
	ints := [...]struct {
		field, text string
		dst         *int
		min, max    int
	}{
		{ocrFieldID, fields[0], &l.id, 1, maxOCRInt},
		{ocrFieldNext, fields[2], &l.next, -1, maxOCRInt},
		{ocrFieldWord, fields[3], &l.word, 0, maxOCRInt},
		{ocrFieldPosition, fields[4], &l.position, 1, maxOCRInt},
		{ocrFieldFold, fields[5], &l.fold, 0, OCRFoldCount - 1},
	}
	for _, f := range ints {
		v, err := strconv.Atoi(f.text)
		if err != nil {
			return fail(f.field, "%q is not an integer", f.text)
		}
		if v < f.min || v > f.max {
			return fail(f.field, "%d out of range [%d, %d]", v, f.min, f.max)
		}
		*f.dst = v
	}
	if l.next == 0 {
		return fail(ocrFieldNext, "0 is neither a letter id nor -1")
	}
	if s := fields[1]; len(s) != 1 || s[0] < 'a' || s[0] > 'z' {
		return fail(ocrFieldLetter, "%q is not a letter a-z", s)
	}
	l.label = int(fields[1][0] - 'a')
	for i, p := range fields[ocrHeaderFields:] {
		if p != "0" && p != "1" {
			return fail(fmt.Sprintf("p_%d_%d", i/OCRCols, i%OCRCols), "pixel %q is not 0 or 1", p)
		}
		pixels[i] = p[0]
	}
	l.pixels = string(pixels)
	return l, nil
}

// readError describes a failure of the reader under the scanner at line.
// A gzip stream that ends early (a partial download or copy) is the common
// case, and is reported as such rather than as whatever the cut line looks
// like.
func readError(name string, line int, err error) error {
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &ParseError{File: name, Line: line, Msg: "truncated gzip file: the compressed data ends at this line; the file is incomplete, download it again", Err: err}
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		return &ParseError{File: name, Line: line, Msg: "corrupt gzip file; download it again", Err: err}
	}
	return &ParseError{File: name, Line: line, Msg: "read error", Err: err}
}

// maxOCRInt bounds the integer columns so that ids and positions stay far
// from overflow; the real file's largest value is 52,152.
const maxOCRInt = 1 << 30

// chainOCRWords groups letters into words by following next_id from every
// position-1 letter, checking that the chains are consistent and cover every
// letter exactly once.
func chainOCRWords(letters []ocrLetter, name string) (*Corpus, []int, error) {
	fail := func(l ocrLetter, field, format string, args ...any) (*Corpus, []int, error) {
		return nil, nil, &ParseError{File: name, Line: l.line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	byID := make(map[int]int, len(letters)) // id → index into letters
	for i, l := range letters {
		if j, dup := byID[l.id]; dup {
			return fail(l, ocrFieldID, "duplicate id %d (first on line %d)", l.id, letters[j].line)
		}
		byID[l.id] = i
	}
	used := make([]bool, len(letters))
	wordStart := make(map[int]int) // word_id → line of its first letter
	c := &Corpus{Name: "ocr", Labels: OCRLabels()}
	var folds []int
	for i, first := range letters {
		if first.position != 1 {
			continue
		}
		if line, dup := wordStart[first.word]; dup {
			return fail(first, ocrFieldWord, "word_id %d already starts a word on line %d", first.word, line)
		}
		wordStart[first.word] = first.line
		seq := structpred.Sequence{
			ID:   fmt.Sprintf("ocr-w%d-f%d", first.word, first.fold),
			Line: first.line,
		}
		for prev, k := -1, i; ; {
			l := letters[k]
			if prev >= 0 {
				p := letters[prev]
				switch {
				case used[k]:
					return fail(p, ocrFieldNext, "next_id %d names a letter already in a word", p.next)
				case l.word != p.word:
					return fail(l, ocrFieldWord, "word_id %d, but the previous letter (id %d, line %d) has %d", l.word, p.id, p.line, p.word)
				case l.position != p.position+1:
					return fail(l, ocrFieldPosition, "position %d, want %d after id %d (line %d)", l.position, p.position+1, p.id, p.line)
				case l.fold != p.fold:
					return fail(l, ocrFieldFold, "fold %d, but the previous letter (id %d, line %d) has %d", l.fold, p.id, p.line, p.fold)
				}
			}
			used[k] = true
			t := len(seq.Tokens)
			seq.Tokens = append(seq.Tokens, l.pixels)
			seq.Labels = append(seq.Labels, l.label)
			seq.Segments = append(seq.Segments, structpred.Segment{Start: t, End: t + 1, Label: l.label})
			if l.next == -1 {
				break
			}
			next, ok := byID[l.next]
			if !ok {
				return fail(l, ocrFieldNext, "next_id %d names no letter", l.next)
			}
			prev, k = k, next
		}
		c.Sequences = append(c.Sequences, seq)
		folds = append(folds, first.fold)
	}
	for k, l := range letters {
		if !used[k] {
			return fail(l, ocrFieldPosition, "letter id %d (position %d) is not reached from any position-1 letter", l.id, l.position)
		}
	}
	return c, folds, nil
}

// OCRFolds returns the fold of every sequence of an OCR corpus, read back
// from the IDs "ocr-w<word_id>-f<fold>" that [ParseOCR] assigns, so that a
// corpus obtained through [Open] can be split with [FoldSplits]. It is an
// error if an ID does not have that form.
func OCRFolds(c *Corpus) ([]int, error) {
	folds := make([]int, len(c.Sequences))
	for i, s := range c.Sequences {
		rest, ok := strings.CutPrefix(s.ID, "ocr-w")
		word, fold, ok2 := strings.Cut(rest, "-f")
		if !ok || !ok2 {
			return nil, fmt.Errorf("ocr folds: sequence %d: ID %q is not of the form ocr-w<word>-f<fold>", i, s.ID)
		}
		if _, err := strconv.Atoi(word); err != nil {
			return nil, fmt.Errorf("ocr folds: sequence %d: ID %q: bad word id: %w", i, s.ID, err)
		}
		k, err := strconv.Atoi(fold)
		if err != nil {
			return nil, fmt.Errorf("ocr folds: sequence %d: ID %q: bad fold: %w", i, s.ID, err)
		}
		if k < 0 || k >= OCRFoldCount {
			return nil, fmt.Errorf("ocr folds: sequence %d: ID %q: fold %d out of range [0, %d]", i, s.ID, k, OCRFoldCount-1)
		}
		folds[i] = k
	}
	return folds, nil
}
