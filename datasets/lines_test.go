package datasets

import (
	"errors"
	"strings"
	"testing"
)

// Every line-based reader drops a UTF-8 byte-order mark at the start of a
// file (kept, it would become part of the first word), and refuses a line
// over its bound with the file, the line and the bound.
func TestReadersSkipBOMAndBoundLines(t *testing.T) {
	t.Parallel()
	const bom = "\xEF\xBB\xBF"
	conll := func(text string, maxLine int) (string, error) {
		c, _, err := ParseCoNLL(strings.NewReader(text), "f.txt", CoNLLFormat{Scheme: IOB2, MaxLine: maxLine})
		if err != nil {
			return "", err
		}
		return c.Sequences[0].Tokens[0], nil
	}
	cora := func(text string, maxLine int) (string, error) {
		c, err := ParseCoraMaxLine(strings.NewReader(text), "f.txt", maxLine)
		if err != nil {
			return "", err
		}
		return c.Sequences[0].Tokens[0], nil
	}
	crfsuite := func(text string, _ int) (string, error) {
		raw, err := readCRFsuite(strings.NewReader(text), "f.txt")
		if err != nil {
			return "", err
		}
		return raw.seqs[0].labels[0], nil
	}
	treebank := func(text string, _ int) (string, error) {
		tb, err := ReadTreebank(strings.NewReader(text), "f.txt")
		if err != nil {
			return "", err
		}
		return tb.Trees[0].Words[0], nil
	}
	long := strings.Repeat("x", DefaultMaxLine+1)
	for _, tc := range []struct {
		name    string
		read    func(string, int) (string, error)
		text    string
		maxLine int
		first   string // the first token (or label) read
		err     string
	}{
		{"conll BOM", conll, bom + "EU B-ORG\nsays O\n", 0, "EU", ""},
		{"conll BOM-like word later", conll, "EU B-ORG\n" + bom + "x O\n", 0, "EU", ""},
		{"cora BOM", cora, bom + "<NEWREFERENCE>\n<author> A. Smith </author>\n", 0, "A.", ""},
		{"crfsuite BOM", crfsuite, bom + "B-ORG\tw=EU\n", 0, "B-ORG", ""},
		{"treebank BOM", treebank, bom + "1\tHon\thon\tPRON\tPN\t_\t0\troot\t_\t_\n", 0, "Hon", ""},
		{"conll long line", conll, "EU B-ORG\n" + long + " O\n", 0, "", "f.txt:2: line too long: over the 1 MiB bound on one line"},
		{"conll long line, bound raised", conll, "EU B-ORG\n" + long + " O\n", 2 << 20, "EU", ""},
		{"conll line over a lowered bound", conll, "EU B-ORG\n", 4, "", "f.txt:1: line too long: over the 4 bytes bound on one line"},
		{"cora long line", cora, "<NEWREFERENCE>\n" + long + "\n", 0, "", "f.txt:2: line too long: over the 1 MiB bound"},
		{"crfsuite long line", crfsuite, "O\tw=" + long + "\n", 0, "", "f.txt:1: line too long: over the 1 MiB bound"},
		{"crfsuite keeps refusing CR", crfsuite, "O\tw=a\r\n", 0, "", "f.txt:1: carriage return"},
	} {
		first, err := tc.read(tc.text, tc.maxLine)
		switch {
		case tc.err == "" && (err != nil || first != tc.first):
			t.Errorf("%s: first %q, %v; want %q", tc.name, first, err, tc.first)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.err)
		}
		var tl *LineTooLongError
		if strings.Contains(tc.err, "too long") && !errors.As(err, &tl) {
			t.Errorf("%s: %v is no LineTooLongError", tc.name, err)
		}
	}
}
