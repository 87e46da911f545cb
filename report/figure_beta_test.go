package report

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gonum.org/v1/plot"
)

// betaRuns returns a synthetic β sweep on ocr/sequence over 4 folds: a crf
// baseline, an entropy-margin entry per β (labelled, with Method set), a
// margin SSVM without β (which a β figure must leave out) and a cora run
// (another dataset).
func betaRuns() []Run {
	var runs []Run
	crf := []float64{20.3, 19.7, 19.8, 19.5}
	for s, e := range crf {
		runs = append(runs, Run{Key: fmt.Sprintf("crf-%d", s), Dataset: "ocr", Task: "sequence", Trainer: "crf",
			Split: s, Metrics: map[string]float64{"token_error": e, "span_f1": 80 - e}, TrainSeconds: 20})
		runs = append(runs, Run{Key: fmt.Sprintf("margin-%d", s), Dataset: "ocr", Task: "sequence", Trainer: "margin",
			Params: map[string]float64{"C": 0.1}, Split: s, Metrics: map[string]float64{"token_error": e + 0.1}, TrainSeconds: 60})
	}
	// Listed with the largest β first, to check that points are sorted.
	for _, beta := range []float64{100, 0.1, 10, 1} {
		for s, e := range crf {
			shift := -0.2*math.Log10(beta) + 0.05*float64(s%2)
			runs = append(runs, Run{
				Key: fmt.Sprintf("em-%g-%d", beta, s), Dataset: "ocr", Task: "sequence",
				Trainer: fmt.Sprintf("em-beta%g", beta), Method: "entropy-margin",
				Params: map[string]float64{"C": 1, "beta": beta, "loss_scale": 1},
				Split:  s, Metrics: map[string]float64{"token_error": e + shift, "span_f1": 80 - e - shift}, TrainSeconds: 20 * beta,
			})
		}
	}
	return append(runs, Run{Key: "cora", Dataset: "cora", Task: "sequence", Trainer: "em", Method: "entropy-margin",
		Params: map[string]float64{"beta": 5}, Metrics: map[string]float64{"token_error": 99}})
}

func betaFigure() FigureSpec {
	return FigureSpec{Name: "figure4", Dataset: "ocr", Task: "sequence", X: XBeta, Y: "token_error", Baseline: "crf"}
}

func TestBetaFigureSeries(t *testing.T) {
	runs := betaRuns()
	fig, err := buildFigure(runs, betaFigure(), []string{"crf", "margin"})
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.series) != 1 || fig.series[0].trainer != "entropy-margin" {
		t.Fatalf("series = %+v, want one line for entropy-margin", fig.series)
	}
	s := fig.series[0]
	wantX := []float64{0.1, 1, 10, 100}
	if len(s.data.XYs) != len(wantX) {
		t.Fatalf("%d points, want %d", len(s.data.XYs), len(wantX))
	}
	crf := map[int]float64{}
	for _, r := range runs {
		if r.Dataset == "ocr" && r.Trainer == "crf" {
			crf[r.Split] = r.Metrics["token_error"]
		}
	}
	for i, x := range wantX {
		var diffs []float64
		for _, r := range runs {
			if r.Dataset == "ocr" && r.Method == "entropy-margin" && r.Params["beta"] == x {
				diffs = append(diffs, r.Metrics["token_error"]-crf[r.Split])
			}
		}
		mean, std := naiveMeanStd(diffs)
		got := s.data.XYs[i]
		if got.X != x || math.Abs(got.Y-mean) > 1e-12 || math.Abs(s.data.YErrors[i].High-std) > 1e-12 || s.n[i] != 4 {
			t.Errorf("point %d = (%v, %v ± %v, n=%d), want (%v, %v ± %v, n=4)", i, got.X, got.Y, s.data.YErrors[i].High, s.n[i], x, mean, std)
		}
	}
	if _, ok := fig.plot.X.Scale.(plot.LogScale); !ok {
		t.Errorf("x scale is %T, want plot.LogScale", fig.plot.X.Scale)
	}
	if fig.plot.Y.Min > 0 || fig.plot.Y.Max < 0 {
		t.Errorf("y range [%v, %v] hides the baseline's zero line", fig.plot.Y.Min, fig.plot.Y.Max)
	}
	if got := fig.plot.Y.Label.Text; !strings.Contains(got, "crf") {
		t.Errorf("y label %q does not name the baseline", got)
	}
	// The figure renders in every format.
	if err := SaveFigure(fig.plot, t.TempDir(), "figure4"); err != nil {
		t.Fatal(err)
	}
}

