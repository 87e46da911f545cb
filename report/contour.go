package report

import (
	"cmp"
	"fmt"
	"image/color"
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// YParamC is the Y of a contour figure (FigureSpec.Z set): the trainer
// entries' C (Run.Params "C", one value per entry), on a logarithmic axis
// against β, as Pletscher et al.'s Figure 3 draws test error and training
// time over β × C.
const YParamC = "C"

// contourGrid is a contour figure's data: the mean of Z over splits at
// every (β, C) of a complete grid, in log10 coordinates. It implements
// plotter.GridXYZ.
type contourGrid struct {
	betas, cs []float64   // ascending, as the runs give them
	z         [][]float64 // z[i][j]: mean at betas[i], cs[j]
	n         [][]int     // splits behind z[i][j]
}

func (g *contourGrid) Dims() (c, r int)   { return len(g.betas), len(g.cs) }
func (g *contourGrid) Z(c, r int) float64 { return g.z[c][r] }
func (g *contourGrid) X(c int) float64    { return math.Log10(g.betas[c]) }
func (g *contourGrid) Y(r int) float64    { return math.Log10(g.cs[r]) }

// builtContour keeps what a contour figure draws, for tests and the
// caption.
type builtContour struct {
	grid   *contourGrid
	line   string    // the method (BetaLine) whose runs are drawn
	levels []float64 // contour heights, ascending
	q      quantity
	labels *plotter.Labels
	lines  *contourLines // nil without levels
}

// segment is one straight piece of a contour line, in the grid's (log β,
// log C) coordinates.
type segment struct{ a, b plotter.XY }

// isolines returns the pieces of the contour of g at height h, cell by
// cell in grid order, so that a figure draws them in the same order every
// time (gonum's plotter.Contour joins its pieces through maps, and its
// SVG and PDF came out different on every rendering). As CONREC does,
// each cell is cut into four triangles about its centre, whose height is
// the mean of the four corners, and the surface is taken as linear on each
// triangle: the line is exact for a plane, and a saddle cell is resolved by
// its centre.
func isolines(g *contourGrid, h float64) []segment {
	type vertex struct{ x, y, z float64 }
	cross := func(p, q vertex) plotter.XY { // where the edge p–q meets h
		t := (h - p.z) / (q.z - p.z)
		return plotter.XY{X: p.x + t*(q.x-p.x), Y: p.y + t*(q.y-p.y)}
	}
	var out []segment
	c, r := g.Dims()
	for i := range c - 1 {
		for j := range r - 1 {
			corners := [4]vertex{
				{g.X(i), g.Y(j), g.Z(i, j)}, {g.X(i + 1), g.Y(j), g.Z(i+1, j)},
				{g.X(i + 1), g.Y(j + 1), g.Z(i+1, j+1)}, {g.X(i), g.Y(j + 1), g.Z(i, j+1)},
			}
			centre := vertex{(corners[0].x + corners[1].x) / 2, (corners[0].y + corners[3].y) / 2,
				(corners[0].z + corners[1].z + corners[2].z + corners[3].z) / 4}
			for k := range corners {
				tri := [3]vertex{corners[k], corners[(k+1)%4], centre}
				// A vertex at h counts as above it, so that a line through
				// a vertex is drawn once, not by every triangle around it.
				var above, below []vertex
				for _, v := range tri {
					if v.z >= h {
						above = append(above, v)
					} else {
						below = append(below, v)
					}
				}
				if len(above) == 0 || len(below) == 0 {
					continue
				}
				lone, pair := above[0], below
				if len(above) == 2 {
					lone, pair = below[0], above
				}
				s := segment{cross(lone, pair[0]), cross(lone, pair[1])}
				if s.a != s.b {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// contourLines draws the isolines of each level in its style.
type contourLines struct {
	segs   [][]segment // by level
	styles []draw.LineStyle
}

// Plot implements plot.Plotter.
func (l *contourLines) Plot(c draw.Canvas, p *plot.Plot) {
	trX, trY := p.Transforms(&c)
	for i, segs := range l.segs {
		for _, s := range segs {
			c.StrokeLine2(l.styles[i], trX(s.a.X), trY(s.a.Y), trX(s.b.X), trY(s.b.Y))
		}
	}
}

// contourLevels are the heights of a contour figure's lines: the 5%, 10%,
// 25%, 50%, 75% and 90% quantiles of the grid's values (R-7, as gonum's own
// default), rounded to three significant digits, strictly inside the
// values' range and distinct. Quantiles follow the data wherever it is
// dense, which fixed steps would not: most of a β × C error surface lies
// within a point of its minimum, a corner of it tens of points above; the
// 5% line rings the best few points.
func contourLevels(g *contourGrid) []float64 {
	var vals []float64
	for _, col := range g.z {
		vals = append(vals, col...)
	}
	slices.Sort(vals)
	lo, hi := vals[0], vals[len(vals)-1]
	var out []float64
	for _, p := range []float64{0.05, 0.1, 0.25, 0.5, 0.75, 0.9} {
		h := float64(len(vals)-1) * p
		i := int(h)
		v := vals[i]
		if i+1 < len(vals) {
			v += (h - float64(i)) * (vals[i+1] - vals[i])
		}
		v = roundSignificant(v, 3)
		if v > lo && v < hi && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	slices.Sort(out)
	return out
}

// roundSignificant rounds x to d significant digits.
func roundSignificant(x float64, d int) float64 {
	if x == 0 || !isFinite(x) {
		return x
	}
	v, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', d, 64), 64)
	if err != nil {
		return x // FormatFloat's output always parses
	}
	return v
}

// contourRuns gathers f's runs into a complete β × C grid: every run of
// the dataset and task with a beta and a C param, all of one method
// (BetaLine) and one training fraction, one run per (β, C, split), and a
// run at every pair of the β and C values that occur.
func contourRuns(runs []Run, f FigureSpec, q quantity) (*contourGrid, string, error) {
	type cell struct{ beta, c float64 }
	groups := map[cell][]*Run{}
	seen := map[cell]map[int]string{}
	line, fraction := "", math.NaN()
	for i := range runs {
		r := &runs[i]
		if r.Dataset != f.Dataset || r.Task != f.Task {
			continue
		}
		beta, okB := r.Params["beta"]
		c, okC := r.Params["C"]
		if !okB || !okC {
			continue // a trainer without an inverse temperature, or without C
		}
		name := BetaLine(cmp.Or(r.Method, r.Trainer), r.Params, r.Settings)
		switch {
		case line != "" && name != line:
			return nil, "", fmt.Errorf("report: figure %q: a contour over β and C draws one method, and %s/%s has runs of %q and %q", f.Name, f.Dataset, f.Task, line, name)
		case !math.IsNaN(fraction) && r.TrainFraction != fraction:
			return nil, "", fmt.Errorf("report: figure %q: a contour over β and C needs runs of one training fraction, found %g and %g", f.Name, fraction, r.TrainFraction)
		case !(beta > 0) || !(c > 0) || math.IsInf(beta, 0) || math.IsInf(c, 0):
			return nil, "", fmt.Errorf("report: figure %q: run %d (key %q): beta %v and C %v must be positive and finite for log axes", f.Name, i, r.Key, beta, c)
		case !isFinite(q.value(r)):
			return nil, "", fmt.Errorf("report: figure %q: run %d (key %q): non-finite %s %v", f.Name, i, r.Key, f.Z, q.value(r))
		}
		line, fraction = name, r.TrainFraction
		k := cell{beta, c}
		if seen[k] == nil {
			seen[k] = map[int]string{}
		}
		if prev, dup := seen[k][r.Split]; dup {
			return nil, "", fmt.Errorf("report: figure %q: runs %q and %q are both at beta %g, C %g, split %d", f.Name, prev, r.Key, beta, c, r.Split)
		}
		seen[k][r.Split] = r.Key
		groups[k] = append(groups[k], r)
	}
	if len(groups) == 0 {
		return nil, "", fmt.Errorf("report: figure %q: no runs with a beta and a C for %s/%s", f.Name, f.Dataset, f.Task)
	}
	g := &contourGrid{}
	for k := range groups {
		g.betas, g.cs = append(g.betas, k.beta), append(g.cs, k.c)
	}
	slices.Sort(g.betas)
	slices.Sort(g.cs)
	g.betas, g.cs = slices.Compact(g.betas), slices.Compact(g.cs)
	if len(g.betas) < 2 || len(g.cs) < 2 {
		return nil, "", fmt.Errorf("report: figure %q: a contour needs at least two values of beta and of C, got %d and %d", f.Name, len(g.betas), len(g.cs))
	}
	var missing []string
	for _, beta := range g.betas {
		var col []float64
		var ns []int
		for _, c := range g.cs {
			rs := groups[cell{beta, c}]
			if len(rs) == 0 {
				missing = append(missing, fmt.Sprintf("(beta %g, C %g)", beta, c))
				col, ns = append(col, math.NaN()), append(ns, 0)
				continue
			}
			// Sum in split order so that the mean does not depend on the
			// order of runs.
			slices.SortFunc(rs, func(a, b *Run) int { return cmp.Compare(a.Split, b.Split) })
			vals := make([]float64, len(rs))
			for i, r := range rs {
				vals[i] = q.value(r)
			}
			mean, _ := MeanStd(vals)
			col, ns = append(col, mean), append(ns, len(rs))
		}
		g.z, g.n = append(g.z, col), append(g.n, ns)
	}
	if len(missing) > 0 {
		return nil, "", fmt.Errorf("report: figure %q: the grid of %d betas × %d Cs lacks runs at %s", f.Name, len(g.betas), len(g.cs), strings.Join(missing, ", "))
	}
	return g, line, nil
}

// buildContourFigure draws f (Z set): contour lines of the mean of f.Z
// over splits across the (log β, log C) plane, each level a colour of its
// own (listed in the legend), and every grid point's value written at its
// place, so that the figure can be read without interpolating.
func buildContourFigure(runs []Run, f FigureSpec) (*builtFigure, error) {
	zf := f
	zf.Y = f.Z // the quantity checks read Y
	q, err := figureQuantity(runs, zf)
	if err != nil {
		return nil, err
	}
	g, line, err := contourRuns(runs, f, q)
	if err != nil {
		return nil, err
	}
	b := &builtContour{grid: g, line: line, levels: contourLevels(g), q: q}
	p := plot.New()
	setTitle(p, f.title())
	p.X.Label.Text = "inverse temperature β (log scale)"
	p.Y.Label.Text = "C (log scale)"
	p.X.Tick.Marker, p.Y.Tick.Marker = decadeTicks{}, decadeTicks{}
	addLegendAndGrid(p)
	if len(b.levels) > 0 {
		b.lines = &contourLines{}
		for i, h := range b.levels {
			b.lines.segs = append(b.lines.segs, isolines(g, h))
			b.lines.styles = append(b.lines.styles, draw.LineStyle{Color: levelColor(i, len(b.levels)), Width: vg.Points(1.5)})
		}
		for i := len(b.levels) - 1; i >= 0; i-- { // the legend lists the highest level first
			p.Legend.Add(formatLevel(b.levels[i], q), &plotter.Line{LineStyle: b.lines.styles[i]})
		}
		p.Add(b.lines)
	}
	var pts plotter.XYLabels
	for i := range g.betas {
		for j := range g.cs {
			pts.XYs = append(pts.XYs, plotter.XY{X: g.X(i), Y: g.Y(j)})
			pts.Labels = append(pts.Labels, formatCell(g.z[i][j], q))
		}
	}
	if b.labels, err = plotter.NewLabels(pts); err != nil {
		return nil, fmt.Errorf("report: figure %q: %w", f.Name, err)
	}
	for i := range b.labels.TextStyle {
		s := &b.labels.TextStyle[i]
		s.XAlign, s.YAlign = text.XCenter, text.YCenter
		s.Font.Size = vg.Points(6)
		s.Color = color.Gray{Y: 0x44}
	}
	p.Add(b.labels)
	p.Legend.Add(legendQuantity(q), blankThumb{})
	p.Add(legendGutter{})
	p.Legend.XOffs = -vg.Points(4)
	// Half a grid step of room each side, so that the outer values are
	// not written on the frame.
	pad := func(lo, hi float64, n int) (float64, float64) {
		step := (hi - lo) / float64(n-1)
		return lo - step/2, hi + step/2
	}
	p.X.Min, p.X.Max = pad(g.X(0), g.X(len(g.betas)-1), len(g.betas))
	p.Y.Min, p.Y.Max = pad(g.Y(0), g.Y(len(g.cs)-1), len(g.cs))
	return &builtFigure{plot: p, contour: b}, nil
}

// levelColor is the colour of level i of n: from blue (the lowest) to red
// (the highest) through purple, each dark enough to show on white.
func levelColor(i, n int) color.Color {
	t := 0.0
	if n > 1 {
		t = float64(i) / float64(n-1)
	}
	mix := func(a, b float64) uint8 { return uint8(math.Round(a + t*(b-a))) }
	return color.RGBA{R: mix(20, 210), G: mix(80, 40), B: mix(200, 30), A: 255}
}

// formatLevel labels a contour level in the legend.
func formatLevel(v float64, q quantity) string {
	s := strconv.FormatFloat(v, 'g', 3, 64)
	if q.seconds {
		return s + " s"
	}
	return s
}

// formatCell writes a grid point's value: one decimal for a percentage or
// score, two significant digits (at least one decimal) for seconds.
func formatCell(v float64, q quantity) string {
	if q.seconds {
		if v >= 10 {
			return strconv.FormatFloat(v, 'f', 0, 64)
		}
		return strconv.FormatFloat(roundSignificant(v, 2), 'f', -1, 64)
	}
	return strconv.FormatFloat(v, 'f', 1, 64)
}

// legendQuantity heads nothing but says what the numbers and lines are.
func legendQuantity(q quantity) string { return "lines: " + q.short }

// blankThumb is an empty legend thumbnail, for a legend line of text.
type blankThumb struct{}

// Thumbnail implements plot.Thumbnailer.
func (blankThumb) Thumbnail(*draw.Canvas) {}

// decadeTicks mark an axis of log10 values: integers as decades ("0.01",
// "1", "1e3", as betaTicks write them), halves as unlabelled minor ticks.
type decadeTicks struct{}

// Ticks implements plot.Ticker.
func (decadeTicks) Ticks(lo, hi float64) []plot.Tick {
	var ts []plot.Tick
	for k := math.Ceil(2*lo) / 2; k <= hi; k += 0.5 {
		t := plot.Tick{Value: k}
		if k == math.Trunc(k) {
			t.Label = decadeLabel(int(k))
		}
		ts = append(ts, t)
	}
	return ts
}

// decadeLabel writes 10^k: plainly from 0.01 to 1000, else as 1ek.
func decadeLabel(k int) string {
	if k < -2 || k > 3 {
		return fmt.Sprintf("1e%d", k)
	}
	return strconv.FormatFloat(math.Pow(10, float64(k)), 'g', -1, 64)
}

// caption says what a contour figure's numbers and lines are.
func (b *builtContour) caption() string {
	lo, hi := math.MaxInt, 0
	for _, col := range b.grid.n {
		for _, n := range col {
			lo, hi = min(lo, n), max(hi, n)
		}
	}
	splits := fmt.Sprintf("%d splits", hi)
	if lo != hi {
		splits = fmt.Sprintf("%d–%d splits", lo, hi)
	}
	what := "The value of each of the"
	if hi > 1 {
		what = "The mean over " + splits + " at each of the"
	}
	levels := make([]string, len(b.levels))
	for i, v := range b.levels {
		levels[i] = formatLevel(v, b.q)
	}
	lines := "no contour lines (the values are too few to have levels inside their range)"
	if len(levels) > 0 {
		lines = "contour lines at " + strings.Join(levels, ", ") + " (quantiles of the grid's values), interpolated linearly in log β and log C between the points"
	}
	return fmt.Sprintf("%s %d × %d (β, C) grid points of %s, %s, is written at its place; %s.",
		what, len(b.grid.betas), len(b.grid.cs), b.line, b.q.name, lines)
}
