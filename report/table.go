package report

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// ErrNoRuns is returned by [Summarize] when it is given no runs.
var ErrNoRuns = errors.New("report: no runs")

// Metric names the measure that decides the best cell of a row.
type Metric string

// Metrics understood by [Summarize].
const (
	// TokenError is the row's error, lower is better (the default): token
	// error, or in a row whose runs have a segment error (see
	// [Row.Segment]) that segment error.
	TokenError Metric = "token_error"
	SpanF1     Metric = "span_f1" // span F1 %; higher is better
	// SegmentError is Sarawagi & Gupta's section 4.3.2 segmentation error
	// ([Run.SegmentError]). It names the quantity in paper values and
	// figures; it is not an Options.Metric, since TokenError already
	// decides segmentation rows by it.
	SegmentError Metric = "segment_error"
)

// Comparison asks for a paired t-test of trainer A against trainer B in
// every row where both have runs. Differences are reported as A - B.
type Comparison struct {
	A string `json:"a"`
	B string `json:"b"`
}

// Options configure [Summarize]. The zero value is usable.
type Options struct {
	// Trainers gives the column order. Trainers listed here get a column
	// even if they have no runs (shown as "-"); trainers found in the runs
	// but not listed follow in order of first appearance.
	Trainers []string
	// Comparisons are the paired t-tests to report under the table.
	Comparisons []Comparison
	// Metric decides the best cell of each row: TokenError (the row's
	// error) or SpanF1; "" means TokenError.
	Metric Metric
	// Tasks and Datasets give the preferred row order. Tasks and datasets
	// not listed follow the listed ones in lexical order.
	Tasks    []string
	Datasets []string
	// Decimals is the number of digits after the decimal point in cells;
	// 0 means 1.
	Decimals int
	// TokenOnlyTasks lists tasks without spans, such as "parsing": their
	// cells show token error only ("12.4±0.3"), their span F1 is neither
	// tested nor written to CSV, and their best cell is decided by token
	// error whatever Metric says.
	TokenOnlyTasks []string
}

// RowKey identifies a row of the table.
type RowKey struct {
	Task          string
	Dataset       string
	TrainFraction float64
}

// Stat is a mean and unbiased standard deviation over splits.
type Stat struct{ Mean, Std float64 }

// Cell aggregates the runs of one trainer in one row.
type Cell struct {
	Trainer      string
	N            int     // number of splits; 0 means the trainer has no runs here
	Splits       []int   // split indices, ascending
	TokenError   Stat    // percent
	SpanF1       Stat    // percent
	SegmentError Stat    // percent; zero unless the row is a Segment row
	TrainSeconds float64 // wall-clock, mean over splits
	CPUSeconds   float64 // mean over splits; 0 unless Table.CPUTime
	PeakMiB      float64 // largest over splits (Run.PeakMiB); 0 unless Table.Memory
	Iterations   float64 // mean over splits
	Constraints  float64 // mean over splits
	Best         bool    // best cell of its row by Options.Metric
	// GridEdge is set when some split chose a hyperparameter at an end of
	// its grid; Table.Edges says which.
	GridEdge bool
	// Text is the rendering shared by all formats, without the best-cell
	// mark: "12.3±0.8/74.9±1.2" (the row's error / span F1),
	// "12.3/74.9" for a single split, "12.3±0.8" in a token-only row, and
	// "-" when N is 0. A cell with fewer splits than the fullest cell of
	// its row gets a " (n=7)" suffix, and a GridEdge cell ends with
	// GridEdgeMark. In a Segment row the error is the segment error.
	Text string
	// TokenText is, in a Segment row, the token error as a token-only
	// row would show it ("6.7±0.6", with any " (n=7)" suffix); the
	// renderers put it on a line of its own under the row. TokenBest
	// marks the lowest mean token error there.
	TokenText string
	TokenBest bool
}

// Row is one row of the table: one cell per trainer, in Table.Trainers order.
type Row struct {
	RowKey
	Label     string // "dataset/task", plus "/fraction" when the table has several
	TokenOnly bool   // the task is in Options.TokenOnlyTasks
	// Segment is set when every run of the row has a segment error
	// (Run.SegmentError > 0): the row's error is then Sarawagi & Gupta's
	// section 4.3.2 segment error, which decides its best cell when the
	// metric is TokenError, and token error is shown beneath it.
	Segment bool
	Cells   []Cell
}

