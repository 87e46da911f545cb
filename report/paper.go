package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/olekukonko/tablewriter/renderer"
)

// PaperReference is what a paper reports, so that every report can show
// our numbers beside the published ones and a reader sees at a glance what
// reproduces. It is stored in report.json with the rest of the [Spec].
type PaperReference struct {
	// Source names the paper and the table or figure the values come
	// from, e.g. "Sarawagi & Gupta (ICML 2008), Table 1".
	Source string `json:"source"`
	// Note says how the values were read or converted, e.g. "token error
	// = 100 - 100*accuracy"; optional.
	Note   string       `json:"note,omitempty"`
	Values []PaperValue `json:"values"`
}

// PaperValue is one published result: the metrics a paper reports for one
// trainer on one dataset and task. A nil metric is one the paper does not
// report, which is not the same as a reported 0. Each is compared with
// ours of the same quantity only: a paper's segment error with our
// segment error ([Run.SegmentError]), never with our token error.
type PaperValue struct {
	Dataset    string   `json:"dataset"`
	Task       string   `json:"task"`
	Trainer    string   `json:"trainer"`               // a column of the Table: a trainer name or a config's label
	TokenError *float64 `json:"token_error,omitempty"` // percent
	SpanF1     *float64 `json:"span_f1,omitempty"`     // percent
	// SegmentError is Sarawagi & Gupta's section 4.3.2 segmentation error,
	// percent, which their Table 1 reports as the segmentation task's
	// "test error".
	SegmentError *float64 `json:"segment_error,omitempty"`
}

// Validate checks that p names its source and that every value names a
// dataset, task and trainer, reports at least one metric in [0, 100] and
// is the only value for its (dataset, task, trainer). Whether we have runs
// for a value is not checked: a value without runs is shown as "-", which
// is how a report says what has not been reproduced yet.
func (p PaperReference) Validate() error {
	if strings.TrimSpace(p.Source) == "" {
		return errors.New("report: paper: empty source; name the paper and table the values come from")
	}
	if len(p.Values) == 0 {
		return errors.New("report: paper: no values")
	}
	for i, v := range p.Values {
		if v.Dataset == "" || v.Task == "" || v.Trainer == "" {
			return fmt.Errorf("report: paper: value %d: dataset, task and trainer must be set", i)
		}
		if v.TokenError == nil && v.SpanF1 == nil && v.SegmentError == nil {
			return fmt.Errorf("report: paper: %s: no token_error, segment_error or span_f1", v.name())
		}
		for _, m := range []struct {
			name string
			x    *float64
		}{{"token_error", v.TokenError}, {"segment_error", v.SegmentError}, {"span_f1", v.SpanF1}} {
			if m.x != nil && !(*m.x >= 0 && *m.x <= 100) {
				return fmt.Errorf("report: paper: %s: %s %v is not a percentage in [0, 100]", v.name(), m.name, *m.x)
			}
		}
		for _, w := range p.Values[:i] {
			if w.Dataset == v.Dataset && w.Task == v.Task && w.Trainer == v.Trainer {
				return fmt.Errorf("report: paper: %s listed twice", v.name())
			}
		}
	}
	return nil
}

// name identifies v in messages as "dataset/task trainer".
func (v PaperValue) name() string {
	return v.Dataset + "/" + v.Task + " " + v.Trainer
}

// metric returns the paper's value of m, or nil.
func (v PaperValue) metric(m Metric) *float64 {
	switch m {
	case SpanF1:
		return v.SpanF1
	case SegmentError:
		return v.SegmentError
	}
	return v.TokenError
}

// PaperRow sets one published value beside our cell for the same dataset,
// task and trainer.
type PaperRow struct {
	Paper PaperValue
	// TrainFraction is the train fraction of our row. When our runs have
	// several fractions, a paper value gets one row per fraction with runs,
	// since the config, not the paper, decides the training sizes.
	TrainFraction float64
	TokenOnly     bool // our row has no span F1 (see [Options.TokenOnlyTasks])
	Segment       bool // our row has segment errors (see [Row.Segment])
	// Ours is our cell of the [Table], with the same means and standard
	// deviations over splits as the main table; Ours.N is 0 when we have
	// no runs for this dataset, task and trainer.
	Ours Cell
}

// oursStat returns our mean and standard deviation of m, and false when
// we have no runs, or, for span F1, the row has no spans, or, for the
// segment error, our runs do not have it.
func (r PaperRow) oursStat(m Metric) (Stat, bool) {
	switch {
	case r.Ours.N == 0:
		return Stat{}, false
	case m == SpanF1 && r.TokenOnly:
		return Stat{}, false
	case m == SpanF1:
		return r.Ours.SpanF1, true
	case m == SegmentError && !r.Segment:
		return Stat{}, false
	case m == SegmentError:
		return r.Ours.SegmentError, true
	}
	return r.Ours.TokenError, true
}

