package report

import (
	"bytes"
	"math"
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
			curveFigure("token_error"),
			{Name: "figure2", Dataset: "cora", Task: "sequence", X: XTrainFraction, Y: YTrainSeconds, Title: "Training time"},
		},
	}
}

func TestSpecValidate(t *testing.T) {
	fig := curveFigure("token_error")
	with := func(edit func(*Spec)) Spec {
		s := curveSpec()
		edit(&s)
		return s
	}
	withPaper := func(edit func(*PaperReference)) Spec {
		s := curveSpec()
		ref := fixturePaper()
		edit(&ref)
		s.Paper = &ref
		return s
	}
	withValue := func(edit func(*PaperValue)) Spec {
		return withPaper(func(p *PaperReference) { edit(&p.Values[0]) })
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
		{"no dataset", withFigure(func(f *FigureSpec) { f.Dataset = "" }), "dataset must be set"},
		{"no task", withFigure(func(f *FigureSpec) { f.Task = "" }), ""}, // every task (ExpandFigures)
		{"bad x", withFigure(func(f *FigureSpec) { f.X = "train_size" }), `unknown x "train_size"`},
		{"no x", withFigure(func(f *FigureSpec) { f.X = "" }), `unknown x ""`},
		{"bad y", withFigure(func(f *FigureSpec) { f.Y = "recall" }), `unknown y "recall"`},
		{"paper", withPaper(func(*PaperReference) {}), ""},
		{"paper without source", withPaper(func(p *PaperReference) { p.Source = " " }), "empty source"},
		{"paper without values", withPaper(func(p *PaperReference) { p.Values, p.Note = nil, "" }), "no values"},
		{"figure-only paper", withPaper(func(p *PaperReference) { p.Values, p.Note = nil, "Figure 3 draws contours without numbers" }), ""},
		{"paper value without dataset", withValue(func(v *PaperValue) { v.Dataset = "" }), "value 0: dataset, task and trainer must be set"},
		{"paper value without task", withValue(func(v *PaperValue) { v.Task = "" }), "value 0: dataset, task and trainer must be set"},
		{"paper value without trainer", withValue(func(v *PaperValue) { v.Trainer = "" }), "value 0: dataset, task and trainer must be set"},
		{"paper value without metrics", withValue(func(v *PaperValue) { v.Metrics = nil }), "cora/sequence margin: no metric (task sequence has token_error, span_f1, token_error_file, train_error, constraints, support_loss)"},
		{"paper value zero", withValue(func(v *PaperValue) { v.Metrics["token_error"] = 0 }), ""},
		{"paper value hundred", withValue(func(v *PaperValue) { v.Metrics["span_f1"] = 100 }), ""},
		{"paper value negative", withValue(func(v *PaperValue) { v.Metrics["token_error"] = -0.5 }), "token_error -0.5 is not a percentage"},
		{"paper value above 100", withValue(func(v *PaperValue) { v.Metrics["span_f1"] = 100.5 }), "span_f1 100.5 is not a percentage"},
		{"paper value NaN", withValue(func(v *PaperValue) { v.Metrics["span_f1"] = math.NaN() }), "span_f1 NaN is not a percentage"},
		{"paper value of a metric the task lacks", withValue(func(v *PaperValue) { v.Metrics["segment_error"] = 5 }), `segment_error given for task "sequence"`},
		{"paper value twice", withPaper(func(p *PaperReference) { p.Values = append(p.Values, p.Values[0]) }), "cora/sequence margin listed twice"},
		{"paper segment error only", withValue(func(v *PaperValue) {
			v.Task, v.Metrics = "segmentation", map[string]float64{"segment_error": 17.7}
		}), ""},
		{"paper segment error above 100", withValue(func(v *PaperValue) { v.Task, v.Metrics = "segmentation", map[string]float64{"segment_error": 101} }), "segment_error 101 is not a percentage"},
		{"paper segment error negative", withValue(func(v *PaperValue) { v.Task, v.Metrics = "segmentation", map[string]float64{"segment_error": -1} }), "segment_error -1 is not a percentage"},
		{"paper segment error of parsing", with(func(s *Spec) {
			s.Paper = &PaperReference{Source: "x", Values: []PaperValue{{Dataset: "danish", Task: "parsing", Trainer: "margin", Metrics: map[string]float64{"segment_error": 5}}}}
		}), `segment_error given for task "parsing"`},
		{"paper span F1 of parsing", with(func(s *Spec) {
			s.Paper = &PaperReference{Source: "x", Values: []PaperValue{{Dataset: "danish", Task: "parsing", Trainer: "margin", Metrics: map[string]float64{"span_f1": 50}}}}
		}), `span_f1 given for task "parsing"`},
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
	withPaper := paperSpec()
	if err := WriteSpec(path, withPaper); err != nil {
		t.Fatal(err)
	}
	got, err = ReadSpec(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, withPaper) {
		t.Errorf("ReadSpec = %+v, want %+v", got, withPaper)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	// An absent metric stays absent rather than becoming a reported 0.
	if !bytes.Contains(b, []byte(`"trainer": "crf",
        "token_error": 9
      }`)) {
		t.Errorf("report.json does not leave out the crf value's span_f1:\n%s", b)
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
		{"unknown paper field", `{"paper": {"source": "x", "values": [{"dataset": "cora", "task": "sequence", "trainer": "margin", "recall": 0.9}]}}`, `unknown field "recall"`},
		{"invalid paper", `{"paper": {"source": "x", "values": [{"dataset": "cora", "task": "sequence", "trainer": "margin"}]}}`, "cora/sequence margin: no metric"},
		{"paper value of no metric", `{"paper": {"source": "x", "values": [{"dataset": "cora", "task": "sequence", "trainer": "margin", "token_eror": 1}]}}`, `unknown field "token_eror"`},
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
