package report

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// curveSpec is a spec for curveRuns with two figures.
func curveSpec() Spec {
	return Spec{
		Title:       "Cora learning curves",
		Trainers:    curveTrainers(),
		Comparisons: []Comparison{{"poslearn", "margin"}, {"approx-slack", "slack"}},
		Figures: []FigureSpec{
			curveFigure(YTokenError),
			{Name: "figure2", Dataset: "cora", Task: "sequence", X: XTrainFraction, Y: YTrainSeconds, Title: "Training time"},
		},
	}
}

func TestSpecValidate(t *testing.T) {
	fig := curveFigure(YTokenError)
	with := func(edit func(*Spec)) Spec {
		s := curveSpec()
		edit(&s)
		return s
	}
	withFigure := func(edit func(*FigureSpec)) Spec {
		f := fig
		edit(&f)
		return Spec{Figures: []FigureSpec{f}}
	}
	for _, tc := range []struct {
		name string
		spec Spec
		want string // "" means valid
	}{
		{"zero", Spec{}, ""},
		{"curves", curveSpec(), ""},
		{"empty trainer", with(func(s *Spec) { s.Trainers = append(s.Trainers, "") }), "empty trainer name"},
		{"trainer twice", with(func(s *Spec) { s.Trainers = append(s.Trainers, "slack") }), `"slack" listed twice`},
		{"self comparison", with(func(s *Spec) { s.Comparisons = []Comparison{{"slack", "slack"}} }), "with itself"},
		{"empty comparison", with(func(s *Spec) { s.Comparisons = []Comparison{{"slack", ""}} }), "empty trainer name"},
		{"figure twice", with(func(s *Spec) { s.Figures = append(s.Figures, fig) }), `two figures named "figure1"`},
		{"no name", withFigure(func(f *FigureSpec) { f.Name = "" }), "empty name"},
		{"path in name", withFigure(func(f *FigureSpec) { f.Name = "../figure1" }), "starts with '.'"},
		{"slash in name", withFigure(func(f *FigureSpec) { f.Name = "a/b" }), `character '/'`},
		{"space in name", withFigure(func(f *FigureSpec) { f.Name = "figure 1" }), `character ' '`},
		{"no dataset", withFigure(func(f *FigureSpec) { f.Dataset = "" }), "dataset and task must be set"},
		{"no task", withFigure(func(f *FigureSpec) { f.Task = "" }), "dataset and task must be set"},
		{"bad x", withFigure(func(f *FigureSpec) { f.X = "train_size" }), `unknown x "train_size"`},
		{"no x", withFigure(func(f *FigureSpec) { f.X = "" }), `unknown x ""`},
		{"bad y", withFigure(func(f *FigureSpec) { f.Y = "accuracy" }), `unknown y "accuracy"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.spec.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("Validate: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("Validate error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSpecRoundTrip(t *testing.T) {
	path := filepath.Join(t.TempDir(), SpecFile)
	want := curveSpec()
	if err := WriteSpec(path, want); err != nil {
		t.Fatal(err)
	}
	got, err := ReadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ReadSpec = %+v, want %+v", got, want)
	}
	if err := WriteSpec(path, Spec{Trainers: []string{"a", "a"}}); err == nil {
		t.Error("WriteSpec wrote an invalid spec")
	}
}

func TestReadSpecErrors(t *testing.T) {
	for _, tc := range []struct {
		name, json, want string
	}{
		{"unknown field", `{"trainers": ["margin"], "figure": []}`, `unknown field "figure"`},
		{"unknown figure field", `{"figures": [{"name": "f", "dataset": "cora", "task": "sequence", "x": "train_fraction", "y": "token_error", "colour": "red"}]}`, `unknown field "colour"`},
		{"trailing data", `{"trainers": ["margin"]} {}`, "trailing data"},
		{"invalid figure", `{"figures": [{"name": "f", "dataset": "cora", "task": "sequence", "x": "train_fraction", "y": "f1"}]}`, `unknown y "f1"`},
		{"not JSON", `trainers: [margin]`, "invalid character"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), SpecFile)
			if err := os.WriteFile(path, []byte(tc.json), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := ReadSpec(path)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("ReadSpec error %v, want one containing %q", err, tc.want)
			}
			if !strings.Contains(err.Error(), path) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}