// Diff returns our mean of m minus the paper's value, in percentage
// points, and false when the paper does not report m or we have no mean
// of it.
func (r PaperRow) Diff(m Metric) (float64, bool) {
	p := r.Paper.metric(m)
	s, ok := r.oursStat(m)
	if p == nil || !ok {
		return 0, false
	}
	return s.Mean - *p, true
}

// PaperTable is a paper's values beside ours, ready to render as text,
// Markdown, CSV or HTML.
type PaperTable struct {
	Source, Note string
	ShowFraction bool // our runs have several train fractions
	// Segment is set when some paper value reports a segment error: the
	// renderings then have segment error columns.
	Segment bool
	Rows    []PaperRow
}

// ComparePaper sets each of ref's values beside the cell of t for the same
// dataset, task and trainer, in the order of ref.Values. Building on the
// [Table] rather than on the runs keeps the two tables from disagreeing:
// both show the same means over the same splits. A value we have no runs
// for gets a row with Ours.N == 0; a value with runs at several train
// fractions gets a row per fraction, in t's row order. ComparePaper does
// not validate ref (see [PaperReference.Validate]).
func ComparePaper(t *Table, ref PaperReference) *PaperTable {
	pt := &PaperTable{Source: ref.Source, Note: ref.Note, ShowFraction: t.ShowFraction}
	for _, v := range ref.Values {
		pt.Segment = pt.Segment || v.SegmentError != nil
		col := slices.Index(t.Trainers, v.Trainer)
		missing := PaperRow{Paper: v, Ours: Cell{Trainer: v.Trainer, Text: "-"}}
		found := false
		for _, row := range t.Rows {
			if row.Dataset != v.Dataset || row.Task != v.Task {
				continue
			}
			missing.TokenOnly = row.TokenOnly
			if col < 0 || row.Cells[col].N == 0 {
				continue
			}
			pt.Rows = append(pt.Rows, PaperRow{
				Paper: v, TrainFraction: row.TrainFraction, TokenOnly: row.TokenOnly, Segment: row.Segment, Ours: row.Cells[col],
			})
			found = true
		}
		if !found {
			pt.Rows = append(pt.Rows, missing)
		}
	}
	return pt
}

const paperTitle = "Against the paper:"

const paperLegend = "error: token error (%); F1: span F1 (%); ours: mean±std over n splits; " +
	"diff: ours - paper in percentage points; -: not reported by the paper, or no runs of ours."

// paperSegmentLegend is paperLegend for a comparison with segment error
// columns.
const paperSegmentLegend = "error: token error (%); seg-err: segment error (%), section 4.3.2 of Sarawagi & Gupta; " +
	"F1: span F1 (%); ours: mean±std over n splits; diff: ours - paper in percentage points, each quantity against the same quantity; " +
	"-: not reported by the paper, or no runs of ours (or, for seg-err, runs without a segment error)."

// legend explains the columns of p.
func (p *PaperTable) legend() string {
	if p.Segment {
		return paperSegmentLegend
	}
	return paperLegend
}

// metrics are the quantities p has columns for, in column order.
func (p *PaperTable) metrics() []Metric {
	if p.Segment {
		return []Metric{TokenError, SegmentError, SpanF1}
	}
	return []Metric{TokenError, SpanF1}
}

// keyHeader is the header of the columns that identify a row.
func (p *PaperTable) keyHeader() []string {
	if p.ShowFraction {
		return []string{"dataset", "task", "train fraction", "trainer"}
	}
	return []string{"dataset", "task", "trainer"}
}

// grid is the comparison as strings, esc applied to every cell; the first
// len(p.keyHeader()) columns identify the row.
func (p *PaperTable) grid(esc func(string) string) (head []string, body [][]string) {
	head = append(p.keyHeader(), "n", "error (ours)", "error (paper)", "error diff")
	if p.Segment {
		head = append(head, "seg-err (ours)", "seg-err (paper)", "seg-err diff")
	}
	head = append(head, "F1 (ours)", "F1 (paper)", "F1 diff")
	for i := range head {
		head[i] = esc(head[i])
	}
	for _, r := range p.Rows {
		line := []string{r.Paper.Dataset, r.Paper.Task}
		if p.ShowFraction {
			frac := "-"
			if r.Ours.N > 0 {
				frac = strconv.FormatFloat(r.TrainFraction, 'g', -1, 64)
			}
			line = append(line, frac)
		}
		line = append(line, r.Paper.Trainer, strconv.Itoa(r.Ours.N))
		for _, m := range p.metrics() {
			line = append(line, r.metricTexts(m)...)
		}
		for i := range line {
			line[i] = esc(line[i])
		}
		body = append(body, line)
	}
	return head, body
}

