package tagger

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/internal/readlimit"
)

// Formats of labelled files.
const (
	// FormatCoNLL is a column file: one token per line, columns separated
	// by spaces or tabs, a blank line after each sentence (CoNLL shared
	// tasks, CRFsuite's and most taggers' training files).
	FormatCoNLL = datasets.FormatCoNLL
	// FormatCora is McCallum's tagged citation text: a <NEWREFERENCE> line,
	// then the reference with its fields in <tag> ... </tag>.
	FormatCora = datasets.FormatCora
	// FormatCRFsuite is CRFsuite's attribute file (LABEL<TAB>ATTR[:VALUE]...,
	// a blank line after each sequence; datasets.ParseCRFsuite): the
	// attributes are the features (Given), so the file has no tokens.
	FormatCRFsuite = datasets.FormatCRFsuite
)

// Format is how a labelled file is laid out. A model stores the format of
// its training file, resolved, so that tagging reads the same columns and
// writes labels back in the file's own label encoding.
type Format struct {
	// Kind is FormatCoNLL, FormatCora or FormatCRFsuite; empty: Cora when
	// the first line that is not blank is <NEWREFERENCE>, else CoNLL (an
	// attribute file is never detected: it must be stated).
	Kind string `json:"kind"`
	// Columns names a column file's columns in file order: "word" marks the
	// tokens (else the first column) and "label" the labels (else the
	// last); the others are extra columns, kept for NER features. Empty:
	// as many as on the first token line, named word, c1, c2, ..., label.
	Columns []string `json:"columns,omitempty"`
	// Scheme is the label encoding (iob1, iob2, ioe1, ioe2, iobes, or none
	// for plain labels); empty: detected (of iob2, iob1, iobes,
	// ioe2 and ioe1, in this order of preference, the one that reads every
	// tag with the fewest broken rules; none if no encoding reads every tag).
	Scheme string `json:"label_encoding,omitempty"`
	// Charset is the text encoding, utf-8 (default) or latin-1.
	Charset string `json:"charset,omitempty"`
	// MaxLine bounds one line of a file read in this format, in bytes
	// (0: datasets.DefaultMaxLine). It is how a file is read, not what it
	// is, so a model file does not store it.
	MaxLine int `json:"-"`
}

// Data is a labelled corpus as read from a file, with its resolved format.
type Data struct {
	Corpus *datasets.Corpus
	Format Format
	// Repairs are the tags that broke the label encoding's rules and were
	// read as conlleval reads them (e.g. two in CoNLL-2003's eng.train).
	Repairs []*datasets.ParseError
	// Detection says how the label encoding was detected; nil when it was
	// given (or the file is Cora text).
	Detection *Detection
	// Attributes are an attribute file's attributes and values (format
	// crfsuite), by sequence and token; nil for other formats.
	Attributes *datasets.Attributes
}

// chunked reports whether the labels carry chunk prefixes (O, B-X, I-X),
// so that spans are conlleval's chunks.
func (f Format) chunked() bool {
	return f.Kind == FormatCoNLL && f.Scheme != string(datasets.Plain)
}

// conll returns the reading format of a resolved column-file Format.
func (f Format) conll() datasets.CoNLLFormat {
	return datasets.CoNLLFormat{Columns: f.Columns, Scheme: datasets.Scheme(f.Scheme), Encoding: datasets.TextEncoding(f.Charset), Repair: true, MaxLine: f.MaxLine}
}

// check validates a resolved format (one a model stores).
func (f Format) check() error {
	switch f.Kind {
	case FormatCora, FormatCRFsuite:
		if f.Scheme != string(datasets.Plain) || len(f.Columns) > 0 {
			return fmt.Errorf("format %s: plain labels and no columns, got label encoding %q, columns %v", f.Kind, f.Scheme, f.Columns)
		}
		return nil
	case FormatCoNLL:
		if _, _, _, err := f.conll().Layout(0); err != nil {
			return fmt.Errorf("format %s: %w", f.Kind, err)
		}
		if _, err := datasets.ParseScheme(f.Scheme); err != nil {
			return fmt.Errorf("format %s: %w", f.Kind, err)
		}
		if _, err := datasets.ParseTextEncoding(f.Charset); err != nil {
			return fmt.Errorf("format %s: %w", f.Kind, err)
		}
		return nil
	}
	return fmt.Errorf("unknown format %q (known: %s, %s, %s)", f.Kind, FormatCoNLL, FormatCora, FormatCRFsuite)
}

// ReadData reads a labelled file, gzip-compressed or not; see [ParseData].
func ReadData(path string, f Format) (*Data, error) {
	return ReadDataContext(context.Background(), path, f)
}

// ReadDataContext is [ReadData] that stops reading once ctx is done. The
// file is read as a stream, so a line over the format's line bound (see
// Format.MaxLine) or a file over readlimit.DataBytes (decompressed) is an
// error naming the bound as soon as it is seen.
func ReadDataContext(ctx context.Context, path string, f Format) (*Data, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read data: %w", err)
	}
	defer fh.Close()
	text, err := readAll(ctx, fh, filepath.Base(path), f.MaxLine)
	if err != nil {
		return nil, err
	}
	return parseText(text, filepath.Base(path), f)
}

