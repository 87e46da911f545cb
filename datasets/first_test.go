package datasets

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestLoadFirst keeps a file's first sequences (a paper's sub-corpus of a
// file's beginning) and refuses what it cannot keep, naming the field.
func TestLoadFirst(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	text := "a X O\nb X B-PER\n\nc X O\n\nd X B-LOC\ne X I-LOC\n\n"
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	decl := Declaration{Name: "f", Format: FormatCoNLL, Path: "f.txt", Columns: []string{"word", "pos", "label"}, Scheme: "iob2"}
	all, err := Load(dir, "", decl)
	if err != nil {
		t.Fatal(err)
	}
	decl.First = 2
	l, err := Load(dir, "", decl)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Corpus.Sequences) != 2 || !slices.Equal(l.Corpus.Sequences[1].Tokens, all.Corpus.Sequences[1].Tokens) {
		t.Fatalf("first 2: %+v", l.Corpus.Sequences)
	}
	tests := []struct {
		first int
		fixed bool
		want  string
	}{
		{first: 4, want: "first: f.txt has 3 sequences, fewer than the 4 to keep"},
		{first: -1, want: "first: the number of sequences to keep must not be negative"},
		{first: 1, fixed: true, want: "first: keeps the beginning of one file (path)"},
	}
	for _, tt := range tests {
		d := decl
		d.First = tt.first
		if tt.fixed {
			d.Path, d.Train, d.Test = "", "f.txt", "f.txt"
		}
		if _, err := Load(dir, "", d); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("first %d (fixed %v): %v, want %q", tt.first, tt.fixed, err, tt.want)
		}
	}
}