// PairTest is the outcome of one [Comparison] in one row.
type PairTest struct {
	Comparison
	Row        RowKey
	Label      string // the row's label
	TokenError TTest  // on token error, A - B
	SpanF1     TTest  // on span F1, A - B; zero when TokenOnly
	TokenOnly  bool   // the row has no span F1
	// SegmentError is the test on the segment error, A - B, in a Segment
	// row; zero otherwise.
	SegmentError TTest
	Segment      bool // the row is a Segment row
	// With one shared split whose runs kept their per-sentence outcomes
	// (fixed splits), there is no t-test over splits: McNemar's test on
	// token decisions and a paired bootstrap over sentences on span F1
	// take its place, and the TTest fields are zero.
	McNemar       *McNemarTest
	SpanBootstrap *Bootstrap
	// Err is set when the test could not be run, e.g. because the two
	// trainers share fewer than two splits; the TTest fields are then zero.
	Err error
}

// Table is the aggregated form of a set of runs, ready to render.
type Table struct {
	Trainers     []string // column order
	ShowFraction bool     // runs have several train fractions
	Metric       Metric   // metric that decided Best
	// CPUTime is set when every run has a CPU time (Run.CPUSeconds): the
	// cost table then shows CPU and wall-clock seconds. PartialCPUTime is
	// set when only some do: it shows wall-clock seconds, labelled so.
	// With neither, it shows wall-clock seconds as it always did.
	CPUTime, PartialCPUTime bool
	// Memory is set when every run has a peak memory (Run.PeakMiB): the
	// cost table then shows each cell's largest.
	Memory bool
	// Segment is set when some row is a Segment row: the results table
	// then names each row's error in a column of its own.
	Segment bool
	Rows    []Row
	Tests   []PairTest
	// Edges lists the hyperparameters chosen at an end of their grid
	// ([GridEdges]), in table order; their cells are marked.
	Edges    []EdgeNote
	Warnings []string // e.g. runs from several code versions
}

type cellKey struct {
	row     RowKey
	trainer string
}

