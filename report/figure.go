package report

import (
	"bytes"
	"cmp"
	"fmt"
	"image/color"
	"math"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

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
// marker in every figure. A figure against XCPUSeconds draws each
// trainer's learning curve instead (see Run.Curve): with several splits,
// the mean over splits of the last checkpoint at or before each time, with
// a band of ±1 standard deviation.
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

// ExpandFigures resolves the figures that name no task: each becomes one
// figure per task with runs on its dataset, in lexical order of task. With
// one such task the figure keeps its name, so a single-task experiment's
// files do not change; with several, each is named NAME-TASK, and a title
// the spec gives gets " (TASK)" appended. Figures that name a task, and
// figures of a dataset without runs (which [Figure] reports), are kept as
// they are. Two resulting figures with one name are an error. A figure of
// a metric is drawn only for the tasks whose runs have it (the segment
// error for segmentation), unless no task has it, when [Figure] says so.
func ExpandFigures(runs []Run, figs []FigureSpec) ([]FigureSpec, error) {
	var out []FigureSpec
	for _, f := range figs {
		tasks := figureTasks(runs, f)
		if f.Task != "" || len(tasks) == 0 {
			out = append(out, f)
			continue
		}
		for _, task := range tasks {
			g := f
			g.Task = task
			if len(tasks) > 1 {
				g.Name = f.Name + "-" + task
				if f.Title != "" {
					g.Title = f.Title + " (" + task + ")"
				}
			}
			out = append(out, g)
		}
	}
	for i, f := range out {
		for _, g := range out[:i] {
			if g.Name == f.Name {
				return nil, fmt.Errorf("report: two figures named %q once tasks are expanded", f.Name)
			}
		}
	}
	return out, nil
}

// figureTasks lists the tasks f can be drawn for: those with runs on its
// dataset, and for a metric those among them whose runs have it if there
// are any.
func figureTasks(runs []Run, f FigureSpec) []string {
	tasks := datasetTasks(runs, f.Dataset)
	name, _, ok := yMetric(f.Y)
	if !ok {
		return tasks
	}
	seg := slices.DeleteFunc(slices.Clone(tasks), func(task string) bool {
		return !slices.ContainsFunc(runs, func(r Run) bool {
			_, has := r.Metrics[name]
			return r.Dataset == f.Dataset && r.Task == task && has
		})
	})
	if len(seg) == 0 {
		return tasks
	}
	return seg
}

// datasetTasks lists the tasks with runs on dataset, in lexical order.
func datasetTasks(runs []Run, dataset string) []string {
	var tasks []string
	for _, r := range runs {
		if r.Dataset == dataset && !slices.Contains(tasks, r.Task) {
			tasks = append(tasks, r.Task)
		}
	}
	slices.Sort(tasks)
	return tasks
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
	// shift moves the line sideways so that its error bars do not hide
	// another line's (see dodge): drawn X = data X + shift on a linear
	// axis, data X · 10^shift on a logarithmic one.
	shift  float64
	line   *plotter.Line
	points *plotter.Scatter
	bars   *plotter.YErrorBars
}

// builtFigure keeps the plotters added to a plot, which plot.Plot does not
// expose, so that tests can check what is drawn.
type builtFigure struct {
	plot    *plot.Plot
	series  []series
	curves  []curveSeries // X = XCPUSeconds, instead of series
	contour *builtContour // Z set, instead of series
}

func buildFigure(runs []Run, f FigureSpec, trainers []string) (*builtFigure, error) {
	if err := f.Validate(); err != nil {
		return nil, err
	}
	if f.Task == "" {
		tasks := figureTasks(runs, f)
		if len(tasks) != 1 {
			return nil, fmt.Errorf("report: figure %q names no task, and %s has runs of %d tasks %q; set one or use ExpandFigures",
				f.Name, f.Dataset, len(tasks), tasks)
		}
		f.Task = tasks[0]
	}
	runs = f.selected(runs)
	if f.X == XCPUSeconds {
		return buildCurveFigure(runs, f, trainers)
	}
	if f.Z != "" {
		return buildContourFigure(runs, f)
	}
	q, err := figureQuantity(runs, f)
	if err != nil {
		return nil, err
	}
	ss, err := figureSeries(runs, f, q, trainers)
	if err != nil {
		return nil, err
	}
	p := plot.New()
	setTitle(p, f.title())
	p.X.Label.Text = "training size (%)"
	switch f.X {
	case XBeta:
		p.X.Label.Text = "inverse temperature β (log scale)"
	case XDataset:
		p.X.Label.Text = "dataset"
	}
	p.Y.Label.Text = f.yLabel(q)
	addLegendAndGrid(p)
	dodge(ss, f.X == XBeta)
	for i := range ss {
		s := &ss[i]
		col, glyph := trainerStyle(s.trainer)
		drawn := s.drawn(f.X == XBeta)
		if s.bars, err = plotter.NewYErrorBars(drawn); err != nil {
			return nil, fmt.Errorf("report: figure %q, %s: %w", f.Name, s.trainer, err)
		}
		if s.line, s.points, err = plotter.NewLinePoints(drawn); err != nil {
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
	switch f.X {
	case XDataset:
		p.X.Min, p.X.Max = 0.5, float64(len(f.Datasets))+0.5
		ticks := make(plot.ConstantTicks, len(f.Datasets))
		for i, d := range f.Datasets {
			ticks[i] = plot.Tick{Value: float64(i + 1), Label: datasetTick(d, f.Datasets)}
		}
		p.X.Tick.Marker = ticks
		p.X.Tick.Label.Font.Size = vg.Points(8)
	case XBeta:
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = betaTicks{}
		lo, hi := xRange(ss)
		// Pad by a quarter decade each side so end points are not on the frame.
		p.X.Min = lo / math.Pow(10, betaPad)
		p.X.Max = hi * math.Pow(10, betaPad)
	default:
		// Start at 0 so that the spacing of the training sizes reads
		// truthfully; plot.Add has already widened Max to the data.
		p.X.Min = 0
		if _, hi := xRange(ss); hi > 0 && allAt(ss, hi) {
			// A single training size would sit on the right edge, its
			// error bars against the legend; centre it instead.
			p.X.Max = 2 * hi
		}
		if ticks := sizeTicks(ss); ticks != nil {
			p.X.Tick.Marker = ticks
		}
	}
	if q.seconds && f.Baseline == "" {
		// Times are compared as ratios, which only a zero origin shows.
		p.Y.Min = min(p.Y.Min, 0)
	}
	if err := addZeroLine(p, f); err != nil {
		return nil, err
	}
	addBarsNote(p, ss)
	return &builtFigure{plot: p, series: ss}, nil
}

// datasetTick labels a dataset on an XDataset axis: its name without the
// prefix all the figure's datasets share (e.g. "cora-"), broken at '-'
// into lines so that neighbouring labels do not run into each other.
func datasetTick(name string, all []string) string {
	prefix := all[0]
	for _, d := range all[1:] {
		for !strings.HasPrefix(d, prefix) {
			prefix = prefix[:len(prefix)-1]
		}
	}
	if i := strings.LastIndexByte(prefix, '-'); i >= 0 {
		prefix = prefix[:i+1]
	} else {
		prefix = ""
	}
	return strings.ReplaceAll(strings.TrimPrefix(name, prefix), "-", "\n")
}

// betaTicks are gonum's logarithmic ticks with decades from 10⁴ up (and
// below 10⁻³) labelled as powers, "1e5", so that a β axis reaching 10⁶
// does not run "100000" into "1e+06".
type betaTicks struct{}

func (betaTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.LogTicks{Prec: -1}.Ticks(lo, hi)
	for i, t := range ts {
		if t.Label != "" && (t.Value >= 1e4 || t.Value < 1e-3) {
			ts[i].Label = fmt.Sprintf("1e%d", int(math.Round(math.Log10(t.Value))))
		}
	}
	return ts
}

// betaPad is the margin, in decades, left each side of the points of a
// figure against β.
const betaPad = 0.25

// dodgeStep is the sideways step between neighbouring lines, as a
// fraction of the X axis; dodge narrows it where points are close.
const dodgeStep = 0.012

// dodge gives each line of ss a sideways shift, symmetric about zero and
// in line order, so that error bars at the same X stand side by side
// instead of on top of each other: steps of dodgeStep of the axis width
// (of its decades on a log axis), or less where that would carry a line
// more than a quarter of the way to the next X. The data keep their
// true X; only what is drawn moves.
func dodge(ss []series, logX bool) {
	if len(ss) < 2 {
		return
	}
	var xs []float64
	for _, s := range ss {
		for _, xy := range s.data.XYs {
			x := xy.X
			if logX {
				x = math.Log10(x)
			}
			xs = append(xs, x)
		}
	}
	slices.Sort(xs)
	xs = slices.Compact(xs)
	lo, hi := xs[0], xs[len(xs)-1]
	var width float64
	if logX {
		width = hi - lo + 2*betaPad
	} else {
		lo = 0 // the axis starts at zero
		width = hi - lo
		if len(xs) == 1 {
			width *= 2 // see the centring in buildFigure
		}
	}
	step := dodgeStep * width
	spread := float64(len(ss) - 1) // steps from the first line to the last
	for i := 1; i < len(xs); i++ {
		// The outermost lines move spread/2 steps; keep that under a
		// quarter of the gap so that neighbouring X values stay apart.
		step = min(step, (xs[i]-xs[i-1])/2/spread)
	}
	for i := range ss {
		ss[i].shift = (float64(i) - spread/2) * step
	}
}

// drawn is the series as drawn: its points shifted sideways by s.shift.
func (s *series) drawn(logX bool) errorPoints {
	d := errorPoints{XYs: slices.Clone(s.data.XYs), YErrors: s.data.YErrors}
	for i := range d.XYs {
		if logX {
			d.XYs[i].X *= math.Pow(10, s.shift)
		} else {
			d.XYs[i].X += s.shift
		}
	}
	return d
}

// xRange is the smallest and largest X of the data of ss, before any
// shift.
func xRange(ss []series) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		for _, xy := range s.data.XYs {
			lo, hi = min(lo, xy.X), max(hi, xy.X)
		}
	}
	return lo, hi
}

// addBarsNote adds a last legend entry, drawn with an error bar, that says
// what the bars are: one standard deviation over the splits behind each
// point, or that a single split has none. The note goes in the legend
// rather than a caption because the PNG, SVG and PDF are often used
// without the page around them.
func addBarsNote(p *plot.Plot, ss []series) {
	lo, hi := splitRange(ss)
	p.Legend.Add(barsNote(lo, hi), barThumb{})
}

// splitRange is the fewest and the most splits behind a point of ss.
func splitRange(ss []series) (lo, hi int) {
	lo, hi = math.MaxInt, 0
	for _, s := range ss {
		for _, n := range s.n {
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	return lo, hi
}

// caption says in a sentence what the figure's points and error bars (or
// bands) are, for index.html.
func (b *builtFigure) caption() string {
	if b.curves != nil {
		return curveCaption(b.curves)
	}
	if b.contour != nil {
		return b.contour.caption()
	}
	lo, hi := splitRange(b.series)
	splits := fmt.Sprintf("%d splits", hi)
	if lo != hi {
		splits = fmt.Sprintf("%d–%d splits", lo, hi)
	}
	if hi <= 1 {
		return "Values from one split; no error bars."
	}
	return "Points are means over " + splits + "; error bars are ±1 standard deviation over the same splits."
}

// barsNote says in a few words what the error bars of a figure are, for
// points from lo to hi splits: "±1 std, 10 splits". It is short because
// it shares the legend's width with the trainer names.
func barsNote(lo, hi int) string {
	switch {
	case hi <= 1:
		return "1 split: no bars"
	case lo == hi:
		return fmt.Sprintf("±1 std, %d splits", hi)
	}
	return fmt.Sprintf("±1 std, %d–%d splits", max(lo, 2), hi)
}

// barThumb is the legend thumbnail of an error bar: a grey vertical line
// with caps.
type barThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (barThumb) Thumbnail(c *draw.Canvas) {
	x := (c.Min.X + c.Max.X) / 2
	lo, hi := c.Min.Y+c.Size().Y/8, c.Max.Y-c.Size().Y/8
	capW := vg.Points(2.5)
	sty := draw.LineStyle{Color: color.Gray{Y: 0x55}, Width: vg.Points(1)}
	c.StrokeLine2(sty, x, lo, x, hi)
	c.StrokeLine2(sty, x-capW, lo, x+capW, lo)
	c.StrokeLine2(sty, x-capW, hi, x+capW, hi)
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
func figureSeries(runs []Run, f FigureSpec, q quantity, trainers []string) ([]series, error) {
	value := func(r *Run) float64 { return q.value(r) }
	var base map[baselineKey]float64
	if f.Baseline != "" {
		var err error
		if base, err = baselineValues(runs, f, q); err != nil {
			return nil, err
		}
		value = func(r *Run) float64 {
			return q.value(r) - base[baselineKey{r.Dataset, r.TrainFraction, r.Split}]
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
	fraction := math.NaN()            // the one training fraction of an XBeta figure
	fractions := map[string]float64{} // the one training fraction of each dataset of an XDataset figure
	for i := range runs {
		r := &runs[i]
		if !f.covers(r.Dataset) || r.Task != f.Task || r.Trainer == f.Baseline {
			continue
		}
		name, x := r.Trainer, 100*r.TrainFraction
		if f.X == XDataset {
			if prev, ok := fractions[r.Dataset]; ok && prev != r.TrainFraction {
				return nil, fmt.Errorf("report: figure %q: x %q needs runs of one training fraction per dataset; %s has %g and %g",
					f.Name, f.X, r.Dataset, prev, r.TrainFraction)
			}
			fractions[r.Dataset] = r.TrainFraction
			x = float64(slices.Index(f.Datasets, r.Dataset) + 1)
		}
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
			name, x = BetaLine(cmp.Or(r.Method, r.Trainer), r.Params, r.Settings), beta
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
			if _, ok := base[baselineKey{r.Dataset, r.TrainFraction, r.Split}]; !ok {
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
	dataset  string
	fraction float64
	split    int
}

// baselineValues maps each (training fraction, split) of f.Baseline's runs
// on f's dataset and task to its Y value.
func baselineValues(runs []Run, f FigureSpec, q quantity) (map[baselineKey]float64, error) {
	base := map[baselineKey]float64{}
	for i := range runs {
		r := &runs[i]
		if !f.covers(r.Dataset) || r.Task != f.Task || r.Trainer != f.Baseline {
			continue
		}
		k := baselineKey{r.Dataset, r.TrainFraction, r.Split}
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
	files, err := renderFigure(p)
	if err != nil {
		return fmt.Errorf("report: figure %s: %w", stem, err)
	}
	for _, ext := range figureFormats() {
		if err := writeFileAtomic(filepath.Join(dir, stem+"."+ext), files[ext]); err != nil {
			return err
		}
	}
	return nil
}

// renderFigure draws p in every one of figureFormats, by extension.
func renderFigure(p *plot.Plot) (map[string][]byte, error) {
	files := make(map[string][]byte, len(figureFormats()))
	for _, ext := range figureFormats() {
		c := newFigureCanvas(ext)
		p.Draw(draw.New(c))
		var buf bytes.Buffer
		if _, err := c.WriteTo(&buf); err != nil {
			return nil, fmt.Errorf("rendering %s: %w", ext, err)
		}
		files[ext] = buf.Bytes()
		if ext == "pdf" {
			files[ext] = fixPDFDates(files[ext])
		}
	}
	return files, nil
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

// setTitle sets p's title, in a smaller font where the default one would
// be wider than the figure and be cut at both edges.
func setTitle(p *plot.Plot, title string) {
	p.Title.Text = title
	p.Title.Padding = vg.Points(6)
	room := FigureWidth - 2*p.Title.Padding
	if w := p.Title.TextStyle.Width(title); w > room {
		p.Title.TextStyle.Font.Size = p.Title.TextStyle.Font.Size * room / w
	}
}

// addLegendAndGrid gives a figure the house style every figure shares: the
// legend at the top, in 10 pt, over a light grey grid.
func addLegendAndGrid(p *plot.Plot) {
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	grid := plotter.NewGrid()
	grid.Vertical.Color = color.Gray{Y: 0xdd}
	grid.Horizontal.Color = color.Gray{Y: 0xdd}
	p.Add(grid)
}
