package tagger

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/maxmargin/repro/datasets"
)

// TagStats describes a tagged text.
type TagStats struct {
	Sentences, Tokens int
	// Columns is the number of columns of the input's token lines: 1 for
	// bare tokens, else the training file's layout with or without its
	// label column.
	Columns int
	// MissingColumns names the extra columns the model's features use
	// that bare-token input lacks (their attributes never fire).
	MissingColumns []string
}

// inputLayout says where a token line of the input has its word and extra
// columns.
type inputLayout struct {
	n      int
	word   int
	extras []int
}

// layouts returns the input layouts the model reads: bare tokens, and for
// column files the training layout and the same without its label column.
func (m *Model) layouts() ([]inputLayout, error) {
	bare := inputLayout{n: 1}
	if m.Format.Kind != FormatCoNLL {
		return []inputLayout{bare}, nil
	}
	word, label, extras, err := m.Format.conll().Layout(0)
	if err != nil {
		return nil, err
	}
	n := len(m.Format.Columns)
	drop := func(i int) int { // position once the label column is gone
		if i > label {
			return i - 1
		}
		return i
	}
	unlabelled := inputLayout{n: n - 1, word: drop(word)}
	for _, e := range extras {
		unlabelled.extras = append(unlabelled.extras, drop(e))
	}
	out := []inputLayout{bare}
	if unlabelled.n > 1 {
		out = append(out, unlabelled)
	}
	return append(out, inputLayout{n: n, word: word, extras: extras}), nil
}

