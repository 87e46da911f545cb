package datasets_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

func TestReadBrownFixture(t *testing.T) {
	t.Parallel()
	texts, err := datasets.ReadBrown(filepath.Join("testdata", "brown"))
	if err != nil {
		t.Fatal(err)
	}
	want := []datasets.BrownText{
		{File: "ca01", Genre: 'a', Category: "news", Tokens: []string{"The", "Fulton", "jury", "said", "1-1/2", "times", ".", "The", "jury", "met", "."}},
		{File: "cb01", Genre: 'b', Category: "editorial", Tokens: []string{"Our", "view", ":", "the", "tax", "is", "wrong", "."}},
		{File: "ck01", Genre: 'k', Category: "fiction", Tokens: []string{"She", "smiled", ",", "and", "the", "door", "closed", "."}},
	}
	if len(texts) != len(want) {
		t.Fatalf("%d texts, want %d", len(texts), len(want))
	}
	for i, w := range want {
		g := texts[i]
		if g.File != w.File || g.Genre != w.Genre || g.Category != w.Category || !slices.Equal(g.Tokens, w.Tokens) {
			t.Errorf("text %d = %+v, want %+v", i, g, w)
		}
	}
}

func TestReadBrownErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		cats  string
		files map[string]string
		want  string
	}{
		{"untagged token", "ca01 news\n", map[string]string{"ca01": "a/at b\n"}, "ca01:1: token 2 \"b\" is not word/tag"},
		{"wrong category", "ca01 news\ncb01 news\n", map[string]string{"ca01": "a/at\n", "cb01": "b/at\n"}, "cats.txt:2: file cb01: category \"news\", but genre B is \"editorial\""},
		{"unknown genre", "ci01 news\n", nil, "cats.txt:1: file ci01: no genre 'i'"},
		{"missing file", "ca01 news\n", nil, "ca01: no such file"},
		{"duplicate", "ca01 news\nca01 news\n", map[string]string{"ca01": "a/at\n"}, "cats.txt:2: file ca01 already listed at line 1"},
		{"three fields", "ca01 news x\n", nil, "cats.txt:1: want FILE CATEGORY"},
		{"empty", "\n", nil, "no texts listed"},
		{"path", "../ca01 news\n", nil, "is not cXNN"},
	} {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "cats.txt"), []byte(tc.cats), 0o644); err != nil {
			t.Fatal(err)
		}
		for name, body := range tc.files {
			if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		_, err := datasets.ReadBrown(dir)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to contain %q", tc.name, err, tc.want)
		}
	}
}

// The real corpus: 500 texts with the per-category counts of its
// PROVENANCE.md, every category its genre's.
func TestReadBrownCorpus(t *testing.T) {
	t.Parallel()
	root := os.Getenv("REPRO_DATA")
	if root == "" {
		t.Skip("REPRO_DATA not set; skipping test on the Brown Corpus")
	}
	texts, err := datasets.ReadBrown(filepath.Join(root, "brown"))
	if err != nil {
		t.Fatal(err)
	}
	counts := map[string]int{}
	for _, x := range texts {
		counts[x.Category]++
		if c, _ := datasets.BrownCategory(x.Genre); c != x.Category || len(x.Tokens) < 1500 {
			t.Errorf("%s: genre %c category %s, %d tokens", x.File, x.Genre, x.Category, len(x.Tokens))
		}
	}
	want := map[string]int{"adventure": 29, "belles_lettres": 75, "editorial": 27, "fiction": 29, "government": 30,
		"hobbies": 36, "humor": 9, "learned": 80, "lore": 48, "mystery": 24, "news": 44, "religion": 17,
		"reviews": 17, "romance": 29, "science_fiction": 6}
	if len(texts) != 500 || len(counts) != len(want) {
		t.Fatalf("%d texts in %d categories", len(texts), len(counts))
	}
	for c, n := range want {
		if counts[c] != n {
			t.Errorf("%s: %d texts, want %d", c, counts[c], n)
		}
	}
}

func TestLoadBrown(t *testing.T) {
	t.Parallel()
	l, err := datasets.Load("testdata", "test", datasets.Declaration{Name: "b", Format: datasets.FormatBrown, Path: "brown"})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"editorial", "fiction", "news"}; !slices.Equal(l.Labels, want) {
		t.Errorf("labels %v, want %v", l.Labels, want)
	}
	var got []int
	for _, s := range l.Sequences {
		got = append(got, s.Labels[0])
	}
	if want := []int{2, 0, 1}; !slices.Equal(got, want) {
		t.Errorf("classes %v, want %v", got, want)
	}
	if len(l.Docs) != 3 || l.Docs[1][1] != "view" {
		t.Errorf("docs %q", l.Docs)
	}
	if _, err := datasets.Load("testdata", "test", datasets.Declaration{Name: "b", Format: datasets.FormatBrown, Path: "nowhere"}); err == nil || !strings.Contains(err.Error(), "no file at") {
		t.Errorf("missing directory: %v", err)
	}
}
