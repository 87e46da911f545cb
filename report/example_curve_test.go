package report_test

import (
	"fmt"
	"log"

	"github.com/maxmargin/repro/report"
)

// Draw learning curves, Crammer et al.'s Figure 2: each run carries the
// checkpoints of its training scored on the test set (Run.Curve, recorded
// by a config with curves: true), and a figure with x: cpu_seconds draws
// one line per trainer through them, here on a log time axis.
func ExampleFigure_learningCurves() {
	runs := []report.Run{
		{Dataset: "ocr", Task: "sequence", Trainer: "perceptron", Curve: []report.CurvePoint{
			{Iteration: 1, CPUSeconds: 0.1, Metrics: map[string]float64{"token_error": 25}},
			{Iteration: 2, CPUSeconds: 0.2, Metrics: map[string]float64{"token_error": 21}},
			{Iteration: 3, CPUSeconds: 0.3, Metrics: map[string]float64{"token_error": 20}},
		}},
		{Dataset: "ocr", Task: "sequence", Trainer: "crf", Curve: []report.CurvePoint{
			{Iteration: 1, CPUSeconds: 0.5, Metrics: map[string]float64{"token_error": 60}},
			{Iteration: 10, CPUSeconds: 5, Metrics: map[string]float64{"token_error": 22}},
			{Iteration: 100, CPUSeconds: 40, Metrics: map[string]float64{"token_error": 16}},
		}},
	}
	f := report.FigureSpec{Name: "figure2", Dataset: "ocr", Task: "sequence", X: report.XCPUSeconds, Y: report.YAccuracy, LogX: true}
	p, err := report.Figure(runs, f, []string{"perceptron", "crf"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Title.Text)
	fmt.Println(p.X.Label.Text, "|", p.Y.Label.Text)
	// Output:
	// ocr/sequence: accuracy against training time
	// training CPU time (s, log scale) | accuracy (%)
}