// Summarize aggregates runs into a [Table].
//
// Rows are sorted by task, then dataset (both in the order given by
// opt.Tasks and opt.Datasets, then lexically), then ascending train
// fraction. Runs are aggregated in split order, so apart from the column
// order of trainers missing from opt.Trainers the result does not depend on
// the order of runs. Each run
// must have a dataset, task and trainer, and no two runs may share
// (dataset, task, train fraction, trainer, split).
//
// The best cell of a row is marked only when at least two trainers have
// runs in it; ties are all marked. Paired t-tests pair runs by split index
// and use the splits present for both trainers.
func Summarize(runs []Run, opt Options) (*Table, error) {
	if len(runs) == 0 {
		return nil, ErrNoRuns
	}
	metric := opt.Metric
	switch metric {
	case "":
		metric = TokenError
	case TokenError, SpanF1:
	case SegmentError:
		return nil, fmt.Errorf("report: metric %q: segmentation rows whose runs have a segment error are decided by it under %q", SegmentError, TokenError)
	default:
		return nil, fmt.Errorf("report: unknown metric %q", opt.Metric)
	}
	decimals := opt.Decimals
	if decimals <= 0 {
		decimals = 1
	}

	trainers := slices.Clone(opt.Trainers)
	for i, tr := range trainers {
		if tr == "" {
			return nil, errors.New("report: empty trainer name in Options.Trainers")
		}
		if slices.Contains(trainers[:i], tr) {
			return nil, fmt.Errorf("report: trainer %q listed twice in Options.Trainers", tr)
		}
	}

	groups := make(map[cellKey][]*Run)
	var rows []RowKey
	rowSeen := make(map[RowKey]bool)
	fractions := make(map[float64]bool)
	versions := make(map[string]bool)
	seen := make(map[cellKey]map[int]string)
	for i := range runs {
		r := &runs[i]
		if r.Dataset == "" || r.Task == "" || r.Trainer == "" {
			return nil, fmt.Errorf("report: run %d (key %q): dataset, task and trainer must be set", i, r.Key)
		}
		for _, v := range []float64{r.TokenError, r.SpanF1, r.SegmentError, r.TrainFraction, r.TrainSeconds, r.CPUSeconds} {
			if !isFinite(v) {
				return nil, fmt.Errorf("report: run %d (key %q): non-finite value %v", i, r.Key, v)
			}
		}
		rk := RowKey{Task: r.Task, Dataset: r.Dataset, TrainFraction: r.TrainFraction}
		ck := cellKey{rk, r.Trainer}
		if seen[ck] == nil {
			seen[ck] = make(map[int]string)
		}
		if prev, dup := seen[ck][r.Split]; dup {
			return nil, fmt.Errorf("report: runs %q and %q are both %s/%s/%g %s split %d",
				prev, r.Key, r.Dataset, r.Task, r.TrainFraction, r.Trainer, r.Split)
		}
		seen[ck][r.Split] = r.Key
		if !rowSeen[rk] {
			rowSeen[rk] = true
			rows = append(rows, rk)
		}
		groups[ck] = append(groups[ck], r)
		if !slices.Contains(trainers, r.Trainer) {
			trainers = append(trainers, r.Trainer)
		}
		fractions[r.TrainFraction] = true
		if r.Version != "" {
			versions[r.Version] = true
		}
	}
	// Sum in split order so that means do not depend on the order of runs.
	for _, g := range groups {
		slices.SortFunc(g, func(x, y *Run) int { return cmp.Compare(x.Split, y.Split) })
	}
	for _, c := range opt.Comparisons {
		if c.A == c.B {
			return nil, fmt.Errorf("report: comparison of %q with itself", c.A)
		}
		for _, tr := range []string{c.A, c.B} {
			if !slices.Contains(trainers, tr) {
				return nil, fmt.Errorf("report: comparison %s vs %s: unknown trainer %q", c.A, c.B, tr)
			}
		}
	}

	taskRank, dataRank := rankOf(opt.Tasks), rankOf(opt.Datasets)
	slices.SortFunc(rows, func(x, y RowKey) int {
		return cmp.Or(
			compareRanked(taskRank, x.Task, y.Task),
			compareRanked(dataRank, x.Dataset, y.Dataset),
			cmp.Compare(x.TrainFraction, y.TrainFraction),
		)
	})

	t := &Table{Trainers: trainers, ShowFraction: len(fractions) > 1, Metric: metric}
	withCPU := 0
	for i := range runs {
		if runs[i].CPUSeconds > 0 {
			withCPU++
		}
	}
	t.CPUTime = withCPU == len(runs)
	t.Memory = !slices.ContainsFunc(runs, func(r Run) bool { return !(r.PeakMiB > 0) })
	t.PartialCPUTime = withCPU > 0 && !t.CPUTime
	edges := map[string]bool{} // "label\x00trainer"
	for _, e := range GridEdges(runs) {
		edges[e.Label+"\x00"+e.Trainer] = true
	}
	for _, rk := range rows {
		row := Row{RowKey: rk, Label: t.label(rk), TokenOnly: slices.Contains(opt.TokenOnlyTasks, rk.Task)}
		with, all := 0, 0
		for _, tr := range trainers {
			for _, r := range groups[cellKey{rk, tr}] {
				all++
				if r.SegmentError > 0 {
					with++
				}
			}
		}
		row.Segment = with == all && !row.TokenOnly
		if with > 0 && !row.Segment {
			t.Warnings = append(t.Warnings, fmt.Sprintf(
				"%s: %d of %d runs have a segment error, the others were written before it was recorded; the row shows token error until all are rerun",
				row.Label, with, all))
		}
		for _, tr := range trainers {
			c := aggregate(tr, groups[cellKey{rk, tr}], row.Segment)
			if !t.CPUTime {
				c.CPUSeconds = 0
			}
			c.GridEdge = edges[row.Label+"\x00"+tr]
			row.Cells = append(row.Cells, c)
		}
		rowMetric := metric
		if row.TokenOnly {
			rowMetric = TokenError
		}
		if row.Segment && rowMetric == TokenError {
			rowMetric = SegmentError
		}
		markBest(row.Cells, rowMetric, func(c *Cell) { c.Best = true })
		maxN := 0
		for _, c := range row.Cells {
			maxN = max(maxN, c.N)
		}
		for i := range row.Cells {
			row.Cells[i].Text = cellText(row.Cells[i], row.TokenOnly, row.Segment, maxN, decimals)
		}
		if row.Segment {
			t.Segment = true
			markBest(row.Cells, TokenError, func(c *Cell) { c.TokenBest = true })
			for i := range row.Cells {
				if c := row.Cells[i]; c.N > 0 {
					c.GridEdge = false // marked on the row's first line
					row.Cells[i].TokenText = cellText(c, true, false, maxN, decimals)
				} else {
					row.Cells[i].TokenText = "-"
				}
			}
		}
		t.Rows = append(t.Rows, row)
	}

	t.Edges = tableOrder(t, GridEdges(runs))

	for _, c := range opt.Comparisons {
		for _, row := range t.Rows {
			a, b := groups[cellKey{row.RowKey, c.A}], groups[cellKey{row.RowKey, c.B}]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			t.Tests = append(t.Tests, pairTest(c, row, a, b))
		}
	}

	if len(versions) > 1 {
		vs := make([]string, 0, len(versions))
		for v := range versions {
			vs = append(vs, v)
		}
		slices.Sort(vs)
		t.Warnings = append(t.Warnings,
			fmt.Sprintf("runs come from %d code versions: %s", len(vs), strings.Join(vs, ", ")))
	}
	return t, nil
}

