package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"
)

// Size of the figures written by [SaveFigure], and the resolution of the
// PNG (150 dpi gives 750×525 pixels, sharp enough for a screen or a
// draft).
const (
	FigureWidth  = 5 * vg.Inch
	FigureHeight = 3.5 * vg.Inch
	figureDPI    = 150
)

// figureFormats are the files SaveFigure writes, by extension.
func figureFormats() []string { return []string{"png", "svg", "pdf"} }

// Figure draws f from runs: for every trainer with runs on f.Dataset and
// f.Task, a line through the mean of f.Y over splits at each training
// fraction (in percent), with error bars of ±1 unbiased standard deviation
// over splits (0 for a single split). Each trainer keeps the same colour and
// marker in every figure.
//
// Lines follow the order of trainers, then trainers with runs that it does
// not list, in order of first appearance; listed trainers without runs are
// left out. The legend sits right of the axes, which are narrowed to make
// room for it, so it never hides data whatever the size the plot is drawn
// at.
//
// It returns an error if f is invalid, no run matches f, a plotted value is
// not finite, or two runs share (trainer, train fraction, split).
func Figure(runs []Run, f FigureSpec, trainers []string) (*plot.Plot, error) {
	fig, err := buildFigure(runs, f, trainers)
	if err != nil {
		return nil, err
	}
	return fig.plot, nil
}

// errorPoints are the points of one line with their error bars, as
// offsets from Y.
type errorPoints struct {
	plotter.XYs
	plotter.YErrors
}

// series is one trainer's line: the data and the plotters that draw it.
type series struct {
	trainer string
	n       []int // splits behind each point
	data    errorPoints
	line    *plotter.Line
	points  *plotter.Scatter
	bars    *plotter.YErrorBars
}

// builtFigure keeps the plotters added to a plot, which plot.Plot does not
// expose, so that tests can check what is drawn.
type builtFigure struct {
	plot   *plot.Plot
	series []series
}

func buildFigure(runs []Run, f FigureSpec, trainers []string) (*builtFigure, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	ss, err := figureSeries(runs, f, trainers)
	if err != nil {
		return nil, err
	}
	p := plot.New()
	p.Title.Text = f.title()
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = "training size (%)"
	if f.X == XBeta {
		p.X.Label.Text = "inverse temperature β (log scale)"
	}
	p.Y.Label.Text = f.yLabel()
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xdd}
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)
	for i := range ss {
		s := &ss[i]
		col, glyph := trainerStyle(s.trainer)
		if s.bars, err = plotter.NewYErrorBars(s.data); err != nil {
			return nil, fmt.Errorf("report: figure %q, %s: %w", f.Name, s.trainer, err)
		}
		if s.line, s.points, err = plotter.NewLinePoints(s.data); err != nil {
			return nil, fmt.Errorf("report: figure %q, %s: %w", f.Name, s.trainer, err)
		}
		s.bars.Color, s.bars.Width, s.bars.CapWidth = col, vg.Points(1), vg.Points(5)
		s.line.Color, s.line.Width = col, vg.Points(1.5)
		s.points.Color, s.points.Shape, s.points.Radius = col, glyph, vg.Points(3)
		p.Add(s.bars, s.line, s.points)
		p.Legend.Add(s.trainer, s.line, s.points)
	}
	p.Add(legendGutter{})
	p.Legend.XOffs = -vg.Points(4) // keep the markers off the image edge
	if f.X == XBeta {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = plot.LogTicks{Prec: -1}
		// Pad by a quarter decade each side so end points are not on the frame.
		p.X.Min /= math.Pow(10, 0.25)
		p.X.Max *= math.Pow(10, 0.25)
		if err := addZeroLine(p, f); err != nil {
			return nil, err
		}
		return &builtFigure{plot: p, series: ss}, nil
	}
	// Start at 0 so that the spacing of the training sizes reads
	// truthfully; plot.Add has already widened Max to the data.
	p.X.Min = 0
	if p.X.Max > 0 && allAt(ss, p.X.Max) {
		// A single training size would sit on the right edge, its
		// error bars against the legend; centre it instead.
		p.X.Max *= 2
	}
	if ticks := sizeTicks(ss); ticks != nil {
		p.X.Tick.Marker = ticks
	}
	if err := addZeroLine(p, f); err != nil {
		return nil, err
	}
	return &builtFigure{plot: p, series: ss}, nil
}

// addZeroLine draws the baseline of a figure with one as a dashed line at
// Y = 0 across the final X range (points below it beat the baseline on an
// error, above it on F1), and widens the Y range to show it off the frame.
// It must run after the X range is fixed.
func addZeroLine(p *plot.Plot, f FigureSpec) error {
	if f.Baseline == "" {
		return nil
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: p.X.Min, Y: 0}, {X: p.X.Max, Y: 0}})
	if err != nil {
		return fmt.Errorf("report: figure %q: %w", f.Name, err)
	}
	zero.Color, zero.Width, zero.Dashes = color.Gray{Y: 0x55}, vg.Points(1), []vg.Length{vg.Points(4), vg.Points(3)}
	p.Add(zero)
	p.Legend.Add(f.Baseline+" (baseline)", zero)
	pad := 0.05 * (max(p.Y.Max, 0) - min(p.Y.Min, 0))
	if p.Y.Max <= 0 {
		p.Y.Max = pad
	}
	if p.Y.Min >= 0 {
		p.Y.Min = -pad
	}
	return nil
}

