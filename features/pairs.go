package features

import (
	"slices"
	"strings"
)

// PairSeparator joins the two attributes of a degree-2 attribute. Attributes
// come from whitespace-delimited tokens and columns, so none contains a
// tab, and a pair's name cannot be mistaken for another's.
const PairSeparator = "\t"

// Pairs is the degree-2 expansion of sparse attributes: for every token,
// the products of two of its distinct active attributes, named a⇥b with a <
// b. It is the explicit feature map of the degree-2 polynomial kernel
// (x·x' + 1)² on a token's binary attribute vector, up to the constant and
// the √2 weights a linear model absorbs (as Pixels' degree 2 is for letter
// images), but sparse: only pairs that occur together at least minCount
// times in the training tokens are kept, so the map has the size of the
// training data's co-occurrences, not of the attribute set squared.
//
// Pruning is exact and cheap: a pair occurs in no more tokens than either of
// its attributes, so only attributes themselves seen minCount times are
// paired, and pairs are counted by their attributes' ranks, their names
// made only for the pairs kept. Counts are of tokens (an attribute repeated
// within a token counts once), which is what BuildIndexMinCount's count of
// an attribute is for attribute lists without repeats, as the templates
// make them.
type Pairs struct {
	rank  map[string]int32  // kept attribute → rank in sorted order
	names map[uint64]string // kept pair (lo<<32 | hi ranks) → its name
}

// BuildPairs counts the pairs of the training sequences' tokens (per
// sequence, per token, the attributes from a template) and keeps those seen
// at least minCount times (minCount ≤ 1 keeps every pair seen). Pass the
// training part only, as for the attribute index.
func BuildPairs(train [][][]string, minCount int) *Pairs {
	minCount = max(minCount, 1)
	count := map[string]int{}
	for _, seq := range train {
		for _, tok := range seq {
			for _, a := range distinct(tok) {
				count[a]++
			}
		}
	}
	var kept []string
	for a, c := range count {
		if c >= minCount {
			kept = append(kept, a)
		}
	}
	slices.Sort(kept)
	p := &Pairs{rank: make(map[string]int32, len(kept)), names: map[uint64]string{}}
	for r, a := range kept {
		p.rank[a] = int32(r)
	}
	pairs := map[uint64]int32{}
	var ranks []int32
	for _, seq := range train {
		for _, tok := range seq {
			ranks = p.ranksOf(tok, ranks[:0])
			for i, lo := range ranks {
				for _, hi := range ranks[i+1:] {
					pairs[uint64(lo)<<32|uint64(hi)]++
				}
			}
		}
	}
	for k, c := range pairs {
		if int(c) >= minCount {
			p.names[k] = kept[k>>32] + PairSeparator + kept[uint32(k)]
		}
	}
	return p
}

// distinct returns tok's attributes without repeats (tok itself when it has
// none, the templates' usual case).
func distinct(tok []string) []string {
	for i, a := range tok {
		if slices.Contains(tok[:i], a) {
			out := slices.Clone(tok)
			slices.Sort(out)
			return slices.Compact(out)
		}
	}
	return tok
}

// ranksOf appends the ranks of tok's kept attributes to dst, increasing and
// without repeats.
func (p *Pairs) ranksOf(tok []string, dst []int32) []int32 {
	for _, a := range tok {
		if r, ok := p.rank[a]; ok {
			dst = append(dst, r)
		}
	}
	slices.Sort(dst)
	return slices.Compact(dst)
}

// Len returns the number of pairs kept.
func (p *Pairs) Len() int { return len(p.names) }

// Attributes returns the number of attributes that take part in pairs (those
// seen at least minCount times).
func (p *Pairs) Attributes() int { return len(p.rank) }

// NameBytes returns the bytes of the kept pairs' names, the bulk of what an
// attribute index holds for them.
func (p *Pairs) NameBytes() int {
	n := 0
	for _, s := range p.names {
		n += len(s)
	}
	return n
}

// Expand returns a token's attributes followed by its kept pairs, in a
// fixed order (by the pairs' attribute ranks); pairs never seen in
// training, e.g. of a test token, are left out, as unknown attributes are.
func (p *Pairs) Expand(tok []string) []string {
	ranks := p.ranksOf(tok, nil)
	out := slices.Clip(tok)
	for i, lo := range ranks {
		for _, hi := range ranks[i+1:] {
			if name, ok := p.names[uint64(lo)<<32|uint64(hi)]; ok {
				out = append(out, name)
			}
		}
	}
	return out
}

// ExpandAll is Expand for every token of every sequence.
func (p *Pairs) ExpandAll(seqs [][][]string) [][][]string {
	out := make([][][]string, len(seqs))
	for i, seq := range seqs {
		out[i] = make([][]string, len(seq))
		for t, tok := range seq {
			out[i][t] = p.Expand(tok)
		}
	}
	return out
}

// IsPair reports whether an attribute is a pair's name.
func IsPair(name string) bool { return strings.Contains(name, PairSeparator) }

// SplitPair returns the two attributes of a pair's name, and false for an
// attribute that is not a pair.
func SplitPair(name string) (a, b string, ok bool) {
	return strings.Cut(name, PairSeparator)
}
