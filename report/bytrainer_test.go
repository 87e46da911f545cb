package report

import (
	"slices"
	"strings"
	"testing"
)

// A metric only some trainers report (metrics.Def.ByTrainer: a
// cutting-plane solver's constraints) is shown in a row where any run has
// it, with "-" in the cells of the trainers that do not, no warning, and
// no best mark or t-test for them.
func TestByTrainerMetric(t *testing.T) {
	runs := legacyRuns()
	for i := range runs {
		r := &runs[i]
		if r.Task != "segmentation" {
			continue
		}
		r.Dataset, r.Task = "esp", "sequence" // a row of its own, of a task that declares constraints
		if r.Trainer != "poslearn" {
			r.Metrics["constraints"] = float64(300 + 10*r.Split)
			if r.Trainer == "slack" {
				r.Metrics["constraints"] -= 5
			}
		}
	}
	tab := segmentTable(t, runs)
	if len(tab.Warnings) != 0 {
		t.Errorf("warnings %q", tab.Warnings)
	}
	i := slices.IndexFunc(tab.Rows, func(r Row) bool { return r.Dataset == "esp" })
	if i < 0 {
		t.Fatal("no esp row")
	}
	row := tab.Rows[i]
	line := slices.IndexFunc(row.Lines, func(l []string) bool { return l[0] == "constraints" })
	if line < 1 {
		t.Fatalf("row lines %v lack constraints", row.Lines)
	}
	for _, c := range row.Cells {
		if c.N == 0 {
			continue
		}
		got, best := c.More[line-1], c.MoreBest[line-1]
		switch c.Trainer {
		case "poslearn":
			if got != "-" || best {
				t.Errorf("poslearn, which reports no constraints: %q (best %v), want -", got, best)
			}
		case "margin", "slack":
			if want := map[string]string{"margin": "315.0±12.9", "slack": "310.0±12.9"}[c.Trainer]; !strings.HasPrefix(got, want) || best != (c.Trainer == "slack") {
				t.Errorf("%s: constraints %q (best %v), want %s", c.Trainer, got, best, want)
			}
		}
	}
	for _, pt := range tab.Tests {
		if _, ok := pt.TTestOf("constraints"); ok && (pt.A == "poslearn" || pt.B == "poslearn") {
			t.Errorf("constraints tested against a trainer that has none: %+v", pt)
		}
	}
}
