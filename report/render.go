package report

import (
	"cmp"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/metrics"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// This file turns a Table into plain string grids and hands them to the
// format-specific writers, which only escape and mark cells.

const testsTitle = "Paired t-tests (two-sided, over shared splits; diff = A - B in percentage points):"

// testsTitleUnits heads the t-tests of a table that tests a metric other
// than a percentage (a count of constraints, an average cost): each diff
// then carries its unit (diffText).
const testsTitleUnits = "Paired t-tests (two-sided, over shared splits; diff = A - B, in percentage points for percentages, else in the metric's unit):"

// signTitle heads the sign tests pooled over folds (PairTest.Signs),
// saying their unit: the sentence.
const signTitle = "McNemar tests with the sentence as unit, pooled over the folds (the splits' test parts are disjoint, so each test sentence counts once): " +
	"a sentence counts for A or for B by which has the better value of the metric on that sentence alone, ties dropped; exact binomial p, two-sided:"

// singleSplitTitle heads the comparisons of tables whose runs share one
// split, where McNemar's test and the paired bootstrap stand in for the
// t-test.
const singleSplitTitle = "Paired tests on one split (two-sided; McNemar on token decisions, paired bootstrap over sentences; diff = A - B in percentage points):"

// testsHeading returns the heading of the table's comparisons.
func (t *Table) testsHeading() string {
	for _, pt := range t.Tests {
		if pt.McNemar == nil {
			return t.tTestsTitle()
		}
	}
	if len(t.Tests) > 0 {
		return singleSplitTitle
	}
	return testsTitle
}

// tTestsTitle is testsTitle, or testsTitleUnits when some t-test is on
// a metric that is not a percentage.
func (t *Table) tTestsTitle() string {
	for _, pt := range t.Tests {
		for _, tt := range pt.TTests {
			if d, _ := metrics.Lookup(tt.Metric); d.Unit != "%" {
				return testsTitleUnits
			}
		}
	}
	return testsTitle
}

const costTitle = "Training cost (means over splits):"

// keyHeader is the header of the columns that identify a row.
func (t *Table) keyHeader() []string {
	if t.ShowFraction {
		return []string{"task", "dataset", "train fraction"}
	}
	return []string{"task", "dataset"}
}

// keyCells are the identifying cells of a row.
func (t *Table) keyCells(rk RowKey) []string {
	if t.ShowFraction {
		return []string{rk.Task, rk.Dataset, strconv.FormatFloat(rk.TrainFraction, 'g', -1, 64)}
	}
	return []string{rk.Task, rk.Dataset}
}

// errorHeader heads the column that names each line's first metric
// (metrics.Def.Line), which the results table has when some row has more
// than one line.
const errorHeader = "error"

// resultKeyHeader is the header of the results table's identifying
// columns: keyHeader, and the error column when t.Lined.
func (t *Table) resultKeyHeader() []string {
	if t.Lined {
		return append(t.keyHeader(), errorHeader)
	}
	return t.keyHeader()
}

// resultLine is one line of the results table.
type resultLine struct {
	task  string
	cells []resultCell // identifying cells, then one per trainer
}

type resultCell struct {
	text string
	best bool
}

// resultLines are the lines of the results table: one per line of each
// row (Row.Lines).
func (t *Table) resultLines() []resultLine {
	var out []resultLine
	for _, row := range t.Rows {
		for j, metricsOfLine := range row.Lines {
			l := resultLine{task: row.Task}
			for _, s := range t.keyCells(row.RowKey) {
				l.cells = append(l.cells, resultCell{text: s})
			}
			if t.Lined {
				d, _ := metrics.Lookup(metricsOfLine[0])
				l.cells = append(l.cells, resultCell{text: d.Line})
			}
			for _, c := range row.Cells {
				switch {
				case j == 0:
					l.cells = append(l.cells, resultCell{c.Text, c.Best})
				case c.N == 0:
					l.cells = append(l.cells, resultCell{text: "-"})
				default:
					l.cells = append(l.cells, resultCell{c.More[j-1], c.MoreBest[j-1]})
				}
			}
			out = append(out, l)
		}
	}
	return out
}

// mainGrid is the results table as strings: esc is applied to every cell,
// then mark to the best cells.
func (t *Table) mainGrid(esc, mark func(string) string) (head []string, body [][]string) {
	for _, s := range append(t.resultKeyHeader(), t.Trainers...) {
		head = append(head, esc(s))
	}
	for _, l := range t.resultLines() {
		var line []string
		for _, c := range l.cells {
			s := esc(c.text)
			if c.best {
				s = mark(s)
			}
			line = append(line, s)
		}
		body = append(body, line)
	}
	return head, body
}

// costGrid is the training-cost table as strings, one line per trainer
// with runs in a row.
func (t *Table) costGrid(esc func(string) string) (head []string, body [][]string) {
	for _, s := range append(t.keyHeader(), "trainer", "n") {
		head = append(head, esc(s))
	}
	for _, s := range t.timeHeader() {
		head = append(head, esc(s))
	}
	head = append(head, esc("iterations"), esc("constraints"))
	if t.Memory {
		head = append(head, esc("peak MiB"))
	}
	for _, row := range t.Rows {
		for _, c := range row.Cells {
			if c.N == 0 {
				continue
			}
			line := append(t.keyCells(row.RowKey), c.Trainer, strconv.Itoa(c.N))
			if t.CPUTime {
				line = append(line, formatSeconds(c.CPUSeconds))
			}
			line = append(line, formatSeconds(c.TrainSeconds),
				strconv.FormatFloat(c.Iterations, 'f', 1, 64),
				strconv.FormatFloat(c.Constraints, 'f', 1, 64))
			if t.Memory {
				line = append(line, strconv.FormatFloat(c.PeakMiB, 'f', 0, 64))
			}
			for i := range line {
				line[i] = esc(line[i])
			}
			body = append(body, line)
		}
	}
	return head, body
}

// cellLegend explains the cells of the results table, one sentence a
// line: what the numbers are and their unit, over how many splits, what
// "(n=K)" means if a cell has it, and how the best cell is marked (best
// names the marker, e.g. "*" or "Bold"). Everything it says of a metric
// comes from its declaration (metrics.Def) and the task's
// (metrics.TaskMetrics).
func (t *Table) cellLegend(best string) []string {
	var first, second, deciders, single []string
	var singleTasks []string
	lo, hi, fewer := math.MaxInt, 0, false
	for _, row := range t.Rows {
		line := row.Lines[0]
		first = appendNew(first, line[0])
		if len(line) > 1 {
			second = appendNew(second, line[1])
		} else {
			single = appendNew(single, line[0])
			singleTasks = appendNew(singleTasks, row.Task)
		}
		deciders = appendNew(deciders, row.decider(t.Metric))
		n := 0
		for _, c := range row.Cells {
			n = max(n, c.N)
		}
		for _, c := range row.Cells {
			fewer = fewer || (c.N > 0 && c.N < n)
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	byRank := func(names []string) []string {
		slices.SortStableFunc(names, func(a, b string) int { return cmp.Compare(metrics.Rank(a), metrics.Rank(b)) })
		return names
	}
	first, second, deciders = byRank(first), byRank(second), byRank(deciders)
	what := quantityName(first, true)
	if len(second) > 0 {
		what += " / " + quantityName(second, true)
	}
	var over string
	switch {
	case hi <= 1:
		over = "from 1 split (no std)"
	case lo == hi:
		over = fmt.Sprintf("mean ± std over %d splits", hi)
	default:
		over = fmt.Sprintf("mean ± std over the row's splits (%d–%d)", lo, hi)
	}
	lines := []string{fmt.Sprintf("Cells: %s, %s.", what, over)}
	if l := t.linesLegend(first); l != "" {
		lines = append(lines, l)
	}
	if len(second) > 0 && len(single) > 0 {
		var parts []string
		for _, m := range single {
			parts = append(parts, label(m, true))
		}
		lines = append(lines, fmt.Sprintf("Rows of %s: %s only.", strings.Join(singleTasks, ", "), strings.Join(parts, ", ")))
	}
	if fewer {
		lines = append(lines, "(n=K): a cell with fewer splits than the fullest cell of its row.")
	}
	better := "lowest"
	if d, _ := metrics.Lookup(deciders[0]); len(deciders) == 1 && !d.Lower() {
		better = "highest"
	}
	s := fmt.Sprintf("%s: best (%s) mean %s in the row", best, better, quantityName(deciders, false))
	var further []string
	for _, row := range t.Rows {
		for _, line := range row.Lines[1:] {
			further = appendNew(further, line[0])
		}
	}
	for _, m := range byRank(further) {
		d, _ := metrics.Lookup(m)
		if d.Measured {
			continue // not marked (markBest)
		}
		better := "lowest"
		if !d.Lower() {
			better = "highest"
		}
		s += fmt.Sprintf("; in a %s row, %s mean %s", d.Line, better, d.Label)
	}
	return append(lines, s+".")
}

// linesLegend explains, when rows start with different metrics or have
// further lines, what each line's metric is: "Error: token error, or in
// segment rows ...; each segment row is followed by a token row: ...".
func (t *Table) linesLegend(first []string) string {
	var s string
	if len(first) > 1 {
		name := quantityName(first, false)
		s = strings.ToUpper(name[:1]) + name[1:] + ": " + label(first[0], false)
		for _, m := range first[1:] {
			d, _ := metrics.Lookup(m)
			s += ", or in " + d.Line + " rows " + d.Doc
		}
	}
	var seen []string
	for _, row := range t.Rows {
		tm := metrics.ForTask(row.Task)
		head, _ := metrics.Lookup(row.Lines[0][0])
		for _, line := range row.Lines[1:] {
			key := row.Lines[0][0] + "\x00" + line[0]
			if slices.Contains(seen, key) {
				continue
			}
			seen = append(seen, key)
			d, _ := metrics.Lookup(line[0])
			part := fmt.Sprintf("each %s row is followed by a %s row: %s", head.Line, d.Line, label(line[0], true))
			if of := tm.Of[line[0]]; of != "" {
				part += " " + of
			}
			if s == "" {
				s = strings.ToUpper(part[:1]) + part[1:]
			} else {
				s += "; " + part
			}
		}
	}
	if s == "" {
		return ""
	}
	return s + "."
}

// label names metric m, with its unit in parentheses if unit.
func label(m string, unit bool) string {
	d, ok := metrics.Lookup(m)
	if !ok {
		return m
	}
	if unit && d.Unit != "" {
		return d.Label + " (" + d.Unit + ")"
	}
	return d.Label
}

// quantityName names one metric by its label, and several by what they
// have in common: "error" when all are errors, else "score"; with their
// unit if unit and they share one.
func quantityName(names []string, unit bool) string {
	if len(names) == 1 {
		return label(names[0], unit)
	}
	word, u := "error", ""
	for i, m := range names {
		d, _ := metrics.Lookup(m)
		if !d.Lower() {
			word = "score"
		}
		if i == 0 {
			u = d.Unit
		} else if d.Unit != u {
			u = ""
		}
	}
	if unit && u != "" {
		return word + " (" + u + ")"
	}
	return word
}

// appendNew appends s unless xs has it.
func appendNew(xs []string, s string) []string {
	if slices.Contains(xs, s) {
		return xs
	}
	return append(xs, s)
}

// edgeTitle heads the list of grid-edge notes under a table.
const edgeTitle = GridEdgeMark + ": in some splits a hyperparameter was chosen at an end of its grid, so the best value may lie outside it:"

// edgeLines are the grid-edge notes of t, one a line.
func (t *Table) edgeLines() []string {
	out := make([]string, len(t.Edges))
	for i, e := range t.Edges {
		out[i] = e.String()
	}
	return out
}

// timeHeader heads the time columns of the cost table: CPU and wall-clock
// seconds when every run has a CPU time, wall-clock seconds named as such
// when some do, and the old "train seconds" (wall-clock) when none do, so
// that old runs render as they did.
func (t *Table) timeHeader() []string {
	switch {
	case t.CPUTime:
		return []string{"CPU s", "wall s"}
	case t.PartialCPUTime:
		return []string{"wall s"}
	}
	return []string{"train seconds"}
}

// testLines renders the paired tests, one line per metric tested, or one
// line when the test could not be run.
func (t *Table) testLines() []string {
	var out []string
	for _, pt := range t.Tests {
		prefix := fmt.Sprintf("%s vs %s (%s): ", pt.A, pt.B, pt.Label)
		if pt.Err != nil {
			out = append(out, prefix+"not tested: "+pt.Err.Error())
			continue
		}
		if m := pt.McNemar; m != nil {
			out = append(out, prefix+fmt.Sprintf("%s diff %s, McNemar exact p=%.2g (only %s right %d, only %s right %d, of %d tokens; χ²=%.2f, p=%.2g)",
				label(pt.McNemarMetric, false), diffText(pt.McNemarMetric, m.MeanDiff), m.P, pt.A, m.OnlyA, pt.B, m.OnlyB, m.Tokens, m.ChiSquare, m.ChiSquareP))
		}
		if bs := pt.SpanBootstrap; bs != nil {
			out = append(out, prefix+fmt.Sprintf("%s diff %s, paired bootstrap p=%.2g, 95%% interval [%+.2f, %+.2f], %d resamples over sentences",
				label(pt.BootstrapMetric, false), diffText(pt.BootstrapMetric, bs.Diff), bs.P, bs.Low, bs.High, bs.Resamples))
		}
		for _, tt := range pt.TTests {
			out = append(out, prefix+formatTest(tt.Metric, tt.TTest))
		}
	}
	return out
}

// signLines renders the sign tests pooled over folds, one line per
// metric tested, or one line when they could not be run.
func (t *Table) signLines() []string {
	var out []string
	for _, pt := range t.Tests {
		prefix := fmt.Sprintf("%s vs %s (%s): ", pt.A, pt.B, pt.Label)
		if pt.SignErr != nil {
			out = append(out, prefix+"not pooled: "+pt.SignErr.Error())
			continue
		}
		for _, st := range pt.Signs {
			d, _ := metrics.Lookup(st.Metric)
			better := "higher"
			if d.Lower() {
				better = "lower"
			}
			out = append(out, prefix+fmt.Sprintf("sentence %s %s for %s on %d, for %s on %d, tied on %d of %d sentences (%d folds), p=%.2g",
				d.Label, better, pt.A, st.BetterA, pt.B, st.BetterB, st.Ties, st.Items, st.Splits, st.P))
		}
	}
	return out
}

// formatTest renders one t-test on metric m as
// "token error diff -2.80 points, t=-5.10, p=0.00071, n=10".
func formatTest(m Metric, tt TTest) string {
	s := fmt.Sprintf("%s diff %s, t=%.2f, p=%.2g, n=%d", label(m, false), diffText(m, tt.MeanDiff), tt.T, tt.P, tt.N)
	for _, w := range tt.Warnings {
		s += " [warning: " + w + "]"
	}
	return s
}

// diffText renders a difference of metric m in its unit (metrics.Def.Unit):
// "+1.23 points" for a percentage, "+0.12 s" for seconds, "+42.80" for
// a count or a plain number.
func diffText(m Metric, x float64) string {
	s := fmt.Sprintf("%+.2f", x)
	switch d, _ := metrics.Lookup(m); d.Unit {
	case "%":
		return s + " points"
	case "":
		return s
	default:
		return s + " " + d.Unit
	}
}

func formatSeconds(s float64) string {
	switch {
	case s >= 100:
		return strconv.FormatFloat(s, 'f', 0, 64)
	case s >= 1:
		return strconv.FormatFloat(s, 'f', 1, 64)
	}
	return strconv.FormatFloat(s, 'f', 3, 64)
}

// alignments left-aligns the first nKey columns and right-aligns the rest.
func alignments(nKey, n int) []tw.Align {
	a := make([]tw.Align, n)
	for i := range a {
		a[i] = tw.AlignRight
		if i < nKey {
			a[i] = tw.AlignLeft
		}
	}
	return a
}

// writeTW renders one grid with tablewriter. Header auto-formatting is off
// so that names such as "approx-slack" appear as written.
func writeTW(w io.Writer, r tw.Renderer, head []string, body [][]string, align []tw.Align) error {
	t := tablewriter.NewTable(w,
		tablewriter.WithRenderer(r),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAlignmentConfig(tw.CellAlignment{PerColumn: align}),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
	)
	t.Header(head)
	for _, row := range body {
		if err := t.Append(row); err != nil {
			return fmt.Errorf("report: rendering table: %w", err)
		}
	}
	if err := t.Render(); err != nil {
		return fmt.Errorf("report: rendering table: %w", err)
	}
	return nil
}

// errWriter remembers the first write error so that a sequence of prints
// can be checked once.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	if err != nil {
		e.err = fmt.Errorf("report: writing: %w", err)
	}
	return n, e.err
}

func (e *errWriter) printf(format string, args ...any) {
	fmt.Fprintf(e, format, args...)
}

func identity(s string) string { return s }

// asciiRenderer draws table borders with ASCII characters, which look the
// same in any terminal or editor.
func asciiRenderer() tw.Renderer {
	return renderer.NewBlueprint(tw.Rendition{Symbols: tw.NewSymbols(tw.StyleASCII)})
}

// WriteText writes the table as ASCII box tables: the results (best cell
// of each row marked with "*"), the paired t-tests, the training cost and
// any warnings.
func (t *Table) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	nKey := len(t.keyHeader())
	head, body := t.mainGrid(identity, func(s string) string { return s + "*" })
	if err := writeTW(ew, asciiRenderer(), head, body, alignments(len(t.resultKeyHeader()), len(head))); err != nil {
		return err
	}
	for _, l := range t.cellLegend("*") {
		ew.printf("%s\n", l)
	}
	if lines := t.edgeLines(); len(lines) > 0 {
		ew.printf("%s\n", edgeTitle)
		for _, l := range lines {
			ew.printf("  %s\n", l)
		}
	}
	if lines := t.testLines(); len(lines) > 0 {
		ew.printf("\n%s\n", t.testsHeading())
		for _, l := range lines {
			ew.printf("%s\n", l)
		}
	}
	if lines := t.signLines(); len(lines) > 0 {
		ew.printf("\n%s\n", signTitle)
		for _, l := range lines {
			ew.printf("%s\n", l)
		}
	}
	head, body = t.costGrid(identity)
	if len(body) > 0 {
		ew.printf("\n%s\n", costTitle)
		if err := writeTW(ew, asciiRenderer(), head, body, alignments(nKey+1, len(head))); err != nil {
			return err
		}
	}
	t.writeWarnings(ew, "")
	return ew.err
}

