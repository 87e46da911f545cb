package features

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
)

// refPrefix is word i's 5-letter prefix if it is longer, else "" (and
// always "" for the root, 0), taken here rather than from NewDependency
// so that the reference does not share its code.
func refPrefix(f *Dependency, i int) string {
	if r := []rune(f.words[i]); i > 0 && len(r) > 5 {
		return string(r[:5])
	}
	return ""
}

// refDistance buckets an arc length, as refArc did.
func refDistance(n int) string {
	switch {
	case n <= 5:
		return strconv.Itoa(n)
	case n <= 10:
		return "6-10"
	}
	return ">10"
}

// refArc is the arc feature extraction as first written, over strings:
// the specification Dependency.Arc, which builds no strings, must match
// hash for hash and in the same order (ids are numbered in that order).
func refArc(f *Dependency, h, d int, emit func(uint64)) {
	dir := "R"
	lo, hi := h, d
	if d < h {
		dir, lo, hi = "L", d, h
	}
	dd := dir + refDistance(hi-lo)
	both := func(parts ...string) {
		h := hash(parts...)
		emit(h)
		emit(mix(h, dd)) // hash(parts..., dd), without hashing parts again
	}
	hw, dw := f.words[h], f.words[d]
	both("hw", hw)
	both("dw", dw)
	both("hw.dw", hw, dw)
	refTagged(f, f.tags, "", h, d, lo, hi, hw, dw, both)
	if refPrefix(f, h) != "" || refPrefix(f, d) != "" {
		hw5, dw5 := cmp.Or(refPrefix(f, h), hw), cmp.Or(refPrefix(f, d), dw)
		hw5, dw5 = "5:"+hw5, "5:"+dw5
		both("hw", hw5)
		both("dw", dw5)
		both("hw.dw", hw5, dw5)
		refWordTag(refNamed(both, ""), hw5, dw5, f.tags[h], f.tags[d])
	}
	if f.coarse != nil {
		refTagged(f, f.coarse, "c:", h, d, lo, hi, hw, dw, both)
	}
}

// refNamed returns a function emitting, through both, the template name
// prefixed by kind followed by the template's parts.
func refNamed(both func(...string), kind string) func(name string, parts ...string) {
	return func(name string, parts ...string) { both(append([]string{kind + name}, parts...)...) }
}

// refWordTag emits the templates with both a word and a tag in them, for
// words hw, dw and tags hp, dp.
func refWordTag(emit func(name string, parts ...string), hw, dw, hp, dp string) {
	emit("hw.hp", hw, hp)
	emit("dw.dp", dw, dp)
	emit("hw.hp.dw.dp", hw, hp, dw, dp)
	emit("hp.dw.dp", hp, dw, dp)
	emit("hw.dw.dp", hw, dw, dp)
	emit("hw.hp.dp", hw, hp, dp)
	emit("hw.hp.dw", hw, hp, dw)
}

// refTagged emits every template of the arc h → d with a tag in it, the tags
// taken from tags and the template names prefixed by kind ("" for the
// fine tags, "c:" for the coarse ones).
func refTagged(f *Dependency, tags []string, kind string, h, d, lo, hi int, hw, dw string, both func(...string)) {
	emit := refNamed(both, kind)
	hp, dp := tags[h], tags[d]
	refWordTag(emit, hw, dw, hp, dp)
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

// Dependency.Arc emits exactly refArc's hashes in refArc's order, on
// random sentences with and without coarse tags, long words (prefix
// templates), multi-byte letters and every arc length bucket.
func TestArcMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	// Words of exactly five letters (one- and two-byte) have no prefix
	// templates; longer ones do.
	vocab := []string{"a", "Bil", "stora", "ÅÄÖåä", "", "\xffab", "bankruptcy", "Ändringarna", "hus", "ÅÄÖåäöx", "."}
	tagset := []string{"NN", "VB", "DT|UTR|SIN", "JJ", "."}
	for trial := range 40 {
		n := 1 + rng.IntN(14)
		words, tags, coarse := make([]string, n), make([]string, n), make([]string, n)
		for i := range n {
			words[i], tags[i], coarse[i] = vocab[rng.IntN(len(vocab))], tagset[rng.IntN(len(tagset))], fmt.Sprint("C", rng.IntN(3))
		}
		if trial%2 == 0 {
			coarse = nil
		}
		f := NewDependency(words, tags, coarse)
		for h := 0; h <= n; h++ {
			for d := 1; d <= n; d++ {
				if h == d {
					continue
				}
				var got, want []uint64
				f.Arc(h, d, func(x uint64) { got = append(got, x) })
				refArc(f, h, d, func(x uint64) { want = append(want, x) })
				if !slices.Equal(got, want) {
					i := 0
					for i < min(len(got), len(want)) && got[i] == want[i] {
						i++
					}
					t.Fatalf("trial %d, arc %d→%d of %q: %d hashes, want refArc's %d; they first differ at %d", trial, h, d, words, len(got), len(want), i)
				}
			}
		}
	}
}
