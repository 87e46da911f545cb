package report

import (
	"math"
	"testing"
)

// ablationRuns: two feature sets (cora-token, cora-all) × margin and
// poslearn × 3 splits, token error known per split.
func ablationRuns() []Run {
	errs := map[string]map[string][]float64{
		"cora-token": {"margin": {20, 22, 21}, "poslearn": {18, 19, 20}},
		"cora-all":   {"margin": {7, 8, 7.5}, "poslearn": {7.5, 7.5, 7}},
	}
	var runs []Run
	for _, d := range []string{"cora-all", "cora-token"} {
		for _, tr := range []string{"poslearn", "margin"} {
			for s, e := range errs[d][tr] {
				runs = append(runs, Run{Key: d + tr + string(rune('0'+s)), Dataset: d, Task: "sequence", Trainer: tr,
					Split: s, TrainFraction: 0.25, Metrics: map[string]float64{"token_error": e, "span_f1": 100 - 2*e}, TrainSeconds: 1})
			}
		}
	}
	return runs
}

func TestFigureAgainstDatasets(t *testing.T) {
	f := FigureSpec{Name: "gaps", Dataset: "cora-token", Datasets: []string{"cora-token", "cora-all"}, Task: "sequence",
		X: XDataset, Y: "token_error", Baseline: "margin"}
	b, err := buildFigure(ablationRuns(), f, []string{"margin", "poslearn"})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.series) != 1 || b.series[0].trainer != "poslearn" {
		t.Fatalf("series %+v, want poslearn alone (margin is the baseline)", b.series)
	}
	// Split-paired differences: token {-2, -3, -1} (mean -2, sd 1), all
	// {0.5, -0.5, -0.5} (mean -1/6); x in the listed order.
	xy := b.series[0].data
	want := []struct{ x, mean, sd float64 }{{1, -2, 1}, {2, -1.0 / 6, math.Sqrt(1.0 / 3)}}
	for i, w := range want {
		if xy.XYs[i].X != w.x || math.Abs(xy.XYs[i].Y-w.mean) > 1e-12 || math.Abs(xy.YErrors[i].Low-w.sd) > 1e-12 {
			t.Errorf("point %d: x %v mean %v sd %v, want %+v", i, xy.XYs[i].X, xy.XYs[i].Y, xy.YErrors[i].Low, w)
		}
	}
	if got := datasetTick("cora-all-noedges", []string{"cora-token", "cora-all-noedges"}); got != "all\nnoedges" {
		t.Errorf("tick %q", got)
	}
	if _, err := renderFigure(b.plot); err != nil {
		t.Errorf("rendering: %v", err)
	}
	for name, bad := range map[string]FigureSpec{
		"one dataset":        {Name: "g", Dataset: "cora-all", Datasets: []string{"cora-all"}, X: XDataset, Y: "token_error"},
		"first not dataset":  {Name: "g", Dataset: "cora-all", Datasets: []string{"cora-token", "cora-all"}, X: XDataset, Y: "token_error"},
		"datasets without x": {Name: "g", Dataset: "cora-token", Datasets: []string{"cora-token", "cora-all"}, Y: "token_error", X: XTrainFraction},
		"twice":              {Name: "g", Dataset: "cora-all", Datasets: []string{"cora-all", "cora-all"}, X: XDataset, Y: "token_error"},
	} {
		if bad.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	// Two training fractions on one dataset are an error.
	runs := ablationRuns()
	runs[0].TrainFraction = 0.5
	if _, err := buildFigure(runs, f, []string{"margin", "poslearn"}); err == nil {
		t.Error("two training fractions accepted")
	}
}