// label names a row as "dataset/task[/fraction]".
func (t *Table) label(rk RowKey) string {
	s := rk.Dataset + "/" + rk.Task
	if t.ShowFraction {
		s += "/" + strconv.FormatFloat(rk.TrainFraction, 'g', -1, 64)
	}
	return s
}

// aggregate summarizes one trainer's runs in one row, their segment
// errors too if segment; runs are sorted by split.
func aggregate(trainer string, runs []*Run, segment bool) Cell {
	c := Cell{Trainer: trainer, N: len(runs)}
	if len(runs) == 0 {
		return c
	}
	var tok, f1, seg, secs, cpu, iters, cons []float64
	for _, r := range runs {
		c.Splits = append(c.Splits, r.Split)
		tok = append(tok, r.TokenError)
		seg = append(seg, r.SegmentError)
		f1 = append(f1, r.SpanF1)
		secs = append(secs, r.TrainSeconds)
		cpu = append(cpu, r.CPUSeconds)
		c.PeakMiB = max(c.PeakMiB, r.PeakMiB)
		iters = append(iters, float64(r.Iterations))
		cons = append(cons, float64(r.Constraints))
	}
	c.TokenError.Mean, c.TokenError.Std = MeanStd(tok)
	c.SpanF1.Mean, c.SpanF1.Std = MeanStd(f1)
	if segment {
		c.SegmentError.Mean, c.SegmentError.Std = MeanStd(seg)
	}
	c.TrainSeconds, _ = MeanStd(secs)
	c.CPUSeconds, _ = MeanStd(cpu)
	c.Iterations, _ = MeanStd(iters)
	c.Constraints, _ = MeanStd(cons)
	return c
}

// markBest applies mark to the cells with the best mean of metric,
// provided at least two cells have runs.
func markBest(cells []Cell, metric Metric, mark func(*Cell)) {
	value := func(c Cell) float64 {
		switch metric {
		case SpanF1:
			return -c.SpanF1.Mean
		case SegmentError:
			return c.SegmentError.Mean
		}
		return c.TokenError.Mean
	}
	present, best := 0, math.Inf(1)
	for _, c := range cells {
		if c.N > 0 {
			present++
			best = min(best, value(c))
		}
	}
	if present < 2 {
		return
	}
	for i := range cells {
		if cells[i].N > 0 && value(cells[i]) == best {
			mark(&cells[i])
		}
	}
}

// cellText renders a cell as "mean±std/mean±std" with the given decimals:
// the error (the segment error if segment, else the token error), then
// the span F1 unless tokenOnly.
func cellText(c Cell, tokenOnly, segment bool, maxN, decimals int) string {
	if c.N == 0 {
		return "-"
	}
	f := func(s Stat) string {
		if c.N == 1 {
			return strconv.FormatFloat(s.Mean, 'f', decimals, 64)
		}
		return strconv.FormatFloat(s.Mean, 'f', decimals, 64) + "±" + strconv.FormatFloat(s.Std, 'f', decimals, 64)
	}
	s := f(c.TokenError)
	if segment {
		s = f(c.SegmentError)
	}
	if !tokenOnly {
		s += "/" + f(c.SpanF1)
	}
	if c.N < maxN {
		s += fmt.Sprintf(" (n=%d)", c.N)
	}
	if c.GridEdge {
		s += GridEdgeMark
	}
	return s
}

