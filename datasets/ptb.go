package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// Bounds of the bracketed reader: input beyond them is refused with a
// *ParseError rather than read, so a malformed or hostile file cannot
// exhaust memory or the stack of the recursive code that walks trees.
const (
	// MaxBracketDepth is the deepest nesting of brackets a tree may have
	// (the WSJ's deepest is about 40).
	MaxBracketDepth = 500
	// MaxBracketNodes is the largest number of nodes (brackets and words)
	// in one tree.
	MaxBracketNodes = 1 << 16
	// MaxBracketAtom is the longest label or word, in bytes.
	MaxBracketAtom = 1 << 12
)

// PhraseNode is one node of a phrase-structure tree: a phrase (Label and
// Children), or a pre-terminal (Label is the part-of-speech tag, Word the
// word, no Children).
type PhraseNode struct {
	Label    string
	Word     string
	Children []*PhraseNode
}

// IsPreterminal reports whether n is a (TAG word) leaf.
func (n *PhraseNode) IsPreterminal() bool { return len(n.Children) == 0 }

// PhraseTree is one sentence of a bracketed treebank. Root is the single
// child of the file's outer unlabelled bracket (e.g. S).
type PhraseTree struct {
	ID   string // file:line of the tree's opening bracket
	Root *PhraseNode
}

// Leaves returns the pre-terminals of t from left to right.
func (t PhraseTree) Leaves() []*PhraseNode {
	var out []*PhraseNode
	var walk func(n *PhraseNode)
	walk = func(n *PhraseNode) {
		if n.IsPreterminal() {
			out = append(out, n)
			return
		}
		for _, c := range n.Children {
			walk(c)
		}
	}
	if t.Root != nil {
		walk(t.Root)
	}
	return out
}

// Words returns the words of t, and Tags their part-of-speech tags.
func (t PhraseTree) Words() []string {
	return leafField(t, func(n *PhraseNode) string { return n.Word })
}

// Tags returns the part-of-speech tags of t's words.
func (t PhraseTree) Tags() []string {
	return leafField(t, func(n *PhraseNode) string { return n.Label })
}

func leafField(t PhraseTree, f func(*PhraseNode) string) []string {
	ls := t.Leaves()
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = f(l)
	}
	return out
}

// LoadPhraseTrees reads a bracketed treebank file (gzip-compressed or
// not), or every *.mrg file of a directory in name order.
func LoadPhraseTrees(path string) ([]PhraseTree, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("load bracketed trees: %w", err)
	}
	files := []string{path}
	if st.IsDir() {
		if files, err = filepath.Glob(filepath.Join(path, "*.mrg")); err != nil {
			return nil, fmt.Errorf("load bracketed trees: %w", err)
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("load bracketed trees: no *.mrg file in %s", path)
		}
		slices.Sort(files)
	}
	var all []PhraseTree
	for _, f := range files {
		ts, err := loadPhraseFile(f)
		if err != nil {
			return nil, err
		}
		all = append(all, ts...)
	}
	return all, nil
}

func loadPhraseFile(path string) ([]PhraseTree, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load bracketed trees: %w", err)
	}
	defer fh.Close()
	r, err := maybeGunzip(fh, filepath.Base(path))
	if err != nil {
		return nil, err
	}
	return ReadPhraseTrees(r, filepath.Base(path))
}

// ReadPhraseTrees reads Penn Treebank bracketed trees (the .mrg form) from
// r; name is the file name used in errors and IDs. Each tree is either
// wrapped in an outer unlabelled bracket holding one labelled tree,
//
//	( (S (NP-SBJ (NNP Vinken)) (VP (VBZ is) ...) (. .)) )
//
// or a labelled bracket on its own. A bracket holds either one word (a
// pre-terminal, "(TAG word)") or one or more brackets; labels and words
// are any runs of characters other than whitespace and parentheses. The
// trees are returned as written: see [JohnsonPreprocess] for the usual
// clean-up. Errors are *ParseError with the line of the offending token.
func ReadPhraseTrees(r io.Reader, name string) ([]PhraseTree, error) {
	p := &bracketParser{r: bufio.NewReader(r), name: name, line: 1}
	var trees []PhraseTree
	for {
		t, err := p.tree()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		trees = append(trees, t)
	}
	if len(trees) == 0 {
		return nil, &ParseError{File: name, Msg: "no trees"}
	}
	return trees, nil
}

