package datasets

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestResolveDataDir(t *testing.T) {
	tests := []struct {
		name, flag, env string
		dir, source     string
	}{
		{"flag wins", "/f", "/e", "/f", SourceFlag},
		{"env when no flag", "", "/e", "/e", SourceEnv},
		{"default", "", "", DefaultDataDir, SourceDefault},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvDataDir, tt.env)
			dir, source := ResolveDataDir(tt.flag)
			if dir != tt.dir || source != tt.source {
				t.Errorf("ResolveDataDir(%q) = %q, %q; want %q, %q", tt.flag, dir, source, tt.dir, tt.source)
			}
		})
	}
}

func TestOpenMissingExplainsItself(t *testing.T) {
	dir := t.TempDir()
	_, err := Open(dir, SourceFlag, "cora")
	if !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("err = %v, want fs.ErrNotExist", err)
	}
	for _, want := range []string{
		filepath.Join(dir, "cora", "tagged_references.txt"),
		"chosen by --data",
		"--data DIR",
		"REPRO_DATA",
		"https://people.cs.umass.edu/~mccallum/data.html",
		"timvieira/crf",
		"data/tagged_references.txt",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
}

func TestOpenUnknown(t *testing.T) {
	_, err := Open(t.TempDir(), SourceDefault, "conll")
	if err == nil || !strings.Contains(err.Error(), "cora, ocr, synthetic") {
		t.Fatalf("err = %v, want the list of known datasets", err)
	}
}

func TestOpen(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "cora"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cora", "tagged_references.txt")
	if err := os.WriteFile(path, []byte("<NEWREFERENCE>\n<title> On </title>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		n    int
	}{
		{"cora", 1},
		{"synthetic", DefaultSynthetic().Sequences},
	}
	for _, tt := range tests {
		c, err := Open(dir, SourceFlag, tt.name)
		if err != nil {
			t.Fatal(err)
		}
		if c.Name != tt.name || len(c.Sequences) != tt.n {
			t.Errorf("Open(%q) = %q with %d sequences, want %d", tt.name, c.Name, len(c.Sequences), tt.n)
		}
	}
}

func TestOpenParseErrorNamesFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "cora"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "cora", "tagged_references.txt")
	if err := os.WriteFile(path, []byte("<NEWREFERENCE>\n<title> On\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Open(dir, SourceFlag, "cora")
	var pe *ParseError
	if !errors.As(err, &pe) || pe.File != "tagged_references.txt" || pe.Line != 2 {
		t.Fatalf("err = %v, want ParseError at tagged_references.txt:2", err)
	}
}
