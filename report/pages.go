package report

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"github.com/maxmargin/repro/metrics"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"text/template"
)

// Pages are the documents that span every results directory: the front
// page results/index.html, the results page docs/results.md and the table
// of what is reproduced in README.md ([LoadPages]). Their prose comes from
// a readings file (docs/src/readings.md) whose numbers are template calls
// evaluated against the committed runs, so no number in them is typed by
// hand.
type Pages struct {
	Intro string     // the readings file's text before its first section
	Dirs  []*PageDir // in the readings file's order
}

// Reading is what the readings file says of one results directory: a
// section "## NAME" whose first lines are "key: value" (paper, what,
// headline, outcome) and whose remaining lines are the reading's body.
type Reading struct {
	Dir      string // the results directory's name, also its config's
	Paper    string // the paper, briefly: "Sarawagi & Gupta 2008"
	What     string // which table or figure: "Table 1, Cora rows"
	Headline string // the row the front page shows; "" is the table's first
	Outcome  string // one line, a template
	Body     string // paragraphs, a template
	line     int    // of the section's heading
}

// PageDir is one results directory as the pages show it.
type PageDir struct {
	Reading
	Table      *Table
	PaperTable *PaperTable // nil without a paper reference
	Source     string      // the paper reference's source, "" without one
	Figures    []string    // stems of the figures, NAME.png beside index.html
	Headline   Row
	Outcome    string // rendered
	Body       string // rendered
}

// LoadPages reads every results directory below resultsDir that holds a
// runs.jsonl (results/quickstart, the smoke run, excepted) and the
// readings file, and renders the readings' templates. Every directory
// needs a section and every section a directory, so the pages name every
// reproduction and nothing else.
func LoadPages(resultsDir, readingsPath string) (*Pages, error) {
	intro, readings, err := readReadings(readingsPath)
	if err != nil {
		return nil, err
	}
	runsFiles, err := filepath.Glob(filepath.Join(resultsDir, "*", RunsFile))
	if err != nil {
		return nil, err
	}
	dirs := make(map[string]*PageDir)
	for _, f := range runsFiles {
		name := filepath.Base(filepath.Dir(f))
		if name == "quickstart" {
			continue
		}
		d, err := loadPageDir(filepath.Dir(f))
		if err != nil {
			return nil, err
		}
		dirs[name] = d
	}
	p := &Pages{Intro: intro}
	for _, r := range readings {
		d, ok := dirs[r.Dir]
		if !ok {
			return nil, fmt.Errorf("%s:%d: section %q: no %s in %s", readingsPath, r.line, r.Dir, filepath.Join(r.Dir, RunsFile), resultsDir)
		}
		if d.Reading.Dir != "" {
			return nil, fmt.Errorf("%s:%d: section %q repeated", readingsPath, r.line, r.Dir)
		}
		d.Reading = r
		p.Dirs = append(p.Dirs, d)
	}
	for name, d := range dirs {
		if d.Reading.Dir == "" {
			return nil, fmt.Errorf("%s: no section for %s (## %s)", readingsPath, filepath.Join(resultsDir, name), name)
		}
	}
	for _, d := range p.Dirs {
		if err := d.render(dirs, readingsPath); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// loadPageDir summarizes a results directory as its index.html does:
// this and [ReportDir] are where the pages read runs.
func loadPageDir(dir string) (*PageDir, error) {
	runs, _, err := ReadRunsFile(filepath.Join(dir, RunsFile))
	if err != nil {
		return nil, err
	}
	spec, err := ReadSpec(filepath.Join(dir, SpecFile))
	if err != nil {
		return nil, err
	}
	t, err := Summarize(runs, spec.options())
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", dir, err)
	}
	d := &PageDir{Table: t}
	if spec.Paper != nil {
		d.PaperTable = ComparePaper(t, *spec.Paper)
		d.Source = spec.Paper.Source
	}
	figs, err := ExpandFigures(runs, spec.Figures)
	if err != nil {
		return nil, err
	}
	for _, f := range figs {
		d.Figures = append(d.Figures, f.Name)
	}
	return d, nil
}

// readReadings parses the readings file.
func readReadings(path string) (intro string, out []Reading, err error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", nil, err
	}
	var pre, body strings.Builder
	var cur *Reading
	inKeys := false
	finish := func() {
		if cur != nil {
			cur.Body = strings.TrimSpace(body.String())
			out = append(out, *cur)
		}
		body.Reset()
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "## "); ok {
			finish()
			cur, inKeys = &Reading{Dir: strings.TrimSpace(name), line: n}, true
			continue
		}
		if cur == nil {
			pre.WriteString(line + "\n")
			continue
		}
		if inKeys {
			if strings.TrimSpace(line) == "" {
				inKeys = false
				continue
			}
			key, value, ok := strings.Cut(line, ": ")
			field := map[string]*string{"paper": &cur.Paper, "what": &cur.What, "headline": &cur.Headline, "outcome": &cur.Outcome}[key]
			if !ok || field == nil {
				return "", nil, fmt.Errorf("%s:%d: want \"key: value\" with key paper, what, headline or outcome, then a blank line, got %q", path, n, line)
			}
			*field = strings.TrimSpace(value)
			continue
		}
		body.WriteString(line + "\n")
	}
	finish()
	if err := sc.Err(); err != nil {
		return "", nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, r := range out {
		if r.Paper == "" || r.What == "" || r.Outcome == "" {
			return "", nil, fmt.Errorf("%s:%d: section %q needs paper, what and outcome", path, r.line, r.Dir)
		}
	}
	intro = strings.TrimSpace(pre.String())
	if strings.HasPrefix(intro, "<!--") {
		if _, after, ok := strings.Cut(intro, "-->"); ok {
			intro = strings.TrimSpace(after) // the file's own comment
		}
	}
	return intro, out, nil
}

