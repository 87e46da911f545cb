package datasets

import (
	"fmt"
	"strings"
)

// Scheme is a chunk label encoding: how per-token tags mark typed chunks
// (Tjong Kim Sang & Veenstra 1999, "Representing Text Chunks"). A tag is
// "O" (outside every chunk) or PREFIX-TYPE, split at the first '-' as
// conlleval does, so types may contain hyphens.
//
// The schemes differ in which token of a chunk carries a marker:
//
//	scheme  prefixes  marks
//	iob1    I B       B- only on the first token of a chunk that directly follows a chunk of the same type
//	iob2    I B       B- on the first token of every chunk (also called bio)
//	ioe1    I E       E- only on the last token of a chunk directly followed by a chunk of the same type
//	ioe2    I E       E- on the last token of every chunk (ioe means ioe2)
//	iobes   B I E S   B- first, E- last, I- between, S- a one-token chunk (also called bioes)
//	none    —         tags are plain labels; no chunks are decoded
//
// Every scheme reads as: a tag continues the chunk open at the previous token
// when its prefix may continue one (I or E in iob1/iob2/ioe1/ioe2 after an
// open I or B of the same type; I or E in iobes after B or I of the same
// type) and starts a new chunk otherwise. A tag sequence is valid for a
// scheme when every chunk starts and ends with the prefixes the scheme
// writes there; [Scheme.Decode] reports the other places as [Violation]s.
// The chunks it decodes at a violation are the ones conlleval would count,
// so a violation can be repaired by reading on (see CoNLLFormat.Repair).
type Scheme string

// The label encodings [ParseScheme] accepts.
const (
	IOB1  Scheme = "iob1"
	IOB2  Scheme = "iob2"
	IOE1  Scheme = "ioe1"
	IOE2  Scheme = "ioe2"
	IOBES Scheme = "iobes"
	Plain Scheme = "none" // plain labels, no chunk prefixes
)

// ParseScheme returns the scheme named s (case-insensitive): iob1, iob2 or
// bio, ioe1, ioe2 or ioe, iobes or bioes, none.
func ParseScheme(s string) (Scheme, error) {
	low := strings.ToLower(s)
	switch sc := Scheme(low); sc {
	case IOB1, IOB2, IOE1, IOE2, IOBES, Plain:
		return sc, nil
	case "bio":
		return IOB2, nil
	case "ioe":
		return IOE2, nil
	case "bioes":
		return IOBES, nil
	}
	return "", fmt.Errorf("unknown label encoding %q (known: iob1, iob2 or bio, ioe1, ioe2 or ioe, iobes or bioes, none)", s)
}

// prefixes returns the chunk prefixes the scheme uses.
func (s Scheme) prefixes() string {
	switch s {
	case IOB1, IOB2:
		return "BI"
	case IOE1, IOE2:
		return "IE"
	case IOBES:
		return "BIES"
	}
	return ""
}

// Chunk is a typed span of tokens [Start, End).
type Chunk struct {
	Start, End int
	Type       string
}

// Violation is a place where a tag sequence departs from its scheme: Pos is
// the token whose tag the scheme would not write there.
type Violation struct {
	Pos int
	Msg string
}

// tag is a parsed tag: prefix 0 for "O".
type tag struct {
	prefix byte
	typ    string
}

// splitTag parses t for scheme s. Only "O" and PREFIX-TYPE with one of the
// scheme's prefixes and a non-empty type are tags.
func (s Scheme) splitTag(t string) (tag, error) {
	if t == "O" {
		return tag{}, nil
	}
	p, typ, ok := strings.Cut(t, "-")
	if !ok || len(p) != 1 || !strings.Contains(s.prefixes(), p) || typ == "" {
		return tag{}, fmt.Errorf("tag %q is not O or one of %s-TYPE in %s", t, strings.Join(strings.Split(s.prefixes(), ""), "-TYPE, "), s)
	}
	return tag{prefix: p[0], typ: typ}, nil
}

// continues reports whether cur continues the chunk that prev is part of.
func (s Scheme) continues(prev, cur tag) bool {
	if prev.prefix == 0 || cur.prefix == 0 || prev.typ != cur.typ {
		return false
	}
	switch s {
	case IOB1, IOB2:
		return cur.prefix == 'I'
	case IOE1, IOE2:
		return prev.prefix == 'I'
	case IOBES:
		return (prev.prefix == 'B' || prev.prefix == 'I') && (cur.prefix == 'I' || cur.prefix == 'E')
	}
	return false
}

// Decode returns the chunks the tags encode under s, in order, and the
// places where the tags break the scheme's rules (see [Scheme]). It fails
// only on a tag that is not O or PREFIX-TYPE with one of the scheme's
// prefixes. For [Plain] every maximal run of equal tags is one chunk.
func (s Scheme) Decode(tags []string) ([]Chunk, []Violation, error) {
	if s == Plain {
		var out []Chunk
		for t := 0; t < len(tags); {
			u := t + 1
			for u < len(tags) && tags[u] == tags[t] {
				u++
			}
			out = append(out, Chunk{Start: t, End: u, Type: tags[t]})
			t = u
		}
		return out, nil, nil
	}
	if s.prefixes() == "" {
		return nil, nil, fmt.Errorf("unknown label encoding %q", string(s))
	}
	parsed := make([]tag, len(tags))
	for i, t := range tags {
		p, err := s.splitTag(t)
		if err != nil {
			return nil, nil, fmt.Errorf("token %d: %w", i, err)
		}
		parsed[i] = p
	}
	var chunks []Chunk
	var bad []Violation
	at := func(i int) tag { // the tag at i, "O" outside the sentence
		if i < 0 || i >= len(parsed) {
			return tag{}
		}
		return parsed[i]
	}
	for i, cur := range parsed {
		if cur.prefix == 0 {
			continue
		}
		if !s.continues(at(i-1), cur) {
			chunks = append(chunks, Chunk{Start: i, Type: cur.typ})
			if msg := s.badStart(at(i-1), cur); msg != "" {
				bad = append(bad, Violation{Pos: i, Msg: fmt.Sprintf("%s after %s: %s", tags[i], tagName(tags, i-1), msg)})
			}
		}
		if !s.continues(cur, at(i+1)) {
			chunks[len(chunks)-1].End = i + 1
			if msg := s.badEnd(cur, at(i+1)); msg != "" {
				bad = append(bad, Violation{Pos: i, Msg: fmt.Sprintf("%s before %s: %s", tags[i], tagName(tags, i+1), msg)})
			}
		}
	}
	return chunks, bad, nil
}