// tableOrder sorts notes by the row and then the column of their cell in
// t.
func tableOrder(t *Table, notes []EdgeNote) []EdgeNote {
	pos := func(e EdgeNote) (int, int) {
		r := slices.IndexFunc(t.Rows, func(row Row) bool { return row.Label == e.Label })
		return r, slices.Index(t.Trainers, e.Trainer)
	}
	slices.SortStableFunc(notes, func(a, b EdgeNote) int {
		ra, ca := pos(a)
		rb, cb := pos(b)
		return cmp.Or(cmp.Compare(ra, rb), cmp.Compare(ca, cb))
	})
	return notes
}

// pairTest runs the paired t-tests of comparison c in one row.
func pairTest(c Comparison, row Row, a, b []*Run) PairTest {
	pt := PairTest{Comparison: c, Row: row.RowKey, Label: row.Label, TokenOnly: row.TokenOnly, Segment: row.Segment}
	bySplit := make(map[int]*Run, len(b))
	for _, r := range b {
		bySplit[r.Split] = r
	}
	var shared []int
	for _, r := range a {
		if _, ok := bySplit[r.Split]; ok {
			shared = append(shared, r.Split)
		}
	}
	slices.Sort(shared)
	aBySplit := make(map[int]*Run, len(a))
	for _, r := range a {
		aBySplit[r.Split] = r
	}
	if len(shared) == 1 && !row.Segment {
		if ra, rb := aBySplit[shared[0]], bySplit[shared[0]]; ra.Outcomes != nil && rb.Outcomes != nil {
			return singleSplitTest(pt, ra, rb)
		}
	}
	if len(shared) < 2 {
		pt.Err = fmt.Errorf("only %d shared split(s); need 2", len(shared))
		return pt
	}
	var ta, tb, fa, fb, sa, sb []float64
	for _, s := range shared {
		ta = append(ta, aBySplit[s].TokenError)
		tb = append(tb, bySplit[s].TokenError)
		fa = append(fa, aBySplit[s].SpanF1)
		fb = append(fb, bySplit[s].SpanF1)
		sa = append(sa, aBySplit[s].SegmentError)
		sb = append(sb, bySplit[s].SegmentError)
	}
	var err error
	if row.Segment {
		if pt.SegmentError, err = PairedTTest(sa, sb); err != nil {
			pt.Err = fmt.Errorf("segment error: %w", err)
			pt.SegmentError = TTest{}
			return pt
		}
	}
	if pt.TokenError, err = PairedTTest(ta, tb); err != nil {
		pt.Err = fmt.Errorf("token error: %w", err)
		pt.TokenError, pt.SegmentError = TTest{}, TTest{}
		return pt
	}
	if row.TokenOnly {
		return pt
	}
	if pt.SpanF1, err = PairedTTest(fa, fb); err != nil {
		pt.Err = fmt.Errorf("span F1: %w", err)
		pt.TokenError, pt.SpanF1, pt.SegmentError = TTest{}, TTest{}, TTest{}
	}
	return pt
}

// singleSplitTest compares two runs on one test set sentence by sentence:
// McNemar's test on token decisions, and (unless the row is token-only) a
// paired bootstrap of span F1 with DefaultResamples resamples and a fixed
// seed, so that tables are reproducible.
func singleSplitTest(pt PairTest, a, b *Run) PairTest {
	m, err := McNemar(a.Outcomes, b.Outcomes)
	if err != nil {
		pt.Err = err
		return pt
	}
	pt.McNemar = &m
	if pt.TokenOnly {
		return pt
	}
	bs, err := SpanF1Bootstrap(a.Outcomes, b.Outcomes, DefaultResamples, 1)
	if err != nil {
		pt.Err = err
		return pt
	}
	pt.SpanBootstrap = &bs
	return pt
}

// rankOf maps each name to its position in order.
func rankOf(order []string) map[string]int {
	m := make(map[string]int, len(order))
	for i, s := range order {
		if _, ok := m[s]; !ok {
			m[s] = i
		}
	}
	return m
}

// compareRanked orders ranked names first by rank, then the rest lexically.
func compareRanked(rank map[string]int, x, y string) int {
	rx, okx := rank[x]
	ry, oky := rank[y]
	switch {
	case okx && oky:
		return cmp.Compare(rx, ry)
	case okx:
		return -1
	case oky:
		return 1
	}
	return strings.Compare(x, y)
}
