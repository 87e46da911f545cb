package report

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"
)

// curveTrainers are the trainers of curveRuns, in the paper's order.
func curveTrainers() []string { return []string{"margin", "slack", "approx-slack", "poslearn"} }

// curveRuns returns synthetic learning curves on cora/sequence: each of
// curveTrainers at train fractions 0.1, 0.25 and 0.5 on 3 splits, listed
// out of fraction order, plus one conll run that cora figures must ignore.
func curveRuns() []Run {
	var runs []Run
	for ti, tr := range curveTrainers() {
		for _, fr := range []float64{0.5, 0.1, 0.25} {
			for s := range 3 {
				noise := 0.3 * float64((s*7+ti*3)%5)
				runs = append(runs, Run{
					Key:           fmt.Sprintf("%s-%g-%d", tr, fr, s),
					Dataset:       "cora",
					Task:          "sequence",
					Trainer:       tr,
					Split:         s,
					TrainFraction: fr,
					Metrics:       map[string]float64{"token_error": 20 - 20*fr - 2*float64(ti) + noise, "span_f1": 60 + 30*fr + float64(ti) - noise},
					TrainSeconds:  (1+float64(ti))*10*fr + 0.1*float64(s),
					Iterations:    10 + s,
					Constraints:   50 + 10*s,
					Version:       "abc123",
				})
			}
		}
	}
	return append(runs, Run{Key: "conll", Dataset: "conll", Task: "sequence", Trainer: "margin",
		TrainFraction: 0.25, Metrics: map[string]float64{"token_error": 99, "span_f1": 1}, TrainSeconds: 99})
}

// curveFigure is a valid figure of curveRuns.
func curveFigure(y string) FigureSpec {
	return FigureSpec{Name: "figure1", Dataset: "cora", Task: "sequence", X: XTrainFraction, Y: y}
}

// naiveMeanStd computes the mean and unbiased standard deviation from
// their definitions, independently of MeanStd.
func naiveMeanStd(xs []float64) (mean, std float64) {
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, 0
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(xs)-1))
}

func TestFigureSeries(t *testing.T) {
	runs := curveRuns()
	for _, tc := range []struct {
		y     string
		value func(Run) float64
		label string
	}{
		{"token_error", func(r Run) float64 { return r.Metrics["token_error"] }, "token error (%)"},
		{"span_f1", func(r Run) float64 { return r.Metrics["span_f1"] }, "span F1 (%)"},
		{YTrainSeconds, func(r Run) float64 { return r.TrainSeconds }, "training time (s)"},
	} {
		t.Run(tc.y, func(t *testing.T) {
			fig, err := buildFigure(runs, curveFigure(tc.y), curveTrainers())
			if err != nil {
				t.Fatal(err)
			}
			p := fig.plot
			if p.X.Label.Text != "training size (%)" || p.Y.Label.Text != tc.label {
				t.Errorf("axis labels %q, %q; want %q, %q", p.X.Label.Text, p.Y.Label.Text, "training size (%)", tc.label)
			}
			if !strings.Contains(p.Title.Text, "cora") || !strings.Contains(p.Title.Text, "sequence") {
				t.Errorf("title %q does not name dataset and task", p.Title.Text)
			}
			var got []string
			for _, s := range fig.series {
				got = append(got, s.trainer)
			}
			if !slices.Equal(got, curveTrainers()) {
				t.Fatalf("series %q, want %q", got, curveTrainers())
			}
			for _, s := range fig.series {
				for i, fr := range []float64{0.1, 0.25, 0.5} {
					var vals []float64
					for _, r := range runs {
						if r.Dataset == "cora" && r.Trainer == s.trainer && r.TrainFraction == fr {
							vals = append(vals, tc.value(r))
						}
					}
					mean, std := naiveMeanStd(vals)
					for what, xys := range map[string]interface{ XY(int) (float64, float64) }{
						"line": s.line.XYs, "points": s.points.XYs, "bars": s.bars.XYs,
					} {
						// Drawn points are dodged sideways (TestFigureDodge).
						x, y := xys.XY(i)
						if x != 100*fr+s.shift || math.Abs(y-mean) > 1e-9 {
							t.Errorf("%s %s point %d = (%v, %v), want (%v, %v)", s.trainer, what, i, x, y, 100*fr+s.shift, mean)
						}
						if s.data.XYs[i].X != 100*fr {
							t.Errorf("%s data point %d at x = %v, want the true %v", s.trainer, i, s.data.XYs[i].X, 100*fr)
						}
					}
					if lo, hi := s.bars.YError(i); math.Abs(lo-std) > 1e-9 || math.Abs(hi-std) > 1e-9 {
						t.Errorf("%s error bar %d = -%v/+%v, want ±%v", s.trainer, i, lo, hi, std)
					}
					if s.n[i] != 3 {
						t.Errorf("%s point %d from %d splits, want 3", s.trainer, i, s.n[i])
					}
				}
				if s.line.Len() != 3 {
					t.Errorf("%s has %d points, want 3", s.trainer, s.line.Len())
				}
			}
		})
	}
}

