package taxonomy_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/taxonomy"
)

// tiny is unbalanced: c sits one level above a and b.
//
//	root ─┬─ g ─┬─ h ─┬─ a
//	      │     │     └─ b
//	      │     └─ c
//	      └─ d
const tiny = `
- g:
    - h: [a, b]
    - c
- d
`

func TestTinyTreeByHand(t *testing.T) {
	t.Parallel()
	tr, err := taxonomy.Parse([]byte(tiny), "tiny.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := tr.Classes(), []string{"a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("classes %v, want %v", got, want)
	}
	if got, want := tr.Nodes(), []string{"g", "h", "a", "b", "c", "d"}; !slices.Equal(got, want) {
		t.Fatalf("nodes %v, want %v", got, want)
	}
	if tr.Height() != 3 {
		t.Errorf("height %d, want 3", tr.Height())
	}
	// Λ by hand: nodes g h a b c d.
	wantLambda := [][]float64{
		{1, 1, 1, 0, 0, 0}, // a: g, h, a
		{1, 1, 0, 1, 0, 0}, // b: g, h, b
		{1, 0, 0, 0, 1, 0}, // c: g, c
		{0, 0, 0, 0, 0, 1}, // d: d
	}
	emb := tr.Embedding()
	if emb.M != 6 {
		t.Fatalf("M = %d, want 6", emb.M)
	}
	for y, row := range emb.Rows {
		dense := make([]float64, emb.M)
		for i, n := range row.Idx {
			dense[n] = row.Val[i]
		}
		if !slices.Equal(dense, wantLambda[y]) {
			t.Errorf("Λ(%s) = %v, want %v", tr.Classes()[y], dense, wantLambda[y])
		}
	}
	// The padded tree puts c under a single-child node at depth 3:
	// lca(a, b) = h at depth 2 → 1; lca(a, c) = g at depth 1 → 2;
	// lca(x, d) = root → 3.
	wantLoss := []float64{
		0, 1, 2, 3,
		1, 0, 2, 3,
		2, 2, 0, 3,
		3, 3, 3, 0,
	}
	cost := tr.Cost()
	if cost.K != 4 || !slices.Equal(cost.M, wantLoss) {
		t.Errorf("cost %v, want %v", cost.M, wantLoss)
	}
	if err := cost.Validate(); err != nil {
		t.Error(err)
	}
	if y, ok := tr.Class("c"); !ok || y != 2 {
		t.Errorf("Class(c) = %d, %v", y, ok)
	}
	if _, ok := tr.Class("g"); ok {
		t.Error("an inner node is no class")
	}
}

func TestParseErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, doc, want string }{
		{"duplicate", "- a\n- g: [a, b]\n", "t.yaml:2: node \"a\" already defined at line 1"},
		{"one class", "- a\n", "at least 2 classes"},
		{"not a list", "a: [b, c]\n", "t.yaml:1: expected a list of children, found a mapping"},
		{"two keys", "- a\n- {g: [b], h: [c]}\n", "t.yaml:2: an inner node is a mapping with one key"},
		{"no children", "- a\n- g: []\n", "t.yaml:2: a node with no children"},
		{"leaf is a list", "- a\n- [b, c]\n", "t.yaml:2: expected a class name"},
		{"syntax", "- a\n- [b\n", "t.yaml:2"},
		{"empty", "", "t.yaml: the taxonomy is empty"},
	} {
		_, err := taxonomy.Parse([]byte(tc.doc), "t.yaml")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// The Brown Corpus's genres as a tree (the corpus manual's top split,
// CONTENTS's groups): informative prose is unbalanced, press being one
// level deeper than religion.
func Example() {
	const brown = `
- informative:
    - press: [news, editorial, reviews]
    - religion
    - hobbies
    - lore
    - belles_lettres
    - government
    - learned
- imaginative:
    - fiction-genres: [fiction, mystery, science_fiction, adventure, romance]
    - humor
`
	tr, err := taxonomy.Parse([]byte(brown), "brown.yaml")
	if err != nil {
		fmt.Println(err)
		return
	}
	classes := tr.Classes()
	cost := tr.Cost()
	fmt.Println(len(classes), "classes, height", tr.Height(), "nodes", len(tr.Nodes()))
	for _, pair := range [][2]string{{"news", "editorial"}, {"news", "religion"}, {"religion", "learned"}, {"mystery", "humor"}, {"news", "mystery"}} {
		y, _ := tr.Class(pair[0])
		y2, _ := tr.Class(pair[1])
		fmt.Printf("Δ(%s, %s) = %v\n", pair[0], pair[1], cost.M[y*cost.K+y2])
	}
	// Output:
	// 15 classes, height 3 nodes 19
	// Δ(news, editorial) = 1
	// Δ(news, religion) = 2
	// Δ(religion, learned) = 2
	// Δ(mystery, humor) = 2
	// Δ(news, mystery) = 3
}
