package datasets

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/maxmargin/repro/structpred"
)

// TextEncoding is the character encoding of a column file.
type TextEncoding string

// The text encodings [ParseTextEncoding] accepts.
const (
	UTF8   TextEncoding = "utf-8"
	Latin1 TextEncoding = "latin-1" // ISO-8859-1, as in the CoNLL-2002 Spanish files
)

// ParseTextEncoding returns the encoding named s (case-insensitive): utf-8
// (or utf8) or latin-1 (or latin1, iso-8859-1).
func ParseTextEncoding(s string) (TextEncoding, error) {
	switch strings.ToLower(s) {
	case "utf-8", "utf8":
		return UTF8, nil
	case "latin-1", "latin1", "iso-8859-1":
		return Latin1, nil
	}
	return "", fmt.Errorf("unknown text encoding %q (known: utf-8, latin-1)", s)
}

// Column names with a meaning in [CoNLLFormat.Columns].
const (
	ColumnWord  = "word"
	ColumnLabel = "label"
)

// DocStart is the word of a document-start line. Such a line is not a token;
// the columns after it are ignored when read and written as "-X-" (the
// label as "O").
const DocStart = "-DOCSTART-"

// CoNLLFormat declares how to read and write a column file.
type CoNLLFormat struct {
	// Columns names the columns in file order. The column named "word" holds
	// the tokens (the first column if none is so named) and the one named
	// "label" the tags (the last column if none is). Every other column is
	// kept verbatim in Sequence.Columns, in this order. Empty: the number of
	// columns is taken from the first token line, the first is the word and
	// the last the label.
	Columns []string
	// Scheme is the label encoding of the label column; it must be set.
	Scheme Scheme
	// Encoding is the file's text encoding; empty means UTF-8.
	Encoding TextEncoding
	// Types, if set, fixes the chunk types (for Plain, the labels) and their
	// order; a tag of another type is an error. Empty: the types found in
	// the file, sorted.
	Types []string
	// Repair reads tags that break the scheme's rules as conlleval does
	// (see [Scheme]) and returns them as repairs instead of failing.
	Repair bool
	// MaxLine bounds one line in bytes; 0: [DefaultMaxLine].
	MaxLine int
}

// layout is a resolved CoNLLFormat.Columns for files of n columns.
type layout struct {
	n, word, label int
	extras         []int // the other columns, in order
}

// layoutFor resolves the format's columns for a file whose first token line
// has n columns.
func (f CoNLLFormat) layoutFor(n int) (layout, error) {
	if len(f.Columns) > 0 {
		n = len(f.Columns)
	}
	if n < 2 {
		return layout{}, fmt.Errorf("%d column(s): a column file needs at least a word and a label column", n)
	}
	l := layout{n: n, word: 0, label: n - 1}
	seen := make(map[string]bool, len(f.Columns))
	for i, name := range f.Columns {
		switch {
		case name == "":
			return layout{}, fmt.Errorf("column %d has no name", i+1)
		case seen[name]:
			return layout{}, fmt.Errorf("column %q declared twice", name)
		case name == ColumnWord:
			l.word = i
		case name == ColumnLabel:
			l.label = i
		}
		seen[name] = true
	}
	if l.word == l.label {
		return layout{}, fmt.Errorf("columns %v: the word and label columns are both column %d", f.Columns, l.word+1)
	}
	for i := range n {
		if i != l.word && i != l.label {
			l.extras = append(l.extras, i)
		}
	}
	return l, nil
}

// names returns the column names for messages.
func (f CoNLLFormat) names() string {
	if len(f.Columns) > 0 {
		return strings.Join(f.Columns, " ")
	}
	return "as many as on the first token line"
}

// ExtraColumns returns the names of the declared columns other than word
// and label: the names of Sequence.Columns, in order.
func (f CoNLLFormat) ExtraColumns() []string {
	l, err := f.layoutFor(len(f.Columns))
	if err != nil || len(f.Columns) == 0 {
		return nil
	}
	out := make([]string, len(l.extras))
	for k, i := range l.extras {
		out[k] = f.Columns[i]
	}
	return out
}