// drawn records what p draws on a FigureWidth × FigureHeight canvas.
func drawn(t *testing.T, fig *builtFigure) (texts []*recorder.FillString, dataArea draw.Canvas) {
	t.Helper()
	var rec recorder.Canvas
	c := draw.NewCanvas(&rec, FigureWidth, FigureHeight)
	fig.plot.Draw(c)
	for _, a := range rec.Actions {
		if fs, ok := a.(*recorder.FillString); ok {
			texts = append(texts, fs)
		}
	}
	return texts, fig.plot.DataCanvas(c)
}

func TestFigureLegend(t *testing.T) {
	fig, err := buildFigure(curveRuns(), curveFigure("token_error"), curveTrainers())
	if err != nil {
		t.Fatal(err)
	}
	texts, data := drawn(t, fig)
	for _, tr := range curveTrainers() {
		var entries []*recorder.FillString
		for _, fs := range texts {
			if fs.String == tr {
				entries = append(entries, fs)
			}
		}
		if len(entries) != 1 {
			t.Errorf("legend entry %q drawn %d times, want once", tr, len(entries))
			continue
		}
		// The legend must sit right of the data area, not over it.
		if x := entries[0].Point.X; x < data.Max.X {
			t.Errorf("legend entry %q starts at x=%v, inside the data area (right edge %v)", tr, x, data.Max.X)
		}
	}
	for _, want := range []string{fig.plot.Title.Text, "training size (%)", "token error (%)"} {
		if !slices.ContainsFunc(texts, func(fs *recorder.FillString) bool { return fs.String == want }) {
			t.Errorf("%q not drawn", want)
		}
	}
	// Every point must fall inside the data area.
	for _, s := range fig.series {
		for i := range s.data.XYs {
			x, y := s.data.XY(i)
			pt := data.Rectangle.Min
			pt.X += data.Size().X * vg.Length(fig.plot.X.Norm(x))
			pt.Y += data.Size().Y * vg.Length(fig.plot.Y.Norm(y))
			if !data.Contains(pt) {
				t.Errorf("%s point %d (%v, %v) outside the data area", s.trainer, i, x, y)
			}
		}
	}
}