// token kinds of the bracketed format.
const (
	tokOpen = iota
	tokClose
	tokAtom
)

type bracketParser struct {
	r    *bufio.Reader
	name string
	line int
	// one token of look-ahead
	peeked  bool
	kind    int
	atom    string
	tokLine int
}

func (p *bracketParser) fail(line int, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Msg: fmt.Sprintf(format, args...)}
}

// next returns the next token; io.EOF at the end of input.
func (p *bracketParser) next() (kind int, atom string, line int, err error) {
	if p.peeked {
		p.peeked = false
		return p.kind, p.atom, p.tokLine, nil
	}
	var b strings.Builder
	for {
		c, err := p.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) && b.Len() > 0 {
				return tokAtom, b.String(), p.line, nil
			}
			if errors.Is(err, io.EOF) {
				return 0, "", p.line, io.EOF
			}
			return 0, "", p.line, &ParseError{File: p.name, Line: p.line, Msg: "read failed", Err: err}
		}
		switch c {
		case '(', ')':
			if b.Len() > 0 {
				if err := p.r.UnreadByte(); err != nil {
					return 0, "", p.line, err
				}
				return tokAtom, b.String(), p.line, nil
			}
			if c == '(' {
				return tokOpen, "", p.line, nil
			}
			return tokClose, "", p.line, nil
		case ' ', '\t', '\r', '\n', '\f', '\v':
			if b.Len() > 0 {
				if err := p.r.UnreadByte(); err != nil {
					return 0, "", p.line, err
				}
				return tokAtom, b.String(), p.line, nil
			}
			if c == '\n' {
				p.line++
			}
		default:
			if b.Len() >= MaxBracketAtom {
				return 0, "", p.line, p.fail(p.line, "a label or word longer than %d bytes", MaxBracketAtom)
			}
			b.WriteByte(c)
		}
	}
}

func (p *bracketParser) peek() (int, string, int, error) {
	k, a, l, err := p.next()
	if err == nil {
		p.peeked, p.kind, p.atom, p.tokLine = true, k, a, l
	}
	return k, a, l, err
}

// tree reads one top-level tree; io.EOF when only whitespace remains.
func (p *bracketParser) tree() (PhraseTree, error) {
	k, a, line, err := p.next()
	if err != nil {
		return PhraseTree{}, err
	}
	if k != tokOpen {
		if k == tokClose {
			return PhraseTree{}, p.fail(line, "unbalanced ')' outside a tree")
		}
		return PhraseTree{}, p.fail(line, "%q outside a tree: a tree starts with '('", a)
	}
	t := PhraseTree{ID: fmt.Sprintf("%s:%d", p.name, line)}
	k, _, _, err = p.peek()
	if err != nil {
		return t, p.eofIn(err, line)
	}
	nodes := 0
	if k == tokOpen { // the outer unlabelled bracket
		if t.Root, err = p.node(line, &nodes); err != nil {
			return t, err
		}
		k, _, l, err := p.next()
		if err != nil {
			return t, p.eofIn(err, line)
		}
		if k != tokClose {
			return t, p.fail(l, "the outer unlabelled bracket opened on line %d holds more than one tree", line)
		}
		return t, nil
	}
	if k == tokClose {
		return t, p.fail(line, "an empty bracket")
	}
	t.Root, err = p.body(line, &nodes)
	return t, err
}

