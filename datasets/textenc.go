package datasets

import (
	"fmt"
	"unicode/utf8"
)

// Decode returns the bytes of one line of a file in encoding e as a UTF-8
// string: Latin-1 bytes are their code points; UTF-8 (or an empty e) must
// be valid. Readers of column files other than [ParseCoNLL] (a tagger's
// input) decode lines with it, so that both read a file alike.
func (e TextEncoding) Decode(b []byte) (string, error) {
	switch e {
	case Latin1:
		return latin1ToString(b), nil
	case UTF8, "":
		if !utf8.Valid(b) {
			return "", fmt.Errorf("invalid UTF-8; declare the text encoding latin-1 if the file is ISO-8859-1")
		}
		return string(b), nil
	}
	return "", fmt.Errorf("unknown text encoding %q (known: utf-8, latin-1)", string(e))
}

// Append appends s to dst in encoding e: as it is for UTF-8, byte per code
// point for Latin-1, where a code point above U+00FF is an error.
func (e TextEncoding) Append(dst []byte, s string) ([]byte, error) {
	switch e {
	case UTF8, "":
		return append(dst, s...), nil
	case Latin1:
		for _, r := range s {
			if r > 0xFF {
				return dst, fmt.Errorf("%q has no Latin-1 encoding", r)
			}
			dst = append(dst, byte(r))
		}
		return dst, nil
	}
	return dst, fmt.Errorf("unknown text encoding %q (known: utf-8, latin-1)", string(e))
}

// Layout resolves the format's columns for a file of n columns (n is
// ignored when Columns are declared): the positions of the word and label
// columns and of the others in file order (the Sequence.Columns of
// [ParseCoNLL]), so that a reader of unlabelled text in the same layout
// finds the same columns.
func (f CoNLLFormat) Layout(n int) (word, label int, extras []int, err error) {
	l, err := f.layoutFor(n)
	if err != nil {
		return 0, 0, nil, err
	}
	return l.word, l.label, l.extras, nil
}
