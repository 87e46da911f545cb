package datasets

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/internal/readlimit"
)

// SplitFile is a list of explicit train/test splits read from a file
// ([ReadSplitFile]), so that published splits, or the splits another tool
// was run on, reproduce exactly. Each split names the sequences (by their
// index in the corpus file, from 0) of its training and test parts, and
// may name a development part for choosing hyperparameters.
type SplitFile struct {
	// Name is the file as given, for messages.
	Name string
	// Sequences is the corpus size the file states (JSON n_sequences), 0
	// if it states none; [SplitFile.Check] compares it with the corpus.
	Sequences     int
	sequencesLine int
	Splits        []FileSplit
}

// FileSplit is one split of a [SplitFile].
type FileSplit struct {
	// Label names the split in messages: "splits[3]" in a JSON file,
	// "split 3" (the file's own id) in a CSV file.
	Label string
	// Line is where the split starts in the file.
	Line int
	// Train, Test and Dev are the parts' indices, sorted ascending; Dev is
	// nil when the split has no development part.
	Train, Test, Dev []int
	parts            [3][]splitEntry // as written, for messages
	devKey           string          // "dev" or "validation", as written
}

// splitEntry is one index as written: its value, line and field.
type splitEntry struct {
	value, line int
	field       string
}

// Split names of a split file's parts; "validation" is read as "dev".
var splitPartNames = [3]string{"train", "dev", "test"}

// Split returns the split as a [Split] with index k, and its development
// part (nil: hold validation data out of the training part).
func (s FileSplit) Split(k int) (Split, []int) {
	return Split{Index: k, Train: s.Train, Test: s.Test}, s.Dev
}