// check validates the parts of f that do not depend on the file.
func (f CoNLLFormat) check() error {
	if f.Scheme == "" {
		return errors.New("no label encoding declared (iob1, iob2, ioe1, ioe2, iobes or none)")
	}
	if _, err := ParseScheme(string(f.Scheme)); err != nil {
		return err
	}
	if f.Encoding != "" && f.Encoding != UTF8 && f.Encoding != Latin1 {
		return fmt.Errorf("unknown text encoding %q (known: utf-8, latin-1)", f.Encoding)
	}
	if len(f.Columns) > 0 {
		if _, err := f.layoutFor(0); err != nil {
			return err
		}
	}
	return nil
}

// LoadCoNLL reads a column file, gzip-compressed or not; see [ParseCoNLL].
func LoadCoNLL(path string, f CoNLLFormat) (*Corpus, []*ParseError, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("load conll: %w", err)
	}
	defer fh.Close()
	r, err := maybeGunzip(fh, filepath.Base(path))
	if err != nil {
		return nil, nil, err
	}
	return ParseCoNLL(r, filepath.Base(path), f)
}

// ParseCoNLL reads a CoNLL column file from r; name is the file name used in
// errors and sequence IDs.
//
// One token per line, columns separated by spaces or tabs (a CR before the
// LF is dropped), a blank line after each sentence. A line whose first
// column is [DocStart] starts a document (Sequence.Doc counts them) and must
// not interrupt a sentence. Sequence i gets ID "<name>-<i>", the line of its
// first token, the tokens, the extra columns and its labels.
//
// Labels: for a chunk scheme, the corpus labels are "O" then "B-T", "I-T"
// for each type T (sorted, or as in f.Types), so every chunk reads as B-T
// I-T … whatever the file's scheme, and each chunk is one segment, labelled
// with its B-T label. Segments therefore do not tile a sentence (O tokens
// are in none). For [Plain], labels are the tags themselves and the
// segments are their maximal runs, as for Cora.
//
// Errors are [*ParseError]s with the file and line: a line with the wrong
// number of columns, a tag that is not O or a prefix of the scheme, a tag
// the scheme forbids there (unless f.Repair; the repairs are returned, each
// the error a strict read would have raised), a type outside f.Types,
// invalid UTF-8 in a UTF-8 file, and a file with no sentences.
func ParseCoNLL(r io.Reader, name string, f CoNLLFormat) (*Corpus, []*ParseError, error) {
	if err := f.check(); err != nil {
		return nil, nil, &ParseError{File: name, Msg: "format", Err: err}
	}
	p := &conllParser{name: name, f: f, types: newTypeIndex(f.Types)}
	if err := p.read(r); err != nil {
		return nil, nil, err
	}
	if len(p.sents) == 0 {
		return nil, nil, &ParseError{File: name, Line: p.lineNo, Msg: "no sentences: the file is empty"}
	}
	return p.corpus(), p.repairs, nil
}

// typeIndex numbers chunk types (or plain labels) as they are met, or
// checks them against a fixed list.
type typeIndex struct {
	ids   map[string]int
	names []string
	fixed bool
}

func newTypeIndex(fixed []string) *typeIndex {
	ti := &typeIndex{ids: make(map[string]int, len(fixed)), fixed: len(fixed) > 0}
	for _, t := range fixed {
		if _, dup := ti.ids[t]; !dup {
			ti.ids[t] = len(ti.names)
			ti.names = append(ti.names, t)
		}
	}
	return ti
}

func (ti *typeIndex) id(t string) (int, error) {
	if id, ok := ti.ids[t]; ok {
		return id, nil
	}
	if ti.fixed {
		return 0, fmt.Errorf("type %q is not among the declared types %v", t, ti.names)
	}
	ti.ids[t] = len(ti.names)
	ti.names = append(ti.names, t)
	return ti.ids[t], nil
}

// order returns the final type order and the map from met ids to it: sorted
// unless the types were declared.
func (ti *typeIndex) order() ([]string, []int) {
	names := slices.Clone(ti.names)
	if !ti.fixed {
		slices.Sort(names)
	}
	remap := make([]int, len(ti.names))
	for i, n := range names {
		remap[ti.ids[n]] = i
	}
	return names, remap
}

// sentence is one sentence as read, before the final label ids are known.
type sentence struct {
	line, doc int
	tokens    []string
	extras    [][]string
	chunks    []chunkID // chunk schemes
	plain     []int     // Plain: met label id per token
}

