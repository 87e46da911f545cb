package datasets

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLine bounds one line of a data file unless a reader is given
// another bound (CoNLLFormat.MaxLine): real lines are under 1 KiB, so the
// bound only stops a file that is not what it is said to be (a binary, a
// file with no line ends) before it fills memory.
const DefaultMaxLine = 1 << 20

// TreebankMaxLine bounds one line of a CoNLL-X or CoNLL-U treebank, whose
// comment lines may hold a whole document's text.
const TreebankMaxLine = 16 << 20

// LineTooLongError reports a line longer than a reader's bound; it is the
// Err of a [*ParseError] naming the file and line.
type LineTooLongError struct{ Limit int }

func (e *LineTooLongError) Error() string {
	return fmt.Sprintf("over the %s bound on one line", sizeString(e.Limit))
}

// sizeString renders a bound in MiB or KiB when it is a whole number of them.
func sizeString(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// utf8BOM is the byte-order mark some editors put at the start of a UTF-8
// file; kept, it would become part of the first word.
var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// SkipBOM returns a reader of r without a UTF-8 byte-order mark at its
// start.
func SkipBOM(r io.Reader) io.Reader {
	br := bufio.NewReader(r)
	if b, _ := br.Peek(len(utf8BOM)); bytes.Equal(b, utf8BOM) {
		br.Discard(len(utf8BOM))
	}
	return br
}

// newLineScanner returns a scanner of r's lines, each at most limit bytes
// before its LF (DefaultMaxLine if limit <= 0), without a byte-order mark
// at the start.
func newLineScanner(r io.Reader, limit int) (*bufio.Scanner, int) {
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	sc := bufio.NewScanner(SkipBOM(r))
	// One byte more than the bound holds a line of limit bytes and its LF.
	sc.Buffer(make([]byte, 0, min(64<<10, limit+1)), limit+1)
	return sc, limit
}

// scanError turns a line scanner's error at line into a [*ParseError]; a
// line over the bound says so with the bound.
func scanError(name string, line int, err error, limit int) error {
	if errors.Is(err, bufio.ErrTooLong) {
		return &ParseError{File: name, Line: line, Msg: "line too long", Err: &LineTooLongError{Limit: limit}}
	}
	return &ParseError{File: name, Line: line, Msg: "read error", Err: err}
}

// LineGuard returns a reader of r that fails with a [*ParseError] naming
// name, the line and a [*LineTooLongError] as soon as a line runs over
// limit bytes before its LF (DefaultMaxLine if limit <= 0): the bound of
// the line readers, for a caller that reads a file whole before parsing
// it (so that a file with no line ends fails at the bound, not at the end
// of memory).
func LineGuard(r io.Reader, name string, limit int) io.Reader {
	if limit <= 0 {
		limit = DefaultMaxLine
	}
	return &lineGuard{r: r, name: name, limit: limit, line: 1}
}

type lineGuard struct {
	r          io.Reader
	name       string
	limit, run int // run: bytes since the last LF
	line       int
}

func (g *lineGuard) Read(p []byte) (int, error) {
	n, err := g.r.Read(p)
	for _, c := range p[:n] {
		if c == '\n' {
			g.line++
			g.run = 0
			continue
		}
		if g.run++; g.run > g.limit {
			return n, &ParseError{File: g.name, Line: g.line, Msg: "line too long", Err: &LineTooLongError{Limit: g.limit}}
		}
	}
	return n, err
}
