package datasets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// DefaultDataDir is the data directory used when neither the --data flag nor
// the REPRO_DATA environment variable is set; it is relative to the working
// directory.
const DefaultDataDir = "data"

// EnvDataDir is the environment variable that names the data directory.
const EnvDataDir = "REPRO_DATA"

// Sources reported by [ResolveDataDir]: how the data directory was chosen.
const (
	SourceFlag    = "--data"
	SourceEnv     = EnvDataDir
	SourceDefault = "default"
)

// ResolveDataDir chooses the data directory: flagValue if non-empty, else
// $REPRO_DATA if non-empty, else [DefaultDataDir]. source says which one won
// ([SourceFlag], [SourceEnv] or [SourceDefault]) so that errors can tell the
// user how to change it.
func ResolveDataDir(flagValue string) (dir, source string) {
	if flagValue != "" {
		return flagValue, SourceFlag
	}
	if env := os.Getenv(EnvDataDir); env != "" {
		return env, SourceEnv
	}
	return DefaultDataDir, SourceDefault
}

// dataset describes one loadable dataset.
type dataset struct {
	file   string // path below the data directory; empty if generated
	obtain string // where to get the file
	load   func(path string) (*Corpus, error)
}

// registry lists the known datasets. It is built on each call so that there
// is no package-level mutable state.
func registry() map[string]dataset {
	return map[string]dataset{
		"cora": {
			file: filepath.Join("cora", "tagged_references.txt"),
			obtain: "McCallum's data page https://people.cs.umass.edu/~mccallum/data.html " +
				"(a copy is mirrored in the GitHub repository timvieira/crf as data/tagged_references.txt)",
			load: LoadCora,
		},
		"ocr": {
			file: filepath.Join("ocr", "letter.data.gz"),
			obtain: "Taskar's OCR page http://ai.stanford.edu/~btaskar/ocr/ (a copy is in the GitHub repository " +
				"zhanibekrysbek/CS512AML, member data/letter.data.gz of Homework 2/Assignment_2.zip)",
			load: LoadOCR,
		},
		"synthetic": {
			load: func(string) (*Corpus, error) { return Synthetic(DefaultSynthetic()) },
		},
	}
}

// KnownDatasets returns the names [Open] accepts, sorted.
func KnownDatasets() []string {
	names := make([]string, 0, 2)
	for name := range registry() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// Open loads the dataset with the given canonical name from the data
// directory dir; source is how dir was chosen (see [ResolveDataDir]) and is
// only used in error messages. "cora" reads dir/cora/tagged_references.txt;
// "synthetic" generates [DefaultSynthetic] and ignores dir.
func Open(dir, source, name string) (*Corpus, error) {
	ds, ok := registry()[name]
	if !ok {
		return nil, fmt.Errorf("unknown dataset %q (known: %s)", name, strings.Join(KnownDatasets(), ", "))
	}
	if ds.file == "" {
		c, err := ds.load("")
		if err != nil {
			return nil, fmt.Errorf("dataset %q: %w", name, err)
		}
		return c, nil
	}
	path := filepath.Join(dir, ds.file)
	c, err := ds.load(path)
	if errors.Is(err, fs.ErrNotExist) {
		shown := path
		if abs, absErr := filepath.Abs(path); absErr == nil && abs != path {
			shown = fmt.Sprintf("%s (%s)", path, abs)
		}
		return nil, fmt.Errorf("dataset %q: no file at %s; the data directory %q was chosen by %s, "+
			"change it with --data DIR or the %s environment variable; obtain %s from %s "+
			"and place it at <data dir>/%s: %w",
			name, shown, dir, source, EnvDataDir, filepath.Base(ds.file), ds.obtain, filepath.ToSlash(ds.file), err)
	}
	if err != nil {
		return nil, fmt.Errorf("dataset %q: %w", name, err)
	}
	return c, nil
}
