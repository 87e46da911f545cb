package report

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/metrics"
)

// ErrNoRuns is returned by [Summarize] when it is given no runs.
var ErrNoRuns = errors.New("report: no runs")

// Metric names a metric of package metrics, e.g. "token_error".
type Metric = string

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
	// Metric decides the best cell of each row that shows it on its
	// first line; "" (and rows without it) mean the row's first metric.
	Metric Metric
	// Tasks and Datasets give the preferred row order. Tasks and datasets
	// not listed follow the listed ones in lexical order.
	Tasks    []string
	Datasets []string
	// Decimals is the number of digits after the decimal point in cells
	// of metrics that do not declare their own (metrics.Def.Decimals); 0
	// means 1.
	Decimals int
	// Folds, if set, says that the splits are cross-validation folds
	// whose test parts are disjoint: the comparisons then add, for the
	// metrics that declare one (metrics.Sign), a sign test over the test
	// items of the shared splits pooled (PairTest.Signs). Without it no
	// test pools items over splits, for an item tested in two splits
	// would count twice.
	Folds *Folds
}

// Folds describes splits whose test parts are disjoint, no item tested
// in two of them, as the config that made the runs checked against its
// splits (report.json holds it: [Spec.Folds]).
type Folds struct {
	// TestItems[k] is the number of items in the test part of split k;
	// a run of split k must have outcomes of that many items to be
	// pooled, so that runs of other splits are not taken for these.
	TestItems []int `json:"test_items"`
}

// Validate reports whether f describes at least one split of at least
// one item.
func (f *Folds) Validate() error {
	if len(f.TestItems) == 0 {
		return errors.New("report: folds without splits")
	}
	for k, n := range f.TestItems {
		if n < 1 {
			return fmt.Errorf("report: folds: split %d has %d test items", k, n)
		}
	}
	return nil
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
	Trainer string
	N       int   // number of splits; 0 means the trainer has no runs here
	Splits  []int // split indices, ascending
	// Stats are the mean and standard deviation of each of the row's
	// metrics (Row.Metrics).
	Stats        map[string]Stat
	TrainSeconds float64 // wall-clock, mean over splits
	CPUSeconds   float64 // mean over splits; 0 unless Table.CPUTime
	PeakMiB      float64 // largest over splits (Run.PeakMiB); 0 unless Table.Memory
	Iterations   float64 // mean over splits
	Constraints  float64 // mean over splits
	Best         bool    // best cell of its row's first line (see Options.Metric)
	// GridEdge is set when some split chose a hyperparameter at an end of
	// its grid; Table.Edges says which.
	GridEdge bool
	// Text is the rendering of the row's first line shared by all
	// formats, without the best-cell mark: "12.3±0.8/74.9±1.2" (the row's
	// first two metrics, e.g. token error / span F1), "12.3/74.9" for a
	// single split, "12.3±0.8" in a row with one metric, and "-" when N
	// is 0. A cell with fewer splits than the fullest cell of its row gets
	// a " (n=7)" suffix, and a GridEdge cell ends with GridEdgeMark.
	Text string
	// More are the renderings of the row's further lines, one metric
	// each (Row.Lines[1:]), with any " (n=7)" suffix; MoreBest marks the
	// best of each.
	More     []string
	MoreBest []bool
}

// Row is one row of the table: one cell per trainer, in Table.Trainers order.
type Row struct {
	RowKey
	Label string // "dataset/task", plus "/fraction" when the table has several
	// Metrics are the metrics of the row's task (metrics.ForTask) that
	// every run of the row has, in table order.
	Metrics []string
	// Lines group Metrics by results-table line: the first two on the
	// first, each further one on a line of its own.
	Lines [][]string
	Cells []Cell
}

