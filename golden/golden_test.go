package golden

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
)

func fixture() []report.Run {
	var runs []report.Run
	for _, tr := range []string{"margin", "poslearn"} {
		for s := range 2 {
			runs = append(runs, report.Run{Dataset: "cora", Task: "sequence", Trainer: tr, TrainFraction: 0.25, Split: s,
				Params: map[string]float64{"C": 0.1}, Metrics: map[string]float64{"token_error": 8 + float64(s), "span_f1": 80 + float64(s)}})
		}
	}
	return runs
}

func TestCompare(t *testing.T) {
	t.Parallel()
	g := FromRuns(fixture(), "configs/ci.yaml", "v1", nil)
	tests := []struct {
		name   string
		mutate func([]report.Run) []report.Run
		failed int
		worse  int
		want   string
	}{
		{"identical", func(r []report.Run) []report.Run { return r }, 0, 0, ""},
		{"within tolerance", func(r []report.Run) []report.Run { r[0].Metrics["token_error"] += 0.1; return r }, 0, 0, ""},
		{"token error up", func(r []report.Run) []report.Run { r[0].Metrics["token_error"] += 0.5; return r }, 1, 1, "REGRESSION: outside tolerance: worse (+0.5, lower is better)"},
		{"token error down", func(r []report.Run) []report.Run { r[0].Metrics["token_error"] -= 0.5; return r }, 1, 0, "IMPROVEMENT: outside tolerance: better (-0.5); update the golden file if intended"},
		{"span F1 down", func(r []report.Run) []report.Run { r[3].Metrics["span_f1"] -= 2; return r }, 1, 1, "REGRESSION: outside tolerance: worse (-2, higher is better)"},
		{"span F1 up", func(r []report.Run) []report.Run { r[3].Metrics["span_f1"] += 2; return r }, 1, 0, "IMPROVEMENT: outside tolerance: better (+2)"},
		{"C changed", func(r []report.Run) []report.Run { r[0].Params["C"] = 1; return r }, 0, 0, ""},
		{"missing evaluation", func(r []report.Run) []report.Run { return r[1:] }, 1, 1, "missing from this run"},
		{"extra evaluation", func(r []report.Run) []report.Run {
			e := r[0]
			e.Split = 7
			return append(r, e)
		}, 1, 1, "not in the golden file"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			diffs := Compare(g, tt.mutate(fixture()))
			if got := Failed(diffs); got != tt.failed {
				t.Fatalf("%d problems, want %d: %+v", got, tt.failed, diffs)
			}
			worse := 0
			for _, d := range diffs {
				if d.Worse() {
					worse++
				}
			}
			if worse != tt.worse {
				t.Errorf("%d worse, want %d: %+v", worse, tt.worse, diffs)
			}
			var buf bytes.Buffer
			if err := WriteDiffs(&buf, diffs, false); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(buf.String(), tt.want) {
				t.Errorf("diff output lacks %q:\n%s", tt.want, buf.String())
			}
		})
	}
}

func TestReadRoundTripAndRejects(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	g := FromRuns(fixture(), "c.yaml", "", map[string]float64{"token_error": 0.1})
	b, err := g.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "g.json")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	back, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	// Every metric of the runs is kept; one without a given tolerance gets
	// the default.
	if len(back.Entries) != 4 || len(back.Entries[0].Metrics) != 2 || back.Tolerances["span_f1"] != defaultTolerance || Failed(Compare(back, fixture())) != 0 {
		t.Errorf("round trip changed the file: %+v", back)
	}
	for name, text := range map[string]string{
		"unknown field":      `{"config": "x", "tolerance": {}}`,
		"negative tolerance": `{"config": "x", "tolerances": {"span_f1": -1}}`,
		"not JSON":           `{`,
	} {
		p := filepath.Join(dir, "bad.json")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(p); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}

func ExampleCompare() {
	runs := []report.Run{{Dataset: "cora", Task: "sequence", Trainer: "margin", TrainFraction: 0.25, Metrics: map[string]float64{"token_error": 8.0, "span_f1": 80}}}
	g := FromRuns(runs, "configs/ci.yaml", "", nil)
	runs[0].Metrics["token_error"] = 9.1 // a regression
	diffs := Compare(g, runs)
	fmt.Println(Failed(diffs), "problem(s)")
	_ = WriteDiffs(os.Stdout, diffs, false)
	// Output:
	// 1 problem(s)
	// evaluation                        metric       golden  now  tolerance  status
	// cora/sequence margin 25% split 0  token_error  8       9.1  ±0.2       REGRESSION: outside tolerance: worse (+1.1, lower is better)
}

// A metric a run has and its golden entry lacks fails the check: every
// metric a task declares is compared.
func TestCompareNewMetric(t *testing.T) {
	t.Parallel()
	g := FromRuns(fixture(), "c.yaml", "", nil)
	runs := fixture()
	runs[0].Metrics["segment_error"] = 10
	diffs := Compare(g, runs)
	if Failed(diffs) != 1 {
		t.Fatalf("diffs %+v, want one problem", diffs)
	}
	for _, d := range diffs {
		if d.Problem != "" && (d.Metric != "segment_error" || !strings.Contains(d.Problem, "not in the golden file")) {
			t.Errorf("problem %+v", d)
		}
	}
}

// Measurements of the machine (qp_seconds, qp_share) are neither held nor
// compared, as train_seconds is not: two runs of one unit differ in them.
func TestCompareLeavesOutMeasurements(t *testing.T) {
	t.Parallel()
	timed := func(qp float64) []report.Run {
		runs := fixture()
		for i := range runs {
			runs[i].Metrics["qp_seconds"], runs[i].Metrics["qp_share"] = qp, 10*qp
		}
		return runs
	}
	g := FromRuns(timed(1), "c.yaml", "", nil)
	for _, e := range g.Entries {
		if _, ok := e.Metrics["qp_seconds"]; ok {
			t.Fatalf("golden entry %s holds a measurement: %v", e.id(), e.Metrics)
		}
	}
	if _, ok := g.Tolerances["qp_share"]; ok {
		t.Errorf("a tolerance for a measurement: %v", g.Tolerances)
	}
	for _, runs := range [][]report.Run{timed(5), fixture()} {
		if diffs := Compare(g, runs); Failed(diffs) != 0 {
			t.Errorf("measurements compared: %+v", diffs)
		}
	}
}
