package features

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func arcHashes(f *Dependency, h, d int) []uint64 {
	var out []uint64
	f.Arc(h, d, func(x uint64) { out = append(out, x) })
	return out
}

func TestDependencyArcFeatures(t *testing.T) {
	f := NewDependency([]string{"The", "bankruptcy", "ends", "."}, []string{"DT", "NN", "VBZ", "."}, nil)
	if f.Len() != 4 {
		t.Fatalf("%d words", f.Len())
	}
	// 20 templates with bankruptcy's 5-prefix, 3 around... counted: each
	// emitted alone and with direction and distance.
	a := arcHashes(f, 3, 2) // ends → bankruptcy: a word longer than 5
	b := arcHashes(f, 3, 1) // ends → The: one tag in between
	if len(a)%2 != 0 || len(b)%2 != 0 {
		t.Fatalf("features come in pairs (alone, with direction and distance): %d, %d", len(a), len(b))
	}
	// unigram+bigram 10 templates, twice with the 5-prefix; 3 tag
	// templates; 4 around; between: one for (3,1).
	if want := 2 * (2*10 + 3 + 4); len(a) != want {
		t.Errorf("ends→bankruptcy: %d features, want %d", len(a), want)
	}
	if want := 2 * (10 + 3 + 4 + 1); len(b) != want {
		t.Errorf("ends→The: %d features, want %d", len(b), want)
	}
	// The same arc in the other direction shares the undirected features
	// only where the templates coincide; the directed ones all differ.
	rev := arcHashes(f, 2, 3)
	for i := 1; i < len(a); i += 2 {
		if slices.Contains(rev, a[i]) {
			t.Errorf("directed feature %d of 3→2 also fires on 2→3", i)
		}
	}
	// Hashes are the same in every process (FNV-1a): a fixed value.
	if got := hash("hw", "ends"); got != hash("hw", "ends") || got == hash("hw", "end") || got == hash("hwe", "nds") {
		t.Error("hash not a function of the parts")
	}
	root := arcHashes(f, 0, 3)
	if len(root) == 0 {
		t.Error("no root features")
	}
}

func TestDependencyEncodeArcs(t *testing.T) {
	f := NewDependency([]string{"a", "b", "c"}, []string{"X", "Y", "Z"}, nil)
	var x HashIndex
	heads := []int{-1, 2, 0, 2}
	f.IndexTree(&x, heads)
	start, ids := f.EncodeArcs(&x)
	m := 4
	if len(start) != m*m+1 || start[0] != 0 || int(start[m*m]) != len(ids) {
		t.Fatalf("offsets %v over %d ids, want %d from 0 to the end", start, len(ids), m*m+1)
	}
	arc := func(h, d int) []int32 { return ids[start[h*m+d]:start[h*m+d+1]] }
	for h := range m {
		for d := range m {
			ids := arc(h, d)
			switch {
			case d == 0 || h == d:
				if len(ids) != 0 {
					t.Errorf("arc %d→%d has features", h, d)
				}
			case heads[d] == h:
				if len(ids) != len(arcHashes(f, h, d)) || !slices.IsSorted(ids) {
					t.Errorf("gold arc %d→%d: %d ids, want every one of its %d features", h, d, len(ids), len(arcHashes(f, h, d)))
				}
			}
		}
	}
	// A non-gold arc keeps only the features the gold arcs share with it.
	if n := len(arc(1, 3)); n >= len(arcHashes(f, 1, 3)) {
		t.Errorf("arc 1→3 keeps %d of %d features", n, len(arcHashes(f, 1, 3)))
	}
}

