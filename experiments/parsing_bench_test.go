package experiments

import (
	"context"
	"os"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/trainers"

	"github.com/maxmargin/repro/datasets"
)

// BenchmarkParsingSwedishSlice trains margin scaling (one-slack, C = 0.1) on
// the first sentences of the Swedish training file and decodes them: the
// cost of one parsing unit, arc features and indexing included. It skips
// without REPRO_DATA.
func BenchmarkParsingSwedishSlice(b *testing.B) {
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		b.Skip("needs REPRO_DATA")
	}
	cfg, err := config.Parse([]byte(`name: bench
datasets:
  - {name: swedish, format: conllu, path: conllx/sv_talbanken_ud_2015-01-05/sv-ud-train.conll}
tasks: [parsing]
features: {kind: dependency}
trainers:
  - {name: margin, C: [0.1], solver: one-slack}
`), "bench.yaml")
	if err != nil {
		b.Fatal(err)
	}
	data, err := prepare(context.Background(), cfg, Options{DataDir: dir})
	if err != nil {
		b.Skip(err)
	}
	d := data[0]
	train := make([]int, 300)
	for i := range train {
		train[i] = i
	}
	u := unitSpec{Task: config.TaskParsing, Trainer: "margin", C: 0.1, Params: trainers.Values{"solver": "one-slack"}, Features: d.features}
	for b.Loop() {
		res, err := dispatchUnit(context.Background(), d, u, train, train)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(res.Metrics["token_error"], "train-err-%")
		b.ReportMetric(float64(res.Iterations), "iterations")
	}
}
