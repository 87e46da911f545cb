package report

import (
	"cmp"
	"fmt"
	"image/color"
	"maps"
	"math"
	"slices"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// curveValue returns the Y quantity y of a checkpoint, and whether y is
// one a learning curve can show: a metric, or accuracy.
func curveValue(y string) (func(CurvePoint) float64, bool) {
	name, complement, ok := yMetric(y)
	if !ok {
		return nil, false
	}
	return func(p CurvePoint) float64 {
		if complement {
			return 100 - p.Metrics[name]
		}
		return p.Metrics[name]
	}, true
}

// curveSeries is one trainer's learning curve: at each time T[j], the mean
// and standard deviation over Splits splits of Y.
type curveSeries struct {
	trainer string
	splits  int
	t       []float64
	mean    []float64
	std     []float64
	line    *plotter.Line
	points  *plotter.Scatter // one split only: its checkpoints
	band    *plotter.Polygon // several splits: ±1 std
}

// buildCurveFigure draws f (X = XCPUSeconds): for every trainer with runs
// on f.Dataset and f.Task, its learning curve.
//
// With one split a line joins the run's checkpoints, each a marker. With
// several (OCR's folds, random splits) the checkpoints of different splits
// fall at different times, so the curves are aligned on time rather than
// on checkpoint index: at every time t at which some split has a
// checkpoint, each split contributes its last checkpoint at or before t
// (once a split's training has stopped, its final model), and the line is
// the mean over splits, drawn from the first time at which every split has
// a checkpoint; a band shows ±1 standard deviation. Nothing is
// interpolated: every value averaged is a model some split had at t.
func buildCurveFigure(runs []Run, f FigureSpec, trainers []string) (*builtFigure, error) {
	value, ok := curveValue(f.Y)
	if !ok {
		return nil, fmt.Errorf("report: figure %q: x %q cannot show y %q", f.Name, f.X, f.Y)
	}
	name, _, _ := yMetric(f.Y)
	for _, r := range runs {
		if !f.covers(r.Dataset) || r.Task != f.Task {
			continue
		}
		for _, p := range r.Curve {
			if _, ok := p.Metrics[name]; !ok {
				return nil, fmt.Errorf("report: figure %q: y %q, but run %s has a checkpoint (iteration %d) without it "+
					"(its task does not report it, or it was written before it was recorded)", f.Name, f.Y, r.Key, p.Iteration)
			}
		}
	}
	ss, err := curveSeriesOf(runs, f, value, trainers)
	if err != nil {
		return nil, err
	}
	q, _ := yQuantity(f.Y)
	p := plot.New()
	setTitle(p, f.title())
	p.X.Label.Text = "training CPU time (s)"
	if f.LogX {
		p.X.Label.Text = "training CPU time (s, log scale)"
	}
	p.Y.Label.Text = q.label
	addLegendAndGrid(p)
	// Bands first, so that no band covers another trainer's line.
	for i := range ss {
		if err := ss[i].build(); err != nil {
			return nil, fmt.Errorf("report: figure %q, %s: %w", f.Name, ss[i].trainer, err)
		}
		if ss[i].band != nil {
			p.Add(ss[i].band)
		}
	}
	for i := range ss {
		s := &ss[i]
		p.Add(s.line)
		if s.points != nil {
			p.Add(s.points)
			p.Legend.Add(s.trainer, s.line, s.points)
		} else {
			p.Legend.Add(s.trainer, s.line)
		}
	}
	p.Add(legendGutter{})
	p.Legend.XOffs = -vg.Points(4)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range ss {
		lo, hi = min(lo, s.t[0]), max(hi, s.t[len(s.t)-1])
	}
	if f.LogX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = timeTicks{}
		p.X.Min, p.X.Max = lo/math.Pow(10, curvePad), hi*math.Pow(10, curvePad)
	} else {
		// Times compare as ratios, which only a zero origin shows; a little
		// room on the right keeps the last marker off the frame.
		p.X.Min, p.X.Max = 0, hi*(1+curveLinearPad)
	}
	if lo, hi := splitCount(ss); hi > 1 {
		note := fmt.Sprintf("±1 std, %d splits", hi)
		if lo != hi {
			note = fmt.Sprintf("±1 std, %d–%d splits", lo, hi)
		}
		p.Legend.Add(note, bandThumb{})
	}
	return &builtFigure{plot: p, curves: ss}, nil
}

