package features

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// Arc features for first-order dependency parsing, after McDonald, Crammer
// & Pereira (2005), "Online large-margin training of dependency parsers",
// Table 1, for an arc from head h to dependent d (h = 0 is the root, whose
// word and tag are "<root>"):
//
//	unigram   hw·hp, hw, hp, dw·dp, dw, dp
//	bigram    hw·hp·dw·dp, hp·dw·dp, hw·dw·dp, hw·hp·dp, hw·hp·dw, hw·dw, hp·dp
//	between   hp·bp·dp for the tag bp of every word strictly between h and d
//	around    hp·hp+1·dp-1·dp, hp-1·hp·dp-1·dp, hp·hp+1·dp·dp+1, hp-1·hp·dp·dp+1
//	          (tags of the neighbours; "<s>"/"</s>" past the ends)
//
// where w is a word (lower-cased) and p its fine tag. Words longer than 5
// characters also give the unigram and bigram templates again with their
// 5-character prefixes in place of the words, as MSTParser does. Given
// coarse tags (CoNLL's CPOSTAG, CoNLL-U's UPOS), every template with a tag
// in it, except the prefix ones, is emitted once more with the coarse tags
// in place of the fine ones, as MSTParser does for CoNLL input (its "CPOS"
// linear features and "HCA" head-child features): fine tags that carry
// morphology (Talbanken's NN|UTR|SIN|IND|NOM) are too sparse alone. Every
// feature is emitted twice: alone, and conjoined with the arc's direction
// and its length bucketed (1, 2, 3, 4, 5, 6–10, > 10). Features are
// 64-bit hashes of the template name and its parts (collisions are
// possible but, at these vocabulary sizes, negligibly rare; FNV-1a, the
// same in every process), so that the (n+1)·n arcs of a sentence need no
// strings.
type Dependency struct {
	words  []string // index 0 is the root
	pre5   []string // 5-character prefixes ("" if the word is not longer)
	tags   []string
	coarse []string // nil without coarse tags
}

// NewDependency prepares a sentence for arc features; words[i], tags[i]
// (fine) and coarse[i] belong to word i+1. coarse may be nil (no coarse
// templates); otherwise it has a tag for every word.
func NewDependency(words, tags, coarse []string) *Dependency {
	n := len(words)
	f := &Dependency{words: make([]string, n+1), pre5: make([]string, n+1), tags: make([]string, n+1)}
	f.words[0], f.tags[0] = "<root>", "<root>"
	if coarse != nil {
		f.coarse = make([]string, n+1)
		f.coarse[0] = "<root>"
		copy(f.coarse[1:], coarse)
	}
	for i := range words {
		w := strings.ToLower(words[i])
		f.words[i+1], f.tags[i+1] = w, tags[i]
		if r := []rune(w); len(r) > 5 {
			f.pre5[i+1] = string(r[:5])
		}
	}
	return f
}

// FNV-1a (64 bits) parameters of the feature hashes.
const fnvOffset, fnvPrime = 14695981039346656037, 1099511628211

// hash mixes the parts of one feature deterministically (FNV-1a, 64 bits),
// independent of the process.
func hash(parts ...string) uint64 {
	h := uint64(fnvOffset)
	for _, p := range parts {
		h = mix(h, p)
	}
	return h
}

// mix continues hash h with one more part: hash(a, b) == mix(hash(a), b).
func mix(h uint64, p string) uint64 {
	for i := 0; i < len(p); i++ {
		h ^= uint64(p[i])
		h *= fnvPrime
	}
	h ^= 0xff // part separator
	h *= fnvPrime
	return h
}

// Len returns the number of words.
func (f *Dependency) Len() int { return len(f.words) - 1 }

// distance buckets an arc length.
func distance(n int) string {
	switch {
	case n <= 5:
		return strconv.Itoa(n)
	case n <= 10:
		return "6-10"
	}
	return ">10"
}