// TestDependencyCoarseTags: given coarse tags, every tag template is emitted
// again over them (MSTParser's CPOS and HCA features), so arcs whose fine
// tags differ (morphology in Talbanken's XPOS) still share features; the
// fine-tag features are those without coarse tags.
func TestDependencyCoarseTags(t *testing.T) {
	words := []string{"en", "stor", "bil"}
	fine := NewDependency(words, []string{"DT|UTR|SIN|IND", "JJ|POS|UTR|SIN|IND|NOM", "NN|UTR|SIN|IND|NOM"}, nil)
	plural := NewDependency(words, []string{"DT|UTR/NEU|PLU|IND", "JJ|POS|UTR/NEU|PLU|IND|NOM", "NN|UTR|PLU|IND|NOM"}, nil)
	coarse := NewDependency(words, fine.tags[1:], []string{"DET", "ADJ", "NOUN"})
	coarsePlural := NewDependency(words, plural.tags[1:], []string{"DET", "ADJ", "NOUN"})
	for _, tc := range []struct {
		h, d    int
		between int
	}{
		{3, 1, 1}, // bil → en, over stor
		{3, 2, 0}, // bil → stor
		{0, 3, 2}, // root → bil
	} {
		f, c := arcHashes(fine, tc.h, tc.d), arcHashes(coarse, tc.h, tc.d)
		// 7 word-and-tag, 3 tag, 4 around templates and the between ones,
		// each alone and with direction and distance.
		if want := len(f) + 2*(7+3+4+tc.between); len(c) != want {
			t.Errorf("%d→%d: %d features with coarse tags, want %d", tc.h, tc.d, len(c), want)
		}
		for _, x := range f {
			if !slices.Contains(c, x) {
				t.Errorf("%d→%d: a fine-tag feature is missing with coarse tags", tc.h, tc.d)
				break
			}
		}
		shared := func(a, b []uint64) (n int) {
			for _, x := range a {
				if slices.Contains(b, x) {
					n++
				}
			}
			return n
		}
		// The singular and plural arcs share only word features on fine
		// tags, and every coarse one besides.
		sf, sc := shared(f, arcHashes(plural, tc.h, tc.d)), shared(c, arcHashes(coarsePlural, tc.h, tc.d))
		if sc-sf != 2*(7+3+4+tc.between) {
			t.Errorf("%d→%d: singular and plural share %d features on fine tags and %d with coarse ones, want %d more", tc.h, tc.d, sf, sc, 2*(7+3+4+tc.between))
		}
	}
}

// BenchmarkEncodeArcs encodes every arc of a 30-word sentence with fine
// and coarse tags through an index of all its arcs' features: the work a
// parsing unit does per sentence, (n+1)·n arcs each.
func BenchmarkEncodeArcs(b *testing.B) {
	const n = 30
	words, tags, coarse := make([]string, n), make([]string, n), make([]string, n)
	for i := range n {
		words[i] = fmt.Sprintf("word%d", i%11)
		tags[i] = fmt.Sprintf("NN|F%d", i%5)
		coarse[i] = fmt.Sprintf("C%d", i%3)
	}
	f := NewDependency(words, tags, coarse)
	var x HashIndex
	for h := 0; h <= n; h++ {
		for d := 1; d <= n; d++ {
			if h != d {
				f.Arc(h, d, func(v uint64) { x.Add(v) })
			}
		}
	}
	for b.Loop() {
		f.EncodeArcs(&x)
	}
}

// mix extends a hash by one part exactly as hashing the longer list would,
// so emitting a template with and without the arc's direction hashes its
// parts once.
func TestMixExtendsHash(t *testing.T) {
	for _, parts := range [][]string{{}, {"hw"}, {"hw.hp", "word", "NN"}, {"", "c:hp", "ä"}} {
		for _, extra := range []string{"R1", "L>10", ""} {
			if got, want := mix(hash(parts...), extra), hash(append(slices.Clone(parts), extra)...); got != want {
				t.Errorf("mix(hash(%q), %q) = %x, want %x", parts, extra, got, want)
			}
		}
	}
}

// TestHashIndexRoundTrip: an index read back from its hashes numbers every
// hash as the original did, and a repeated hash is refused.
func TestHashIndexRoundTrip(t *testing.T) {
	var x HashIndex
	f := NewDependency([]string{"The", "dog", "barked"}, []string{"DT", "NN", "VBD"}, nil)
	f.IndexTree(&x, []int{-1, 2, 3, 0})
	y, err := HashIndexOf(x.Hashes())
	if err != nil {
		t.Fatal(err)
	}
	if y.Len() != x.Len() || x.Len() == 0 {
		t.Fatalf("%d ids read back, want %d (> 0)", y.Len(), x.Len())
	}
	for h, id := range x.ids {
		if y.ids[h] != id {
			t.Fatalf("hash %#x: id %d, want %d", h, y.ids[h], id)
		}
	}
	if _, err := HashIndexOf([]uint64{7, 8, 7}); err == nil || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("repeated hash: error %v", err)
	}
}