// The margins of a time axis: in decades each side of a log axis, and as
// a fraction of the axis right of the last point of a linear one.
const (
	curvePad       = 0.1
	curveLinearPad = 0.03
)

// build makes the series' plotters: its line, and its markers (one split)
// or its band (several).
func (s *curveSeries) build() error {
	col, glyph := trainerStyle(s.trainer)
	xys := make(plotter.XYs, len(s.t))
	for j := range s.t {
		xys[j] = plotter.XY{X: s.t[j], Y: s.mean[j]}
	}
	var err error
	if s.line, err = plotter.NewLine(xys); err != nil {
		return err
	}
	s.line.Color, s.line.Width = col, vg.Points(1.5)
	if s.splits == 1 {
		if s.points, err = plotter.NewScatter(xys); err != nil {
			return err
		}
		s.points.Color, s.points.Shape, s.points.Radius = col, glyph, vg.Points(2.5)
		return nil
	}
	ring := make(plotter.XYs, 0, 2*len(s.t))
	for j := range s.t {
		ring = append(ring, plotter.XY{X: s.t[j], Y: s.mean[j] + s.std[j]})
	}
	for j := len(s.t) - 1; j >= 0; j-- {
		ring = append(ring, plotter.XY{X: s.t[j], Y: s.mean[j] - s.std[j]})
	}
	if s.band, err = plotter.NewPolygon(ring); err != nil {
		return err
	}
	r, g, b, _ := col.RGBA()
	s.band.Color = color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x30}
	s.band.LineStyle.Width = 0
	return nil
}

// splitCount is the fewest and the most splits behind a curve of ss.
func splitCount(ss []curveSeries) (lo, hi int) {
	lo, hi = math.MaxInt, 0
	for _, s := range ss {
		lo, hi = min(lo, s.splits), max(hi, s.splits)
	}
	return lo, hi
}

// curveCaption says in a sentence what a learning-curve figure shows, for
// index.html.
func curveCaption(ss []curveSeries) string {
	const what = "Each checkpoint is the model training would have returned had it stopped there, scored on the test set, at the training's CPU time so far (scoring checkpoints excluded)."
	lo, hi := splitCount(ss)
	if hi <= 1 {
		return "One split: " + what
	}
	splits := fmt.Sprintf("%d splits", hi)
	if lo != hi {
		splits = fmt.Sprintf("%d–%d splits", lo, hi)
	}
	return what + " Lines are means over " + splits + " of each split's last checkpoint at or before that time (its final model once it has stopped), from the first time every split has one; bands are ±1 standard deviation."
}

