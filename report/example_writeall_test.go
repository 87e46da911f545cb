package report_test

import (
	"fmt"
	"log"
	"os"

	"github.com/maxmargin/repro/report"
)

func ExampleWriteAll() {
	// Learning curves of two trainers: 3 training fractions × 3 splits.
	var runs []report.Run
	for i, trainer := range []string{"margin", "poslearn"} {
		for _, fraction := range []float64{0.1, 0.25, 0.5} {
			for split := range 3 {
				runs = append(runs, report.Run{
					Dataset: "cora", Task: "sequence", Trainer: trainer,
					Split: split, TrainFraction: fraction,
					Metrics:      map[string]float64{"token_error": 15 - 10*fraction - 2*float64(i) + 0.3*float64(split), "span_f1": 70 + 20*fraction + 2*float64(i) - 0.3*float64(split)},
					TrainSeconds: 40 * fraction * float64(1+i),
				})
			}
		}
	}
	spec := report.Spec{
		Trainers:    []string{"margin", "poslearn"},
		Comparisons: []report.Comparison{{A: "poslearn", B: "margin"}},
		Figures: []report.FigureSpec{
			{Name: "figure1", Dataset: "cora", Task: "sequence", X: report.XTrainFraction, Y: "token_error"},
			{Name: "figure2", Dataset: "cora", Task: "sequence", X: report.XTrainFraction, Y: report.YTrainSeconds},
		},
	}

	dir, err := os.MkdirTemp("", "report-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	if err := report.WriteAll(dir, runs, spec); err != nil {
		log.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		log.Fatal(err)
	}
	for _, e := range entries {
		fmt.Println(e.Name())
	}
	// Output:
	// figure1.pdf
	// figure1.png
	// figure1.svg
	// figure2.pdf
	// figure2.png
	// figure2.svg
	// index.html
	// table.csv
	// table.md
	// table.tex
	// table.txt
}