// allAt reports whether every point of ss has X = x.
func allAt(ss []series, x float64) bool {
	for _, s := range ss {
		for _, xy := range s.data.XYs {
			if xy.X != x {
				return false
			}
		}
	}
	return true
}

// sizeTicks labels the X axis at 0 and at the training sizes of the data,
// as the paper does, when they are few and far enough apart for their
// labels not to collide; otherwise it returns nil for gonum's default
// ticks.
func sizeTicks(ss []series) plot.ConstantTicks {
	xs := []float64{0}
	for _, s := range ss {
		for _, xy := range s.data.XYs {
			xs = append(xs, xy.X)
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	const maxTicks, minGap = 7, 0.08 // minGap is a fraction of the axis
	if len(xs) > maxTicks {
		return nil
	}
	for i := 1; i < len(xs); i++ {
		if xs[i]-xs[i-1] < minGap*xs[len(xs)-1] {
			return nil
		}
	}
	ticks := make(plot.ConstantTicks, len(xs))
	for i, x := range xs {
		// 'g' with 6 digits hides float noise such as 100*0.15 = 15.000000000000002.
		ticks[i] = plot.Tick{Value: x, Label: strconv.FormatFloat(x, 'g', 6, 64)}
	}
	return ticks
}

// figureSeries aggregates the runs of f's dataset and task into one series
// per trainer (or per method, for X = XBeta), points in ascending X.
func figureSeries(runs []Run, f FigureSpec, trainers []string) ([]series, error) {
	q, _ := yQuantity(f.Y)
	value := func(r *Run) float64 { return q.value(r) }
	var base map[baselineKey]float64
	if f.Baseline != "" {
		var err error
		if base, err = baselineValues(runs, f, q); err != nil {
			return nil, err
		}
		value = func(r *Run) float64 {
			return q.value(r) - base[baselineKey{r.TrainFraction, r.Split}]
		}
	}
	type pointKey struct {
		series string
		x      float64
	}
	groups := make(map[pointKey][]*Run)
	splits := make(map[pointKey]map[int]string) // split -> run key, to find duplicates
	order := slices.Clone(trainers)
	if f.X == XBeta {
		order = nil // lines are methods, in order of first appearance
	}
	fraction := math.NaN() // the one training fraction of an XBeta figure
	for i := range runs {
		r := &runs[i]
		if r.Dataset != f.Dataset || r.Task != f.Task || r.Trainer == f.Baseline {
			continue
		}
		name, x := r.Trainer, 100*r.TrainFraction
		if f.X == XBeta {
			beta, ok := r.Params["beta"]
			if !ok {
				continue // a trainer without an inverse temperature
			}
			if !math.IsNaN(fraction) && r.TrainFraction != fraction {
				return nil, fmt.Errorf("report: figure %q: x %q needs runs of one training fraction, found %g and %g",
					f.Name, f.X, fraction, r.TrainFraction)
			}
			fraction = r.TrainFraction
			name, x = cmp.Or(r.Method, r.Trainer), beta
			if !(x > 0) {
				return nil, fmt.Errorf("report: figure %q: run %d (key %q): beta %v is not positive, so it has no place on a log axis",
					f.Name, i, r.Key, x)
			}
		}
		if v := value(r); !isFinite(v) || !isFinite(x) {
			return nil, fmt.Errorf("report: figure %q: run %d (key %q): non-finite %s %v or %s %v",
				f.Name, i, r.Key, f.Y, v, f.X, x)
		}
		if base != nil {
			if _, ok := base[baselineKey{r.TrainFraction, r.Split}]; !ok {
				return nil, fmt.Errorf("report: figure %q: %s split %d (train %g) has no %s run to subtract",
					f.Name, r.Trainer, r.Split, r.TrainFraction, f.Baseline)
			}
		}
		k := pointKey{name, x}
		if splits[k] == nil {
			splits[k] = make(map[int]string)
		}
		if prev, dup := splits[k][r.Split]; dup {
			return nil, fmt.Errorf("report: figure %q: runs %q and %q are both %s/%s %s at %s %g, split %d",
				f.Name, prev, r.Key, r.Dataset, r.Task, name, f.X, x, r.Split)
		}
		splits[k][r.Split] = r.Key
		groups[k] = append(groups[k], r)
		if !slices.Contains(order, name) {
			order = append(order, name)
		}
	}
	if len(groups) == 0 {
		what := ""
		if f.X == XBeta {
			what = " with a beta parameter"
		}
		return nil, fmt.Errorf("report: figure %q: no runs%s for %s/%s", f.Name, what, f.Dataset, f.Task)
	}

	var out []series
	for _, name := range order {
		var xs []float64
		for k := range groups {
			if k.series == name {
				xs = append(xs, k.x)
			}
		}
		if len(xs) == 0 {
			continue
		}
		slices.Sort(xs)
		s := series{trainer: name}
		for _, x := range xs {
			g := groups[pointKey{name, x}]
			// Sum in split order so that the means do not depend on the
			// order of runs.
			slices.SortFunc(g, func(a, b *Run) int { return cmp.Compare(a.Split, b.Split) })
			vals := make([]float64, len(g))
			for i, r := range g {
				vals[i] = value(r)
			}
			mean, std := MeanStd(vals)
			s.n = append(s.n, len(g))
			s.data.XYs = append(s.data.XYs, plotter.XY{X: x, Y: mean})
			s.data.YErrors = append(s.data.YErrors, struct{ Low, High float64 }{Low: std, High: std})
		}
		out = append(out, s)
	}
	return out, nil
}

// baselineKey pairs a run with its baseline run.
type baselineKey struct {
	fraction float64
	split    int
}

// baselineValues maps each (training fraction, split) of f.Baseline's runs
// on f's dataset and task to its Y value.
func baselineValues(runs []Run, f FigureSpec, q quantity) (map[baselineKey]float64, error) {
	base := map[baselineKey]float64{}
	for i := range runs {
		r := &runs[i]
		if r.Dataset != f.Dataset || r.Task != f.Task || r.Trainer != f.Baseline {
			continue
		}
		k := baselineKey{r.TrainFraction, r.Split}
		if _, dup := base[k]; dup {
			return nil, fmt.Errorf("report: figure %q: two %s runs for split %d (train %g)", f.Name, f.Baseline, r.Split, r.TrainFraction)
		}
		v := q.value(r)
		if !isFinite(v) {
			return nil, fmt.Errorf("report: figure %q: run %d (key %q): non-finite %s %v", f.Name, i, r.Key, f.Y, v)
		}
		base[k] = v
	}
	if len(base) == 0 {
		return nil, fmt.Errorf("report: figure %q: baseline %q has no runs on %s/%s", f.Name, f.Baseline, f.Dataset, f.Task)
	}
	return base, nil
}

// legendGutter is an invisible plotter that makes room for the legend
// right of the axes. plot.Plot narrows the data area until every glyph box
// fits, so one box at the right edge as wide as the legend moves the axes
// left; the legend, drawn right-aligned against the full width, then lands
// in the gap instead of over the data.
type legendGutter struct{}

// Plot implements plot.Plotter; the gutter draws nothing.
func (legendGutter) Plot(draw.Canvas, *plot.Plot) {}

// GlyphBoxes implements plot.GlyphBoxer. The box has no height, so it
// does not affect vertical padding.
func (legendGutter) GlyphBoxes(p *plot.Plot) []plot.GlyphBox {
	w := p.Legend.Rectangle(draw.Canvas{}).Size().X
	if w == 0 {
		return nil // no legend entries
	}
	w += vg.Points(12) // gap between the data and the legend
	return []plot.GlyphBox{{X: 1, Y: 1, Rectangle: vg.Rectangle{Max: vg.Point{X: w}}}}
}

// SaveFigure writes p to dir as stem.png, stem.svg and stem.pdf, each
// FigureWidth × FigureHeight, each atomically.
func SaveFigure(p *plot.Plot, dir, stem string) error {
	if err := validStem(stem); err != nil {
		return fmt.Errorf("report: figure file stem %q: %w", stem, err)
	}
	for _, ext := range figureFormats() {
		c := newFigureCanvas(ext)
		p.Draw(draw.New(c))
		err := writeAtomic(filepath.Join(dir, stem+"."+ext), func(w io.Writer) error {
			if ext != "pdf" {
				_, err := c.WriteTo(w)
				return err
			}
			var buf bytes.Buffer
			if _, err := c.WriteTo(&buf); err != nil {
				return err
			}
			_, err := w.Write(fixPDFDates(buf.Bytes()))
			return err
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// pdfDate matches the creation and modification dates that the PDF writer
// stamps with the current time.
var pdfDate = regexp.MustCompile(`(/(?:CreationDate|ModDate) \(D:)[0-9]{14}`)

// fixPDFDates replaces the PDF's creation and modification dates with a
// fixed one, so that the same runs render to byte-identical files and a
// re-rendered report shows no spurious change. The replacement has the same
// length, so the byte offsets in the PDF's cross-reference table stay valid.
func fixPDFDates(pdf []byte) []byte {
	return pdfDate.ReplaceAll(pdf, []byte("${1}19700101000000"))
}

// newFigureCanvas returns a FigureWidth × FigureHeight canvas for one of
// figureFormats.
func newFigureCanvas(ext string) vg.CanvasWriterTo {
	switch ext {
	case "png":
		return vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(FigureWidth, FigureHeight), vgimg.UseDPI(figureDPI))}
	case "svg":
		return vgsvg.New(FigureWidth, FigureHeight)
	case "pdf":
		return newPDFCanvas(FigureWidth, FigureHeight)
	}
	panic("report: no canvas for format " + ext) // figureFormats and this switch disagree
}