// WriteMarkdown writes the table as GitHub-flavoured Markdown: the results
// (best cell of each row in bold), the paired t-tests as a list, the
// training cost and any warnings.
func (t *Table) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	esc := strings.NewReplacer(`\`, `\\`, "|", `\|`).Replace
	nKey := len(t.keyHeader())
	head, body := t.mainGrid(esc, func(s string) string { return "**" + s + "**" })
	if err := writeTW(ew, renderer.NewMarkdown(), head, body, alignments(len(t.resultKeyHeader()), len(head))); err != nil {
		return err
	}
	ew.printf("\n%s\n", esc(strings.Join(t.cellLegend("Bold"), " ")))
	if lines := t.edgeLines(); len(lines) > 0 {
		ew.printf("\n%s\n\n", esc(edgeTitle))
		for _, l := range lines {
			ew.printf("- %s\n", esc(l))
		}
	}
	if lines := t.testLines(); len(lines) > 0 {
		ew.printf("\n%s\n\n", t.testsHeading())
		for _, l := range lines {
			ew.printf("- %s\n", esc(l))
		}
	}
	if lines := t.signLines(); len(lines) > 0 {
		ew.printf("\n%s\n\n", signTitle)
		for _, l := range lines {
			ew.printf("- %s\n", esc(l))
		}
	}
	head, body = t.costGrid(esc)
	if len(body) > 0 {
		ew.printf("\n%s\n\n", costTitle)
		if err := writeTW(ew, renderer.NewMarkdown(), head, body, alignments(nKey+1, len(head))); err != nil {
			return err
		}
	}
	t.writeWarnings(ew, "- ")
	return ew.err
}

func (t *Table) writeWarnings(ew *errWriter, bullet string) {
	if len(t.Warnings) == 0 {
		return
	}
	ew.printf("\nWarnings:\n")
	if bullet != "" {
		ew.printf("\n")
	}
	for _, s := range t.Warnings {
		ew.printf("%s%s\n", bullet, s)
	}
}

// csvMetrics are the metrics the CSV has columns for: those of any row,
// in registry order.
func (t *Table) csvMetrics() []string {
	var out []string
	for _, row := range t.Rows {
		for _, m := range row.Metrics {
			out = appendNew(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(metrics.Rank(a), metrics.Rank(b)) })
	return out
}

// csvHeader is the header row written by [Table.WriteCSV]: NAME_mean and
// NAME_std for each metric, and a cpu_seconds column if cpu.
func csvHeader(names []string, cpu bool) []string {
	h := []string{"dataset", "task", "train_fraction", "trainer", "n"}
	for _, m := range names {
		h = append(h, m+"_mean", m+"_std")
	}
	h = append(h, "train_seconds")
	if cpu {
		h = append(h, "cpu_seconds")
	}
	return append(h, "iterations", "constraints", "best")
}

// WriteCSV writes one CSV record per (row, trainer), with the raw numbers
// at full precision: dataset, task, train_fraction, trainer, n, the mean
// and standard deviation of every metric some row has (NAME_mean,
// NAME_std, in registry order; empty in rows without it), train_seconds
// (wall-clock), cpu_seconds (only when every run has a CPU time,
// [Table.CPUTime]), iterations, constraints (means over splits) and best
// ("true" or "false", by the row's first line). A trainer with no runs in
// a row has n = 0 and empty numeric fields.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	names := t.csvMetrics()
	header := csvHeader(names, t.CPUTime)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	for _, row := range t.Rows {
		for _, c := range row.Cells {
			rec := []string{row.Dataset, row.Task, strconv.FormatFloat(row.TrainFraction, 'g', -1, 64), c.Trainer, strconv.Itoa(c.N)}
			if c.N > 0 {
				rec = append(rec, t.csvNumbers(names, c)...)
			} else {
				rec = append(rec, make([]string, len(header)-len(rec)-1)...) // all empty
			}
			rec = append(rec, strconv.FormatBool(c.Best))
			if err := cw.Write(rec); err != nil {
				return fmt.Errorf("report: writing CSV: %w", err)
			}
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	return nil
}

// csvNumbers are the numeric CSV fields of a cell with runs, from the
// first metric's mean to constraints.
func (t *Table) csvNumbers(names []string, c Cell) []string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	var out []string
	for _, m := range names {
		if s, ok := c.Stats[m]; ok {
			out = append(out, num(s.Mean), num(s.Std))
		} else {
			out = append(out, "", "")
		}
	}
	out = append(out, num(c.TrainSeconds))
	if t.CPUTime {
		out = append(out, num(c.CPUSeconds))
	}
	return append(out, num(c.Iterations), num(c.Constraints))
}

// newLaTeXEscaper returns a function that escapes LaTeX special characters
// and writes ± in math mode.
func newLaTeXEscaper() func(string) string {
	return strings.NewReplacer(
		`\`, `\textbackslash{}`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`,
		"_", `\_`, "{", `\{`, "}", `\}`, "~", `\textasciitilde{}`, "^", `\textasciicircum{}`,
		"±", `$\pm$`, GridEdgeMark, `\dag{}`,
	).Replace
}