func TestBaselineOnTrainFractionFigure(t *testing.T) {
	runs := curveRuns()
	f := curveFigure("token_error")
	f.Baseline = "margin"
	fig, err := buildFigure(runs, f, curveTrainers())
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range fig.series {
		if s.trainer == "margin" {
			t.Fatal("the baseline is drawn as a line")
		}
	}
	// slack at 10%: mean over splits of slack − margin.
	var diffs []float64
	for s := range 3 {
		var m, sl float64
		for _, r := range runs {
			if r.Dataset == "cora" && r.TrainFraction == 0.1 && r.Split == s {
				switch r.Trainer {
				case "margin":
					m = r.Metrics["token_error"]
				case "slack":
					sl = r.Metrics["token_error"]
				}
			}
		}
		diffs = append(diffs, sl-m)
	}
	mean, _ := naiveMeanStd(diffs)
	if got := fig.series[0]; got.trainer != "slack" || math.Abs(got.data.XYs[0].Y-mean) > 1e-12 {
		t.Errorf("first series %s at 10%% = %v, want slack at %v", got.trainer, got.data.XYs[0].Y, mean)
	}
}

func TestBetaFigureErrors(t *testing.T) {
	tests := []struct {
		name   string
		mutate func([]Run, *FigureSpec) []Run
		want   string
	}{
		{"no beta runs", func(r []Run, f *FigureSpec) []Run { f.Dataset = "none"; f.Baseline = ""; return r }, "no runs with a beta"},
		{"unknown baseline", func(r []Run, f *FigureSpec) []Run { f.Baseline = "svm"; return r }, `baseline "svm" has no runs`},
		{"missing baseline split", func(r []Run, f *FigureSpec) []Run {
			return append(r, Run{Key: "extra", Dataset: "ocr", Task: "sequence", Trainer: "em-beta1", Method: "entropy-margin",
				Params: map[string]float64{"beta": 1}, Split: 7, Metrics: map[string]float64{"token_error": 20}})
		}, "split 7 (train 0) has no crf run"},
		{"two fractions", func(r []Run, f *FigureSpec) []Run {
			return append(r, Run{Key: "extra", Dataset: "ocr", Task: "sequence", Trainer: "em-beta1", Method: "entropy-margin",
				Params: map[string]float64{"beta": 1}, TrainFraction: 0.5, Metrics: map[string]float64{"token_error": 20}})
		}, "one training fraction"},
		{"duplicate beta", func(r []Run, f *FigureSpec) []Run {
			return append(r, Run{Key: "extra", Dataset: "ocr", Task: "sequence", Trainer: "other", Method: "entropy-margin",
				Params: map[string]float64{"beta": 10}, Split: 1, Metrics: map[string]float64{"token_error": 20}})
		}, "are both ocr/sequence entropy-margin at beta 10, split 1"},
		{"non-positive beta", func(r []Run, f *FigureSpec) []Run {
			return append(r, Run{Key: "extra", Dataset: "ocr", Task: "sequence", Trainer: "zero", Method: "z",
				Params: map[string]float64{"beta": 0}, Split: 1, Metrics: map[string]float64{"token_error": 20}})
		}, "not positive"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := betaFigure()
			runs := tc.mutate(betaRuns(), &f)
			_, err := Figure(runs, f, nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestFigureSpecValidateX(t *testing.T) {
	f := betaFigure()
	if err := f.Validate(); err != nil {
		t.Fatalf("beta figure: %v", err)
	}
	f.X = "C"
	if err := f.Validate(); err == nil || !strings.Contains(err.Error(), `unknown x "C"`) {
		t.Fatalf("x = C: error %v", err)
	}
}

// PDFs carry no wall-clock dates, so re-rendering a report changes no file.
func TestSaveFigurePDFHasFixedDates(t *testing.T) {
	fig, err := Figure(betaRuns(), betaFigure(), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SaveFigure(fig, dir, "f"); err != nil {
		t.Fatal(err)
	}
	pdf, err := os.ReadFile(filepath.Join(dir, "f.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	dates := regexp.MustCompile(`/(CreationDate|ModDate) \(D:([0-9]+)`).FindAllSubmatch(pdf, -1)
	if len(dates) != 2 {
		t.Fatalf("found %d PDF dates, want CreationDate and ModDate", len(dates))
	}
	for _, d := range dates {
		if string(d[2]) != "19700101000000" {
			t.Errorf("%s = %s, want the fixed 19700101000000", d[1], d[2])
		}
	}
	// The rewrite keeps the length, so the cross-reference offsets hold:
	// the trailer's startxref must point at the "xref" keyword.
	m := regexp.MustCompile(`startxref\s+([0-9]+)`).FindSubmatch(pdf)
	if m == nil {
		t.Fatal("no startxref")
	}
	off, _ := strconv.Atoi(string(m[1]))
	if off >= len(pdf) || !bytes.HasPrefix(pdf[off:], []byte("xref")) {
		t.Errorf("startxref %d does not point at the xref table", off)
	}
}

func ExampleBetaLine() {
	fmt.Println(BetaLine("entropy-margin", map[string]float64{"beta": 5, "loss_scale": 1}, nil))
	fmt.Println(BetaLine("entropy-margin", map[string]float64{"beta": 1, "loss_scale": 0}, nil))
	fmt.Println(BetaLine("entropy-margin", map[string]float64{"beta": 5, "loss_scale": 1}, map[string]string{"rescaling": "slack"}))
	fmt.Println(BetaLine("entropy-margin", map[string]float64{"beta": 1, "loss_scale": 0}, map[string]string{"predict": "mpm"}))
	fmt.Println(BetaLine("entropy-margin", nil, map[string]string{"rescaling": "slack", "predict": "mpm"}))
	// Output:
	// entropy-margin
	// entropy-margin without Δ
	// entropy-margin (rescaling=slack)
	// entropy-margin without Δ (predict=mpm)
	// entropy-margin (predict=mpm, rescaling=slack)
}

func TestBetaTicksLabelLargeDecadesAsPowers(t *testing.T) {
	var labels []string
	for _, tk := range (betaTicks{}).Ticks(0.01, 1e6) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	want := []string{"0.01", "0.1", "1", "10", "100", "1000", "1e4", "1e5", "1e6"}
	if !slices.Equal(labels, want) {
		t.Errorf("labels %q, want %q", labels, want)
	}
}

// Runs of one method that differ in a setting (Run.Settings: slack
// rescaling, MPM prediction) lie on lines of their own, and a figure's
// Trainers draw only the listed entries (the baseline still subtracted).
func TestBetaFigureSettingsAndTrainers(t *testing.T) {
	runs := betaRuns()
	for _, v := range []struct {
		label    string
		settings map[string]string
		shift    float64
	}{
		{"slack-beta1", map[string]string{"rescaling": "slack"}, 0.5},
		{"mpm-beta1", map[string]string{"predict": "mpm"}, 1.5},
	} {
		for s := range 4 {
			runs = append(runs, Run{Key: fmt.Sprintf("%s-%d", v.label, s), Dataset: "ocr", Task: "sequence", Trainer: v.label, Method: "entropy-margin",
				Params: map[string]float64{"C": 1, "beta": 1, "loss_scale": 1}, Settings: v.settings, Split: s,
				Metrics: map[string]float64{"token_error": 20 + v.shift}})
		}
	}
	lines := func(f FigureSpec) []string {
		t.Helper()
		fig, err := buildFigure(runs, f, []string{"crf", "margin"})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range fig.series {
			out = append(out, fmt.Sprintf("%s:%d", s.trainer, len(s.data.XYs)))
		}
		return out
	}
	all := []string{"entropy-margin:4", "entropy-margin (rescaling=slack):1", "entropy-margin (predict=mpm):1"}
	if got := lines(betaFigure()); !slices.Equal(got, all) {
		t.Errorf("lines %v, want %v", got, all)
	}
	f := betaFigure()
	f.Trainers = []string{"mpm-beta1", "em-beta10"}
	if got, want := lines(f), []string{"entropy-margin:1", "entropy-margin (predict=mpm):1"}; !slices.Equal(got, want) {
		t.Errorf("with trainers %v: lines %v, want %v", f.Trainers, got, want)
	}
	f.Trainers = []string{"crf"}
	if err := f.Validate(); err == nil {
		t.Error("a figure listing its baseline among its trainers validated")
	}
}