// curveSeriesOf aggregates the curves of f's runs into one series per
// trainer, in the order of trainers and then of first appearance.
func curveSeriesOf(runs []Run, f FigureSpec, value func(CurvePoint) float64, trainers []string) ([]curveSeries, error) {
	bySplit := map[string]map[int]*Run{}
	order := slices.Clone(trainers)
	fraction := math.NaN()
	for i := range runs {
		r := &runs[i]
		if r.Dataset != f.Dataset || r.Task != f.Task {
			continue
		}
		if !math.IsNaN(fraction) && r.TrainFraction != fraction {
			return nil, fmt.Errorf("report: figure %q: x %q needs runs of one training fraction, found %g and %g", f.Name, f.X, fraction, r.TrainFraction)
		}
		fraction = r.TrainFraction
		if len(r.Curve) == 0 {
			return nil, fmt.Errorf("report: figure %q: run %q (%s split %d) has no learning curve; runs record one only when the config sets curves: true", f.Name, r.Key, r.Trainer, r.Split)
		}
		for _, pt := range r.Curve {
			if v := value(pt); !(pt.CPUSeconds > 0) || !isFinite(pt.CPUSeconds) || !isFinite(v) {
				return nil, fmt.Errorf("report: figure %q: run %q, checkpoint at iteration %d: CPU time %v and %s %v (CPU time must be positive: it is measured on Linux only)",
					f.Name, r.Key, pt.Iteration, pt.CPUSeconds, f.Y, v)
			}
		}
		if bySplit[r.Trainer] == nil {
			bySplit[r.Trainer] = map[int]*Run{}
		}
		if prev, dup := bySplit[r.Trainer][r.Split]; dup {
			return nil, fmt.Errorf("report: figure %q: runs %q and %q are both %s split %d", f.Name, prev.Key, r.Key, r.Trainer, r.Split)
		}
		bySplit[r.Trainer][r.Split] = r
		if !slices.Contains(order, r.Trainer) {
			order = append(order, r.Trainer)
		}
	}
	if len(bySplit) == 0 {
		return nil, fmt.Errorf("report: figure %q: no runs for %s/%s", f.Name, f.Dataset, f.Task)
	}
	var out []curveSeries
	for _, name := range order {
		splits := bySplit[name]
		if len(splits) == 0 {
			continue
		}
		curves := make([][]CurvePoint, 0, len(splits))
		for _, k := range slices.Sorted(maps.Keys(splits)) {
			c := slices.Clone(splits[k].Curve)
			slices.SortStableFunc(c, func(a, b CurvePoint) int { return cmp.Compare(a.CPUSeconds, b.CPUSeconds) })
			curves = append(curves, c)
		}
		out = append(out, alignCurves(name, curves, value))
	}
	return out, nil
}

// alignCurves averages curves (each sorted by time, in split order) on
// time: at every checkpoint time from the first at which every curve has
// begun, the mean and standard deviation of each curve's last value at or
// before it.
func alignCurves(trainer string, curves [][]CurvePoint, value func(CurvePoint) float64) curveSeries {
	start := 0.0
	var times []float64
	for _, c := range curves {
		start = max(start, c[0].CPUSeconds)
		for _, p := range c {
			times = append(times, p.CPUSeconds)
		}
	}
	slices.Sort(times)
	times = slices.Compact(times)
	s := curveSeries{trainer: trainer, splits: len(curves)}
	at := make([]int, len(curves)) // each curve's last checkpoint at or before t
	vals := make([]float64, len(curves))
	for _, t := range times {
		if t < start {
			continue
		}
		for k, c := range curves {
			for at[k]+1 < len(c) && c[at[k]+1].CPUSeconds <= t {
				at[k]++
			}
			vals[k] = value(c[at[k]])
		}
		mean, std := MeanStd(vals)
		s.t, s.mean, s.std = append(s.t, t), append(s.mean, mean), append(s.std, std)
	}
	return s
}

// bandThumb is the legend thumbnail of a ±1 std band: a grey rectangle.
type bandThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (bandThumb) Thumbnail(c *draw.Canvas) {
	h := c.Size().Y / 4
	r := vg.Rectangle{Min: vg.Point{X: c.Min.X, Y: c.Min.Y + h}, Max: vg.Point{X: c.Max.X, Y: c.Max.Y - h}}
	c.SetColor(color.Gray{Y: 0xbb})
	c.Fill(r.Path())
}

// timeTicks marks a logarithmic time axis at 1–9 × 10^k, labelling the
// powers of ten, and also 2 and 5 × 10^k when the axis spans less than
// three decades, so that a short axis still gets several labels (gonum's
// LogTicks labels powers of ten only).
type timeTicks struct{}

// Ticks implements plot.Ticker.
func (timeTicks) Ticks(lo, hi float64) []plot.Tick {
	if !(lo > 0) || !(hi > lo) {
		return nil
	}
	few := math.Log10(hi/lo) < 3
	var ticks []plot.Tick
	for k := math.Floor(math.Log10(lo)); math.Pow(10, k) <= hi; k++ {
		for m := 1; m <= 9; m++ {
			v := float64(m) * math.Pow(10, k)
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || few && (m == 2 || m == 5) {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
