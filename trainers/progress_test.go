package trainers_test

import (
	"context"
	"slices"
	"testing"

	"github.com/maxmargin/repro/trainers"
)

// TestWithProgressReportsEveryTrainer trains a small chain with every
// trainer of the registry under WithProgress: each reports at least once,
// with iterations counting up, and the observer changes nothing the
// training computes (the weights equal those of a training without it).
func TestWithProgressReportsEveryTrainer(t *testing.T) {
	t.Parallel()
	shape := chainShape{n: 12, tokens: 5, k: 3, attrs: 8, perTok: 3, noise: 0.1, edges: true}
	for _, spec := range trainers.Specs() {
		t.Run(spec.Name, func(t *testing.T) {
			v := trainers.Values{}
			for _, p := range spec.Params {
				if p.Required && p.Kind == "float" { // C, entropy-margin's β
					v[p.Key] = 1.0
				}
			}
			if _, ok := spec.Param("max_iterations"); ok {
				v["max_iterations"] = 20
			}
			plain, _ := randomChain(3, shape)
			if err := trainers.Check(spec.Name, plain, v); err != nil {
				t.Skipf("not a chain trainer: %v", err)
			}
			want, err := trainers.Train(context.Background(), spec.Name, plain, v)
			if err != nil {
				t.Fatal(err)
			}
			var reports []trainers.Stats
			ctx := trainers.WithProgress(context.Background(), func(s trainers.Stats) { reports = append(reports, s) })
			watched, _ := randomChain(3, shape)
			got, err := trainers.Train(ctx, spec.Name, watched, v)
			if err != nil {
				t.Fatal(err)
			}
			if len(reports) == 0 {
				t.Fatal("no progress reported")
			}
			for i, r := range reports {
				if r.Iterations < 1 || i > 0 && r.Iterations < reports[i-1].Iterations || r.Elapsed < 0 {
					t.Fatalf("report %d: iterations %d (before: %+v), elapsed %v", i, r.Iterations, reports[max(i-1, 0)].Iterations, r.Elapsed)
				}
			}
			if !slices.Equal(got.W, want.W) {
				t.Error("the progress observer changed the weights")
			}
		})
	}
}
