package datasets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// newReference is the separator line that precedes every Cora reference.
const (
	newReferenceTag = "NEWREFERENCE"
	newReference    = "<" + newReferenceTag + ">"
)

// CoraLabels returns the 13 Cora field labels in label-id order: the tag
// names sorted alphabetically. A fresh slice is returned on every call.
func CoraLabels() []string {
	return []string{
		"author", "booktitle", "date", "editor", "institution", "journal",
		"location", "note", "pages", "publisher", "tech", "title", "volume",
	}
}

// ParseError reports malformed Cora input at a given line.
type ParseError struct {
	File  string // file name as given to the parser
	Line  int    // 1-based line number; 0 when the error concerns the whole file
	Field string // enclosing field (tag name), if any
	Msg   string // what is wrong
	Err   error  // underlying error, if any
}

// Error formats the error as "file:line: field "f": msg[: err]".
func (e *ParseError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	if e.Err != nil {
		b.WriteString(": ")
		b.WriteString(e.Err.Error())
	}
	return b.String()
}

// Unwrap returns the underlying error, if any.
func (e *ParseError) Unwrap() error { return e.Err }

// LoadCora reads a Cora tagged_references.txt file; see [ParseCora].
func LoadCora(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load cora: %w", err)
	}
	defer f.Close()
	return ParseCora(f, filepath.Base(path))
}

// ParseCora parses Cora references from r; name is the file name used in
// errors. Sequence i gets ID "cora-i" and the 1-based line of its reference.
// Lines outside references that are blank are ignored; any other departure
// from the format is a [*ParseError].
func ParseCora(r io.Reader, name string) (*Corpus, error) {
	return ParseCoraMaxLine(r, name, 0)
}

// ParseCoraMaxLine is [ParseCora] with a bound on one line other than
// [DefaultMaxLine] (if maxLine > 0).
func ParseCoraMaxLine(r io.Reader, name string, maxLine int) (*Corpus, error) {
	labels := CoraLabels()
	ids := make(map[string]int, len(labels))
	for i, l := range labels {
		ids[l] = i
	}
	c := &Corpus{Name: "cora", Labels: labels}

	sc, limit := newLineScanner(r, maxLine)
	lineNo := 0
	pending := 0 // line of a <NEWREFERENCE> still waiting for its reference
	for sc.Scan() {
		lineNo++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case trimmed == newReference:
			if pending != 0 {
				return nil, &ParseError{File: name, Line: pending, Msg: newReference + " with no reference after it"}
			}
			pending = lineNo
			continue
		case pending == 0 && trimmed == "":
			continue
		case pending == 0:
			return nil, &ParseError{File: name, Line: lineNo, Msg: "reference line without a preceding " + newReference}
		}
		pending = 0
		seq, err := parseReference(line, name, lineNo, ids)
		if err != nil {
			return nil, err
		}
		seq.ID = fmt.Sprintf("cora-%d", len(c.Sequences))
		c.Sequences = append(c.Sequences, seq)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, lineNo+1, err, limit)
	}
	if pending != 0 {
		return nil, &ParseError{File: name, Line: pending, Msg: newReference + " with no reference after it"}
	}
	if len(c.Sequences) == 0 {
		return nil, &ParseError{File: name, Msg: "no references"}
	}
	return c, nil
}

// parseReference turns one tagged reference line into a labelled sequence.
func parseReference(line, file string, lineNo int, ids map[string]int) (structpred.Sequence, error) {
	seq := structpred.Sequence{Line: lineNo}
	fail := func(field, format string, args ...any) (structpred.Sequence, error) {
		return structpred.Sequence{}, &ParseError{File: file, Line: lineNo, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	open, start := "", 0 // open field and the index of its first token
	for _, word := range strings.Fields(line) {
		for _, p := range splitTags(word) {
			if p.tag == "" {
				if open == "" {
					return fail("", "text %q outside any tag", p.text)
				}
				seq.Tokens = append(seq.Tokens, p.text)
				seq.Labels = append(seq.Labels, ids[open])
				continue
			}
			if p.tag == newReferenceTag {
				return fail(open, "%s must be on a line of its own", newReference)
			}
			if _, ok := ids[p.tag]; !ok {
				return fail(open, "unknown tag %s", p.text)
			}
			if !p.closing {
				if open != "" {
					return fail(open, "nested tag %s inside <%s>", p.text, open)
				}
				open, start = p.tag, len(seq.Tokens)
				continue
			}
			switch {
			case open == "":
				return fail("", "closing tag %s without an opening tag", p.text)
			case p.tag != open:
				return fail(open, "closing tag %s does not match <%s>", p.text, open)
			case len(seq.Tokens) == start:
				return fail(open, "empty field")
			}
			seq.Segments = append(seq.Segments, structpred.Segment{Start: start, End: len(seq.Tokens), Label: ids[open]})
			open = ""
		}
	}
	if open != "" {
		return fail(open, "unclosed tag <%s>", open)
	}
	if len(seq.Tokens) == 0 {
		return fail("", "empty reference")
	}
	return seq, nil
}

// piece is a run of token text or one tag found inside a whitespace token.
type piece struct {
	text    string // the raw text (for a tag, "<name>" or "</name>")
	tag     string // tag name; empty for text
	closing bool
}

// splitTags splits a whitespace token into text and tags, so that tags glued
// to text on either side ("(1995).</date>", "<title>On") are recognised.
// A '<' that does not start a well-formed tag is ordinary text.
func splitTags(word string) []piece {
	var out []piece
	textStart := 0
	for i := 0; i < len(word); i++ {
		if word[i] != '<' {
			continue
		}
		n, name, closing := tagAt(word[i:])
		if n == 0 {
			continue
		}
		if i > textStart {
			out = append(out, piece{text: word[textStart:i]})
		}
		out = append(out, piece{text: word[i : i+n], tag: name, closing: closing})
		i += n - 1
		textStart = i + 1
	}
	if textStart < len(word) {
		out = append(out, piece{text: word[textStart:]})
	}
	return out
}

// tagAt reports the length of the tag "<name>" or "</name>" at the start of s
// (0 if there is none), where a name is a letter followed by letters, digits,
// '_' or '-'.
func tagAt(s string) (n int, name string, closing bool) {
	i := 1
	if i < len(s) && s[i] == '/' {
		closing = true
		i++
	}
	j := i
	for j < len(s) && isNameByte(s[j], j == i) {
		j++
	}
	if j == i || j >= len(s) || s[j] != '>' {
		return 0, "", false
	}
	return j + 1, s[i:j], closing
}

func isNameByte(b byte, first bool) bool {
	letter := 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z'
	if first {
		return letter
	}
	return letter || '0' <= b && b <= '9' || b == '_' || b == '-'
}