type chunkID struct{ start, end, typ int }

// conllParser holds the state of one ParseCoNLL call.
type conllParser struct {
	name    string
	f       CoNLLFormat
	lay     layout
	laid    bool
	types   *typeIndex
	sents   []sentence
	repairs []*ParseError
	lineNo  int
	doc     int

	// the sentence being read
	cur   sentence
	tags  []string
	lines []int
}

func (p *conllParser) fail(line int, field, format string, args ...any) error {
	return &ParseError{File: p.name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
}

func (p *conllParser) read(r io.Reader) error {
	sc, limit := newLineScanner(r, p.f.MaxLine)
	var fields []string
	for sc.Scan() {
		p.lineNo++
		line, err := p.decodeLine(sc.Bytes())
		if err != nil {
			return err
		}
		fields = splitColumns(line, fields[:0])
		switch {
		case len(fields) == 0:
			if err := p.endSentence(); err != nil {
				return err
			}
		case fields[0] == DocStart:
			if len(p.tags) > 0 {
				return p.fail(p.lineNo, "", "%s inside a sentence (no blank line before it)", DocStart)
			}
			p.doc++
		default:
			if err := p.addToken(fields); err != nil {
				return err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return scanError(p.name, p.lineNo+1, err, limit)
	}
	return p.endSentence()
}

// decodeLine returns the line as a string in UTF-8, without a trailing CR.
func (p *conllParser) decodeLine(b []byte) (string, error) {
	if n := len(b); n > 0 && b[n-1] == '\r' {
		b = b[:n-1]
	}
	if p.f.Encoding == Latin1 {
		return latin1ToString(b), nil
	}
	if !utf8.Valid(b) {
		bad := 0
		for bad < len(b) {
			r, size := utf8.DecodeRune(b[bad:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			bad += size
		}
		return "", p.fail(p.lineNo, "", "invalid UTF-8 at byte %d (0x%02x); declare encoding latin-1 if the file is ISO-8859-1", bad+1, b[bad])
	}
	return string(b), nil
}

// latin1ToString decodes ISO-8859-1 bytes: each byte is the code point.
func latin1ToString(b []byte) string {
	ascii := true
	for _, c := range b {
		if c >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return string(b)
	}
	var sb strings.Builder
	sb.Grow(len(b) + len(b)/8)
	for _, c := range b {
		sb.WriteRune(rune(c))
	}
	return sb.String()
}

// splitColumns appends the space- or tab-separated fields of line to dst.
// Only ASCII space and tab separate, so that a Latin-1 no-break space (0xA0)
// stays inside its token.
func splitColumns(line string, dst []string) []string {
	for i := 0; i < len(line); {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		j := i
		for j < len(line) && line[j] != ' ' && line[j] != '\t' {
			j++
		}
		if j > i {
			dst = append(dst, line[i:j])
		}
		i = j
	}
	return dst
}

func (p *conllParser) addToken(fields []string) error {
	if !p.laid {
		l, err := p.f.layoutFor(len(fields))
		if err != nil {
			return p.fail(p.lineNo, "", "%v", err)
		}
		p.lay, p.laid = l, true
		p.cur.extras = make([][]string, len(l.extras))
	}
	if len(fields) != p.lay.n {
		return p.fail(p.lineNo, "", "%d columns, want %d (%s)", len(fields), p.lay.n, p.f.names())
	}
	if len(p.tags) == 0 {
		p.cur.line, p.cur.doc = p.lineNo, p.doc
	}
	p.cur.tokens = append(p.cur.tokens, fields[p.lay.word])
	for k, i := range p.lay.extras {
		p.cur.extras[k] = append(p.cur.extras[k], fields[i])
	}
	p.tags = append(p.tags, fields[p.lay.label])
	p.lines = append(p.lines, p.lineNo)
	return nil
}

// endSentence decodes the labels of the sentence read so far and stores it.
func (p *conllParser) endSentence() error {
	if len(p.tags) == 0 {
		return nil
	}
	if err := p.decodeTags(); err != nil {
		return err
	}
	s := p.cur
	s.tokens = slices.Clip(s.tokens)
	for k := range s.extras {
		s.extras[k] = slices.Clip(s.extras[k])
	}
	p.sents = append(p.sents, s)
	p.cur = sentence{extras: make([][]string, len(p.lay.extras))}
	p.tags, p.lines = p.tags[:0], p.lines[:0]
	return nil
}

func (p *conllParser) decodeTags() error {
	if p.f.Scheme == Plain {
		p.cur.plain = make([]int, len(p.tags))
		for t, tag := range p.tags {
			id, err := p.types.id(tag)
			if err != nil {
				return p.fail(p.lines[t], ColumnLabel, "%v", err)
			}
			p.cur.plain[t] = id
		}
		return nil
	}
	for t, tag := range p.tags { // first, so that the error names the line
		if _, err := p.f.Scheme.splitTag(tag); err != nil {
			return p.fail(p.lines[t], ColumnLabel, "%v", err)
		}
	}
	chunks, bad, err := p.f.Scheme.Decode(p.tags)
	if err != nil {
		return p.fail(p.cur.line, ColumnLabel, "%v", err)
	}
	for _, v := range bad {
		e := p.fail(p.lines[v.Pos], ColumnLabel, "%s", v.Msg).(*ParseError)
		if !p.f.Repair {
			return e
		}
		p.repairs = append(p.repairs, e)
	}
	p.cur.chunks = make([]chunkID, len(chunks))
	for k, c := range chunks {
		id, err := p.types.id(c.Type)
		if err != nil {
			return p.fail(p.lines[c.Start], ColumnLabel, "%v", err)
		}
		p.cur.chunks[k] = chunkID{c.Start, c.End, id}
	}
	return nil
}

// corpus builds the corpus once every type is known.
func (p *conllParser) corpus() *Corpus {
	types, remap := p.types.order()
	c := &Corpus{Name: "conll", Labels: types, Sequences: make([]structpred.Sequence, len(p.sents))}
	if p.f.Scheme != Plain {
		c.Labels = BIOLabels(types)
	}
	for i, s := range p.sents {
		seq := structpred.Sequence{
			ID: fmt.Sprintf("%s-%d", p.name, i), Line: s.line, Doc: s.doc,
			Tokens: s.tokens, Labels: make([]int, len(s.tokens)),
		}
		if len(s.extras) > 0 {
			seq.Columns = s.extras
		}
		if p.f.Scheme == Plain {
			for t, id := range s.plain {
				seq.Labels[t] = remap[id]
			}
			seq.Segments = structpred.SegmentsFromLabels(seq.Labels)
		} else {
			seq.Segments = make([]structpred.Segment, len(s.chunks))
			for k, ch := range s.chunks {
				b := 1 + 2*remap[ch.typ]
				seq.Labels[ch.start] = b
				for t := ch.start + 1; t < ch.end; t++ {
					seq.Labels[t] = b + 1
				}
				seq.Segments[k] = structpred.Segment{Start: ch.start, End: ch.end, Label: b}
			}
		}
		c.Sequences[i] = seq
	}
	return c
}

// BIOLabels returns the internal label list of a chunk corpus: "O", then
// "B-T" and "I-T" for each type T in order, so that type k has labels 2k+1
// and 2k+2.
func BIOLabels(types []string) []string {
	out := make([]string, 0, 1+2*len(types))
	out = append(out, "O")
	for _, t := range types {
		out = append(out, "B-"+t, "I-"+t)
	}
	return out
}

// WriteCoNLL writes c as a column file in f's columns, scheme and encoding:
// the inverse of [ParseCoNLL] for a corpus it read. Columns are separated by
// one space; every sentence is followed by a blank line, and a sentence
// whose Doc exceeds its predecessor's (0 before the first) is preceded by
// that many document-start lines, each followed by a blank line. For a chunk
// scheme the labels must be the internal ones ("O", "B-T", "I-T"; see
// [BIOLabels]) and the chunks are re-encoded in f.Scheme.
func WriteCoNLL(w io.Writer, c *Corpus, f CoNLLFormat) error {
	if err := f.check(); err != nil {
		return fmt.Errorf("write conll: %w", err)
	}
	bw := bufio.NewWriter(w)
	doc := 0
	for _, s := range c.Sequences {
		l, err := f.layoutFor(2 + len(s.Columns))
		if err != nil {
			return fmt.Errorf("write conll: sequence %s: %w", s.ID, err)
		}
		if l.n != 2+len(s.Columns) {
			return fmt.Errorf("write conll: sequence %s has %d extra columns, the format %d", s.ID, len(s.Columns), l.n-2)
		}
		tags, err := outputTags(c, s, f.Scheme)
		if err != nil {
			return fmt.Errorf("write conll: sequence %s: %w", s.ID, err)
		}
		for ; doc < s.Doc; doc++ {
			if err := writeRow(bw, docStartRow(l), f.Encoding); err != nil {
				return fmt.Errorf("write conll: %w", err)
			}
			bw.WriteByte('\n')
		}
		row := make([]string, l.n)
		for t, tok := range s.Tokens {
			row[l.word], row[l.label] = tok, tags[t]
			for k, i := range l.extras {
				row[i] = s.Columns[k][t]
			}
			if err := writeRow(bw, row, f.Encoding); err != nil {
				return fmt.Errorf("write conll: sequence %s token %d: %w", s.ID, t, err)
			}
		}
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write conll: %w", err)
	}
	return nil
}

// outputTags returns the tags of s in scheme sc.
func outputTags(c *Corpus, s structpred.Sequence, sc Scheme) ([]string, error) {
	names := make([]string, len(s.Labels))
	for t, id := range s.Labels {
		if id < 0 || id >= len(c.Labels) {
			return nil, fmt.Errorf("label %d outside the %d labels", id, len(c.Labels))
		}
		names[t] = c.Labels[id]
	}
	if sc == Plain {
		return names, nil
	}
	return ConvertTags(names, IOB2, sc)
}

// docStartRow is the row of a document-start line in layout l.
func docStartRow(l layout) []string {
	row := make([]string, l.n)
	for i := range row {
		row[i] = "-X-"
	}
	row[0], row[l.label] = DocStart, "O"
	return row
}

// writeRow writes the fields separated by spaces and a newline, in enc.
func writeRow(w *bufio.Writer, fields []string, enc TextEncoding) error {
	for i, s := range fields {
		if i > 0 {
			w.WriteByte(' ')
		}
		if strings.ContainsAny(s, " \t\n") || s == "" {
			return fmt.Errorf("field %q is empty or holds a separator", s)
		}
		if enc != Latin1 {
			w.WriteString(s)
			continue
		}
		for _, r := range s {
			if r > 0xFF {
				return fmt.Errorf("field %q: %q has no Latin-1 encoding", s, r)
			}
			w.WriteByte(byte(r))
		}
	}
	return w.WriteByte('\n')
}

// LoadCoNLLFiles reads several files of one corpus (train, development,
// test) with [LoadCoNLL] and gives them one label list, so that a label id
// means the same in all of them: f.Types if set, else the union of the
// files' types (or plain labels), sorted. Repairs of all files are returned
// in file order.
func LoadCoNLLFiles(paths []string, f CoNLLFormat) ([]*Corpus, []*ParseError, error) {
	out := make([]*Corpus, len(paths))
	var repairs []*ParseError
	for i, path := range paths {
		c, rep, err := LoadCoNLL(path, f)
		if err != nil {
			return nil, nil, err
		}
		out[i], repairs = c, append(repairs, rep...)
	}
	if len(f.Types) == 0 {
		unifyLabels(out, f.Scheme)
	}
	return out, repairs, nil
}

// unifyLabels relabels the corpora onto the union of their labels.
func unifyLabels(cs []*Corpus, sc Scheme) {
	var union []string
	for _, c := range cs {
		for _, l := range c.Labels {
			if sc != Plain {
				if rest, ok := strings.CutPrefix(l, "B-"); ok {
					union = append(union, rest)
				}
				continue
			}
			union = append(union, l)
		}
	}
	slices.Sort(union)
	union = slices.Compact(union)
	labels := union
	if sc != Plain {
		labels = BIOLabels(union)
	}
	ids := make(map[string]int, len(labels))
	for i, l := range labels {
		ids[l] = i
	}
	for _, c := range cs {
		remap := make([]int, len(c.Labels))
		for i, l := range c.Labels {
			remap[i] = ids[l]
		}
		for i := range c.Sequences {
			s := &c.Sequences[i]
			for t, id := range s.Labels {
				s.Labels[t] = remap[id]
			}
			for k := range s.Segments {
				s.Segments[k].Label = remap[s.Segments[k].Label]
			}
		}
		c.Labels = slices.Clone(labels)
	}
}

// CoNLLDataset describes a corpus of CoNLL column files below the data
// directory: what to read, how, and where to obtain it.
type CoNLLDataset struct {
	Name   string      // e.g. "conll2003"
	Files  []string    // paths below the data directory, in the order Load returns them
	Format CoNLLFormat // how every file is read
	Obtain string      // where to get the files, for the missing-file error
}

// CoNLL2003 is the English CoNLL-2003 NER corpus (Tjong Kim Sang & De
// Meulder 2003): eng.train, eng.testa (development) and eng.testb (test),
// "word POS chunk label" in IOB1. Repair is on because eng.train has two
// B-MISC tags directly after O (lines 152428 and 175436 of the standard
// file), which IOB1 does not write; they are read, as conlleval reads them,
// as chunk starts.
func CoNLL2003() CoNLLDataset {
	return CoNLLDataset{
		Name: "conll2003",
		Files: []string{
			filepath.Join("conll2003", "eng.train"),
			filepath.Join("conll2003", "eng.testa"),
			filepath.Join("conll2003", "eng.testb"),
		},
		Format: CoNLLFormat{Columns: []string{ColumnWord, "pos", "chunk", ColumnLabel}, Scheme: IOB1, Encoding: UTF8, Repair: true},
		Obtain: "the CoNLL-2003 shared task page https://www.clips.uantwerpen.be/conll2003/ner/ " +
			"(annotations only; the Reuters RCV1 text is licensed by NIST; prepared copies are in the GitHub " +
			"repository suryasumukh/conll-ner, data/eng.{train,testa,testb})",
	}
}

// CoNLL2000 is the CoNLL-2000 chunking corpus (Tjong Kim Sang & Buchholz
// 2000): train.txt and test.txt, "word POS chunk" in IOB2.
func CoNLL2000() CoNLLDataset {
	return CoNLLDataset{
		Name: "conll2000",
		Files: []string{
			filepath.Join("conll2000", "train.txt"),
			filepath.Join("conll2000", "test.txt"),
		},
		Format: CoNLLFormat{Columns: []string{ColumnWord, "pos", ColumnLabel}, Scheme: IOB2, Encoding: UTF8},
		Obtain: "the CoNLL-2000 shared task page https://www.clips.uantwerpen.be/conll2000/chunking/ " +
			"(train.txt.gz and test.txt.gz; they may stay gzip-compressed under the names train.txt and test.txt)",
	}
}

// Load reads the dataset's files from the data directory dir with one label
// list (see [LoadCoNLLFiles]); source is how dir was chosen (see
// [ResolveDataDir]) and only used in the error for a missing file, which
// says where to obtain it.
func (d CoNLLDataset) Load(dir, source string) ([]*Corpus, []*ParseError, error) {
	paths := make([]string, len(d.Files))
	for i, f := range d.Files {
		paths[i] = filepath.Join(dir, f)
	}
	cs, repairs, err := LoadCoNLLFiles(paths, d.Format)
	if errors.Is(err, fs.ErrNotExist) {
		var pe *fs.PathError
		missing := dir
		if errors.As(err, &pe) {
			missing = pe.Path
		}
		return nil, nil, fmt.Errorf("dataset %q: no file at %s; the data directory %q was chosen by %s, "+
			"change it with --data DIR or the %s environment variable; obtain %s from %s and place them at <data dir>/%s: %w",
			d.Name, missing, dir, source, EnvDataDir, d.fileList(), d.Obtain, filepath.ToSlash(filepath.Dir(d.Files[0])), err)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("dataset %q: %w", d.Name, err)
	}
	for _, c := range cs {
		c.Name = d.Name
	}
	return cs, repairs, nil
}

// fileList names the dataset's files for messages.
func (d CoNLLDataset) fileList() string {
	names := make([]string, len(d.Files))
	for i, f := range d.Files {
		names[i] = filepath.Base(f)
	}
	return strings.Join(names, ", ")
}