// tagName names the tag at i for messages, with the sentence edges.
func tagName(tags []string, i int) string {
	switch {
	case i < 0:
		return "the sentence start"
	case i >= len(tags):
		return "the sentence end"
	}
	return tags[i]
}

// badStart explains why cur may not start a chunk after prev under s, or
// returns "" when it may. conlleval starts a chunk there all the same.
func (s Scheme) badStart(prev, cur tag) string {
	switch {
	case s == IOB1 && cur.prefix == 'B' && prev.typ != cur.typ:
		return "IOB1 writes B- only on a chunk that directly follows one of the same type (is the file IOB2?)"
	case s == IOB2 && cur.prefix == 'I':
		return "IOB2 starts every chunk with B- (is the file IOB1?)"
	case s == IOBES && (cur.prefix == 'I' || cur.prefix == 'E'):
		return "IOBES starts every chunk with B- or S-"
	}
	return ""
}

// badEnd explains why cur may not end a chunk before next under s, or
// returns "" when it may. conlleval ends the chunk there all the same.
func (s Scheme) badEnd(cur, next tag) string {
	switch {
	case s == IOE1 && cur.prefix == 'E' && next.typ != cur.typ:
		return "IOE1 writes E- only on a chunk directly followed by one of the same type (is the file IOE2?)"
	case s == IOE2 && cur.prefix == 'I':
		return "IOE2 ends every chunk with E- (is the file IOE1?)"
	case s == IOBES && (cur.prefix == 'B' || cur.prefix == 'I'):
		return "IOBES ends every chunk with E- or S-"
	}
	return ""
}

// Encode returns the n tags that encode chunks under s. The chunks must be
// in order, non-overlapping, non-empty and inside [0, n); the tags then
// decode to exactly these chunks with no violations. For [Plain] every token
// gets the type of the chunk covering it and uncovered tokens get "O".
func (s Scheme) Encode(chunks []Chunk, n int) ([]string, error) {
	out := make([]string, n)
	for i := range out {
		out[i] = "O"
	}
	next := 0
	for k, c := range chunks {
		if c.Start < next || c.End <= c.Start || c.End > n || c.Type == "" {
			return nil, fmt.Errorf("chunk %+v is empty, out of order or outside %d tokens", c, n)
		}
		next = c.End
		if s == Plain {
			for i := c.Start; i < c.End; i++ {
				out[i] = c.Type
			}
			continue
		}
		adjBefore := k > 0 && chunks[k-1].End == c.Start && chunks[k-1].Type == c.Type
		adjAfter := k+1 < len(chunks) && chunks[k+1].Start == c.End && chunks[k+1].Type == c.Type
		first, middle, last, single, err := s.marks(adjBefore, adjAfter)
		if err != nil {
			return nil, err
		}
		for i := c.Start; i < c.End; i++ {
			p := middle
			switch {
			case c.End-c.Start == 1:
				p = single
			case i == c.Start:
				p = first
			case i == c.End-1:
				p = last
			}
			out[i] = p + "-" + c.Type
		}
	}
	return out, nil
}

// marks returns the prefixes s writes on a chunk's first, middle and last
// token and on a one-token chunk, given whether a chunk of the same type
// directly precedes or follows it.
func (s Scheme) marks(adjBefore, adjAfter bool) (first, middle, last, single string, err error) {
	switch s {
	case IOB1:
		first = "I"
		if adjBefore {
			first = "B"
		}
		return first, "I", "I", first, nil
	case IOB2:
		return "B", "I", "I", "B", nil
	case IOE1:
		last = "I"
		if adjAfter {
			last = "E"
		}
		return "I", "I", last, last, nil
	case IOE2:
		return "I", "I", "E", "E", nil
	case IOBES:
		return "B", "I", "E", "S", nil
	}
	return "", "", "", "", fmt.Errorf("unknown label encoding %q", string(s))
}

// ConvertTags re-encodes tags from one scheme to another. Tags that break
// from's rules are an error naming the first violation; to read such tags as
// conlleval does, decode them with [Scheme.Decode] and encode the chunks.
// Neither scheme may be [Plain].
func ConvertTags(tags []string, from, to Scheme) ([]string, error) {
	if from == Plain || to == Plain {
		return nil, fmt.Errorf("convert %s to %s: plain labels have no chunks", from, to)
	}
	chunks, bad, err := from.Decode(tags)
	if err != nil {
		return nil, err
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("token %d: %s", bad[0].Pos, bad[0].Msg)
	}
	return to.Encode(chunks, len(tags))
}