// TagText labels the sentences of r and writes each input line to w with
// the predicted label appended (after a tab if the line has one, else a
// space), in the label encoding of the training file; blank lines, which
// end sentences, are copied, and a -DOCSTART- line gets the label O. The
// input is bare tokens (one per line, a blank line after each sentence) or
// the training file's column layout, with or without its label column;
// its first token line decides which, and every other must have as many
// columns. Lines are read in the model's text encoding; a trailing CR is
// dropped. name names the input in errors (name:line). Each sentence is
// written as soon as it is read, so the output can be piped.
//
// A model trained on an attribute file (format crfsuite) reads an
// attribute file instead (its first field, the label, may be any
// placeholder) and writes what `crfsuite tag` writes: the predicted label
// of each item on a line of its own, a blank line after each sequence.
func (m *Model) TagText(ctx context.Context, r io.Reader, w io.Writer, name string) (TagStats, error) {
	var st TagStats
	if m.Format.Kind == FormatCRFsuite {
		return m.tagAttributes(ctx, r, w, name)
	}
	layouts, err := m.layouts()
	if err != nil {
		return st, err
	}
	enc := datasets.TextEncoding(m.Format.Charset)
	maxLine := cmp.Or(m.Format.MaxLine, datasets.DefaultMaxLine)
	sc := bufio.NewScanner(datasets.SkipBOM(r))
	sc.Buffer(make([]byte, 0, min(64<<10, maxLine+1)), maxLine+1) // a line of maxLine bytes and its LF
	bw := bufio.NewWriter(w)
	var (
		lay       *inputLayout
		firstLine int
		lines     [][]byte // the sentence's raw lines
		tokens    []string
		columns   [][]string
		lineNo    int
		out       []byte
	)
	flush := func() error {
		if len(lines) == 0 {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		tags, err := m.tags(m.Predict(tokens, columns).Labels)
		if err != nil {
			return fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		for t, line := range lines {
			if out, err = appendLabel(out[:0], line, tags[t], enc); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			bw.Write(out)
		}
		st.Sentences++
		st.Tokens += len(lines)
		lines, tokens = lines[:0], tokens[:0]
		for c := range columns {
			columns[c] = columns[c][:0]
		}
		return bw.Flush()
	}
	for sc.Scan() {
		lineNo++
		raw := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		text, err := enc.Decode(raw)
		if err != nil {
			return st, fmt.Errorf("%s:%d: %w", name, lineNo, err)
		}
		fields := splitFields(text)
		switch {
		case len(fields) == 0:
			if err := flush(); err != nil {
				return st, err
			}
			bw.Write(raw)
			bw.WriteByte('\n')
			continue
		case fields[0] == datasets.DocStart:
			if err := flush(); err != nil {
				return st, err
			}
			if out, err = appendLabel(out[:0], raw, "O", enc); err != nil {
				return st, fmt.Errorf("%s:%d: %w", name, lineNo, err)
			}
			bw.Write(out)
			continue
		}
		if lay == nil {
			if lay, err = pickLayout(layouts, len(fields), m.Format.Kind); err != nil {
				return st, fmt.Errorf("%s:%d: %w", name, lineNo, err)
			}
			firstLine, st.Columns = lineNo, lay.n
			columns = make([][]string, len(lay.extras))
		}
		if len(fields) != lay.n {
			return st, fmt.Errorf("%s:%d: %d columns, want %d as on the first token line (line %d)", name, lineNo, len(fields), lay.n, firstLine)
		}
		lines = append(lines, bytes.Clone(raw))
		tokens = append(tokens, fields[lay.word])
		for c, i := range lay.extras {
			columns[c] = append(columns[c], fields[i])
		}
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return st, &datasets.ParseError{File: name, Line: lineNo + 1, Msg: "line too long", Err: &datasets.LineTooLongError{Limit: maxLine}}
	} else if err != nil {
		return st, fmt.Errorf("%s:%d: %w", name, lineNo+1, err)
	}
	if err := flush(); err != nil {
		return st, err
	}
	if full := layouts[len(layouts)-1]; lay != nil && len(lay.extras) < len(full.extras) && m.Features.Kind == NER {
		st.MissingColumns = m.Features.columnNames(len(full.extras))[:len(full.extras)]
	}
	return st, bw.Flush()
}

// tagAttributes is TagText for a model of an attribute file.
func (m *Model) tagAttributes(ctx context.Context, r io.Reader, w io.Writer, name string) (TagStats, error) {
	var st TagStats
	text, err := readAll(ctx, r, name, m.Format.MaxLine)
	if err != nil {
		return st, err
	}
	c, a, err := datasets.ParseCRFsuite(bytes.NewReader(text), name)
	if err != nil {
		return st, err
	}
	bw := bufio.NewWriter(w)
	for i := range c.Sequences {
		if err := ctx.Err(); err != nil {
			return st, err
		}
		for _, y := range m.PredictValues(a.Names[i], valuesOf(a.Values, i)).Labels {
			bw.WriteString(m.Labels[y])
			bw.WriteByte('\n')
		}
		bw.WriteByte('\n')
		st.Sentences++
		st.Tokens += len(c.Sequences[i].Labels)
	}
	return st, bw.Flush()
}

// pickLayout returns the layout of n columns.
func pickLayout(layouts []inputLayout, n int, kind string) (*inputLayout, error) {
	want := make([]int, len(layouts))
	for i := range layouts {
		if layouts[i].n == n {
			return &layouts[i], nil
		}
		want[i] = layouts[i].n
	}
	if kind == FormatCora {
		return nil, fmt.Errorf("%d columns; a model trained on Cora text reads one token per line", n)
	}
	return nil, fmt.Errorf("%d columns; this model reads %v (bare tokens, or the training file's columns without or with the label)", n, want)
}

// appendLabel appends line, the separator and the label (in encoding enc)
// and a newline to dst.
func appendLabel(dst, line []byte, label string, enc datasets.TextEncoding) ([]byte, error) {
	dst = append(dst, line...)
	sep := byte(' ')
	if bytes.IndexByte(line, '\t') >= 0 {
		sep = '\t'
	}
	dst = append(dst, sep)
	dst, err := enc.Append(dst, label)
	if err != nil {
		return dst, err
	}
	return append(dst, '\n'), nil
}
