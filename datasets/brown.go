package datasets

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/structpred"
)

// The Brown Corpus (Francis & Kučera), tagged form C as NLTK distributes
// it: files cNNN whose letter is the genre (A–R), `word/tag` tokens, and
// cats.txt naming each file's category. It stands in for WIPO-alpha in
// hierarchical classification (Tsochantaridis et al. 2004, section 5.2).

// BrownText is one of the corpus's texts.
type BrownText struct {
	File     string   // e.g. "ca01"
	Genre    byte     // the file name's genre letter, 'a'–'r'
	Category string   // cats.txt's category, e.g. "news"
	Tokens   []string // the words in order, tags removed
}

// brownGenres maps each genre letter of the corpus's CONTENTS to the
// category name cats.txt gives its files.
var brownGenres = map[byte]string{
	'a': "news", 'b': "editorial", 'c': "reviews", 'd': "religion",
	'e': "hobbies", 'f': "lore", 'g': "belles_lettres", 'h': "government",
	'j': "learned", 'k': "fiction", 'l': "mystery", 'm': "science_fiction",
	'n': "adventure", 'p': "romance", 'r': "humor",
}

// BrownCategory returns the category of a genre letter (false for a
// letter the corpus does not use).
func BrownCategory(genre byte) (string, bool) {
	c, ok := brownGenres[genre]
	return c, ok
}

// ReadBrown reads the texts listed in dir/cats.txt, in its order. A file's
// category must be its genre letter's; every token must be `word/tag`
// (the word is what precedes the last '/', since words like 1-1/2 contain
// one). Errors name the file and line.
func ReadBrown(dir string) ([]BrownText, error) {
	catsPath := filepath.Join(dir, "cats.txt")
	f, err := os.Open(catsPath)
	if err != nil {
		return nil, fmt.Errorf("brown: %w", err)
	}
	defer f.Close()
	var texts []BrownText
	seen := map[string]int{}
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d: want FILE CATEGORY, found %d fields", catsPath, line, len(fields))
		}
		name, cat := fields[0], fields[1]
		if prev, dup := seen[name]; dup {
			return nil, fmt.Errorf("%s:%d: file %s already listed at line %d", catsPath, line, name, prev)
		}
		seen[name] = line
		if len(name) < 3 || name[0] != 'c' || filepath.Base(name) != name {
			return nil, fmt.Errorf("%s:%d: file name %q is not cXNN", catsPath, line, name)
		}
		want, ok := brownGenres[name[1]]
		if !ok {
			return nil, fmt.Errorf("%s:%d: file %s: no genre %q in the corpus", catsPath, line, name, name[1])
		}
		if cat != want {
			return nil, fmt.Errorf("%s:%d: file %s: category %q, but genre %c is %q", catsPath, line, name, cat, name[1]-'a'+'A', want)
		}
		toks, err := readBrownTokens(filepath.Join(dir, name))
		if err != nil {
			return nil, err
		}
		texts = append(texts, BrownText{File: name, Genre: name[1], Category: cat, Tokens: toks})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", catsPath, err)
	}
	if len(texts) == 0 {
		return nil, fmt.Errorf("%s: no texts listed", catsPath)
	}
	return texts, nil
}

// readBrownTokens returns the words of one tagged file.
func readBrownTokens(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("brown: %w", err)
	}
	defer f.Close()
	var toks []string
	sc, limit := newLineScanner(f, 0)
	line := 0
	for sc.Scan() {
		line++
		for k, tok := range strings.Fields(sc.Text()) {
			cut := strings.LastIndexByte(tok, '/')
			if cut <= 0 || cut == len(tok)-1 {
				return nil, fmt.Errorf("%s:%d: token %d %q is not word/tag", path, line, k+1, tok)
			}
			toks = append(toks, tok[:cut])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, scanError(path, line+1, err, limit)
	}
	return toks, nil
}

// BrownCorpus makes texts a corpus of one-token items, the class each
// text's category (labels sorted by name), and returns each text's words.
func BrownCorpus(name string, texts []BrownText) (*Corpus, [][]string) {
	var labels []string
	for _, t := range texts {
		labels = append(labels, t.Category)
	}
	slices.Sort(labels)
	labels = slices.Compact(labels)
	c := &Corpus{Name: name, Labels: labels}
	docs := make([][]string, len(texts))
	for i, t := range texts {
		y, _ := slices.BinarySearch(labels, t.Category)
		c.Sequences = append(c.Sequences, structpred.Sequence{ID: t.File, Tokens: []string{t.File}, Labels: []int{y}})
		docs[i] = t.Tokens
	}
	return c, docs
}