// PairTest is the outcome of one [Comparison] in one row.
type PairTest struct {
	Comparison
	Row   RowKey
	Label string // the row's label
	// TTests are the t-tests over shared splits on the row's metrics that
	// have one (metrics.TTest), errors first, each A - B.
	TTests []MetricTTest
	// With one shared split whose runs kept their per-sentence outcomes
	// (fixed splits), and a row whose first metric has a test on them,
	// there is no t-test over splits: McNemar's test on token decisions
	// and a paired bootstrap over sentences on span counts take its place
	// for the metrics that declare them (McNemarMetric, BootstrapMetric),
	// and TTests is empty.
	McNemar         *McNemarTest
	McNemarMetric   Metric
	SpanBootstrap   *Bootstrap
	BootstrapMetric Metric
	// Err is set when the test could not be run, e.g. because the two
	// trainers share fewer than two splits; TTests is then empty.
	Err error
	// Signs are the sign tests over the shared splits' test items pooled,
	// on the row's metrics that declare one (metrics.Sign), in the row's
	// order, beside the t-tests: only where the splits are folds
	// (Options.Folds). SignErr says why a row with such metrics has none
	// (runs without outcomes, or of other splits than the folds').
	Signs   []MetricSign
	SignErr error
}

// MetricSign is a sign test on one metric.
type MetricSign struct {
	Metric Metric
	SignTest
}

// SignOf returns the sign test on metric m, if the row had one.
func (pt PairTest) SignOf(m Metric) (SignTest, bool) {
	for _, t := range pt.Signs {
		if t.Metric == m {
			return t.SignTest, true
		}
	}
	return SignTest{}, false
}

// MetricTTest is a t-test on one metric.
type MetricTTest struct {
	Metric Metric
	TTest
}

// TTestOf returns the t-test on metric m, if the row had one.
func (pt PairTest) TTestOf(m Metric) (TTest, bool) {
	for _, t := range pt.TTests {
		if t.Metric == m {
			return t.TTest, true
		}
	}
	return TTest{}, false
}

