package report

import (
	"slices"
	"strings"
	"testing"
)

// twoTaskRuns are curveRuns on cora/sequence plus a copy on
// cora/segmentation.
func twoTaskRuns() []Run {
	runs := curveRuns()
	for _, r := range curveRuns() {
		if r.Dataset == "cora" {
			r.Task, r.Key = "segmentation", "seg-"+r.Key
			runs = append(runs, r)
		}
	}
	return runs
}

func TestExpandFigures(t *testing.T) {
	noTask := func(name, title string) FigureSpec {
		return FigureSpec{Name: name, Dataset: "cora", X: XTrainFraction, Y: "token_error", Title: title}
	}
	for _, tc := range []struct {
		name  string
		runs  []Run
		figs  []FigureSpec
		names []string
		tasks []string
		title []string
		err   string
	}{
		{"one task keeps the name", curveRuns(), []FigureSpec{noTask("figure1", "")},
			[]string{"figure1"}, []string{"sequence"}, []string{""}, ""},
		{"one figure per task", twoTaskRuns(), []FigureSpec{noTask("figure1", "Error")},
			[]string{"figure1-segmentation", "figure1-sequence"}, []string{"segmentation", "sequence"},
			[]string{"Error (segmentation)", "Error (sequence)"}, ""},
		{"a named task stays", twoTaskRuns(), []FigureSpec{curveFigure("token_error")},
			[]string{"figure1"}, []string{"sequence"}, []string{""}, ""},
		{"no runs: left for Figure to report", curveRuns(), []FigureSpec{{Name: "f", Dataset: "address", X: XTrainFraction, Y: "token_error"}},
			[]string{"f"}, []string{""}, []string{""}, ""},
		{"collision", twoTaskRuns(), []FigureSpec{noTask("figure1", ""), {Name: "figure1-sequence", Dataset: "cora", Task: "sequence", X: XTrainFraction, Y: "span_f1"}},
			nil, nil, nil, `two figures named "figure1-sequence"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ExpandFigures(tc.runs, tc.figs)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var names, tasks, titles []string
			for _, f := range got {
				names, tasks, titles = append(names, f.Name), append(tasks, f.Task), append(titles, f.Title)
			}
			if !slices.Equal(names, tc.names) || !slices.Equal(tasks, tc.tasks) || !slices.Equal(titles, tc.title) {
				t.Errorf("got names %q, tasks %q, titles %q; want %q, %q, %q", names, tasks, titles, tc.names, tc.tasks, tc.title)
			}
		})
	}
}

// Figure resolves a missing task when the dataset has one, and otherwise
// says to name one.
func TestFigureWithoutTask(t *testing.T) {
	f := curveFigure("token_error")
	f.Task = ""
	fig, err := buildFigure(curveRuns(), f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(fig.plot.Title.Text, "cora/sequence") {
		t.Errorf("title %q does not name the task", fig.plot.Title.Text)
	}
	if _, err := Figure(twoTaskRuns(), f, nil); err == nil || !strings.Contains(err.Error(), "ExpandFigures") {
		t.Errorf("two tasks: error %v, want one pointing to ExpandFigures", err)
	}
}

// WriteAll draws a figure without a task once per task, and index.html
// shows each.
func TestWriteAllFigurePerTask(t *testing.T) {
	dir := t.TempDir()
	spec := Spec{Figures: []FigureSpec{{Name: "figure1", Dataset: "cora", X: XTrainFraction, Y: "token_error"}}}
	if err := WriteAll(dir, twoTaskRuns(), spec); err != nil {
		t.Fatal(err)
	}
	for _, stem := range []string{"figure1-segmentation", "figure1-sequence"} {
		checkFigureFiles(t, dir, stem)
	}
	if names := dirNames(t, dir); slices.Contains(names, "figure1.png") {
		t.Errorf("dir holds figure1.png besides the per-task figures: %q", names)
	}
}
