package config

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/report"
)

// The report learns of folds, for the sign tests pooled over them, only
// from a split file whose test parts are disjoint, and only for a config
// with a task whose metrics declare such a test (cfg), so that every other
// config's report.json stays as it was.
func TestReportSpecFolds(t *testing.T) {
	t.Parallel()
	const folds = `[{"train": [3, 4, 5, 6], "test": [0, 1, 2]}, {"train": [0, 1, 2, 6], "test": [3, 4, 5]}, {"train": [0, 1, 2, 3], "test": [6]}]`
	const overlap = `[{"train": [3, 4, 5, 6], "test": [0, 1, 2]}, {"train": [0, 1, 6], "test": [2, 3, 4, 5]}]`
	tests := []struct {
		name, task, splits, file string
		want                     *report.Folds
	}{
		{"cfg on folds", "cfg", "{kind: file, path: s.json}", folds, &report.Folds{TestItems: []int{3, 3, 1}}},
		{"cfg on overlapping test parts", "cfg", "{kind: file, path: s.json}", overlap, nil},
		{"cfg on random splits", "cfg", "{kind: random, count: 2, train_fractions: [0.5]}", "", nil},
		{"sequence on folds", "sequence", "{kind: file, path: s.json}", folds, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			if tt.file != "" {
				if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(tt.file), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			text := "name: f\nseed: 1\ndatasets:\n  - {name: toy, format: ptb, path: trees.mrg}\ntasks: [" + tt.task + "]\nsplits: " + tt.splits +
				"\ntrainers:\n  - {name: margin, C: [1]}\n"
			if tt.task == "sequence" {
				text = "name: f\nseed: 1\ndatasets:\n  - {name: tiny, format: conll, path: tiny.conll, columns: [word, label], encoding: iob2}\nsplits: " + tt.splits +
					"\ntrainers:\n  - {name: margin, C: [1]}\n"
			}
			cfg, err := Parse([]byte(text), filepath.Join(dir, "f.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.ReportSpec().Folds; !reflect.DeepEqual(got, tt.want) {
				t.Errorf("folds %+v, want %+v", got, tt.want)
			}
		})
	}
}

// Every committed results directory's report.json has the folds its
// config declares now: repro report renders the pooled tests from it, so
// a config whose split file or tasks change them must have its report.json
// written again (repro report --config).
func TestCommittedReportSpecsHaveTheirFolds(t *testing.T) {
	t.Parallel()
	specs, err := filepath.Glob("../../results/*/" + report.SpecFile)
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range specs {
		name := filepath.Base(filepath.Dir(path))
		cfg, err := Load(filepath.Join("..", "..", "configs", name+".yaml"))
		if errors.Is(err, fs.ErrNotExist) {
			continue // a results directory of no committed config (quickstart)
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var committed struct {
			Folds *report.Folds `json:"folds"`
		}
		if err := json.Unmarshal(b, &committed); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if want := cfg.ReportSpec().Folds; !reflect.DeepEqual(committed.Folds, want) {
			t.Errorf("results/%s/%s has folds %+v, configs/%s.yaml declares %+v: run repro report --config configs/%s.yaml results/%s",
				name, report.SpecFile, committed.Folds, name, want, name, name)
		}
	}
}
