package report

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gonum.org/v1/plot/plotter"
)

// contourTestRuns is a 3 β × 4 C grid of entropy-margin runs on
// mnist/multiclass over two splits, error = 10 + log10 β − log10 C + split
// and CPU time β·C seconds, listed in no particular order; with an LR run
// (no beta) and a run on another dataset, which the figure leaves out.
func contourTestRuns() []Run {
	var runs []Run
	for _, c := range []float64{10, 0.01, 1, 0.1} {
		for _, beta := range []float64{100, 1, 10} {
			for s := range 2 {
				runs = append(runs, Run{
					Key: fmt.Sprintf("em-%g-%g-%d", beta, c, s), Dataset: "mnist", Task: "multiclass",
					Trainer: fmt.Sprintf("b%g C%g", beta, c), Method: "entropy-margin", TrainFraction: 100,
					Params: map[string]float64{"beta": beta, "C": c, "loss_scale": 1}, Split: s,
					Metrics:    map[string]float64{"error_rate": 10 + math.Log10(beta) - math.Log10(c) + float64(s)},
					CPUSeconds: beta * c, TrainSeconds: 2 * beta * c,
				})
			}
		}
	}
	runs = append(runs,
		Run{Key: "lr", Dataset: "mnist", Task: "multiclass", Trainer: "LR", Params: map[string]float64{"C": 1}, TrainFraction: 100,
			Metrics: map[string]float64{"error_rate": 50}, CPUSeconds: 1},
		Run{Key: "other", Dataset: "synth1", Task: "multiclass", Trainer: "b1 C1", Method: "entropy-margin",
			Params: map[string]float64{"beta": 1, "C": 1}, Metrics: map[string]float64{"error_rate": 99}, CPUSeconds: 1})
	return runs
}

func contourSpec(z string) FigureSpec {
	return FigureSpec{Name: "figure3", Dataset: "mnist", Task: "multiclass", X: XBeta, Y: YParamC, Z: z}
}

func TestContourGrid(t *testing.T) {
	fig, err := buildFigure(contourTestRuns(), contourSpec("error_rate"), nil)
	if err != nil {
		t.Fatal(err)
	}
	b := fig.contour
	if b == nil || fig.series != nil {
		t.Fatal("not drawn as a contour")
	}
	g := b.grid
	if !slices.Equal(g.betas, []float64{1, 10, 100}) || !slices.Equal(g.cs, []float64{0.01, 0.1, 1, 10}) || b.line != "entropy-margin" {
		t.Fatalf("grid betas %v, Cs %v, line %q", g.betas, g.cs, b.line)
	}
	if c, r := g.Dims(); c != 3 || r != 4 {
		t.Fatalf("dims %d × %d", c, r)
	}
	for i, beta := range g.betas {
		if g.X(i) != math.Log10(beta) {
			t.Errorf("X(%d) = %v", i, g.X(i))
		}
		for j, c := range g.cs {
			want := 10 + math.Log10(beta) - math.Log10(c) + 0.5 // the mean of splits 0 and 1
			if math.Abs(g.Z(i, j)-want) > 1e-12 || g.n[i][j] != 2 || g.Y(j) != math.Log10(c) {
				t.Errorf("(beta %g, C %g): z %v over %d splits at y %v, want %v over 2", beta, c, g.Z(i, j), g.n[i][j], g.Y(j), want)
			}
		}
	}
	// Every grid point is written at its place, with one decimal.
	if len(b.labels.Labels) != 12 {
		t.Fatalf("%d labels, want 12", len(b.labels.Labels))
	}
	for k, xy := range b.labels.XYs {
		want := fmt.Sprintf("%.1f", 10+xy.X-xy.Y+0.5)
		if b.labels.Labels[k] != want {
			t.Errorf("label at (%v, %v) = %q, want %q", xy.X, xy.Y, b.labels.Labels[k], want)
		}
	}
	if len(b.levels) == 0 || !slices.IsSorted(b.levels) || b.levels[0] <= 8.5 || b.levels[len(b.levels)-1] >= 14.5 {
		t.Errorf("levels %v, want ascending inside (8.5, 14.5)", b.levels)
	}
	if len(b.lines.segs) != len(b.levels) || len(b.lines.styles) != len(b.levels) {
		t.Errorf("%d levels drawn with %d styles, want %d", len(b.lines.segs), len(b.lines.styles), len(b.levels))
	}
	cap := fig.caption()
	for _, want := range []string{"mean over 2 splits", "3 × 4 (β, C) grid points of entropy-margin", "contour lines at"} {
		if !strings.Contains(cap, want) {
			t.Errorf("caption %q lacks %q", cap, want)
		}
	}
}