// ParseData reads labelled sequences from r in format f (name names the
// file in errors, which carry its line: see [datasets.ParseError]). What f
// leaves empty is resolved from the file: the kind, a column file's
// columns, its label encoding. Tags that break the encoding's rules are
// read as conlleval reads them and returned as Data.Repairs.
func ParseData(r io.Reader, name string, f Format) (*Data, error) {
	text, err := readAll(context.Background(), r, name, f.MaxLine)
	if err != nil {
		return nil, err
	}
	return parseText(text, name, f)
}

// parseText is ParseData on a file's decompressed text.
func parseText(text []byte, name string, f Format) (*Data, error) {
	if f.Kind == "" {
		f.Kind = FormatCoNLL
		if looksLikeCora(text) {
			f.Kind = FormatCora
		}
	}
	switch f.Kind {
	case FormatCora:
		if len(f.Columns) > 0 || f.Scheme != "" && f.Scheme != string(datasets.Plain) || f.Charset != "" {
			return nil, fmt.Errorf("%s: Cora text has no columns, no label encoding and is UTF-8", name)
		}
		c, err := datasets.ParseCoraMaxLine(bytes.NewReader(text), name, f.MaxLine)
		if err != nil {
			return nil, err
		}
		return &Data{Corpus: c, Format: Format{Kind: FormatCora, Scheme: string(datasets.Plain), MaxLine: f.MaxLine}}, nil
	case FormatCoNLL:
		return parseCoNLL(text, name, f)
	case FormatCRFsuite:
		if len(f.Columns) > 0 || f.Scheme != "" && f.Scheme != string(datasets.Plain) || f.Charset != "" {
			return nil, fmt.Errorf("%s: an attribute file has no columns, no label encoding and is UTF-8", name)
		}
		c, a, err := datasets.ParseCRFsuite(bytes.NewReader(text), name)
		if err != nil {
			return nil, err
		}
		return &Data{Corpus: c, Attributes: a, Format: Format{Kind: FormatCRFsuite, Scheme: string(datasets.Plain), MaxLine: f.MaxLine}}, nil
	}
	return nil, fmt.Errorf("%s: unknown format %q (known: %s, %s, %s)", name, f.Kind, FormatCoNLL, FormatCora, FormatCRFsuite)
}

// parseCoNLL reads a column file, resolving its label encoding, text
// encoding and column names.
func parseCoNLL(text []byte, name string, f Format) (*Data, error) {
	if f.Charset == "" {
		f.Charset = string(datasets.UTF8)
	}
	enc, err := datasets.ParseTextEncoding(f.Charset)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.Charset = string(enc)
	var det *Detection
	if f.Scheme == "" {
		if det, err = detectScheme(text, name, f.conll()); err != nil {
			return nil, err
		}
		f.Scheme = string(det.Scheme)
	}
	sc, err := datasets.ParseScheme(f.Scheme)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.Scheme = string(sc)
	c, repairs, err := datasets.ParseCoNLL(bytes.NewReader(text), name, f.conll())
	if err != nil {
		return nil, err
	}
	if len(f.Columns) == 0 {
		extras := 0
		if len(c.Sequences) > 0 {
			extras = len(c.Sequences[0].Columns)
		}
		f.Columns = append(f.Columns, datasets.ColumnWord)
		for k := range extras {
			f.Columns = append(f.Columns, fmt.Sprintf("c%d", k+1))
		}
		f.Columns = append(f.Columns, datasets.ColumnLabel)
	}
	return &Data{Corpus: c, Format: f, Repairs: repairs, Detection: det}, nil
}

// readAll reads r whole, decompressing gzip and dropping a UTF-8
// byte-order mark at the start; a line over maxLine bytes (0: the
// default) or more than readlimit.DataBytes of text are errors as soon as
// they are read.
func readAll(ctx context.Context, r io.Reader, name string, maxLine int) ([]byte, error) {
	br := bufio.NewReader(r)
	var src io.Reader = br
	if b, _ := br.Peek(2); len(b) == 2 && b[0] == 0x1f && b[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		src = zr
	}
	b, err := readlimit.ReadAll(ctx, datasets.LineGuard(datasets.SkipBOM(src), name, maxLine), readlimit.DataBytes, 0)
	if err != nil {
		return nil, dataReadError(name, err)
	}
	return b, nil
}

// dataReadError names the file in a read error, and the bound in a
// readlimit.TooLargeError.
func dataReadError(name string, err error) error {
	var tl *readlimit.TooLargeError
	var pe *datasets.ParseError
	switch {
	case errors.As(err, &tl):
		tl.Name, tl.What = name, "data file (decompressed)"
		return tl
	case errors.As(err, &pe): // names the file and line already
		return err
	}
	return fmt.Errorf("%s: %w", name, err)
}

// looksLikeCora reports whether the first line that is not blank is Cora's
// reference separator.
func looksLikeCora(text []byte) bool {
	for line := range bytes.Lines(text) {
		if s := strings.TrimSpace(string(line)); s != "" {
			return s == "<NEWREFERENCE>"
		}
	}
	return false
}

// splitFields returns the fields of a line separated by ASCII spaces and
// tabs (a trailing CR or LF is dropped), as datasets.ParseCoNLL splits
// them: a Latin-1 or Unicode no-break space stays inside its token.
func splitFields(line string) []string {
	return strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' || r == '\n' })
}
