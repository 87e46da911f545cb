package tagger

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/maxmargin/repro/features"
)

// Feature kinds: the templates of package features that a model can be
// trained with.
const (
	// Citation is the citation-field set (features.Extract): word, shape,
	// orthographic flags, lexicons, affixes and a window of neighbours.
	Citation = "citation"
	// NER is the named-entity and chunking set (features.NER): word,
	// sub-word, shape and the file's extra columns, with a window.
	NER = "ner"
	// Given are the attributes of an attribute file (format crfsuite),
	// used as they are: no template applies.
	Given = "given"
	// Chunking is Sha & Pereira's (2003) NP chunking set
	// (features.Chunking): words and POS tags in a ±2 window, word bigrams,
	// POS bigrams and trigrams; the POS tags are the extra column named
	// "pos".
	Chunking = "chunking"
)

// Features are the settings the attributes of a token are extracted with,
// stored in a model so that tagging extracts exactly what training did.
type Features struct {
	// Kind is Citation, NER, Chunking or Given.
	Kind string `json:"kind"`
	// Window copies the neighbours' attributes at offsets -Window..+Window.
	Window int `json:"window"`
	// Affixes adds prefixes and suffixes of length 1..Affixes.
	Affixes int `json:"affixes"`
	// NoLexicons drops the citation lexicon classes (Citation only).
	NoLexicons bool `json:"no_lexicons,omitempty"`
	// Columns names the extra columns of a column file (the columns other
	// than word and label, in file order), which NER features conjoin by
	// name; a column beyond the names is called c1, c2, ... by position.
	Columns []string `json:"columns,omitempty"`
	// MinCount keeps only attributes seen at least MinCount times in the
	// training data (0 or 1: all).
	MinCount int `json:"min_count,omitempty"`
	// Edges adds label-transition features (the section 5.2 ablation of
	// Sarawagi & Gupta switches them off).
	Edges bool `json:"edges"`
	// Pairs is PairsSeen to keep only the attribute–label pairs seen in
	// the training data (CRFsuite's default model), or empty (PairsAll):
	// every attribute with every label.
	Pairs string `json:"pairs,omitempty"`
	// Degree 2 adds the products of a token's attributes, pruned with
	// MinCount (features.Pairs): the explicit map of the degree-2
	// polynomial kernel. 0 or 1: the attributes alone.
	Degree int `json:"degree,omitempty"`
}

// Attribute–label pairs a model has weights for (Features.Pairs).
const (
	// PairsAll is every attribute with every label (the default; stored
	// as an empty Pairs, so such models' files are as they were).
	PairsAll = "all"
	// PairsSeen is the pairs seen in the training data, plus every
	// transition: the sequence task only.
	PairsSeen = "seen"
)

// seenPairs reports whether f keeps only the seen pairs.
func (f Features) seenPairs() bool { return f.Pairs == PairsSeen }

// DefaultFeatures returns the defaults of a kind: package features' own
// (Citation: window 1, affixes 3; NER: window 2, affixes 4), with edges.
func DefaultFeatures(kind string) (Features, error) {
	switch kind {
	case Citation:
		d := features.DefaultOptions()
		return Features{Kind: Citation, Window: d.Window, Affixes: d.Affixes, Edges: true}, nil
	case NER:
		d := features.DefaultNEROptions()
		return Features{Kind: NER, Window: d.Window, Affixes: d.Affixes, Edges: true}, nil
	case Given:
		return Features{Kind: Given, Edges: true}, nil
	case Chunking:
		return Features{Kind: Chunking, Edges: true}, nil
	}
	return Features{}, fmt.Errorf("unknown feature kind %q (known: %s, %s, %s, %s)", kind, Citation, NER, Chunking, Given)
}

