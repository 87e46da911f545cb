package report_test

import (
	"fmt"
	"log"
	"os"
	"strings"

	"github.com/maxmargin/repro/report"
)

func ExampleSummarize() {
	// Three splits of one dataset; approx-slack was not run.
	tokenError := map[string][]float64{
		"margin":   {12.1, 12.9, 11.9},
		"slack":    {10.2, 10.6, 9.8},
		"poslearn": {9.4, 9.9, 9.5},
	}
	spanF1 := map[string][]float64{
		"margin":   {74.8, 73.9, 75.6},
		"slack":    {82.6, 82.1, 83.4},
		"poslearn": {83.5, 82.8, 83.7},
	}
	var runs []report.Run
	for _, trainer := range []string{"margin", "slack", "poslearn"} {
		for split, tok := range tokenError[trainer] {
			runs = append(runs, report.Run{
				Dataset: "cora", Task: "sequence", Trainer: trainer, Split: split,
				TrainFraction: 0.25, Metrics: map[string]float64{"token_error": tok, "span_f1": spanF1[trainer][split]},
				TrainSeconds: 4, Iterations: 30, Constraints: 150,
			})
		}
	}
	tab, err := report.Summarize(runs, report.Options{
		Trainers:    []string{"margin", "slack", "approx-slack", "poslearn"},
		Comparisons: []report.Comparison{{A: "poslearn", B: "margin"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	if err := tab.WriteMarkdown(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// | task     | dataset |            margin |             slack | approx-slack |             poslearn |
	// |:---------|:--------|------------------:|------------------:|-------------:|---------------------:|
	// | sequence | cora    | 12.3±0.5/74.8±0.9 | 10.2±0.4/82.7±0.7 |            - | **9.6±0.3/83.3±0.5** |
	//
	// Cells: token error (%) / span F1 (%), mean ± std over 3 splits. Bold: best (lowest) mean token error in the row.
	//
	// Paired t-tests (two-sided, over shared splits; diff = A - B in percentage points):
	//
	// - poslearn vs margin (cora/sequence): token error diff -2.70 points, t=-15.59, p=0.0041, n=3
	// - poslearn vs margin (cora/sequence): span F1 diff +8.57 points, t=35.64, p=0.00079, n=3
	//
	// Training cost (means over splits):
	//
	// | task     | dataset | trainer  | n | train seconds | iterations | constraints |
	// |:---------|:--------|:---------|--:|--------------:|-----------:|------------:|
	// | sequence | cora    | margin   | 3 |           4.0 |       30.0 |       150.0 |
	// | sequence | cora    | slack    | 3 |           4.0 |       30.0 |       150.0 |
	// | sequence | cora    | poslearn | 3 |           4.0 |       30.0 |       150.0 |
}

func ExampleComparePaper() {
	// Three splits of margin scaling and PosLearn on Cora, set beside the
	// numbers a paper reports; the paper gives no span F1 for PosLearn,
	// and we have no slack-scaling runs.
	tokenError := map[string][]float64{"margin": {12.1, 12.9, 11.9}, "poslearn": {9.4, 9.9, 9.5}}
	spanF1 := map[string][]float64{"margin": {74.8, 73.9, 75.6}, "poslearn": {83.5, 82.8, 83.7}}
	var runs []report.Run
	for _, trainer := range []string{"margin", "poslearn"} {
		for split, tok := range tokenError[trainer] {
			runs = append(runs, report.Run{
				Dataset: "cora", Task: "sequence", Trainer: trainer, Split: split,
				TrainFraction: 0.25, Metrics: map[string]float64{"token_error": tok, "span_f1": spanF1[trainer][split]},
			})
		}
	}
	tab, err := report.Summarize(runs, report.Options{})
	if err != nil {
		log.Fatal(err)
	}
	ref := report.PaperReference{
		Source: "Sarawagi & Gupta (ICML 2008), Table 1",
		Values: []report.PaperValue{
			{Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 12.3, "span_f1": 74.9}},
			{Dataset: "cora", Task: "sequence", Trainer: "slack", Metrics: map[string]float64{"token_error": 10.6, "span_f1": 82.1}},
			{Dataset: "cora", Task: "sequence", Trainer: "poslearn", Metrics: map[string]float64{"token_error": 9.45}},
		},
	}
	if err := ref.Validate(); err != nil {
		log.Fatal(err)
	}
	if err := report.ComparePaper(tab, ref).WriteText(os.Stdout); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Against the paper: Sarawagi & Gupta (ICML 2008), Table 1
	// +---------+----------+----------+---+--------------+---------------+------------+-----------+------------+---------+
	// | dataset | task     | trainer  | n | error (ours) | error (paper) | error diff | F1 (ours) | F1 (paper) | F1 diff |
	// +---------+----------+----------+---+--------------+---------------+------------+-----------+------------+---------+
	// | cora    | sequence | margin   | 3 |     12.3±0.5 |          12.3 |        0.0 |  74.8±0.9 |       74.9 |    -0.1 |
	// | cora    | sequence | slack    | 0 |            - |          10.6 |          - |         - |       82.1 |       - |
	// | cora    | sequence | poslearn | 3 |    9.60±0.26 |          9.45 |      +0.15 |         - |          - |       - |
	// +---------+----------+----------+---+--------------+---------------+------------+-----------+------------+---------+
	// error: token error (%); F1: span F1 (%); ours: mean±std over n splits; diff: ours - paper in percentage points; -: not reported by the paper, or no runs of ours.
}

func ExamplePairedTTest() {
	// Student's sleep data: extra hours of sleep under two drugs, paired
	// by patient.
	drug1 := []float64{0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0}
	drug2 := []float64{1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4}
	tt, err := report.PairedTTest(drug1, drug2)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("mean diff %.2f, t=%.4f, df=%g, p=%.6f\n", tt.MeanDiff, tt.T, tt.DF, tt.P)
	// Output:
	// mean diff -1.58, t=-4.0621, df=9, p=0.002833
}

func ExampleReadRuns() {
	const runsFile = `{"key":"a1","dataset":"cora","task":"sequence","trainer":"margin","split":0,"token_error":12.1,"span_f1":74.9}
{"key":"a2","dataset":"cora","task":"sequence","trainer":"margin","split":1,"token_error":12.9,"span_f1":74.0}
{"key":"a3","dataset":"cora","ta`
	runs, warnings, err := report.ReadRuns(strings.NewReader(runsFile), "runs.jsonl")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(runs), "runs")
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}
	// Output:
	// 2 runs
	// warning: runs.jsonl:3: skipping torn last line: decoding run: unexpected EOF
}

// DiffRuns checks a regeneration against the committed runs: times may
// differ, nothing else may.
func ExampleDiffRuns() {
	committed := []report.Run{{Key: "3f2a", Trainer: "margin", Metrics: map[string]float64{"token_error": 7.25}, Iterations: 12, CPUSeconds: 2.5}}
	regenerated := []report.Run{{Key: "3f2a", Trainer: "margin", Metrics: map[string]float64{"token_error": 7.25}, Iterations: 13, CPUSeconds: 1.9}}
	d, err := report.DiffRuns(committed, regenerated)
	if err != nil {
		panic(err)
	}
	for _, c := range d.Changed {
		fmt.Println(c.Old.Key, c.Diffs)
	}
	fmt.Println("equal:", d.Equal())
	// Output:
	// 3f2a [iterations: 12, now 13]
	// equal: false
}
