package tagger

import (
	"bytes"
	"fmt"
	"strings"
	"unicode"

	"github.com/maxmargin/repro/datasets"
)

// Detection says how a column file's label encoding was detected, and so
// how sure the detection is.
type Detection struct {
	// Scheme is the encoding chosen.
	Scheme datasets.Scheme
	// Tags counts the tags read; Chunked, those that are O or
	// PREFIX-TYPE (a one-letter prefix of B, I, E or S, a type of printable
	// characters).
	Tags, Chunked int
	// Readers are the encodings under which every tag reads, in order of
	// preference (the first is Scheme); empty when Scheme is none.
	Readers []datasets.Scheme
	// Broken counts the tags that break Scheme's rules (they are read as
	// conlleval reads them, and returned as Data.Repairs).
	Broken int
}

// String describes the detection for a user: what was read, and what else
// would have read it.
func (d *Detection) String() string {
	if d.Scheme == datasets.Plain {
		return fmt.Sprintf("detected: %d of %d tags are chunk tags, too few for a chunk encoding", d.Chunked, d.Tags)
	}
	s := fmt.Sprintf("detected: all %d tags read", d.Tags)
	if d.Broken > 0 {
		s += fmt.Sprintf(", %d breaking its rules", d.Broken)
	}
	if len(d.Readers) > 1 {
		var others []string
		for _, r := range d.Readers[1:] {
			others = append(others, string(r))
		}
		s += "; " + strings.Join(others, ", ") + " would read them too"
		if d.Broken == 0 {
			s += " (the same chunks)"
		}
	}
	return s
}

// detectOrder is the order in which detectScheme prefers label encodings
// that read a file equally well (IOB1 and IOE1 files without B- or E- tags
// are valid in both, and decode to the same chunks).
func detectOrder() []datasets.Scheme {
	return []datasets.Scheme{datasets.IOB2, datasets.IOB1, datasets.IOBES, datasets.IOE2, datasets.IOE1}
}

// detectScheme returns the label encoding of a column file in layout f: of
// iob2, iob1, iobes, ioe2 and ioe1 (in this order of preference), the one
// under which every tag is O or PREFIX-TYPE and the fewest tags break the
// encoding's rules; none (plain labels) when no encoding reads every tag.
// Lines that do not fit the layout are left to the reader to report.
//
// A file whose tags look like chunk tags (of the distinct tags other than
// O, at least two thirds are PREFIX-TYPE, and they are most of its tokens'
// tags other than O) but that some tags keep from reading as one (a
// file cut in the middle of a line, a label with a NUL byte) is an error
// naming the first such line: plain labels would silently lose its
// chunks. --encoding none reads it as plain labels.
func detectScheme(text []byte, name string, f datasets.CoNLLFormat) (*Detection, error) {
	sentences := labelColumn(text, f)
	d := &Detection{Scheme: datasets.Plain}
	var odd *lineTag
	outside := 0
	distinct := map[string]bool{} // tags other than O → chunk tag
	for _, sent := range sentences {
		for i, tag := range sent.tags {
			d.Tags++
			switch {
			case tag == "O":
				outside++
				d.Chunked++
				continue
			case chunkTag(tag):
				d.Chunked++
				distinct[tag] = true
				continue
			case odd == nil:
				odd = &lineTag{sent.lines[i], tag}
			}
			distinct[tag] = false
		}
	}
	kinds := 0
	for _, chunk := range distinct {
		if chunk {
			kinds++
		}
	}
	prefixed, others := d.Chunked-outside, d.Tags-d.Chunked
	if prefixed == 0 || 3*kinds < 2*len(distinct) || others >= prefixed {
		return d, nil // plain labels
	}
	if odd != nil {
		return nil, &datasets.ParseError{File: name, Line: odd.line, Field: "label",
			Msg: fmt.Sprintf("tag %s is not O or PREFIX-TYPE, yet %d of the file's %d tags are O or chunk tags: is the file cut short or damaged? Fix the line, or give --encoding none (or the encoding) to read the tags as they are",
				quoteTag(odd.tag), d.Chunked, d.Tags)}
	}
	fewest := -1
	for _, sc := range detectOrder() {
		broken := 0
		for _, sent := range sentences {
			_, bad, err := sc.Decode(sent.tags)
			if err != nil {
				broken = -1
				break
			}
			broken += len(bad)
		}
		if broken < 0 {
			continue
		}
		d.Readers = append(d.Readers, sc)
		if fewest < 0 || broken < fewest {
			d.Scheme, fewest = sc, broken
		}
	}
	if fewest < 0 { // chunk tags whose prefixes no one encoding has (B- and E- in one file)
		return d, nil
	}
	d.Broken = fewest
	// The chosen encoding first, the others in order of preference.
	for i, r := range d.Readers {
		if r == d.Scheme {
			copy(d.Readers[1:i+1], d.Readers[:i])
			d.Readers[0] = r
			break
		}
	}
	return d, nil
}

// chunkTag reports whether t is PREFIX-TYPE with a prefix of B, I, E or S
// and a non-empty type of printable characters.
func chunkTag(t string) bool {
	p, typ, ok := strings.Cut(t, "-")
	if !ok || len(p) != 1 || !strings.Contains("BIES", p) || typ == "" {
		return false
	}
	return strings.IndexFunc(typ, func(r rune) bool { return !unicode.IsPrint(r) }) < 0
}

// quoteTag quotes a tag for an error message, at most 40 bytes of it.
func quoteTag(t string) string {
	if len(t) > 40 {
		return fmt.Sprintf("%q… (%d bytes)", t[:40], len(t))
	}
	return fmt.Sprintf("%q", t)
}

type lineTag struct {
	line int
	tag  string
}

// sentenceTags are the tags of one sentence and the lines they are on.
type sentenceTags struct {
	tags  []string
	lines []int
}

// labelColumn returns the tags of every sentence of a column file, as far
// as its lines fit layout f.
func labelColumn(text []byte, f datasets.CoNLLFormat) []sentenceTags {
	var out []sentenceTags
	var cur sentenceTags
	label, lineNo := -1, 0
	for line := range bytes.Lines(text) {
		lineNo++
		fields := splitFields(string(line))
		switch {
		case len(fields) == 0:
			if len(cur.tags) > 0 {
				out, cur = append(out, cur), sentenceTags{}
			}
			continue
		case fields[0] == datasets.DocStart:
			continue
		}
		if label < 0 {
			_, l, _, err := f.Layout(len(fields))
			if err != nil {
				return nil
			}
			label = l
		}
		if label < len(fields) {
			cur.tags = append(cur.tags, fields[label])
			cur.lines = append(cur.lines, lineNo)
		}
	}
	if len(cur.tags) > 0 {
		out = append(out, cur)
	}
	return out
}