// Table is the aggregated form of a set of runs, ready to render.
type Table struct {
	Trainers     []string // column order
	ShowFraction bool     // runs have several train fractions
	Metric       Metric   // Options.Metric: "" for each row's first
	// CPUTime is set when every run has a CPU time (Run.CPUSeconds): the
	// cost table then shows CPU and wall-clock seconds. PartialCPUTime is
	// set when only some do: it shows wall-clock seconds, labelled so.
	// With neither, it shows wall-clock seconds as it always did.
	CPUTime, PartialCPUTime bool
	// Memory is set when every run has a peak memory (Run.PeakMiB): the
	// cost table then shows each cell's largest.
	Memory bool
	// Lined is set when some row has more than one line: the results
	// table then names each line's first metric in a column of its own.
	Lined bool
	Rows  []Row
	Tests []PairTest
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
	if _, ok := metrics.Lookup(metric); metric != "" && !ok {
		return nil, fmt.Errorf("report: unknown metric %q (known: %s)", opt.Metric, strings.Join(metrics.Names(), ", "))
	}
	if opt.Folds != nil {
		if err := opt.Folds.Validate(); err != nil {
			return nil, err
		}
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
		for _, v := range append([]float64{r.TrainFraction, r.TrainSeconds, r.CPUSeconds}, slices.Collect(maps.Values(r.Metrics))...) {
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
		row, err := t.row(rk, groups, opt.Metric, edges, decimals)
		if err != nil {
			return nil, err
		}
		t.Lined = t.Lined || len(row.Lines) > 1
		t.Rows = append(t.Rows, row)
	}

	t.Edges = tableOrder(t, GridEdges(runs))

	for _, c := range opt.Comparisons {
		for _, row := range t.Rows {
			a, b := groups[cellKey{row.RowKey, c.A}], groups[cellKey{row.RowKey, c.B}]
			if len(a) == 0 || len(b) == 0 {
				continue
			}
			t.Tests = append(t.Tests, pairTest(c, row, a, b, opt.Folds))
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

// row aggregates the runs of one row: the metrics of its task that all
// its runs have (with a warning for those only some have), its cells, and
// their texts and best marks.
func (t *Table) row(rk RowKey, groups map[cellKey][]*Run, metric Metric, edges map[string]bool, decimals int) (Row, error) {
	row := Row{RowKey: rk, Label: t.label(rk)}
	all := 0
	with := map[string]int{}
	for _, tr := range t.Trainers {
		for _, r := range groups[cellKey{rk, tr}] {
			all++
			for m := range r.Metrics {
				with[m]++
			}
		}
	}
	for _, m := range metrics.ForTask(rk.Task).Metrics {
		d, _ := metrics.Lookup(m)
		switch n := with[m]; {
		case n == all, n > 0 && d.ByTrainer:
			row.Metrics = append(row.Metrics, m)
		case n > 0:
			t.Warnings = append(t.Warnings, fmt.Sprintf(
				"%s: %d of %d runs have a %s, the others were written before it was recorded; the row leaves it out until all are rerun",
				row.Label, n, all, d.Label))
		}
	}
	if declared := metrics.ForTask(rk.Task).Metrics; len(row.Metrics) > 0 && row.Metrics[0] != declared[0] {
		// Without the task's first metric (records from before it was
		// recorded), the row starts with its first error, so that its
		// line reads error/score as the task's would.
		row.Metrics = errorsFirst(row.Metrics)
	}
	if len(row.Metrics) == 0 {
		return Row{}, fmt.Errorf("report: row %s: its runs share no metric of task %q (%s)", row.Label, rk.Task, strings.Join(metrics.ForTask(rk.Task).Metrics, ", "))
	}
	row.Lines = [][]string{row.Metrics[:min(2, len(row.Metrics))]}
	for _, m := range row.Metrics[min(2, len(row.Metrics)):] {
		row.Lines = append(row.Lines, []string{m})
	}
	for _, tr := range t.Trainers {
		c := aggregate(tr, groups[cellKey{rk, tr}], row.Metrics)
		if !t.CPUTime {
			c.CPUSeconds = 0
		}
		c.GridEdge = edges[row.Label+"\x00"+tr]
		row.Cells = append(row.Cells, c)
	}
	markBest(row.Cells, row.decider(metric), func(c *Cell) { c.Best = true })
	maxN := 0
	for _, c := range row.Cells {
		maxN = max(maxN, c.N)
	}
	for i := range row.Cells {
		c := &row.Cells[i]
		c.Text = cellText(*c, row.Lines[0], maxN, decimals, c.GridEdge)
		c.More, c.MoreBest = make([]string, len(row.Lines)-1), make([]bool, len(row.Lines)-1)
	}
	for j, line := range row.Lines[1:] {
		markBest(row.Cells, line[0], func(c *Cell) { c.MoreBest[j] = true })
		for i := range row.Cells {
			c := &row.Cells[i]
			c.More[j] = cellText(*c, line, maxN, decimals, false) // the edge is marked on the row's first line
		}
	}
	return row, nil
}

// decider is the metric that decides the best cell of the row's first
// line: metric if the line shows it, else the line's first.
func (row Row) decider(metric Metric) Metric {
	if slices.Contains(row.Lines[0], metric) {
		return metric
	}
	return row.Lines[0][0]
}

// aggregate summarizes one trainer's runs in one row, on the row's
// metrics; runs are sorted by split.
func aggregate(trainer string, runs []*Run, names []string) Cell {
	c := Cell{Trainer: trainer, N: len(runs)}
	if len(runs) == 0 {
		return c
	}
	var secs, cpu, iters, cons []float64
	values := make(map[string][]float64, len(names))
	for _, r := range runs {
		c.Splits = append(c.Splits, r.Split)
		for _, m := range names {
			if v, ok := r.Metrics[m]; ok {
				values[m] = append(values[m], v)
			}
		}
		secs = append(secs, r.TrainSeconds)
		cpu = append(cpu, r.CPUSeconds)
		c.PeakMiB = max(c.PeakMiB, r.PeakMiB)
		iters = append(iters, float64(r.Iterations))
		cons = append(cons, float64(r.Constraints))
	}
	c.Stats = make(map[string]Stat, len(names))
	for _, m := range names {
		if len(values[m]) == 0 {
			continue // a metric only other trainers report (metrics.Def.ByTrainer)
		}
		var s Stat
		s.Mean, s.Std = MeanStd(values[m])
		c.Stats[m] = s
	}
	c.TrainSeconds, _ = MeanStd(secs)
	c.CPUSeconds, _ = MeanStd(cpu)
	c.Iterations, _ = MeanStd(iters)
	c.Constraints, _ = MeanStd(cons)
	return c
}

// markBest applies mark to the cells with the best mean of metric (in
// its direction), provided at least two cells have runs and the metric is
// not a measurement of the machine (metrics.Def.Measured: a QP time says
// how a trainer spends its time, not which is better).
func markBest(cells []Cell, metric Metric, mark func(*Cell)) {
	d, _ := metrics.Lookup(metric)
	if d.Measured {
		return
	}
	value := func(c Cell) float64 {
		if d.Lower() {
			return c.Stats[metric].Mean
		}
		return -c.Stats[metric].Mean
	}
	present, best := 0, math.Inf(1)
	for _, c := range cells {
		if _, ok := c.Stats[metric]; c.N > 0 && ok {
			present++
			best = min(best, value(c))
		}
	}
	if present < 2 {
		return
	}
	for i := range cells {
		if _, ok := cells[i].Stats[metric]; cells[i].N > 0 && ok && value(cells[i]) == best {
			mark(&cells[i])
		}
	}
}

// cellText renders a cell's metrics as "mean±std/mean±std", each with its
// own decimals (metrics.Def.Decimals) or the table's.
func cellText(c Cell, names []string, maxN, decimals int, edge bool) string {
	if c.N == 0 {
		return "-"
	}
	var parts []string
	for _, m := range names {
		d := decimals
		if def, _ := metrics.Lookup(m); def.Decimals > 0 {
			d = def.Decimals
		}
		s, ok := c.Stats[m]
		if !ok {
			parts = append(parts, "-")
			continue
		}
		text := strconv.FormatFloat(s.Mean, 'f', d, 64)
		if c.N > 1 {
			text += "±" + strconv.FormatFloat(s.Std, 'f', d, 64)
		}
		parts = append(parts, text)
	}
	s := strings.Join(parts, "/")
	if c.N < maxN {
		s += fmt.Sprintf(" (n=%d)", c.N)
	}
	if edge {
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

// errorsFirst returns names with the lower-is-better metrics first, each
// group in its order: the order of a row's paired tests.
func errorsFirst(names []string) []string {
	out := slices.Clone(names)
	slices.SortStableFunc(out, func(a, b string) int {
		da, _ := metrics.Lookup(a)
		db, _ := metrics.Lookup(b)
		return cmp.Compare(da.Better, db.Better)
	})
	return out
}

// pairTest runs the paired tests of comparison c in one row; folds, if
// set, are the splits' disjoint test parts.
func pairTest(c Comparison, row Row, a, b []*Run, folds *Folds) PairTest {
	pt := PairTest{Comparison: c, Row: row.RowKey, Label: row.Label}
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
	if first, _ := metrics.Lookup(row.Metrics[0]); len(shared) == 1 && first.Tests&(metrics.McNemar|metrics.Bootstrap) != 0 {
		if ra, rb := aBySplit[shared[0]], bySplit[shared[0]]; ra.Outcomes != nil && rb.Outcomes != nil {
			return singleSplitTest(pt, row, ra, rb)
		}
	}
	if len(shared) < 2 {
		pt.Err = fmt.Errorf("only %d shared split(s); need 2", len(shared))
		return pt
	}
	for _, m := range errorsFirst(row.Metrics) {
		d, _ := metrics.Lookup(m)
		if !d.Has(metrics.TTest) {
			continue
		}
		var xa, xb []float64
		for _, s := range shared {
			va, okA := aBySplit[s].Metrics[m]
			vb, okB := bySplit[s].Metrics[m]
			if okA && okB { // a metric only some trainers report: where both do
				xa, xb = append(xa, va), append(xb, vb)
			}
		}
		if d.ByTrainer && len(xa) < 2 {
			continue
		}
		tt, err := PairedTTest(xa, xb)
		if err != nil {
			pt.Err = fmt.Errorf("%s: %w", d.Label, err)
			pt.TTests = nil
			return pt
		}
		pt.TTests = append(pt.TTests, MetricTTest{m, tt})
	}
	if folds != nil {
		pt.Signs, pt.SignErr = pooledSigns(row, shared, aBySplit, bySplit, folds)
	}
	return pt
}

// pooledSigns runs the sign tests of the row's metrics that declare one
// over the test items of the shared splits, pooled in split order, after
// checking that each run is of its fold: outcomes of as many items as the
// fold's test part.
func pooledSigns(row Row, shared []int, a, b map[int]*Run, folds *Folds) ([]MetricSign, error) {
	var signed []metrics.Def
	for _, m := range row.Metrics {
		if d, _ := metrics.Lookup(m); d.Has(metrics.Sign) {
			signed = append(signed, d)
		}
	}
	if len(signed) == 0 {
		return nil, nil
	}
	var oa, ob []*Outcomes
	for _, s := range shared {
		if s < 0 || s >= len(folds.TestItems) {
			return nil, fmt.Errorf("split %d is not one of the %d folds", s, len(folds.TestItems))
		}
		for _, r := range []*Run{a[s], b[s]} {
			switch {
			case r.Outcomes == nil:
				return nil, fmt.Errorf("%s's run of split %d kept no per-item outcomes", r.Trainer, s)
			case len(r.Outcomes.Tokens) != folds.TestItems[s]:
				return nil, fmt.Errorf("%s's run of split %d has outcomes of %d items, but the fold tests %d", r.Trainer, s, len(r.Outcomes.Tokens), folds.TestItems[s])
			}
		}
		oa, ob = append(oa, a[s].Outcomes), append(ob, b[s].Outcomes)
	}
	var out []MetricSign
	for _, d := range signed {
		st, err := Sign(oa, ob, d)
		if err != nil {
			return nil, err
		}
		out = append(out, MetricSign{d.Name, st})
	}
	return out, nil
}

// singleSplitTest compares two runs on one test set sentence by sentence:
// McNemar's test on token decisions for the row's (first) metric that
// declares it, and a paired bootstrap of span F1 with DefaultResamples
// resamples and a fixed seed, so that tables are reproducible, for the
// one that declares that.
func singleSplitTest(pt PairTest, row Row, a, b *Run) PairTest {
	for _, m := range errorsFirst(row.Metrics) {
		d, _ := metrics.Lookup(m)
		switch {
		case d.Has(metrics.McNemar) && pt.McNemar == nil:
			t, err := McNemar(a.Outcomes, b.Outcomes, d)
			if err != nil {
				pt.Err = err
				return pt
			}
			pt.McNemar, pt.McNemarMetric = &t, m
		case d.Has(metrics.Bootstrap) && pt.SpanBootstrap == nil:
			bs, err := SpanF1Bootstrap(a.Outcomes, b.Outcomes, DefaultResamples, 1)
			if err != nil {
				pt.Err = err
				return pt
			}
			pt.SpanBootstrap, pt.BootstrapMetric = &bs, m
		}
	}
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