// Arc calls emit with every feature hash of the arc h → d.
func (f *Dependency) Arc(h, d int, emit func(uint64)) {
	dir := "R"
	lo, hi := h, d
	if d < h {
		dir, lo, hi = "L", d, h
	}
	dd := dir + distance(hi-lo)
	both := func(parts ...string) {
		h := hash(parts...)
		emit(h)
		emit(mix(h, dd)) // hash(parts..., dd), without hashing parts again
	}
	hw, dw := f.words[h], f.words[d]
	both("hw", hw)
	both("dw", dw)
	both("hw.dw", hw, dw)
	f.tagged(f.tags, "", h, d, lo, hi, hw, dw, both)
	if f.pre5[h] != "" || f.pre5[d] != "" {
		hw5, dw5 := cmp.Or(f.pre5[h], hw), cmp.Or(f.pre5[d], dw)
		hw5, dw5 = "5:"+hw5, "5:"+dw5
		both("hw", hw5)
		both("dw", dw5)
		both("hw.dw", hw5, dw5)
		wordTag(named(both, ""), hw5, dw5, f.tags[h], f.tags[d])
	}
	if f.coarse != nil {
		f.tagged(f.coarse, "c:", h, d, lo, hi, hw, dw, both)
	}
}

// named returns a function emitting, through both, the template name
// prefixed by kind followed by the template's parts.
func named(both func(...string), kind string) func(name string, parts ...string) {
	return func(name string, parts ...string) { both(append([]string{kind + name}, parts...)...) }
}

// wordTag emits the templates with both a word and a tag in them, for
// words hw, dw and tags hp, dp.
func wordTag(emit func(name string, parts ...string), hw, dw, hp, dp string) {
	emit("hw.hp", hw, hp)
	emit("dw.dp", dw, dp)
	emit("hw.hp.dw.dp", hw, hp, dw, dp)
	emit("hp.dw.dp", hp, dw, dp)
	emit("hw.dw.dp", hw, dw, dp)
	emit("hw.hp.dp", hw, hp, dp)
	emit("hw.hp.dw", hw, hp, dw)
}

// tagged emits every template of the arc h → d with a tag in it, the tags
// taken from tags and the template names prefixed by kind ("" for the
// fine tags, "c:" for the coarse ones).
func (f *Dependency) tagged(tags []string, kind string, h, d, lo, hi int, hw, dw string, both func(...string)) {
	emit := named(both, kind)
	hp, dp := tags[h], tags[d]
	wordTag(emit, hw, dw, hp, dp)
	emit("hp", hp)
	emit("dp", dp)
	emit("hp.dp", hp, dp)
	for b := lo + 1; b < hi; b++ {
		emit("hp.bp.dp", hp, tags[b], dp)
	}
	tag := func(i int) string {
		switch {
		case i < 0:
			return "<s>"
		case i >= len(tags):
			return "</s>"
		}
		return tags[i]
	}
	emit("hp.hp+1.dp-1.dp", hp, tag(h+1), tag(d-1), dp)
	emit("hp-1.hp.dp-1.dp", tag(h-1), hp, tag(d-1), dp)
	emit("hp.hp+1.dp.dp+1", hp, tag(h+1), dp, tag(d+1))
	emit("hp-1.hp.dp.dp+1", tag(h-1), hp, dp, tag(d+1))
}

// HashIndex numbers feature hashes densely from 0 in first-seen order. The
// zero value is ready to use.
type HashIndex struct {
	ids map[uint64]int32
}

// Add returns the id of h, assigning the next free id if it is new.
func (x *HashIndex) Add(h uint64) int32 {
	if id, ok := x.ids[h]; ok {
		return id
	}
	if x.ids == nil {
		x.ids = make(map[uint64]int32)
	}
	id := int32(len(x.ids))
	x.ids[h] = id
	return id
}

// Len returns the number of indexed features; ids are 0..Len()-1.
func (x *HashIndex) Len() int { return len(x.ids) }

// IndexTree adds the features of the arcs of a tree (heads[d] for d ≥ 1,
// as decoders/mst lays them out): MSTParser's feature alphabet holds the
// features of the training trees' arcs only.
func (f *Dependency) IndexTree(x *HashIndex, heads []int) {
	for d := 1; d < len(heads); d++ {
		f.Arc(heads[d], d, func(h uint64) { x.Add(h) })
	}
}

// EncodeArcs returns the sorted, distinct ids of the indexed features of
// every arc h → d at [h*(n+1)+d] (nil for d = 0 and h = d); unindexed
// features are dropped.
func (f *Dependency) EncodeArcs(x *HashIndex) [][]int32 {
	m := len(f.words)
	out := make([][]int32, m*m)
	var buf []int32
	for h := range m {
		for d := 1; d < m; d++ {
			if h == d {
				continue
			}
			buf = buf[:0]
			f.Arc(h, d, func(hh uint64) {
				if id, ok := x.ids[hh]; ok {
					buf = append(buf, id)
				}
			})
			slices.Sort(buf)
			out[h*m+d] = slices.Clone(slices.Compact(buf))
		}
	}
	return out
}