// Hash fingerprints the split's content (its parts as sets), so that a
// unit's key changes when, and only when, its split's indices do: the order
// and layout of the file, and the other splits, do not enter it.
func (s FileSplit) Hash() string {
	h := sha256.New()
	fmt.Fprintf(h, "train %v\ntest %v\n", s.Train, s.Test)
	if s.Dev != nil {
		fmt.Fprintf(h, "dev %v\n", s.Dev)
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// ReadSplitFile reads a split file. The format follows the extension:
//
// JSON (.json): an object whose "splits" is a list of splits, each an
// object with "train" and "test" lists of indices and optionally "dev" (or
// "validation"); "seed" and "name" in a split are allowed and ignored;
// "n_sequences" at the top, if present, must equal the corpus size; any
// other top-level key is ignored (e.g. how the splits were drawn). A bare
// list of splits is accepted too. This is the shape of
// shared/peers/cora_splits.json:
//
//	{"n_sequences": 500, "splits": [{"seed": 1, "train": [5, 31, ...], "test": [0, 1, ...]}, ...]}
//
// CSV (.csv): a header line "split,part,index", then one row per index:
// the split's id (an integer; splits are taken in increasing id order),
// the part (train, test, dev or validation) and the index. Lines starting
// with '#' are comments.
//
// Either way, indices are non-negative integers, a part's order does not
// matter, and a split must have non-empty train and test parts, no index
// twice in a part, no index in two parts, and at least two training
// sequences unless it has a development part (else no validation data can
// be held out). Errors are [*ParseError]s naming the file, the line and
// the field (e.g. splits[3].test[7]).
func ReadSplitFile(path string) (*SplitFile, error) {
	data, err := readlimit.ReadFile(context.Background(), path, readlimit.SplitBytes, "split file")
	if err != nil {
		return nil, fmt.Errorf("reading split file: %w", err)
	}
	return ParseSplitFile(data, path)
}

// ParseSplitFile reads a split file's content; name (its path) chooses the
// format by extension and names it in errors. See [ReadSplitFile].
func ParseSplitFile(data []byte, name string) (*SplitFile, error) {
	var sf *SplitFile
	var err error
	switch ext := strings.ToLower(filepath.Ext(name)); ext {
	case ".json":
		sf, err = parseSplitJSON(data, name)
	case ".csv":
		sf, err = parseSplitCSV(data, name)
	default:
		return nil, &ParseError{File: name, Msg: fmt.Sprintf("unknown split file format %q: name it .json or .csv", ext)}
	}
	if err != nil {
		return nil, err
	}
	if len(sf.Splits) == 0 {
		return nil, &ParseError{File: name, Line: 1, Msg: "no splits"}
	}
	for i := range sf.Splits {
		if err := sf.Splits[i].finish(name); err != nil {
			return nil, err
		}
	}
	return sf, nil
}

// finish checks a split's parts and sorts them.
func (s *FileSplit) finish(file string) error {
	owner := map[int]int{} // index → part that has it
	where := map[int]splitEntry{}
	for p, entries := range s.parts {
		for _, e := range entries {
			if q, dup := owner[e.value]; dup {
				first := where[e.value]
				if q == p {
					return &ParseError{File: file, Line: e.line, Field: e.field, Msg: fmt.Sprintf("index %d twice in the %s part (first at line %d, %s)", e.value, splitPartNames[p], first.line, first.field)}
				}
				return &ParseError{File: file, Line: e.line, Field: e.field, Msg: fmt.Sprintf("index %d is in both the %s and the %s part (line %d, %s)", e.value, splitPartNames[q], splitPartNames[p], first.line, first.field)}
			}
			owner[e.value], where[e.value] = p, e
		}
	}
	sorted := func(entries []splitEntry) []int {
		out := make([]int, len(entries))
		for i, e := range entries {
			out[i] = e.value
		}
		slices.Sort(out)
		return out
	}
	for p, name := range splitPartNames {
		if p != 1 && s.parts[p] == nil {
			return &ParseError{File: file, Line: s.Line, Field: s.Label, Msg: fmt.Sprintf("no %s part", name)}
		}
	}
	s.Train, s.Test = sorted(s.parts[0]), sorted(s.parts[2])
	if s.parts[1] != nil {
		s.Dev = sorted(s.parts[1])
	}
	if s.Dev == nil && len(s.Train) < 2 {
		return &ParseError{File: file, Line: s.Line, Field: s.Label, Msg: fmt.Sprintf("%d training sequence(s): at least 2 are needed to hold out validation data, or give a dev part", len(s.Train))}
	}
	return nil
}

// Check reports what makes the file unusable with a corpus of n
// sequences (named dataset in the message): an index outside 0..n-1, or a
// stated n_sequences other than n.
func (f *SplitFile) Check(n int, dataset string) error {
	if f.Sequences != 0 && f.Sequences != n {
		return &ParseError{File: f.Name, Line: f.sequencesLine, Field: "n_sequences", Msg: fmt.Sprintf("the file is for %d sequences; dataset %q has %d", f.Sequences, dataset, n)}
	}
	for _, s := range f.Splits {
		for _, entries := range s.parts {
			for _, e := range entries {
				if e.value >= n {
					return &ParseError{File: f.Name, Line: e.line, Field: e.field, Msg: fmt.Sprintf("index %d is out of range: dataset %q has %d sequences (0..%d)", e.value, dataset, n, n-1)}
				}
			}
		}
	}
	return nil
}

// TestsDisjoint reports an index that the test parts of two splits share,
// and nil when no sequence is tested twice: the splits are then folds of
// a cross-validation (not all sequences need be tested), whose per-item
// outcomes a paired test may pool.
func (f *SplitFile) TestsDisjoint() error {
	in := make(map[int]int) // index → the split whose test part has it
	for k, s := range f.Splits {
		for _, i := range s.Test {
			if j, ok := in[i]; ok && j != k {
				return fmt.Errorf("%s: sequence %d is in the test parts of %s and %s", f.Name, i, f.Splits[j].Label, s.Label)
			}
			in[i] = k
		}
	}
	return nil
}

// partOf maps a part's name in a file to its slot in FileSplit.parts.
func partOf(name string) (int, bool) {
	switch name {
	case "train":
		return 0, true
	case "dev", "validation":
		return 1, true
	case "test":
		return 2, true
	}
	return 0, false
}

// jsonSplits walks a JSON split file token by token, so that every error
// can name the line of the token it is about.
type jsonSplits struct {
	name  string
	data  []byte
	dec   *json.Decoder
	lines []int // offsets of line starts
}

func parseSplitJSON(data []byte, name string) (*SplitFile, error) {
	w := &jsonSplits{name: name, data: data, dec: json.NewDecoder(bytes.NewReader(data)), lines: []int{0}}
	w.dec.UseNumber()
	for i, c := range data {
		if c == '\n' {
			w.lines = append(w.lines, i+1)
		}
	}
	sf := &SplitFile{Name: name}
	tok, err := w.token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('['):
		if err := w.splitList(sf, tok); err != nil {
			return nil, err
		}
	case json.Delim('{'):
		if err := w.top(sf); err != nil {
			return nil, err
		}
	default:
		return nil, w.fail("", "expected an object {\"splits\": [...]} or a list of splits, found %v", tok)
	}
	if _, err := w.dec.Token(); !errors.Is(err, io.EOF) {
		return nil, w.fail("", "more data after the splits")
	}
	return sf, nil
}

// line returns the line of the last token read.
func (w *jsonSplits) line() int { return w.lineAt(int(w.dec.InputOffset()) - 1) }

func (w *jsonSplits) lineAt(off int) int {
	return sort.Search(len(w.lines), func(i int) bool { return w.lines[i] > off })
}

func (w *jsonSplits) fail(field, format string, args ...any) error {
	return &ParseError{File: w.name, Line: w.line(), Field: field, Msg: fmt.Sprintf(format, args...)}
}

// token reads the next token; a syntax error is located at its offset.
func (w *jsonSplits) token() (json.Token, error) {
	tok, err := w.dec.Token()
	if err == nil {
		return tok, nil
	}
	var se *json.SyntaxError
	line := w.line()
	switch {
	case errors.As(err, &se):
		line = w.lineAt(int(se.Offset) - 1)
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		line, err = w.lineAt(len(w.data)-1), io.ErrUnexpectedEOF
	}
	return nil, &ParseError{File: w.name, Line: line, Msg: "invalid JSON", Err: err}
}

// skip reads and ignores one value.
func (w *jsonSplits) skip(field string) error {
	var v json.RawMessage
	if err := w.dec.Decode(&v); err != nil {
		return &ParseError{File: w.name, Line: w.line(), Field: field, Msg: "invalid JSON", Err: err}
	}
	return nil
}

// key reads an object key, or returns "" at the object's end.
func (w *jsonSplits) key(field string) (string, error) {
	tok, err := w.token()
	if err != nil {
		return "", err
	}
	if tok == json.Delim('}') {
		return "", nil
	}
	k, ok := tok.(string)
	if !ok {
		return "", w.fail(field, "expected a key, found %v", tok)
	}
	return k, nil
}

func (w *jsonSplits) top(sf *SplitFile) error {
	seen := map[string]int{}
	for {
		k, err := w.key("")
		if err != nil || k == "" {
			if err == nil && seen["splits"] == 0 {
				return w.fail("", `no "splits" key (a list of {"train": [...], "test": [...]})`)
			}
			return err
		}
		if first, dup := seen[k]; dup {
			return w.fail(k, "key given twice (first at line %d)", first)
		}
		seen[k] = w.line()
		switch k {
		case "splits":
			tok, err := w.token()
			if err != nil {
				return err
			}
			if err := w.splitList(sf, tok); err != nil {
				return err
			}
		case "n_sequences":
			n, err := w.index("n_sequences")
			if err != nil {
				return err
			}
			if n == 0 {
				return w.fail("n_sequences", "must be positive")
			}
			sf.Sequences, sf.sequencesLine = n, w.line()
		default:
			if err := w.skip(k); err != nil {
				return err
			}
		}
	}
}

// splitList reads the list of splits whose opening token is open.
func (w *jsonSplits) splitList(sf *SplitFile, open json.Token) error {
	if open != json.Delim('[') {
		return w.fail("splits", "expected a list of splits, found %v", open)
	}
	for w.dec.More() {
		label := fmt.Sprintf("splits[%d]", len(sf.Splits))
		tok, err := w.token()
		if err != nil {
			return err
		}
		if tok != json.Delim('{') {
			return w.fail(label, `expected a split {"train": [...], "test": [...]}, found %v`, tok)
		}
		s := FileSplit{Label: label, Line: w.line()}
		if err := w.split(&s); err != nil {
			return err
		}
		sf.Splits = append(sf.Splits, s)
	}
	_, err := w.token() // ']'
	return err
}

func (w *jsonSplits) split(s *FileSplit) error {
	seen := map[string]int{}
	for {
		k, err := w.key(s.Label)
		if err != nil || k == "" {
			return err
		}
		field := s.Label + "." + k
		if first, dup := seen[k]; dup {
			return w.fail(field, "key given twice (first at line %d)", first)
		}
		seen[k] = w.line()
		p, isPart := partOf(k)
		switch {
		case k == "seed" || k == "name":
			if err := w.skip(field); err != nil {
				return err
			}
			continue
		case !isPart:
			return w.fail(field, "unknown key %q (known: train, test, dev or validation, seed, name)", k)
		case s.parts[p] != nil:
			return w.fail(field, "a split has one development part: dev or validation, not both")
		}
		tok, err := w.token()
		if err != nil {
			return err
		}
		if tok != json.Delim('[') {
			return w.fail(field, "expected a list of indices, found %v", tok)
		}
		s.parts[p] = []splitEntry{}
		for w.dec.More() {
			f := fmt.Sprintf("%s[%d]", field, len(s.parts[p]))
			v, err := w.index(f)
			if err != nil {
				return err
			}
			s.parts[p] = append(s.parts[p], splitEntry{value: v, line: w.line(), field: f})
		}
		if _, err := w.token(); err != nil { // ']'
			return err
		}
		if len(s.parts[p]) == 0 {
			return w.fail(field, "empty part")
		}
	}
}

// index reads a non-negative integer.
func (w *jsonSplits) index(field string) (int, error) {
	tok, err := w.token()
	if err != nil {
		return 0, err
	}
	num, ok := tok.(json.Number)
	if !ok {
		return 0, w.fail(field, "expected an index (a non-negative integer), found %v", tok)
	}
	v, err := strconv.Atoi(string(num))
	if err != nil || v < 0 {
		return 0, w.fail(field, "expected an index (a non-negative integer), found %s", num)
	}
	return v, nil
}

func parseSplitCSV(data []byte, name string) (*SplitFile, error) {
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = 3
	r.Comment = '#'
	r.TrimLeadingSpace = true
	fail := func(line int, field, format string, args ...any) error {
		return &ParseError{File: name, Line: line, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	header, err := r.Read()
	if err != nil {
		return nil, csvError(name, err)
	}
	if line, _ := r.FieldPos(0); !slices.Equal(header, []string{"split", "part", "index"}) {
		return nil, fail(line, "", "the header must be split,part,index, found %s", strings.Join(header, ","))
	}
	byID := map[int]*FileSplit{}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, csvError(name, err)
		}
		line, _ := r.FieldPos(0)
		id, err := strconv.Atoi(rec[0])
		if err != nil || id < 0 {
			return nil, fail(line, "split", "expected a split id (a non-negative integer), found %q", rec[0])
		}
		label := fmt.Sprintf("split %d", id)
		p, ok := partOf(rec[1])
		if !ok {
			return nil, fail(line, label+" part", "unknown part %q (known: train, test, dev or validation)", rec[1])
		}
		s := byID[id]
		if s == nil {
			s = &FileSplit{Label: label, Line: line}
			byID[id] = s
		}
		if p == 1 && s.devKey != "" && s.devKey != rec[1] {
			return nil, fail(line, label+" part", "a split has one development part: dev or validation, not both")
		}
		if p == 1 {
			s.devKey = rec[1]
		}
		field := label + " " + rec[1]
		v, err := strconv.Atoi(rec[2])
		if err != nil || v < 0 {
			return nil, fail(line, field, "expected an index (a non-negative integer), found %q", rec[2])
		}
		s.parts[p] = append(s.parts[p], splitEntry{value: v, line: line, field: field})
	}
	sf := &SplitFile{Name: name}
	ids := make([]int, 0, len(byID))
	for id := range byID {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		sf.Splits = append(sf.Splits, *byID[id])
	}
	return sf, nil
}

func csvError(name string, err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &ParseError{File: name, Line: pe.Line, Msg: "invalid CSV", Err: pe.Err}
	}
	if errors.Is(err, io.EOF) {
		return &ParseError{File: name, Line: 1, Msg: "empty file: the header split,part,index is missing"}
	}
	return &ParseError{File: name, Msg: "invalid CSV", Err: err}
}
