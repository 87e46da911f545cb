package report

import (
	"strings"
	"testing"
)

func TestDiff(t *testing.T) {
	base := func() Run {
		return Run{
			Key: "k1", Dataset: "cora", Task: "sequence", Trainer: "margin", Params: map[string]float64{"C": 0.1},
			Selection: []Candidate{{Params: map[string]float64{"C": 0.1}, Metrics: map[string]float64{"token_error": 7.5, "qp_seconds": 0.25, "qp_share": 12.5}, TrainSeconds: 2}},
			Metrics:   map[string]float64{"token_error": 7.25, "span_f1": 80, "qp_seconds": 0.5, "qp_share": 25}, TrainSeconds: 3, CPUSeconds: 2.5, PeakMiB: 40, Iterations: 12, Primal: 1.5, Version: "abc",
			Curve: []CurvePoint{{Iteration: 5, CPUSeconds: 1, Metrics: map[string]float64{"token_error": 9}}},
		}
	}
	for _, tc := range []struct {
		name   string
		edit   func(*Run)
		ignore []string
		want   []string // each difference's prefix
	}{
		{"identical", func(*Run) {}, nil, nil},
		{"times, memory and version", func(r *Run) {
			r.TrainSeconds, r.CPUSeconds, r.PeakMiB, r.Version = 9, 8, 70, "def"
			r.Selection[0].TrainSeconds = 5
			r.Curve[0].CPUSeconds = 4
		}, nil, nil},
		{"measured metrics", func(r *Run) {
			r.Metrics["qp_seconds"], r.Metrics["qp_share"] = 0.75, 31
			r.Selection[0].Metrics["qp_seconds"] = 0.5
		}, nil, nil},
		{"measured metrics the rerun lacks", func(r *Run) {
			delete(r.Metrics, "qp_seconds")
			delete(r.Selection[0].Metrics, "qp_share")
		}, nil, nil},
		{"error", func(r *Run) { r.Metrics["token_error"] = 7.5 }, nil, []string{"metrics.token_error: 7.25, now 7.5"}},
		{"iterations and primal", func(r *Run) { r.Iterations, r.Primal = 13, 1.25 }, nil, []string{"iterations: 12, now 13", "primal: 1.5, now 1.25"}},
		{"a field one run lacks", func(r *Run) { r.OracleCalls = 40 }, nil, []string{"oracle_calls: (none), now 40"}},
		{"validation score", func(r *Run) { r.Selection[0].Metrics["token_error"] = 8 }, nil, []string{"selection"}},
		{"validation ignored", func(r *Run) { r.Selection[0].Metrics["token_error"] = 8 }, []string{"selection"}, nil},
		{"curve point", func(r *Run) { r.Curve[0].Metrics["token_error"] = 10 }, nil, []string{"curve"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			now := base()
			tc.edit(&now)
			got, err := Diff(base(), now, tc.ignore...)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("Diff = %q, want %d differences %q", got, len(tc.want), tc.want)
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("difference %d = %q, want %q", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// Empty and absent fields are alike; times are dropped where runs.jsonl
// stores them, not from a hyperparameter that happens to share the name.
func TestDiffEdges(t *testing.T) {
	for _, tc := range []struct {
		name     string
		old, now Run
		want     int
	}{
		{"no params, empty params", Run{Key: "k"}, Run{Key: "k", Params: map[string]float64{}, Selection: []Candidate{}}, 0},
		{"a parameter named like a time", Run{Key: "k", Params: map[string]float64{"cpu_seconds": 1}}, Run{Key: "k", Params: map[string]float64{"cpu_seconds": 2}}, 1},
	} {
		got, err := Diff(tc.old, tc.now)
		if err != nil || len(got) != tc.want {
			t.Errorf("%s: Diff = %q, %v; want %d differences", tc.name, got, err, tc.want)
		}
	}
}

func TestDiffRuns(t *testing.T) {
	run := func(key string, tokenError float64) Run {
		return Run{Key: key, Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": tokenError}, TrainSeconds: tokenError}
	}
	old := []Run{run("a", 1), run("b", 2), run("c", 3)}
	now := []Run{run("d", 4), run("c", 3), run("b", 2.5)}
	d, err := DiffRuns(old, now)
	if err != nil {
		t.Fatal(err)
	}
	if d.Equal() || d.Same != 1 || len(d.Changed) != 1 || d.Changed[0].Old.Key != "b" ||
		len(d.OnlyOld) != 1 || d.OnlyOld[0].Key != "a" || len(d.OnlyNew) != 1 || d.OnlyNew[0].Key != "d" {
		t.Errorf("DiffRuns = %+v", d)
	}
	if d, err := DiffRuns(old, old); err != nil || !d.Equal() || d.Same != 3 {
		t.Errorf("DiffRuns of a set with itself = %+v, %v", d, err)
	}
	if _, err := DiffRuns(old, append(now, run("c", 3))); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("a key twice: error %v", err)
	}
}