// A contour of training time reads CPU seconds, written with two
// significant digits.
func TestContourTime(t *testing.T) {
	fig, err := buildFigure(contourTestRuns(), contourSpec(YTrainSeconds), nil)
	if err != nil {
		t.Fatal(err)
	}
	g := fig.contour.grid
	if got := g.Z(2, 3); got != 1000 { // beta 100, C 10: CPU seconds, not the wall-clock 2000
		t.Errorf("z at (100, 10) = %v, want 1000", got)
	}
	if got := fig.contour.labels.Labels[0]; got != "0.01" { // beta 1, C 0.01
		t.Errorf("first label %q, want 0.01", got)
	}
	if !strings.Contains(fig.caption(), "training time") || !strings.Contains(fig.caption(), " s,") && !strings.Contains(fig.caption(), " s (") {
		t.Errorf("caption %q", fig.caption())
	}
}

func TestContourLevels(t *testing.T) {
	g := &contourGrid{z: [][]float64{{1, 2, 3, 4, 5}, {6, 7, 8, 9, 10}}}
	if got, want := contourLevels(g), []float64{1.45, 1.9, 3.25, 5.5, 7.75, 9.1}; !slices.Equal(got, want) {
		t.Errorf("levels of 1..10 = %v, want %v", got, want)
	}
	// Levels are rounded to three digits, and kept strictly inside the
	// values' range and distinct: a grid that is nearly flat has none.
	g = &contourGrid{z: [][]float64{{1, 1, 1, 1}, {1, 1, 1, 1.0001}}}
	if got := contourLevels(g); len(got) != 0 {
		t.Errorf("levels of a flat grid = %v, want none", got)
	}
	// The lower quantiles round to 12.3, below the smallest value.
	g = &contourGrid{z: [][]float64{{12.3456, 12.3457}, {12.3458, 20}}}
	if got := contourLevels(g); !slices.Equal(got, []float64{14.3, 17.7}) {
		t.Errorf("levels %v", got)
	}
}

func TestContourErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func([]Run) []Run
		want string
	}{
		{"missing cell", func(rs []Run) []Run {
			return slices.DeleteFunc(rs, func(r Run) bool { return r.Params["beta"] == 10 && r.Params["C"] == 0.1 })
		}, "lacks runs at (beta 10, C 0.1)"},
		{"two methods", func(rs []Run) []Run {
			rs[0].Params = map[string]float64{"beta": 1, "C": 1, "loss_scale": 0}
			return rs
		}, "one method"},
		{"duplicate", func(rs []Run) []Run {
			r := rs[0]
			r.Key = "again"
			return append(rs, r)
		}, "are both at beta"},
		{"one C", func(rs []Run) []Run {
			return slices.DeleteFunc(rs, func(r Run) bool { return r.Params["C"] != 1 })
		}, "at least two values"},
		{"no runs", func(rs []Run) []Run { return rs[len(rs)-2:] }, "no runs with a beta and a C"},
		{"fractions", func(rs []Run) []Run {
			rs[3].TrainFraction = 50
			return rs
		}, "one training fraction"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := buildFigure(tc.edit(contourTestRuns()), contourSpec("error_rate"), nil)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

func TestContourSpecValidate(t *testing.T) {
	for _, tc := range []struct {
		edit func(*FigureSpec)
		want string
	}{
		{func(f *FigureSpec) { f.Z = "" }, "set z"},
		{func(f *FigureSpec) { f.X = XTrainFraction }, "drawn over x"},
		{func(f *FigureSpec) { f.Y = "error_rate" }, "drawn over x"},
		{func(f *FigureSpec) { f.Baseline = "LR" }, "no baseline"},
		{func(f *FigureSpec) { f.Z = "speed" }, "unknown z"},
	} {
		f := contourSpec("error_rate")
		tc.edit(&f)
		if err := f.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want one containing %q", f, err, tc.want)
		}
	}
	for _, z := range []string{"error_rate", YTrainSeconds, YCPUSeconds} {
		if err := contourSpec(z).Validate(); err != nil {
			t.Errorf("z %s: %v", z, err)
		}
	}
}

// The figure renders in every format, its legend naming the levels.
func TestContourRenders(t *testing.T) {
	p, err := Figure(contourTestRuns(), contourSpec("error_rate"), nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := SaveFigure(p, dir, "figure3"); err != nil {
		t.Fatal(err)
	}
	svg, err := os.ReadFile(filepath.Join(dir, "figure3.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"over β and C", "lines: error", "12.5"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
}

func TestDecadeTicks(t *testing.T) {
	var labels []string
	for _, tk := range (decadeTicks{}).Ticks(-4.2, 3.1) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if want := []string{"1e-4", "1e-3", "0.01", "0.1", "1", "10", "100", "1000"}; !slices.Equal(labels, want) {
		t.Errorf("labels %v, want %v", labels, want)
	}
}

// On a plane every piece of a contour lies on the level's line: the
// interpolation is exact there, whatever the grid's spacing; a level
// inside the range has pieces, one outside none.
func TestIsolinesOfAPlane(t *testing.T) {
	g := &contourGrid{betas: []float64{1, 3, 10, 100}, cs: []float64{0.01, 0.1, 0.5, 1, 10}}
	for _, beta := range g.betas {
		var col []float64
		for _, c := range g.cs {
			col = append(col, 2*math.Log10(beta)-math.Log10(c)) // z = 2x − y
		}
		g.z = append(g.z, col)
	}
	for _, h := range []float64{-0.5, 0.3, 1, 2.7, 4.9} {
		segs := isolines(g, h)
		if len(segs) == 0 {
			t.Errorf("level %v: no pieces", h)
		}
		for _, s := range segs {
			for _, p := range []plotter.XY{s.a, s.b} {
				if math.Abs(2*p.X-p.Y-h) > 1e-12 || p.X < 0 || p.X > 2 || p.Y < -2 || p.Y > 1 {
					t.Errorf("level %v: point %v is off the line 2x − y = h or outside the grid", h, p)
				}
			}
		}
	}
	if segs := isolines(g, 10); len(segs) != 0 {
		t.Errorf("a level above every value has %d pieces", len(segs))
	}
}

// A saddle cell is resolved by its centre, the mean of the corners: with
// the centre above the level the two low corners are cut off separately.
func TestIsolinesSaddle(t *testing.T) {
	g := &contourGrid{betas: []float64{1, 10}, cs: []float64{1, 10}, z: [][]float64{{0, 3}, {3, 0}}}
	segs := isolines(g, 1) // centre 1.5: above
	if len(segs) != 4 {
		t.Fatalf("%d pieces, want 4 (two about each low corner)", len(segs))
	}
	for _, s := range segs {
		// Each piece stays near a low corner, (0, 0) or (1, 1): it must not
		// cross the diagonal between them.
		nearOrigin := func(p plotter.XY) bool { return p.X+p.Y < 1 }
		if nearOrigin(s.a) != nearOrigin(s.b) {
			t.Errorf("piece %v joins the two low corners", s)
		}
	}
}

// The same runs render to the same bytes, every time and in every format.
func TestContourDeterministic(t *testing.T) {
	render := func() map[string][]byte {
		p, err := Figure(contourTestRuns(), contourSpec("error_rate"), nil)
		if err != nil {
			t.Fatal(err)
		}
		files, err := renderFigure(p)
		if err != nil {
			t.Fatal(err)
		}
		return files
	}
	first := render()
	for range 5 {
		for ext, b := range render() {
			if !slices.Equal(b, first[ext]) {
				t.Fatalf("%s differs between two renderings", ext)
			}
		}
	}
}