// WriteLaTeX writes the results as a booktabs tabular (for \input into a
// table environment), with the best cell of each row in \textbf and a
// \midrule between tasks. The paired t-tests follow as % comments.
func (t *Table) WriteLaTeX(w io.Writer) error {
	ew := &errWriter{w: w}
	nKey := len(t.resultKeyHeader())
	head, body := t.mainGrid(newLaTeXEscaper(), func(s string) string { return `\textbf{` + s + `}` })
	ew.printf("\\begin{tabular}{%s%s}\n\\toprule\n", strings.Repeat("l", nKey), strings.Repeat("r", len(head)-nKey))
	ew.printf("%s \\\\\n\\midrule\n", strings.Join(head, " & "))
	lines := t.resultLines()
	for i, line := range body {
		if i > 0 && lines[i].task != lines[i-1].task {
			ew.printf("\\midrule\n")
		}
		ew.printf("%s \\\\\n", strings.Join(line, " & "))
	}
	ew.printf("\\bottomrule\n\\end{tabular}\n")
	for _, l := range t.cellLegend("Bold") {
		ew.printf("%% %s\n", l)
	}
	if lines := t.edgeLines(); len(lines) > 0 {
		ew.printf("%% %s\n", edgeTitle)
		for _, l := range lines {
			ew.printf("%%   %s\n", l)
		}
	}
	if lines := t.testLines(); len(lines) > 0 {
		ew.printf("%% %s\n", t.testsHeading())
		for _, l := range lines {
			ew.printf("%% %s\n", l)
		}
	}
	if lines := t.signLines(); len(lines) > 0 {
		ew.printf("%% %s\n", signTitle)
		for _, l := range lines {
			ew.printf("%% %s\n", l)
		}
	}
	return ew.err
}