// render chooses d's headline row and renders its outcome and body.
func (d *PageDir) render(dirs map[string]*PageDir, path string) error {
	d.Headline = d.Table.Rows[0]
	if d.Reading.Headline != "" {
		row, err := d.row(d.Reading.Headline)
		if err != nil {
			return fmt.Errorf("%s:%d: headline: %w", path, d.line, err)
		}
		d.Headline = row
	}
	var err error
	if d.Outcome, err = d.execute(dirs, "outcome", d.Reading.Outcome); err != nil {
		return fmt.Errorf("%s:%d: %w", path, d.line, err)
	}
	if d.Body, err = d.execute(dirs, "body", d.Reading.Body); err != nil {
		return fmt.Errorf("%s:%d: %w", path, d.line, err)
	}
	return nil
}

// row finds the row labelled label ("dataset/task[/fraction]").
func (d *PageDir) row(label string) (Row, error) {
	i := slices.IndexFunc(d.Table.Rows, func(r Row) bool { return r.Label == label })
	if i < 0 {
		var labels []string
		for _, r := range d.Table.Rows {
			labels = append(labels, r.Label)
		}
		return Row{}, fmt.Errorf("results/%s has no row %q (rows: %s)", d.Dir, label, strings.Join(labels, ", "))
	}
	return d.Table.Rows[i], nil
}