func (p *bracketParser) eofIn(err error, open int) error {
	if errors.Is(err, io.EOF) {
		return p.fail(p.line, "input ends inside the tree opened on line %d (missing ')')", open)
	}
	return err
}

// node reads a bracket starting at '('.
func (p *bracketParser) node(top int, nodes *int) (*PhraseNode, error) {
	k, a, line, err := p.next()
	if err != nil {
		return nil, p.eofIn(err, top)
	}
	if k != tokOpen {
		return nil, p.fail(line, "%q where a bracket '(' was expected", a)
	}
	return p.body(top, nodes)
}

// body reads a bracket's label and contents up to its ')', without
// recursion so that depth costs no Go stack; the '(' has been read.
func (p *bracketParser) body(top int, nodes *int) (*PhraseNode, error) {
	type frame struct {
		n    *PhraseNode
		line int
	}
	var stack []frame
	open := func(line int) error {
		k, a, l, err := p.next()
		if err != nil {
			return p.eofIn(err, top)
		}
		if k != tokAtom {
			return p.fail(l, "a bracket without a label (only the outermost bracket may have none)")
		}
		if len(stack) >= MaxBracketDepth {
			return p.fail(l, "brackets nested deeper than %d", MaxBracketDepth)
		}
		if *nodes++; *nodes > MaxBracketNodes {
			return p.fail(l, "a tree of more than %d nodes", MaxBracketNodes)
		}
		stack = append(stack, frame{&PhraseNode{Label: a}, line})
		return nil
	}
	if err := open(p.line); err != nil {
		return nil, err
	}
	for {
		k, a, line, err := p.next()
		if err != nil {
			return nil, p.eofIn(err, top)
		}
		cur := &stack[len(stack)-1]
		switch k {
		case tokOpen:
			if cur.n.Word != "" {
				return nil, p.fail(line, "bracket %q holds both the word %q and a bracket", cur.n.Label, cur.n.Word)
			}
			if err := open(line); err != nil {
				return nil, err
			}
		case tokAtom:
			if cur.n.Word != "" || len(cur.n.Children) > 0 {
				return nil, p.fail(line, "bracket %q holds the word %q beside other content (a pre-terminal is (TAG word))", cur.n.Label, a)
			}
			cur.n.Word = a
		case tokClose:
			if cur.n.Word == "" && len(cur.n.Children) == 0 {
				return nil, p.fail(line, "bracket %q is empty", cur.n.Label)
			}
			done := cur.n
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return done, nil
			}
			parent := stack[len(stack)-1].n
			parent.Children = append(parent.Children, done)
		}
	}
}

// WritePhraseTrees writes trees in the Penn Treebank's bracketed form, one
// tree per line inside an outer unlabelled bracket: "( (S (NP (NNP
// Vinken)) ...) )". ReadPhraseTrees reads it back to the same trees.
func WritePhraseTrees(w io.Writer, trees []PhraseTree) error {
	bw := bufio.NewWriter(w)
	for _, t := range trees {
		if t.Root == nil {
			return fmt.Errorf("write bracketed trees: tree %s has no root", t.ID)
		}
		bw.WriteString("( ")
		if err := writePhraseNode(bw, t.Root, 0); err != nil {
			return fmt.Errorf("write bracketed trees: tree %s: %w", t.ID, err)
		}
		bw.WriteString(" )\n")
	}
	return bw.Flush()
}

func writePhraseNode(w *bufio.Writer, n *PhraseNode, depth int) error {
	if depth >= MaxBracketDepth {
		return fmt.Errorf("nested deeper than %d", MaxBracketDepth)
	}
	if !validAtom(n.Label) {
		return fmt.Errorf("label %q cannot be written (empty, or holds whitespace or a parenthesis)", n.Label)
	}
	w.WriteByte('(')
	w.WriteString(n.Label)
	if n.IsPreterminal() {
		if !validAtom(n.Word) {
			return fmt.Errorf("word %q under %q cannot be written", n.Word, n.Label)
		}
		w.WriteByte(' ')
		w.WriteString(n.Word)
	}
	for _, c := range n.Children {
		w.WriteByte(' ')
		if err := writePhraseNode(w, c, depth+1); err != nil {
			return err
		}
	}
	w.WriteByte(')')
	return nil
}