// metricTexts renders ours, the paper's value and the difference for m,
// all "-" when the paper does not report m. The three share the paper's
// precision (at least one decimal, as in the main table, and at most
// three) so that a difference is not rounded coarser than the value it is
// taken from, and the difference is taken from our mean as shown, so that
// it checks by eye: 74.8 beside 74.9 gives -0.1, not the -0.2 that
// 74.75 - 74.9 would round to. WriteCSV has the unrounded numbers.
func (r PaperRow) metricTexts(m Metric) []string {
	p := r.Paper.metric(m)
	if p == nil {
		return []string{"-", "-", "-"}
	}
	d := paperDecimals(*p)
	paper := strconv.FormatFloat(*p, 'f', d, 64)
	s, ok := r.oursStat(m)
	if !ok {
		return []string{"-", paper, "-"}
	}
	mean := strconv.FormatFloat(s.Mean, 'f', d, 64)
	shown, _ := strconv.ParseFloat(mean, 64) // FormatFloat's output always parses
	ours := mean
	if r.Ours.N > 1 {
		ours += "±" + strconv.FormatFloat(s.Std, 'f', d, 64)
	}
	return []string{ours, paper, signed(shown-*p, d)}
}

// paperDecimals is the number of decimals v is written with, between 1
// and 3.
func paperDecimals(v float64) int {
	_, frac, _ := strings.Cut(strconv.FormatFloat(v, 'f', -1, 64), ".")
	return min(max(len(frac), 1), 3)
}

// signed writes x with d decimals and an explicit sign, and a difference
// that rounds to zero as unsigned "0.0" rather than "-0.0".
func signed(x float64, d int) string {
	scale := math.Pow(10, float64(d))
	if math.Round(x*scale) == 0 {
		return strconv.FormatFloat(0, 'f', d, 64)
	}
	return fmt.Sprintf("%+.*f", d, x)
}

// WriteText writes the comparison as an ASCII box table, headed by the
// source and note and followed by a legend.
func (p *PaperTable) WriteText(w io.Writer) error {
	ew := &errWriter{w: w}
	ew.printf("%s %s\n", paperTitle, p.Source)
	if p.Note != "" {
		ew.printf("Note: %s\n", p.Note)
	}
	head, body := p.grid(identity)
	if err := writeTW(ew, asciiRenderer(), head, body, alignments(len(p.keyHeader()), len(head))); err != nil {
		return err
	}
	ew.printf("%s\n", p.legend())
	return ew.err
}

// WriteMarkdown writes the comparison as a GitHub-flavoured Markdown
// table between paragraphs naming the source and note and the legend.
func (p *PaperTable) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	esc := strings.NewReplacer(`\`, `\\`, "|", `\|`).Replace
	ew.printf("%s %s\n\n", paperTitle, p.Source)
	if p.Note != "" {
		ew.printf("Note: %s\n\n", p.Note)
	}
	head, body := p.grid(esc)
	if err := writeTW(ew, renderer.NewMarkdown(), head, body, alignments(len(p.keyHeader()), len(head))); err != nil {
		return err
	}
	ew.printf("\n%s\n", p.legend())
	return ew.err
}

// paperCSVHeader is the header row written by [PaperTable.WriteCSV],
// with segment error columns if segment.
func paperCSVHeader(segment bool) []string {
	h := []string{
		"dataset", "task", "train_fraction", "trainer", "n",
		"token_error_mean", "token_error_std", "token_error_paper", "token_error_diff",
	}
	if segment {
		h = append(h, "segment_error_mean", "segment_error_std", "segment_error_paper", "segment_error_diff")
	}
	return append(h, "span_f1_mean", "span_f1_std", "span_f1_paper", "span_f1_diff")
}

// WriteCSV writes one record per row with the raw numbers at full
// precision: dataset, task, train_fraction, trainer, n, then for token
// error, segment error (only when some paper value reports one,
// [PaperTable.Segment]) and span F1 our mean and standard deviation, the
// paper's value and ours minus the paper's. Fields are empty where the text shows "-": a
// metric the paper does not report, and ours (with train_fraction) when we
// have no runs.
func (p *PaperTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(paperCSVHeader(p.Segment)); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	for _, r := range p.Rows {
		frac := ""
		if r.Ours.N > 0 {
			frac = num(r.TrainFraction)
		}
		rec := []string{r.Paper.Dataset, r.Paper.Task, frac, r.Paper.Trainer, strconv.Itoa(r.Ours.N)}
		for _, m := range p.metrics() {
			fields := []string{"", "", "", ""}
			if v := r.Paper.metric(m); v != nil {
				fields[2] = num(*v)
				if s, ok := r.oursStat(m); ok {
					diff, _ := r.Diff(m)
					fields[0], fields[1], fields[3] = num(s.Mean), num(s.Std), num(diff)
				}
			}
			rec = append(rec, fields...)
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("report: writing CSV: %w", err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("report: writing CSV: %w", err)
	}
	return nil
}
