package report

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/maxmargin/repro/metrics"
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
// trainer on one dataset and task. A metric missing from Metrics is one
// the paper does not report, which is not the same as a reported 0. Each
// is compared with ours of the same metric only: a paper's segment error
// with our segment error, never with our token error.
//
// In JSON (report.json) the metrics sit beside dataset, task and trainer
// under their names, e.g. {"dataset": "cora", "task": "sequence",
// "trainer": "margin", "token_error": 12.3, "span_f1": 74.9}; names from
// before metrics were data are read as the task names them
// (metrics.TaskMetrics.Legacy: parsing's token_error is its attachment
// error).
type PaperValue struct {
	Dataset string
	Task    string
	Trainer string // a column of the Table: a trainer name or a config's label
	// TrainFraction, if not 0, ties the value to our rows of that train
	// fraction (the training items per class of per-class splits), for
	// a paper that reports several training sizes; 0: every row.
	TrainFraction float64
	Metrics       map[string]float64
}

// paperTrainFraction is the JSON key of PaperValue.TrainFraction.
const paperTrainFraction = "train_fraction"

// MarshalJSON writes v as one flat object.
func (v PaperValue) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	field := func(k string, x any) error {
		kb, _ := json.Marshal(k)
		xb, err := json.Marshal(x)
		if err != nil {
			return err
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(xb)
		return nil
	}
	for _, kv := range []struct{ k, v string }{{"dataset", v.Dataset}, {"task", v.Task}, {"trainer", v.Trainer}} {
		if err := field(kv.k, kv.v); err != nil {
			return nil, err
		}
	}
	if v.TrainFraction != 0 {
		if err := field(paperTrainFraction, v.TrainFraction); err != nil {
			return nil, err
		}
	}
	// Table order of the task, then any others by name, as the fields
	// were written before metrics were data.
	names := slices.Collect(maps.Keys(v.Metrics))
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(metrics.Rank(a), metrics.Rank(b)) })
	for _, m := range names {
		if err := field(m, v.Metrics[m]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads a flat object: dataset, task, trainer and metrics
// by name. An unknown name is an error.
func (v *PaperValue) UnmarshalJSON(b []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*v = PaperValue{}
	for k, dst := range map[string]*string{"dataset": &v.Dataset, "task": &v.Task, "trainer": &v.Trainer} {
		if x, ok := raw[k]; ok {
			if err := json.Unmarshal(x, dst); err != nil {
				return fmt.Errorf("paper value %s: %w", k, err)
			}
			delete(raw, k)
		}
	}
	if x, ok := raw[paperTrainFraction]; ok {
		if err := json.Unmarshal(x, &v.TrainFraction); err != nil {
			return fmt.Errorf("paper value %s: %w", paperTrainFraction, err)
		}
		delete(raw, paperTrainFraction)
	}
	legacy := metrics.ForTask(v.Task).Legacy
	for _, k := range slices.Sorted(maps.Keys(raw)) {
		name := k
		if now, ok := legacy[k]; ok {
			if now == "" {
				return fmt.Errorf("paper value: task %q has no %s", v.Task, k)
			}
			name = now
		}
		if _, ok := metrics.Lookup(name); !ok {
			return fmt.Errorf("paper value: unknown field %q (metrics: %s)", k, strings.Join(metrics.Names(), ", "))
		}
		var x float64
		if err := json.Unmarshal(raw[k], &x); err != nil {
			return fmt.Errorf("paper value %s: %w", k, err)
		}
		if v.Metrics == nil {
			v.Metrics = map[string]float64{}
		}
		v.Metrics[name] = x
	}
	return nil
}

// Validate checks that p names its source and that every value names a
// dataset, task and trainer, reports at least one metric its task
// declares (metrics.ForTask), each in [0, 100] if a percentage, and is the
// only value for its (dataset, task, trainer). Whether we have runs for a
// value is not checked: a value without runs is shown as "-", which is how
// a report says what has not been reproduced yet.
func (p PaperReference) Validate() error {
	if strings.TrimSpace(p.Source) == "" {
		return errors.New("report: paper: empty source; name the paper and table the values come from")
	}
	if len(p.Values) == 0 && strings.TrimSpace(p.Note) == "" {
		// A figure drawn without numbers has none to set beside ours; its
		// note must then say what the paper shows.
		return errors.New("report: paper: no values: give the paper's values or, for a figure without numbers, a note saying what it shows")
	}
	for i, v := range p.Values {
		if v.Dataset == "" || v.Task == "" || v.Trainer == "" {
			return fmt.Errorf("report: paper: value %d: dataset, task and trainer must be set", i)
		}
		declared := metrics.ForTask(v.Task).Metrics
		if len(v.Metrics) == 0 {
			return fmt.Errorf("report: paper: %s: no metric (task %s has %s)", v.name(), v.Task, strings.Join(declared, ", "))
		}
		for _, m := range slices.Sorted(maps.Keys(v.Metrics)) {
			x := v.Metrics[m]
			d, ok := metrics.Lookup(m)
			switch {
			case !ok || !slices.Contains(declared, m):
				return fmt.Errorf("report: paper: %s: %s given for task %q, which reports %s", v.name(), m, v.Task, strings.Join(declared, ", "))
			case d.Unit == "%" && !(x >= 0 && x <= 100):
				return fmt.Errorf("report: paper: %s: %s %v is not a percentage in [0, 100]", v.name(), m, x)
			case math.IsNaN(x) || math.IsInf(x, 0):
				return fmt.Errorf("report: paper: %s: %s %v is not finite", v.name(), m, x)
			}
		}
		for _, w := range p.Values[:i] {
			if w.Dataset == v.Dataset && w.Task == v.Task && w.Trainer == v.Trainer && w.TrainFraction == v.TrainFraction {
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
	x, ok := v.Metrics[m]
	if !ok {
		return nil
	}
	return &x
}

// PaperRow sets one published value beside our cell for the same dataset,
// task and trainer.
type PaperRow struct {
	Paper PaperValue
	// TrainFraction is the train fraction of our row. When our runs have
	// several fractions, a paper value gets one row per fraction with runs,
	// since the config, not the paper, decides the training sizes.
	TrainFraction float64
	// Metrics are our row's metrics (Row.Metrics); nil when we have no
	// row for the value's dataset and task.
	Metrics []string
	// Ours is our cell of the [Table], with the same means and standard
	// deviations over splits as the main table; Ours.N is 0 when we have
	// no runs for this dataset, task and trainer.
	Ours Cell
	// lineOne are the metrics of our row's first line.
	lineOne []string
}

// oursStat returns our mean and standard deviation of m, and false when
// we have no runs or our row does not have m.
func (r PaperRow) oursStat(m Metric) (Stat, bool) {
	if r.Ours.N == 0 || !slices.Contains(r.Metrics, m) {
		return Stat{}, false
	}
	s, ok := r.Ours.Stats[m] // absent: a metric only other trainers report
	return s, ok
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
	// Metrics are the metrics with columns: those the paper reports and
	// those on the first line of our rows, errors first, each group in
	// registry order.
	Metrics []Metric
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
	var cols []string
	for _, v := range ref.Values {
		for m := range v.Metrics {
			cols = appendNew(cols, m)
		}
		col := slices.Index(t.Trainers, v.Trainer)
		missing := PaperRow{Paper: v, Ours: Cell{Trainer: v.Trainer, Text: "-"}}
		found := false
		for _, row := range t.Rows {
			if row.Dataset != v.Dataset || row.Task != v.Task || v.TrainFraction != 0 && row.TrainFraction != v.TrainFraction {
				continue
			}
			missing.Metrics = row.Metrics
			for _, m := range row.Lines[0] {
				cols = appendNew(cols, m)
			}
			if col < 0 || row.Cells[col].N == 0 {
				continue
			}
			pt.Rows = append(pt.Rows, PaperRow{
				Paper: v, TrainFraction: row.TrainFraction, Metrics: row.Metrics, Ours: row.Cells[col], lineOne: row.Lines[0],
			})
			found = true
		}
		if !found {
			pt.Rows = append(pt.Rows, missing)
		}
	}
	slices.SortStableFunc(cols, func(a, b string) int { return cmp.Compare(metrics.Rank(a), metrics.Rank(b)) })
	pt.Metrics = errorsFirst(cols)
	return pt
}

const paperTitle = "Against the paper:"

// legend explains the columns of p: each metric's short name, then ours
// and the difference. When some row with runs lacks a metric that has a
// column (a segment error beside sequence rows), it says that each
// quantity is compared with the same one, and why ours may be "-".
func (p *PaperTable) legend() string {
	var parts, lacking []string
	allPercent := true
	for _, m := range p.Metrics {
		d, _ := metrics.Lookup(m)
		s := d.Short + ": " + label(m, true)
		if d.Source != "" {
			s += ", " + d.Source
		}
		parts = append(parts, s)
		allPercent = allPercent && d.Unit == "%"
		for _, r := range p.Rows {
			if r.Ours.N > 0 && !slices.Contains(r.Metrics, m) {
				lacking = append(lacking, "for "+d.Short+", runs without "+article(d.Label)+" "+d.Label)
				break
			}
		}
	}
	points := "percentage points"
	if !allPercent {
		points = "the metric's units"
	}
	s := strings.Join(parts, "; ") + "; ours: mean±std over n splits; diff: ours - paper in " + points
	if len(lacking) > 0 {
		s += ", each quantity against the same quantity"
	}
	s += "; -: not reported by the paper, or no runs of ours"
	if len(lacking) > 0 {
		s += " (or, " + strings.Join(lacking, "; ") + ")"
	}
	return s + "."
}

// article is the indefinite article of a noun phrase.
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an"
	}
	return "a"
}

// metrics are the quantities p has columns for, in column order.
func (p *PaperTable) metrics() []Metric { return p.Metrics }

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
	head = append(p.keyHeader(), "n")
	for _, m := range p.Metrics {
		d, _ := metrics.Lookup(m)
		head = append(head, d.Short+" (ours)", d.Short+" (paper)", d.Short+" diff")
	}
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
	if len(p.Rows) == 0 {
		ew.printf("%s\n", noPaperValues)
		return ew.err
	}
	head, body := p.grid(identity)
	if err := writeTW(ew, asciiRenderer(), head, body, alignments(len(p.keyHeader()), len(head))); err != nil {
		return err
	}
	ew.printf("%s\n", p.legend())
	return ew.err
}

// noPaperValues stands for the table of a reference without values.
const noPaperValues = "The paper gives no values to set beside ours (see the note)."

// WriteMarkdown writes the comparison as a GitHub-flavoured Markdown
// table between paragraphs naming the source and note and the legend.
func (p *PaperTable) WriteMarkdown(w io.Writer) error {
	ew := &errWriter{w: w}
	esc := strings.NewReplacer(`\`, `\\`, "|", `\|`).Replace
	ew.printf("%s %s\n\n", paperTitle, p.Source)
	if p.Note != "" {
		ew.printf("Note: %s\n\n", p.Note)
	}
	if len(p.Rows) == 0 {
		ew.printf("%s\n", noPaperValues)
		return ew.err
	}
	head, body := p.grid(esc)
	if err := writeTW(ew, renderer.NewMarkdown(), head, body, alignments(len(p.keyHeader()), len(head))); err != nil {
		return err
	}
	ew.printf("\n%s\n", p.legend())
	return ew.err
}

// paperCSVHeader is the header row written by [PaperTable.WriteCSV].
func paperCSVHeader(names []Metric) []string {
	h := []string{"dataset", "task", "train_fraction", "trainer", "n"}
	for _, m := range names {
		h = append(h, m+"_mean", m+"_std", m+"_paper", m+"_diff")
	}
	return h
}

// WriteCSV writes one record per row with the raw numbers at full
// precision: dataset, task, train_fraction, trainer, n, then for each
// metric with columns ([PaperTable.Metrics]) our mean and standard
// deviation, the paper's value and ours minus the paper's. Fields are empty where the text shows "-": a
// metric the paper does not report, and ours (with train_fraction) when we
// have no runs.
func (p *PaperTable) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(paperCSVHeader(p.Metrics)); err != nil {
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