// Check reports settings no extraction can use.
func (f Features) Check() error {
	if _, err := DefaultFeatures(f.Kind); err != nil {
		return err
	}
	switch {
	case f.Window < 0 || f.Affixes < 0 || f.MinCount < 0:
		return fmt.Errorf("features: window %d, affixes %d and min count %d must not be negative", f.Window, f.Affixes, f.MinCount)
	case f.Kind == Given && (f.Window != 0 || f.Affixes != 0):
		return fmt.Errorf("features: %s attributes are used as they are: window %d and affixes %d do not apply", Given, f.Window, f.Affixes)
	case f.Degree < 0 || f.Degree > 2:
		return fmt.Errorf("features: degree %d, want 1 or 2", f.Degree)
	case f.NoLexicons && f.Kind != Citation:
		return fmt.Errorf("features: lexicons belong to %s features, not %s", Citation, f.Kind)
	case f.Pairs != "" && f.Pairs != PairsAll && f.Pairs != PairsSeen:
		return fmt.Errorf("features: pairs %q: want %s or %s", f.Pairs, PairsSeen, PairsAll)
	case f.Kind == Chunking && (f.Window != 0 || f.Affixes != 0):
		return fmt.Errorf("features: %s features have a fixed ±2 window and no affixes, got window %d, affixes %d", Chunking, f.Window, f.Affixes)
	case f.Kind == Chunking && !slices.Contains(f.Columns, ColumnPOS):
		return fmt.Errorf("features: %s features need a column named %q (the part-of-speech tags), got columns %v", Chunking, ColumnPOS, f.Columns)
	}
	return nil
}

// Extract returns the attribute strings of every token of a sequence;
// columns[c][t] is extra column c of token t (NER features use them,
// chunking features the one named pos; citation features read the tokens
// alone). Given attributes come with the data, not from tokens: every token
// has none.
func (f Features) Extract(tokens []string, columns [][]string) [][]string {
	switch f.Kind {
	case Given:
		return make([][]string, len(tokens))
	case Chunking:
		var tags []string // a text without its POS column (Check requires the name) reads empty tags
		if c := slices.Index(f.columnNames(len(columns)), ColumnPOS); c >= 0 && c < len(columns) {
			tags = columns[c]
		}
		return features.Chunking(tokens, tags)
	case NER:
		return features.NER(tokens, columns, f.columnNames(len(columns)), features.NEROptions{Window: f.Window, Affixes: f.Affixes})
	}
	return features.Extract(tokens, features.Options{Window: f.Window, Affixes: f.Affixes, NoLexicons: f.NoLexicons})
}

// ColumnPOS names the column of part-of-speech tags that [Chunking]
// features read.
const ColumnPOS = "pos"

// columnNames returns the names of n extra columns: the declared ones,
// then c<k> for column k (from 1) beyond them.
func (f Features) columnNames(n int) []string {
	if n <= len(f.Columns) {
		return f.Columns
	}
	names := make([]string, n)
	copy(names, f.Columns)
	for k := len(f.Columns); k < n; k++ {
		names[k] = "c" + strconv.Itoa(k+1)
	}
	return names
}

func indexed(x *features.Index, name string) bool {
	_, ok := x.Lookup(name)
	return ok
}

// expandPairs adds to every token of attrs the degree-2 attributes x
// indexes (features.Pairs' a⇥b names, kept in training with MinCount):
// the pairs of the token's indexed attributes whose name x knows. On
// training tokens it is features.Pairs.Expand, so a model predicts what
// it was trained on; pairs training never kept stay unknown, as unknown
// attributes do.
func expandPairs(x *features.Index, attrs [][]string) [][]string {
	out := make([][]string, len(attrs))
	for t, tok := range attrs {
		var known []string
		for _, a := range tok {
			if _, ok := x.Lookup(a); ok && !features.IsPair(a) {
				known = append(known, a)
			}
		}
		slices.Sort(known)
		known = slices.Compact(known)
		out[t] = slices.Clip(tok)
		for i, a := range known {
			for _, b := range known[i+1:] {
				if name := a + features.PairSeparator + b; indexed(x, name) {
					out[t] = append(out[t], name)
				}
			}
		}
	}
	return out
}
