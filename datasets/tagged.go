package datasets

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// IITB's tokenisation of the address sample (samples/us50.conf of the IITB
// CRF package): every character of TaggedDelimiters ends a token, and those
// of TaggedKept are tokens themselves ("Homer Spit Road, " → Homer, Spit,
// Road, ","), as the package's DataCruncher.getTokenList splits a segment.
const (
	TaggedDelimiters = ",\t/ -():.;'?#`&\"_"
	TaggedKept       = ","
)

// LoadTagged reads a segment-tagged file; see [ParseTagged].
func LoadTagged(path string) (*Corpus, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load tagged: %w", err)
	}
	defer f.Close()
	return ParseTagged(f, filepath.Base(path))
}

// ParseTagged reads the tagged format of the IITB CRF package (Sarawagi's
// address data): one segment per line, its text, a '|' and its label
// ("Homer Spit Road, |3"; the last '|' of the line separates them), and a
// blank line after each record. A segment's text is split into tokens at
// [TaggedDelimiters], keeping [TaggedKept] as tokens; each segment becomes
// one [structpred.Segment], so segments tile a record and two adjacent
// segments with one label stay two. The labels are the tags as written,
// sorted. Sequence i gets ID "<name>-<i>" and the line of its first segment.
// Errors are [*ParseError]s naming the file and line: a line without '|',
// an empty label, or a segment with no token.
func ParseTagged(r io.Reader, name string) (*Corpus, error) {
	sc, limit := newLineScanner(r, 0)
	type rawSeg struct {
		tokens []string
		label  string
	}
	var records [][]rawSeg
	var lines []int
	var cur []rawSeg
	flush := func() {
		if len(cur) > 0 {
			records, cur = append(records, cur), nil
		}
	}
	lineNo := 0
	for sc.Scan() {
		lineNo++
		line := strings.TrimSuffix(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			flush()
			continue
		}
		bar := strings.LastIndexByte(line, '|')
		if bar < 0 {
			return nil, &ParseError{File: name, Line: lineNo, Msg: fmt.Sprintf("no '|' before a label in %q (want \"segment text |label\")", line)}
		}
		label := strings.TrimSpace(line[bar+1:])
		if label == "" {
			return nil, &ParseError{File: name, Line: lineNo, Msg: "empty label after '|'"}
		}
		tokens := TokenizeTagged(line[:bar])
		if len(tokens) == 0 {
			return nil, &ParseError{File: name, Line: lineNo, Msg: fmt.Sprintf("segment %q has no token", line[:bar])}
		}
		if len(cur) == 0 {
			lines = append(lines, lineNo)
		}
		cur = append(cur, rawSeg{tokens, label})
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(name, lineNo+1, err, limit)
	}
	flush()
	if len(records) == 0 {
		return nil, &ParseError{File: name, Line: lineNo, Msg: "no records: the file is empty"}
	}
	var labels []string
	for _, rec := range records {
		for _, s := range rec {
			labels = append(labels, s.label)
		}
	}
	slices.Sort(labels)
	labels = slices.Compact(labels)
	c := &Corpus{Name: "tagged", Labels: labels, Sequences: make([]structpred.Sequence, len(records))}
	for i, rec := range records {
		seq := structpred.Sequence{ID: fmt.Sprintf("%s-%d", name, i), Line: lines[i]}
		for _, s := range rec {
			id, _ := slices.BinarySearch(labels, s.label)
			seq.Segments = append(seq.Segments, structpred.Segment{Start: len(seq.Tokens), End: len(seq.Tokens) + len(s.tokens), Label: id})
			for _, tok := range s.tokens {
				seq.Tokens = append(seq.Tokens, tok)
				seq.Labels = append(seq.Labels, id)
			}
		}
		c.Sequences[i] = seq
	}
	return c, nil
}

// TokenizeTagged splits a segment's text as [ParseTagged] does.
func TokenizeTagged(text string) []string {
	var out []string
	start := 0
	for i, r := range text {
		if !strings.ContainsRune(TaggedDelimiters, r) {
			continue
		}
		if i > start {
			out = append(out, text[start:i])
		}
		if strings.ContainsRune(TaggedKept, r) {
			out = append(out, string(r))
		}
		start = i + len(string(r))
	}
	if start < len(text) {
		out = append(out, text[start:])
	}
	return out
}

// loadTaggedFiles reads a tagged file, or the fixed parts of one corpus in
// tagged files, with one label list (the union of the parts', sorted).
// Random splits pool the parts (see [Loaded.Parts]).
func loadTaggedFiles(dir, source string, d Declaration) (*Loaded, error) {
	rel, ids := []string{d.Path}, []int{-1}
	if d.Fixed() {
		rel, ids = nil, nil
		for part, p := range []string{d.Train, d.Dev, d.Test} {
			if p != "" {
				rel, ids = append(rel, p), append(ids, part)
			}
		}
	}
	var cs []*Corpus
	var union []string
	for _, p := range rel {
		path := resolve(dir, p)
		c, err := LoadTagged(path)
		if err != nil {
			return nil, missing(err, path, p, dir, source, d.Obtain)
		}
		cs, union = append(cs, c), append(union, c.Labels...)
	}
	slices.Sort(union)
	union = slices.Compact(union)
	l := &Loaded{Corpus: &Corpus{Name: d.Name, Labels: union}}
	for i, c := range cs {
		remap := make([]int, len(c.Labels))
		for k, lab := range c.Labels {
			remap[k], _ = slices.BinarySearch(union, lab)
		}
		for _, s := range c.Sequences {
			for t := range s.Labels {
				s.Labels[t] = remap[s.Labels[t]]
			}
			for k := range s.Segments {
				s.Segments[k].Label = remap[s.Segments[k].Label]
			}
			l.Sequences = append(l.Sequences, s)
			if ids[i] >= 0 {
				l.Parts = append(l.Parts, ids[i])
			}
		}
	}
	return l, nil
}