// execute renders one of d's templates. Its functions name a directory
// ("" for d's own), a row label and trainers:
//
//	cell DIR ROW TRAINER             our cell: .Err .Tok .Seg .F1 (1 decimal), .Num METRIC DECIMALS
//	paper DIR ROW TRAINER            the paper's values: .Err .Tok .Seg .F1, .Num METRIC
//	test DIR ROW A B METRIC          a configured comparison: .Diff (A - B, points), .P, .Test
//	sign DIR ROW A B METRIC          its sign test pooled over folds: .A .B .Ties .Items .Splits (counts), .P
//	points X Y                       X - Y (two numbers as strings) to 2 decimals, signed
//	complement X                     100 - X (a number as a string): an accuracy from an error rate
//	relative X Y                     (X - Y)/Y in percent to 2 decimals, signed (Table 1 of Tsochantaridis et al. 2004)
func (d *PageDir) execute(dirs map[string]*PageDir, name, text string) (string, error) {
	dir := func(n string) (*PageDir, error) {
		if n == "" {
			return d, nil
		}
		if o, ok := dirs[n]; ok {
			return o, nil
		}
		return nil, fmt.Errorf("no results directory %q", n)
	}
	funcs := template.FuncMap{
		"cell": func(dn, row, trainer string) (cellView, error) {
			o, err := dir(dn)
			if err != nil {
				return cellView{}, err
			}
			return o.cell(row, trainer)
		},
		"paper": func(dn, row, trainer string) (paperView, error) {
			o, err := dir(dn)
			if err != nil {
				return paperView{}, err
			}
			return o.paperValue(row, trainer)
		},
		"test": func(dn, row, a, b, metric string) (testView, error) {
			o, err := dir(dn)
			if err != nil {
				return testView{}, err
			}
			return o.test(row, a, b, Metric(metric))
		},
		"sign": func(dn, row, a, b, metric string) (signView, error) {
			o, err := dir(dn)
			if err != nil {
				return signView{}, err
			}
			return o.sign(row, a, b, Metric(metric))
		},
		"points": func(x, y string) (string, error) {
			a, err1 := strconv.ParseFloat(x, 64)
			b, err2 := strconv.ParseFloat(y, 64)
			if err := errors.Join(err1, err2); err != nil {
				return "", err
			}
			return fmt.Sprintf("%+.2f", a-b), nil
		},
		"complement": func(x string) (string, error) {
			a, err := strconv.ParseFloat(x, 64)
			if err != nil {
				return "", err
			}
			return strconv.FormatFloat(100-a, 'f', -1, 64), nil
		},
		"relative": func(x, y string) (string, error) {
			a, err1 := strconv.ParseFloat(x, 64)
			b, err2 := strconv.ParseFloat(y, 64)
			if err := errors.Join(err1, err2); err != nil {
				return "", err
			}
			if b == 0 {
				return "", fmt.Errorf("relative %s %s: relative to 0", x, y)
			}
			return fmt.Sprintf("%+.2f", 100*(a-b)/b), nil
		},
	}
	t, err := template.New(d.Dir + " " + name).Funcs(funcs).Option("missingkey=error").Parse(text)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	if err := t.Execute(&b, nil); err != nil {
		return "", err
	}
	return b.String(), nil
}

// cellView is a cell as a reading quotes it.
type cellView struct {
	c   Cell
	row Row
}

func (d *PageDir) cell(label, trainer string) (cellView, error) {
	row, err := d.row(label)
	if err != nil {
		return cellView{}, err
	}
	i := slices.Index(d.Table.Trainers, trainer)
	if i < 0 || row.Cells[i].N == 0 {
		return cellView{}, fmt.Errorf("results/%s: row %s has no runs of %q", d.Dir, label, trainer)
	}
	return cellView{row.Cells[i], row}, nil
}

func decimal(x float64, decimals int) string { return strconv.FormatFloat(x, 'f', decimals, 64) }

// Err is the row's first metric (its error: the segment error in a
// segmentation row, the attachment error in a parsing row, else the token
// error); Tok, F1 and Seg are the token error, span F1 and segment error,
// "-" where the row has none. All with 1 decimal.
func (v cellView) Err() string { return v.metric(v.row.Lines[0][0]) }
func (v cellView) Tok() string { return v.metric(metrics.TokenError) }
func (v cellView) F1() string  { return v.metric(metrics.SpanF1) }
func (v cellView) Seg() string { return v.metric(metrics.SegmentError) }

func (v cellView) metric(name string) string {
	s, ok := v.c.Stats[name]
	if !ok {
		return "-"
	}
	return decimal(s.Mean, 1)
}

// Num is the mean of metric with the given decimals.
func (v cellView) Num(metric string, decimals int) (string, error) {
	s, ok := v.c.Stats[metric]
	if !ok {
		return "", fmt.Errorf("unknown metric %q (the row has %s)", metric, strings.Join(v.row.Metrics, ", "))
	}
	return decimal(s.Mean, decimals), nil
}

// paperView is a paper's value as a reading quotes it.
type paperView struct {
	v     PaperValue
	first string // our row's first metric
}

