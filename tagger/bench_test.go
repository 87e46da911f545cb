package tagger

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmargin/repro/datasets"
)

// BenchmarkLoadCoNLL03 trains a perceptron on CoNLL-2003's eng.train (NER
// features, all attributes; REPRO_DATA must point at the data) and
// measures loading its model file, whose size it reports:
//
//	REPRO_DATA=/path/to/datasets go test ./tagger -run '^$' -bench LoadCoNLL03
func BenchmarkLoadCoNLL03(b *testing.B) {
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		b.Skip("REPRO_DATA not set")
	}
	d, err := ReadData(filepath.Join(dir, "conll2003", "eng.train"), Format{Columns: []string{"word", "pos", "chunk", "label"}})
	if err != nil {
		b.Fatal(err)
	}
	m, _, err := Train(context.Background(), d, Options{Trainer: "perceptron"})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "conll03.repro")
	if err := m.SaveFile(path); err != nil {
		b.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := LoadFile(path); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(st.Size()), "file-bytes")
	b.ReportMetric(float64(m.NumAttributes()), "attributes")
}
