package datasets

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// Tree is one sentence of a dependency treebank. Words are numbered from
// 1; slices are indexed by word number minus one, except Heads, which
// follows decoders/mst: Heads[0] = -1 (the root) and Heads[d] is the head
// of word d (0 = the root).
type Tree struct {
	ID     string // file:line of the sentence's first line
	Words  []string
	Lemmas []string
	CPOS   []string // coarse tags (CoNLL-X CPOSTAG, CoNLL-U UPOS)
	POS    []string // fine tags (CoNLL-X POSTAG, CoNLL-U XPOS; UPOS where it is "_")
	Heads  []int
	Rels   []string
	// rows are the sentence's token lines as read (for writing back), and
	// extra the lines [comments, multiword tokens, empty nodes] kept
	// verbatim before the row they preceded.
	rows  [][]string
	extra map[int][]string
}

// Treebank is a dependency treebank read by [ReadTreebank].
type Treebank struct {
	Name  string
	Trees []Tree
}

// LoadTreebank reads a CoNLL-X or CoNLL-U file, gzip-compressed or not.
func LoadTreebank(path string) (*Treebank, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load treebank: %w", err)
	}
	defer fh.Close()
	r, err := maybeGunzip(fh, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return ReadTreebank(r, filepath.Base(path))
}

// ReadTreebank reads a CoNLL-X or CoNLL-U treebank from r; name is the file
// name used in errors. One word per line in 10 tab-separated columns (ID,
// FORM, LEMMA, CPOS/UPOS, POS/XPOS, FEATS, HEAD, DEPREL, and two more), a
// blank line after each sentence. Comment lines (#), CoNLL-U multiword
// token ranges (1-2) and empty nodes (1.1) are skipped for parsing and
// kept for [WriteTreebank]. A line with another number of columns, an ID
// out of sequence, a HEAD that is not a word of the sentence, and heads
// that do not form a tree rooted at 0 (a cycle) are errors with file and
// line.
func ReadTreebank(r io.Reader, name string) (*Treebank, error) {
	return readTreebank(r, name, false)
}

// ReadUnparsed reads a CoNLL-X or CoNLL-U text to be parsed, as
// [ReadTreebank] does, but HEAD may be "_" (unknown; read as -1), and a
// sentence with an unknown head is not checked to be a tree.
func ReadUnparsed(r io.Reader, name string) (*Treebank, error) {
	return readTreebank(r, name, true)
}

// TreeSequence is a tree as a corpus holds it: its words, their heads as
// labels (word d's at d-1, 0 for the root) and two columns, the fine tags
// and the coarse tags.
func TreeSequence(t Tree) structpred.Sequence {
	return structpred.Sequence{ID: t.ID, Tokens: t.Words, Labels: t.Heads[1:], Columns: [][]string{t.POS, t.CPOS}}
}

// readTreebank reads a treebank; unparsed allows unknown heads.
func readTreebank(r io.Reader, name string, unparsed bool) (*Treebank, error) {
	sc, limit := newLineScanner(r, TreebankMaxLine)
	tb := &Treebank{Name: name}
	var cur *Tree
	var pending []string
	headLines := []int{}
	line := 0
	fail := func(l int, field, format string, args ...any) error {
		return &ParseError{File: name, Line: l, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	finish := func() error {
		if cur == nil {
			return nil
		}
		for d := 1; d < len(cur.Heads); d++ {
			if h := cur.Heads[d]; h > len(cur.Words) {
				return fail(headLines[d-1], "HEAD", "head %d of word %d: the sentence has %d words", h, d, len(cur.Words))
			}
		}
		// A sentence with unknown heads is no tree yet: the parser fills
		// them in.
		if known := !unparsed || !slices.Contains(cur.Heads[1:], -1); known {
			if err := structpred.CheckTree(cur.Heads); err != nil {
				return fail(headLines[0], "HEAD", "the heads of this sentence do not form a tree: %v", err)
			}
		}
		if len(pending) > 0 {
			cur.extra[len(cur.rows)] = pending
			pending = nil
		}
		tb.Trees = append(tb.Trees, *cur)
		cur, headLines = nil, headLines[:0]
		return nil
	}
	for sc.Scan() {
		line++
		text := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(text) == "" {
			if err := finish(); err != nil {
				return nil, err
			}
			continue
		}
		if strings.HasPrefix(text, "#") {
			pending = append(pending, text)
			continue
		}
		cols := strings.Split(text, "\t")
		if len(cols) != 10 {
			return nil, fail(line, "", "%d tab-separated columns, want 10 (ID FORM LEMMA CPOS POS FEATS HEAD DEPREL PHEAD PDEPREL)", len(cols))
		}
		if strings.ContainsAny(cols[0], "-.") { // multiword token or empty node
			pending = append(pending, text)
			continue
		}
		if cur == nil {
			cur = &Tree{ID: fmt.Sprintf("%s:%d", name, line), Heads: []int{-1}, extra: map[int][]string{}}
		}
		id, err := strconv.Atoi(cols[0])
		if err != nil || id != len(cur.Words)+1 {
			return nil, fail(line, "ID", "%q, want %d (words numbered from 1 in order)", cols[0], len(cur.Words)+1)
		}
		head, err := strconv.Atoi(cols[6])
		if unparsed && cols[6] == "_" {
			head, err = -1, nil
		} else if err != nil || head < 0 {
			return nil, fail(line, "HEAD", "%q is not a word number (0 = root)", cols[6])
		}
		if head == id {
			return nil, fail(line, "HEAD", "word %d is its own head", id)
		}
		if len(pending) > 0 {
			cur.extra[len(cur.rows)] = pending
			pending = nil
		}
		pos := cols[4]
		if pos == "_" {
			pos = cols[3]
		}
		cur.Words = append(cur.Words, cols[1])
		cur.Lemmas = append(cur.Lemmas, cols[2])
		cur.CPOS = append(cur.CPOS, cols[3])
		cur.POS = append(cur.POS, pos)
		cur.Heads = append(cur.Heads, head)
		cur.Rels = append(cur.Rels, cols[7])
		cur.rows = append(cur.rows, cols)
		headLines = append(headLines, line)
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, line+1, err, limit)
	}
	if err := finish(); err != nil {
		return nil, err
	}
	if len(tb.Trees) == 0 {
		return nil, fail(0, "", "no sentences")
	}
	return tb, nil
}

// WriteTreebank writes tb in the format it was read in, with each
// sentence's heads replaced by heads[s] (Heads layout: heads[s][d] for word
// d ≥ 1); every other column, comment and skipped line is written as read.
// heads nil writes the heads read.
func WriteTreebank(w io.Writer, tb *Treebank, heads [][]int) error {
	bw := bufio.NewWriter(w)
	for s, t := range tb.Trees {
		if heads != nil && len(heads[s]) != len(t.Heads) {
			return fmt.Errorf("sentence %s: %d heads for %d words", t.ID, len(heads[s])-1, len(t.Words))
		}
		for i, row := range t.rows {
			for _, x := range t.extra[i] {
				fmt.Fprintln(bw, x)
			}
			cols := row
			if heads != nil {
				cols = append([]string(nil), row...)
				cols[6] = strconv.Itoa(heads[s][i+1])
			}
			fmt.Fprintln(bw, strings.Join(cols, "\t"))
		}
		for _, x := range t.extra[len(t.rows)] {
			fmt.Fprintln(bw, x)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}