func (d *PageDir) paperValue(label, trainer string) (paperView, error) {
	if d.PaperTable != nil {
		for _, r := range d.PaperTable.Rows {
			at := r.Paper.Dataset + "/" + r.Paper.Task
			if r.Paper.TrainFraction != 0 {
				at += "/" + strconv.FormatFloat(r.Paper.TrainFraction, 'g', -1, 64)
			}
			if r.Paper.Trainer == trainer && at == label {
				first := ""
				if len(r.lineOne) > 0 {
					first = r.lineOne[0]
				}
				return paperView{r.Paper, first}, nil
			}
		}
	}
	return paperView{}, fmt.Errorf("results/%s: the paper has no value for %s %s", d.Dir, label, trainer)
}

func paperText(x *float64) string {
	if x == nil {
		return "-"
	}
	return strconv.FormatFloat(*x, 'f', -1, 64)
}

// Err is the paper's value of our row's first metric (segment error in a
// segmentation row).
func (v paperView) Err() string { return paperText(v.v.metric(v.first)) }
func (v paperView) Tok() string { return paperText(v.v.metric(metrics.TokenError)) }
func (v paperView) Seg() string { return paperText(v.v.metric(metrics.SegmentError)) }
func (v paperView) F1() string  { return paperText(v.v.metric(metrics.SpanF1)) }

// Num is the paper's value of metric (as written in the config), "-" if
// it gives none.
func (v paperView) Num(metric string) string { return paperText(v.v.metric(metric)) }

// testView is a paired test as a reading quotes it.
type testView struct {
	Diff string // A - B in points, signed, 2 decimals
	P    string // two significant digits, as the tables print it
	Test string // "paired t-test", "McNemar" or "paired bootstrap"
}

func (d *PageDir) test(label, a, b string, metric Metric) (testView, error) {
	for _, pt := range d.Table.Tests {
		if pt.Label != label || pt.A != a || pt.B != b {
			continue
		}
		if pt.Err != nil {
			return testView{}, fmt.Errorf("results/%s: %s vs %s on %s was not tested: %w", d.Dir, a, b, label, pt.Err)
		}
		switch {
		case pt.McNemar != nil && metric == pt.McNemarMetric:
			return testView{fmt.Sprintf("%+.2f", pt.McNemar.MeanDiff), fmt.Sprintf("%.2g", pt.McNemar.P), "McNemar"}, nil
		case pt.SpanBootstrap != nil && metric == pt.BootstrapMetric:
			return testView{fmt.Sprintf("%+.2f", pt.SpanBootstrap.Diff), fmt.Sprintf("%.2g", pt.SpanBootstrap.P), "paired bootstrap"}, nil
		case pt.McNemar != nil || pt.SpanBootstrap != nil:
		default:
			if t, ok := pt.TTestOf(metric); ok {
				return ttestView(t), nil
			}
		}
		return testView{}, fmt.Errorf("results/%s: %s vs %s on %s has no test of %s", d.Dir, a, b, label, metric)
	}
	return testView{}, fmt.Errorf("results/%s: no comparison %s vs %s on row %s", d.Dir, a, b, label)
}

// signView is a sign test pooled over folds as a reading quotes it.
type signView struct {
	A, B, Ties    int    // items on which A is better, B is, neither
	Items, Splits int    // items and folds pooled
	P             string // two significant digits, as the tables print it
}

func (d *PageDir) sign(label, a, b string, metric Metric) (signView, error) {
	for _, pt := range d.Table.Tests {
		if pt.Label != label || pt.A != a || pt.B != b {
			continue
		}
		if pt.SignErr != nil {
			return signView{}, fmt.Errorf("results/%s: %s vs %s on %s was not pooled: %w", d.Dir, a, b, label, pt.SignErr)
		}
		st, ok := pt.SignOf(metric)
		if !ok {
			return signView{}, fmt.Errorf("results/%s: %s vs %s on %s has no sign test of %s (metrics declaring one, on splits that are folds)", d.Dir, a, b, label, metric)
		}
		return signView{st.BetterA, st.BetterB, st.Ties, st.Items, st.Splits, fmt.Sprintf("%.2g", st.P)}, nil
	}
	return signView{}, fmt.Errorf("results/%s: no comparison %s vs %s on row %s", d.Dir, a, b, label)
}

func ttestView(t TTest) testView {
	return testView{fmt.Sprintf("%+.2f", t.MeanDiff), fmt.Sprintf("%.2g", t.P), "paired t-test"}
}