func TestFigureTrainerOrder(t *testing.T) {
	// slack is listed but has no runs; "crf" has runs but is not listed.
	var runs []Run
	for _, r := range curveRuns() {
		switch r.Trainer {
		case "slack":
			continue
		case "approx-slack":
			r.Trainer = "crf"
		}
		runs = append(runs, r)
	}
	fig, err := buildFigure(runs, curveFigure("token_error"), []string{"poslearn", "slack", "margin"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range fig.series {
		got = append(got, s.trainer)
	}
	if want := []string{"poslearn", "margin", "crf"}; !slices.Equal(got, want) {
		t.Errorf("series %q, want %q", got, want)
	}
}

func TestFigureSingleFraction(t *testing.T) {
	var runs []Run
	for _, r := range curveRuns() {
		if r.TrainFraction == 0.25 {
			runs = append(runs, r)
		}
	}
	fig, err := buildFigure(runs, curveFigure("token_error"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fig.series) != 4 {
		t.Fatalf("%d series, want 4", len(fig.series))
	}
	for _, s := range fig.series {
		if s.points.Len() != 1 || s.bars.Len() != 1 {
			t.Errorf("%s: %d points and %d bars, want 1 each", s.trainer, s.points.Len(), s.bars.Len())
		}
	}
	if x := fig.series[0].data.XYs[0].X; fig.plot.X.Min != 0 || fig.plot.X.Max != 2*x {
		t.Errorf("X axis [%v, %v], want [0, %v] to centre the point at %v", fig.plot.X.Min, fig.plot.X.Max, 2*x, x)
	}
	dir := t.TempDir()
	if err := SaveFigure(fig.plot, dir, "single"); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, dir, "single")
}

func TestFigureErrors(t *testing.T) {
	runs := curveRuns()
	dup := append(slices.Clone(runs), runs[0])
	dup[len(dup)-1].Key = "again"
	nan := slices.Clone(runs)
	nan[3].TrainSeconds = math.NaN()
	for _, tc := range []struct {
		name string
		runs []Run
		f    FigureSpec
		want string
	}{
		{"no runs", runs, FigureSpec{Name: "f", Dataset: "address", Task: "sequence", X: XTrainFraction, Y: "token_error"}, "no runs for address/sequence"},
		{"duplicate split", dup, curveFigure("token_error"), `runs "margin-0.5-0" and "again"`},
		{"NaN", nan, curveFigure(YTrainSeconds), "non-finite"},
		{"NaN not plotted", nan, curveFigure("token_error"), ""},
		{"bad y", runs, FigureSpec{Name: "f", Dataset: "cora", Task: "sequence", X: XTrainFraction, Y: "recall"}, `unknown y "recall"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := Figure(tc.runs, tc.f, nil)
			if tc.want == "" {
				if err != nil || p == nil {
					t.Fatalf("Figure: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Figure error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestSaveFigure(t *testing.T) {
	p, err := Figure(curveRuns(), curveFigure("token_error"), curveTrainers())
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SaveFigure(p, dir, "figure1"); err != nil {
		t.Fatal(err)
	}
	checkFigureFiles(t, dir, "figure1")
	if err := SaveFigure(p, dir, "../escape"); err == nil {
		t.Error("SaveFigure accepted stem ../escape")
	}
}

// checkFigureFiles checks that dir holds a decodable stem.png of the
// expected size, a stem.svg with an <svg> root and a stem.pdf.
func checkFigureFiles(t *testing.T, dir, stem string) {
	t.Helper()
	read := func(ext string) []byte {
		b, err := os.ReadFile(filepath.Join(dir, stem+"."+ext))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	img, err := png.Decode(bytes.NewReader(read("png")))
	if err != nil {
		t.Fatalf("%s.png: %v", stem, err)
	}
	wantW, wantH := int(FigureWidth.Dots(figureDPI)+0.5), int(FigureHeight.Dots(figureDPI)+0.5)
	if b := img.Bounds(); b.Dx() != wantW || b.Dy() != wantH {
		t.Errorf("%s.png is %dx%d, want %dx%d", stem, b.Dx(), b.Dy(), wantW, wantH)
	}
	dec := xml.NewDecoder(bytes.NewReader(read("svg")))
	var root string
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatalf("%s.svg: %v", stem, err)
		}
		if se, ok := tok.(xml.StartElement); ok && root == "" {
			root = se.Name.Local
		}
	}
	if root != "svg" {
		t.Errorf("%s.svg root element %q, want svg", stem, root)
	}
	if pdf := read("pdf"); !bytes.HasPrefix(pdf, []byte("%PDF")) {
		t.Errorf("%s.pdf starts %q, want %%PDF", stem, pdf[:min(len(pdf), 8)])
	}
}

func TestTrainerStyle(t *testing.T) {
	known := []string{"margin", "slack", "approx-slack", "poslearn", "perceptron", "mira", "subgradient", "crf", "entropy-margin"}
	colours := make(map[color.RGBA]string)
	for _, tr := range known {
		c, g := trainerStyle(tr)
		rgba := color.RGBAModel.Convert(c).(color.RGBA)
		if prev, dup := colours[rgba]; dup {
			t.Errorf("%s and %s share colour %v", prev, tr, rgba)
		}
		colours[rgba] = tr
		if g == nil {
			t.Errorf("%s has no marker", tr)
		}
	}
	// The four trainers of the paper have distinct markers too.
	markers := make(map[string]string)
	for _, tr := range known[:4] {
		_, g := trainerStyle(tr)
		m := fmt.Sprintf("%T", g)
		if prev, dup := markers[m]; dup {
			t.Errorf("%s and %s share marker %s", prev, tr, m)
		}
		markers[m] = tr
	}
	for _, tr := range []string{"my-new-trainer", "x", ""} {
		c1, g1 := trainerStyle(tr)
		c2, g2 := trainerStyle(tr)
		if c1 != c2 || g1 != g2 {
			t.Errorf("fallback style of %q is not deterministic", tr)
		}
	}
}

func TestSizeTicks(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64 // training sizes in percent
		want []string  // tick labels; nil means gonum's default ticks
	}{
		{"paper", []float64{10, 25, 50}, []string{"0", "10", "25", "50"}},
		{"float noise", []float64{100 * 0.15, 100 * 0.3}, []string{"0", "15", "30"}},
		{"single", []float64{25}, []string{"0", "25"}},
		{"crowded", []float64{10, 12, 50}, nil},
		{"many", []float64{10, 20, 30, 40, 50, 60, 70, 80}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var s series
			for _, x := range tc.xs {
				s.data.XYs = append(s.data.XYs, plotter.XY{X: x})
			}
			// A second series at the same sizes adds no ticks.
			var got []string
			for _, tick := range sizeTicks([]series{s, s}) {
				got = append(got, tick.Label)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("labels %q, want %q", got, tc.want)
			}
		})
	}
}

// Lines are shifted sideways, symmetrically and in line order, by a small
// step, so that error bars at one X stand apart; on a log axis the shift
// is a factor.
func TestFigureDodge(t *testing.T) {
	check := func(t *testing.T, fig *builtFigure, gap float64, logX bool) {
		t.Helper()
		n := len(fig.series)
		if n < 2 {
			t.Fatalf("%d series, want several", n)
		}
		for i, s := range fig.series {
			if mirror := fig.series[n-1-i].shift; math.Abs(s.shift+mirror) > 1e-12 {
				t.Errorf("%s shift %v does not mirror %v", s.trainer, s.shift, mirror)
			}
			if i > 0 && !(s.shift > fig.series[i-1].shift) {
				t.Errorf("%s shift %v not right of %s's %v", s.trainer, s.shift, fig.series[i-1].trainer, fig.series[i-1].shift)
			}
			// The outermost lines stay within a quarter of the gap to the
			// next X, so that no point reads as another X.
			if math.Abs(s.shift) > gap/4+1e-12 {
				t.Errorf("%s shift %v more than a quarter of the gap %v", s.trainer, s.shift, gap)
			}
			for j, xy := range s.data.XYs {
				x, _ := s.points.XY(j)
				want := xy.X + s.shift
				if logX {
					want = xy.X * math.Pow(10, s.shift)
				}
				if math.Abs(x-want) > 1e-9*math.Abs(want) {
					t.Errorf("%s point %d drawn at %v, want %v", s.trainer, j, x, want)
				}
				bx, _ := s.bars.XY(j)
				if bx != x {
					t.Errorf("%s bar %d at %v, point at %v", s.trainer, j, bx, x)
				}
			}
		}
	}
	t.Run("train fraction", func(t *testing.T) {
		fig, err := buildFigure(curveRuns(), curveFigure("token_error"), curveTrainers())
		if err != nil {
			t.Fatal(err)
		}
		check(t, fig, 15, false) // X at 10, 25, 50
	})
	t.Run("close fractions", func(t *testing.T) {
		// X at 10 and 11 out of 100: the gap, not the axis, bounds the step.
		var runs []Run
		for _, r := range curveRuns() {
			switch r.TrainFraction {
			case 0.1:
				runs = append(runs, r)
				r.TrainFraction, r.Key = 0.11, r.Key+"b"
				runs = append(runs, r)
				r.TrainFraction, r.Key = 1, r.Key+"c"
				runs = append(runs, r)
			}
		}
		fig, err := buildFigure(runs, curveFigure("token_error"), curveTrainers())
		if err != nil {
			t.Fatal(err)
		}
		check(t, fig, 1, false)
	})
	t.Run("beta", func(t *testing.T) {
		runs := betaRuns()
		var more []Run
		for _, r := range runs {
			if r.Method == "entropy-margin" {
				r.Method, r.Trainer, r.Key = "other", "o"+r.Trainer, "o"+r.Key
				more = append(more, r)
			}
		}
		fig, err := buildFigure(append(runs, more...), betaFigure(), nil)
		if err != nil {
			t.Fatal(err)
		}
		check(t, fig, 0.5, true) // beta from 0.1 to 10 in half decades or more
	})
}

// The time axis starts at zero, so that times read as ratios; error axes
// keep their data range.
func TestFigureTimeAxisFromZero(t *testing.T) {
	for _, y := range []string{YTrainSeconds, "token_error"} {
		runs := curveRuns()
		for i := range runs {
			runs[i].TrainSeconds += 100 // far from zero
		}
		fig, err := buildFigure(runs, curveFigure(y), curveTrainers())
		if err != nil {
			t.Fatal(err)
		}
		if got := fig.plot.Y.Min; (got == 0) != (y == YTrainSeconds) {
			t.Errorf("y %s: axis starts at %v", y, got)
		}
	}
}

// The legend says what the error bars are.
func TestFigureBarsNote(t *testing.T) {
	one := slices.DeleteFunc(curveRuns(), func(r Run) bool { return r.Split != 0 })
	fewer := slices.DeleteFunc(curveRuns(), func(r Run) bool { return r.Split == 2 && r.Trainer == "slack" })
	for _, tc := range []struct {
		name string
		runs []Run
		want string
	}{
		{"three splits", curveRuns(), "±1 std, 3 splits"},
		{"one split", one, "1 split: no bars"},
		{"two or three", fewer, "±1 std, 2–3 splits"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fig, err := buildFigure(tc.runs, curveFigure("token_error"), curveTrainers())
			if err != nil {
				t.Fatal(err)
			}
			texts, data := drawn(t, fig)
			i := slices.IndexFunc(texts, func(fs *recorder.FillString) bool { return fs.String == tc.want })
			if i < 0 {
				t.Fatalf("%q not drawn", tc.want)
			}
			if texts[i].Point.X < data.Max.X {
				t.Errorf("note drawn at x=%v, inside the data area", texts[i].Point.X)
			}
		})
	}
}

// A title wider than the figure is set in a smaller font, so that it fits
// instead of being cut at both edges; a title that fits keeps the default.
func TestSetTitleFits(t *testing.T) {
	for _, tc := range []struct {
		title  string
		shrink bool
	}{
		{"OCR: l_beta by beta", false},
		{"OCR: l_beta minus CRF, MAP prediction, by beta (Pletscher et al. Fig. 4 left), and more", true},
	} {
		p := plot.New()
		size := p.Title.TextStyle.Font.Size
		setTitle(p, tc.title)
		room := FigureWidth - 2*p.Title.Padding
		if w := p.Title.TextStyle.Width(tc.title); w > room*1.0001 {
			t.Errorf("%q: %v wide, room for %v", tc.title, w, room)
		}
		if shrunk := p.Title.TextStyle.Font.Size < size; shrunk != tc.shrink {
			t.Errorf("%q: font %v → %v, want shrunk %v", tc.title, size, p.Title.TextStyle.Font.Size, tc.shrink)
		}
	}
}
