package features

import (
	"fmt"
	"math"
	"slices"
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
	long   []bool   // the word has more than 5 letters (never the root)
	p5     []string // the prefix templates' word: "5:" and its first 5 letters
	tags   []string
	coarse []string // nil without coarse tags
}

// NewDependency prepares a sentence for arc features; words[i], tags[i]
// (fine) and coarse[i] belong to word i+1. coarse may be nil (no coarse
// templates); otherwise it has a tag for every word.
func NewDependency(words, tags, coarse []string) *Dependency {
	n := len(words)
	f := &Dependency{words: make([]string, n+1), long: make([]bool, n+1), p5: make([]string, n+1), tags: make([]string, n+1)}
	f.words[0], f.tags[0], f.p5[0] = "<root>", "<root>", "5:<root>"
	if coarse != nil {
		f.coarse = make([]string, n+1)
		f.coarse[0] = "<root>"
		copy(f.coarse[1:], coarse)
	}
	for i := range words {
		w := strings.ToLower(words[i])
		f.words[i+1], f.tags[i+1] = w, tags[i]
		f.p5[i+1] = "5:" + w
		if r := []rune(w); len(r) > 5 {
			f.long[i+1], f.p5[i+1] = true, "5:"+string(r[:5])
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

// mixBytes continues hash h with the bytes of p and no separator:
// mix(mixBytes(h, a), b) == mix(h, a+b).
func mixBytes(h uint64, p string) uint64 {
	for i := 0; i < len(p); i++ {
		h ^= uint64(p[i])
		h *= fnvPrime
	}
	return h
}

// Len returns the number of words.
func (f *Dependency) Len() int { return len(f.words) - 1 }

// distanceBuckets are the arcs' direction ("L" when the head is to the
// right of the dependent, else "R") joined to their length bucketed: 1, 2,
// 3, 4, 5, 6-10, >10.
var distanceBuckets = [2][7]string{
	{"R1", "R2", "R3", "R4", "R5", "R6-10", "R>10"},
	{"L1", "L2", "L3", "L4", "L5", "L6-10", "L>10"},
}

// directedDistance returns the direction and bucketed length of an arc of
// length n ≥ 1 (an arc from a word to itself has none: it panics), such
// as "L6-10".
func directedDistance(left bool, n int) string {
	dir := 0
	if left {
		dir = 1
	}
	switch {
	case n <= 5:
		return distanceBuckets[dir][n-1]
	case n <= 10:
		return distanceBuckets[dir][5]
	}
	return distanceBuckets[dir][6]
}

// Arc calls emit with every feature hash of the arc h → d (h ≠ d). It builds no
// strings: a template's hash is mixed from its name and parts as they
// stand (a unit encodes every arc of its treebank, millions of them).
func (f *Dependency) Arc(h, d int, emit func(uint64)) {
	lo, hi := h, d
	if d < h {
		lo, hi = d, h
	}
	a := arcEmitter{emit: emit, dd: directedDistance(d < h, hi-lo)}
	hw, dw := f.words[h], f.words[d]
	a.both(hash("hw", hw))
	a.both(hash("dw", dw))
	a.both(hash("hw.dw", hw, dw))
	f.tagged(&a, f.tags, "", h, d, lo, hi, hw, dw)
	if f.long[h] || f.long[d] {
		hw5, dw5 := f.p5[h], f.p5[d]
		a.both(hash("hw", hw5))
		a.both(hash("dw", dw5))
		a.both(hash("hw.dw", hw5, dw5))
		a.wordTag("", hw5, dw5, f.tags[h], f.tags[d])
	}
	if f.coarse != nil {
		f.tagged(&a, f.coarse, "c:", h, d, lo, hi, hw, dw)
	}
}

// arcEmitter emits the features of one arc: each template's hash alone,
// and conjoined with the arc's direction and bucketed length dd.
type arcEmitter struct {
	emit func(uint64)
	dd   string
}

// both emits the template hash h, then h conjoined with the arc's
// direction and length.
func (a *arcEmitter) both(h uint64) {
	a.emit(h)
	a.emit(mix(h, a.dd)) // hash(parts..., dd), without hashing parts again
}

// named emits the template whose name is kind+name (hashed without
// joining them) with the given parts.
func (a *arcEmitter) named(kind, name string, parts ...string) {
	h := mix(mixBytes(fnvOffset, kind), name)
	for _, p := range parts {
		h = mix(h, p)
	}
	a.both(h)
}

// wordTag emits the templates with both a word and a tag in them, for
// words hw, dw and tags hp, dp, their names prefixed by kind.
func (a *arcEmitter) wordTag(kind, hw, dw, hp, dp string) {
	a.named(kind, "hw.hp", hw, hp)
	a.named(kind, "dw.dp", dw, dp)
	a.named(kind, "hw.hp.dw.dp", hw, hp, dw, dp)
	a.named(kind, "hp.dw.dp", hp, dw, dp)
	a.named(kind, "hw.dw.dp", hw, dw, dp)
	a.named(kind, "hw.hp.dp", hw, hp, dp)
	a.named(kind, "hw.hp.dw", hw, hp, dw)
}

// tagged emits every template of the arc h → d with a tag in it, the tags
// taken from tags and the template names prefixed by kind ("" for the
// fine tags, "c:" for the coarse ones).
func (f *Dependency) tagged(a *arcEmitter, tags []string, kind string, h, d, lo, hi int, hw, dw string) {
	hp, dp := tags[h], tags[d]
	a.wordTag(kind, hw, dw, hp, dp)
	a.named(kind, "hp", hp)
	a.named(kind, "dp", dp)
	a.named(kind, "hp.dp", hp, dp)
	if lo+1 < hi {
		// hash(kind+"hp.bp.dp", hp, bp, dp): the prefix up to hp once.
		prefix := mix(mix(mixBytes(fnvOffset, kind), "hp.bp.dp"), hp)
		for b := lo + 1; b < hi; b++ {
			a.both(mix(mix(prefix, tags[b]), dp))
		}
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
	a.named(kind, "hp.hp+1.dp-1.dp", hp, tag(h+1), tag(d-1), dp)
	a.named(kind, "hp-1.hp.dp-1.dp", tag(h-1), hp, tag(d-1), dp)
	a.named(kind, "hp.hp+1.dp.dp+1", hp, tag(h+1), dp, tag(d+1))
	a.named(kind, "hp-1.hp.dp.dp+1", tag(h-1), hp, dp, tag(d+1))
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

// Hashes returns the indexed hashes in id order: what a model file stores,
// and [HashIndexOf] reads back.
func (x *HashIndex) Hashes() []uint64 {
	out := make([]uint64, len(x.ids))
	for h, id := range x.ids {
		out[id] = h
	}
	return out
}

// HashIndexOf returns the index that numbers hashes[i] i, or an error if a
// hash appears twice.
func HashIndexOf(hashes []uint64) (*HashIndex, error) {
	x := &HashIndex{ids: make(map[uint64]int32, len(hashes))}
	for i, h := range hashes {
		if _, dup := x.ids[h]; dup {
			return nil, fmt.Errorf("feature hash %#x appears twice (ids %d and %d)", h, x.ids[h], i)
		}
		x.ids[h] = int32(i)
	}
	return x, nil
}

// IndexTree adds the features of the arcs of a tree (heads[d] for d ≥ 1,
// as decoders/mst lays them out): MSTParser's feature alphabet holds the
// features of the training trees' arcs only.
func (f *Dependency) IndexTree(x *HashIndex, heads []int) {
	for d := 1; d < len(heads); d++ {
		f.Arc(heads[d], d, func(h uint64) { x.Add(h) })
	}
}

// EncodeArcs returns the sorted, distinct ids of the indexed features of
// every arc h → d, flat: those of arc a = h*(n+1)+d are
// ids[start[a]:start[a+1]] (none for d = 0 and h = d); unindexed features
// are dropped. One array per sentence, not one per arc: a treebank has
// millions of arcs, and a slice each cost a 24-byte header (20 more than
// an offset) and a pointer for the collector to trace.
func (f *Dependency) EncodeArcs(x *HashIndex) (start, ids []int32) {
	m := len(f.words)
	start = make([]int32, m*m+1)
	var buf []int32
	for h := range m {
		for d := range m {
			a := h*m + d
			start[a] = int32(len(ids))
			if d == 0 || h == d {
				continue
			}
			buf = buf[:0]
			f.Arc(h, d, func(hh uint64) {
				if id, ok := x.ids[hh]; ok {
					buf = append(buf, id)
				}
			})
			slices.Sort(buf)
			ids = append(ids, slices.Compact(buf)...)
			if len(ids) > math.MaxInt32 {
				panic(fmt.Sprintf("features: a sentence of %d words has 2³¹ or more arc features", m-1))
			}
		}
	}
	start[m*m] = int32(len(ids))
	return start, slices.Clone(ids) // without append's spare capacity
}
