package report

import (
	"html"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// committedPages lists every index.html of the committed results,
// results/index.html first.
func committedPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join("..", "results", "*", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	front := filepath.Join("..", "results", "index.html")
	if _, err := os.Stat(front); err != nil {
		t.Fatalf("no front page: %v (run repro pages)", err)
	}
	return append([]string{front}, pages...)
}

var (
	htmlRef = regexp.MustCompile(`\b(?:href|src)="([^"]*)"`)
	htmlID  = regexp.MustCompile(`\bid="([^"]*)"`)
	mdLink  = regexp.MustCompile(`\]\(([^)\s]+)\)`)
)

// localTarget reports whether ref names a file beside the page (not a URL,
// a data: URI or an anchor alone), and returns its path and fragment.
func localTarget(ref string) (path, fragment string, ok bool) {
	if ref == "" || strings.HasPrefix(ref, "#") || strings.Contains(ref, "://") ||
		strings.HasPrefix(ref, "data:") || strings.HasPrefix(ref, "mailto:") {
		return "", "", false
	}
	path, fragment, _ = strings.Cut(ref, "#")
	return path, fragment, true
}

// Every link and image of every committed index.html, the front page
// included, names a file that exists, and every anchor (#id) an element of
// the page it points into.
func TestCommittedPagesLinksExist(t *testing.T) {
	t.Parallel()
	ids := map[string]map[string]bool{}
	idsOf := func(path string) map[string]bool {
		if m, ok := ids[path]; ok {
			return m
		}
		m := map[string]bool{}
		b, _ := os.ReadFile(path)
		for _, id := range htmlID.FindAllStringSubmatch(string(b), -1) {
			m[html.UnescapeString(id[1])] = true
		}
		ids[path] = m
		return m
	}
	for _, page := range committedPages(t) {
		b, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, m := range htmlRef.FindAllStringSubmatch(string(b), -1) {
			ref := html.UnescapeString(m[1])
			if frag, ok := strings.CutPrefix(ref, "#"); ok {
				if !idsOf(page)[frag] {
					t.Errorf("%s: anchor %q names no element of the page", page, ref)
				}
				continue
			}
			path, frag, ok := localTarget(ref)
			if !ok {
				continue
			}
			n++
			target := filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: %q: %v", page, ref, err)
				continue
			}
			if frag != "" && strings.HasSuffix(path, ".html") && !idsOf(target)[frag] {
				t.Errorf("%s: %q: no element %q in %s", page, ref, frag, target)
			}
		}
		if n == 0 {
			t.Errorf("%s links no file; the checker found nothing to check", page)
		}
	}
}

// pendingDocs are pages of the user guide that are linked but written on
// another branch, by name relative to the repository's root, with where.
// The test fails once such a page exists, so the entry cannot outlive it.
var pendingDocs = map[string]string{}

// Every relative link of the README and the user guide names a file that
// exists.
func TestDocsLinksExist(t *testing.T) {
	t.Parallel()
	for name := range pendingDocs {
		if _, err := os.Stat(filepath.Join("..", filepath.FromSlash(name))); err == nil {
			t.Errorf("%s exists now: remove it from pendingDocs", name)
		}
	}
	docs, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join("..", "README.md"), filepath.Join("..", "ARCHITECTURE.md"))
	// docs/src/readings.md is checked as what it renders, docs/results.md.
	for _, doc := range docs {
		b, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range mdLink.FindAllStringSubmatch(string(b), -1) {
			path, _, ok := localTarget(m[1])
			if !ok {
				continue
			}
			target := filepath.Join(filepath.Dir(doc), filepath.FromSlash(path))
			rel, _ := filepath.Rel("..", target)
			if _, pending := pendingDocs[filepath.ToSlash(rel)]; pending {
				continue
			}
			if _, err := os.Stat(target); err != nil {
				t.Errorf("%s: link %q: %v", doc, m[1], err)
			}
		}
	}
}
