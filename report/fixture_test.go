package report

import "strconv"

// fixtureOptions are the Options used with fixtureRuns: the paper's column
// and row order.
func fixtureOptions() Options {
	return Options{
		Trainers:    []string{"margin", "slack", "approx-slack", "poslearn"},
		Comparisons: []Comparison{{"poslearn", "margin"}, {"approx-slack", "slack"}},
		Tasks:       []string{"sequence", "segmentation", "parsing"},
		Datasets:    []string{"cora", "address", "conll"},
	}
}

// fixtureRuns returns a small synthetic set of runs shaped like Table 1:
//
//   - cora/sequence: margin, slack and poslearn on splits 0-4; margin also
//     has split 5, which the others lack, so tests pair 5 splits. Runs are
//     listed out of split order.
//   - conll/sequence: margin and poslearn on a single standard split.
//   - danish/parsing: margin and poslearn only (no slack), margin best.
//
// No run uses approx-slack, so it shows as "-" when listed as a column.
func fixtureRuns() []Run {
	coraMargin := []float64{12.0, 13.1, 11.8, 12.6, 12.0, 12.9}
	coraMarginF1 := []float64{75.0, 73.9, 76.1, 74.2, 75.3, 74.0}
	coraPos := []float64{9.1, 10.2, 9.5, 9.6, 9.1}
	coraPosF1 := []float64{83.0, 82.4, 84.1, 83.3, 84.2}

	var runs []Run
	add := func(dataset, task, trainer string, split int, tok, f1 float64) {
		m := map[string]float64{"token_error": tok, "span_f1": f1}
		if task == "parsing" {
			m = map[string]float64{"attachment_error": tok}
		}
		runs = append(runs, Run{
			Key:           dataset + "-" + task + "-" + trainer + "-" + strconv.Itoa(split),
			Dataset:       dataset,
			Task:          task,
			Trainer:       trainer,
			Params:        map[string]float64{"C": 1},
			Selection:     []Candidate{{Params: map[string]float64{"C": 1}, Metrics: map[string]float64{"token_error": tok + 0.5, "span_f1": f1 - 0.5}, TrainSeconds: 3}},
			Split:         split,
			TrainFraction: 0.25,
			TrainSize:     125,
			TestSize:      375,
			Metrics:       m,
			TrainSeconds:  float64(10 + split),
			Iterations:    20 + split,
			Constraints:   100 + 10*split,
			Version:       "abc123",
		})
	}
	for _, s := range []int{3, 0, 5, 1, 4, 2} {
		add("cora", "sequence", "margin", s, coraMargin[s], coraMarginF1[s])
	}
	for s := range 5 {
		add("cora", "sequence", "slack", s, coraMargin[s]-1.5, coraMarginF1[s]+6)
	}
	for _, s := range []int{4, 2, 0, 3, 1} {
		add("cora", "sequence", "poslearn", s, coraPos[s], coraPosF1[s])
	}
	add("conll", "sequence", "margin", 0, 2.89, 84.7)
	add("conll", "sequence", "poslearn", 0, 2.82, 85.1)
	for s := range 3 {
		add("danish", "parsing", "margin", s, 12.4+0.1*float64(s), 0)
		add("danish", "parsing", "poslearn", s, 12.5+0.1*float64(s)+0.05*float64(s%2), 0)
	}
	return runs
}
