package report

import (
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
)

// This file turns a Table into plain string grids and hands them to the
// format-specific writers, which only escape and mark cells.

const testsTitle = "Paired t-tests (two-sided, over shared splits; diff = A - B in percentage points):"

// singleSplitTitle heads the comparisons of tables whose runs share one
// split, where McNemar's test and the paired bootstrap stand in for the
// t-test.
const singleSplitTitle = "Paired tests on one split (two-sided; McNemar on token decisions, paired bootstrap over sentences; diff = A - B in percentage points):"

// testsHeading returns the heading of the table's comparisons.
func (t *Table) testsHeading() string {
	for _, pt := range t.Tests {
		if pt.McNemar == nil {
			return testsTitle
		}
	}
	if len(t.Tests) > 0 {
		return singleSplitTitle
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

// Names of the rows' errors in the results table's error column, which
// it has when some row is a Segment row.
const (
	errorHeader = "error"
	segmentLine = "segment"
	tokenLine   = "token"
)

// resultKeyHeader is the header of the results table's identifying
// columns: keyHeader, and the error column when t.Segment.
func (t *Table) resultKeyHeader() []string {
	if t.Segment {
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

// resultLines are the lines of the results table: one per row, and under
// a Segment row a second line with its token errors.
func (t *Table) resultLines() []resultLine {
	var out []resultLine
	for _, row := range t.Rows {
		line := func(measure string, text func(Cell) (string, bool)) resultLine {
			l := resultLine{task: row.Task}
			for _, s := range t.keyCells(row.RowKey) {
				l.cells = append(l.cells, resultCell{text: s})
			}
			if t.Segment {
				l.cells = append(l.cells, resultCell{text: measure})
			}
			for _, c := range row.Cells {
				s, best := text(c)
				l.cells = append(l.cells, resultCell{s, best})
			}
			return l
		}
		measure := tokenLine
		if row.Segment {
			measure = segmentLine
		}
		out = append(out, line(measure, func(c Cell) (string, bool) { return c.Text, c.Best }))
		if row.Segment {
			out = append(out, line(tokenLine, func(c Cell) (string, bool) { return c.TokenText, c.TokenBest }))
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
// line: what the two numbers are and their unit, over how many splits,
// what "(n=K)" means if a cell has it, and how the best cell is marked
// (best names the marker, e.g. "*" or "Bold").
func (t *Table) cellLegend(best string) []string {
	var tokenOnly []string
	lo, hi, fewer, spans := math.MaxInt, 0, false, false
	for _, row := range t.Rows {
		if row.TokenOnly {
			if !slices.Contains(tokenOnly, row.Task) {
				tokenOnly = append(tokenOnly, row.Task)
			}
		} else {
			spans = true
		}
		n := 0
		for _, c := range row.Cells {
			n = max(n, c.N)
		}
		for _, c := range row.Cells {
			fewer = fewer || (c.N > 0 && c.N < n)
		}
		lo, hi = min(lo, n), max(hi, n)
	}
	what := "token error (%) / span F1 (%)"
	switch {
	case t.Segment:
		what = "error (%) / span F1 (%)"
	case !spans:
		what = "token error (%)"
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
	if t.Segment {
		lines = append(lines, "Error: token error, or in segment rows Sarawagi & Gupta's section 4.3.2 segment error "+
			"(the segment loss summed over the test set, over the number of true plus predicted segments); "+
			"each segment row is followed by a token row: token error (%) of the labels its segments induce.")
	}
	if spans && len(tokenOnly) > 0 {
		lines = append(lines, fmt.Sprintf("Rows of %s: token error (%%) only; they have no spans.", strings.Join(tokenOnly, ", ")))
	}
	if fewer {
		lines = append(lines, "(n=K): a cell with fewer splits than the fullest cell of its row.")
	}
	better := "lowest"
	if t.Metric == SpanF1 {
		better = "highest"
	}
	if !t.Segment {
		return append(lines, fmt.Sprintf("%s: best (%s) mean %s in the row.", best, better, metricName(t.Metric)))
	}
	what = "error"
	if t.Metric == SpanF1 {
		what = "span F1"
	}
	return append(lines, fmt.Sprintf("%s: best (%s) mean %s in the row; in a token row, lowest mean token error.", best, better, what))
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

// testLines renders the paired t-tests, one line for token error and one
// for span F1 (unless the row is token-only), or one line when the test
// could not be run.
func (t *Table) testLines() []string {
	var out []string
	for _, pt := range t.Tests {
		prefix := fmt.Sprintf("%s vs %s (%s): ", pt.A, pt.B, pt.Label)
		if pt.Err != nil {
			out = append(out, prefix+"not tested: "+pt.Err.Error())
			continue
		}
		if m := pt.McNemar; m != nil {
			out = append(out, prefix+fmt.Sprintf("token error diff %+.2f points, McNemar exact p=%.2g (only %s right %d, only %s right %d, of %d tokens; χ²=%.2f, p=%.2g)",
				m.MeanDiff, m.P, pt.A, m.OnlyA, pt.B, m.OnlyB, m.Tokens, m.ChiSquare, m.ChiSquareP))
			if bs := pt.SpanBootstrap; bs != nil {
				out = append(out, prefix+fmt.Sprintf("span F1 diff %+.2f points, paired bootstrap p=%.2g, 95%% interval [%+.2f, %+.2f], %d resamples over sentences",
					bs.Diff, bs.P, bs.Low, bs.High, bs.Resamples))
			}
			continue
		}
		if pt.Segment {
			out = append(out, prefix+formatTest("segment error", pt.SegmentError))
		}
		out = append(out, prefix+formatTest("token error", pt.TokenError))
		if !pt.TokenOnly {
			out = append(out, prefix+formatTest("span F1", pt.SpanF1))
		}
	}
	return out
}

// formatTest renders one t-test as
// "token error diff -2.80 points, t=-5.10, p=0.00071, n=10".
func formatTest(what string, tt TTest) string {
	s := fmt.Sprintf("%s diff %+.2f points, t=%.2f, p=%.2g, n=%d", what, tt.MeanDiff, tt.T, tt.P, tt.N)
	for _, w := range tt.Warnings {
		s += " [warning: " + w + "]"
	}
	return s
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

func metricName(m Metric) string {
	if m == SpanF1 {
		return "span F1"
	}
	return "token error"
}

// csvHeader is the header row written by [Table.WriteCSV], with
// segment_error columns if segment and a cpu_seconds column if cpu.
func csvHeader(segment, cpu bool) []string {
	h := []string{
		"dataset", "task", "train_fraction", "trainer", "n",
		"token_error_mean", "token_error_std", "span_f1_mean", "span_f1_std",
	}
	if segment {
		h = append(h, "segment_error_mean", "segment_error_std")
	}
	h = append(h, "train_seconds")
	if cpu {
		h = append(h, "cpu_seconds")
	}
	return append(h, "iterations", "constraints", "best")
}

// WriteCSV writes one CSV record per (row, trainer), with the raw numbers
// at full precision: dataset, task, train_fraction, trainer, n,
// token_error_mean, token_error_std, span_f1_mean, span_f1_std,
// segment_error_mean and segment_error_std (only when some row is a
// Segment row, [Table.Segment]; empty in other rows), train_seconds
// (wall-clock), cpu_seconds (only when every run has a CPU time,
// [Table.CPUTime]), iterations, constraints (means over splits) and best
// ("true" or "false"; by the segment error in a Segment row). A trainer
// with no runs in a row has n = 0 and empty numeric fields; rows of
// token-only tasks have empty span F1 fields.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	header := csvHeader(t.Segment, t.CPUTime)
	if err := cw.Write(header); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	for _, row := range t.Rows {
		for _, c := range row.Cells {
			rec := []string{row.Dataset, row.Task, strconv.FormatFloat(row.TrainFraction, 'g', -1, 64), c.Trainer, strconv.Itoa(c.N)}
			if c.N > 0 {
				rec = append(rec, t.csvNumbers(row, c)...)
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

// csvNumbers are the numeric CSV fields of a cell with runs, from
// token_error_mean to constraints.
func (t *Table) csvNumbers(row Row, c Cell) []string {
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	out := []string{num(c.TokenError.Mean), num(c.TokenError.Std), "", ""}
	if !row.TokenOnly {
		out[2], out[3] = num(c.SpanF1.Mean), num(c.SpanF1.Std)
	}
	switch {
	case row.Segment:
		out = append(out, num(c.SegmentError.Mean), num(c.SegmentError.Std))
	case t.Segment:
		out = append(out, "", "")
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
	return ew.err
}