func validAtom(s string) bool {
	return s != "" && len(s) <= MaxBracketAtom && !strings.ContainsAny(s, "() \t\r\n\f\v")
}

// JohnsonPreprocess returns t cleaned up as Johnson (1999) does before
// reading a grammar off the Penn Treebank (t itself is not changed):
//
//   - empty elements, the pre-terminals tagged -NONE-, are deleted;
//   - function tags and indices are stripped from labels: a label is cut
//     at its first '-' or '=' past the first character (NP-SBJ-1 → NP,
//     PP-LOC=2 → PP), so labels that start with '-' (-LRB-, -RRB-, -NONE-)
//     stay whole;
//   - phrases left with no children are deleted, up the tree;
//   - a phrase whose only child is a phrase of the same label (what
//     deleting an empty sister often leaves: NP → NP) is merged with that
//     child, so no bracket is counted twice.
//
// ok is false when nothing is left (a tree of empty elements only). The
// length of the result in words is what length filters should use.
func JohnsonPreprocess(t PhraseTree) (out PhraseTree, ok bool) {
	out.ID = t.ID
	if t.Root == nil {
		return out, false
	}
	out.Root = johnsonNode(t.Root)
	return out, out.Root != nil
}

func johnsonNode(n *PhraseNode) *PhraseNode {
	if n.IsPreterminal() {
		if n.Label == "-NONE-" {
			return nil
		}
		return &PhraseNode{Label: StripFunctionTags(n.Label), Word: n.Word}
	}
	out := &PhraseNode{Label: StripFunctionTags(n.Label)}
	for _, c := range n.Children {
		if k := johnsonNode(c); k != nil {
			out.Children = append(out.Children, k)
		}
	}
	if len(out.Children) == 0 {
		return nil
	}
	if len(out.Children) == 1 && !out.Children[0].IsPreterminal() && out.Children[0].Label == out.Label {
		return out.Children[0]
	}
	return out
}

// StripFunctionTags cuts a Penn Treebank label at its first '-' or '='
// past the first character: NP-SBJ-1 → NP, S-TPC=2 → S, -LRB- → -LRB-.
func StripFunctionTags(label string) string {
	if strings.HasPrefix(label, "-") {
		return label
	}
	if i := strings.IndexAny(label[min(1, len(label)):], "-="); i >= 0 {
		return label[:i+1]
	}
	return label
}

// PreprocessPhraseTrees returns the trees left by [JohnsonPreprocess], in
// order, keeping those of at most maxWords words (0: all).
func PreprocessPhraseTrees(raw []PhraseTree, maxWords int) []PhraseTree {
	var out []PhraseTree
	for _, r := range raw {
		if p, ok := JohnsonPreprocess(r); ok && (maxWords == 0 || len(p.Leaves()) <= maxWords) {
			out = append(out, p)
		}
	}
	return out
}

// PhraseCorpus makes trees a corpus of their sentences: tokens the words,
// labels the part-of-speech tags (label list sorted).
func PhraseCorpus(name string, trees []PhraseTree) *Corpus {
	var tags []string
	for _, t := range trees {
		tags = append(tags, t.Tags()...)
	}
	slices.Sort(tags)
	tags = slices.Compact(tags)
	c := &Corpus{Name: name, Labels: tags}
	for _, t := range trees {
		s := structpred.Sequence{ID: t.ID, Tokens: t.Words()}
		for _, tag := range t.Tags() {
			y, _ := slices.BinarySearch(tags, tag)
			s.Labels = append(s.Labels, y)
		}
		c.Sequences = append(c.Sequences, s)
	}
	return c
}
