package report

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// indexPage is the data behind index.html.
type indexPage struct {
	Title        string
	NRuns        int
	Versions     []string
	Links        []string // other files of the report, relative to it
	Legend       []string // what the cells are; see Table.cellLegend
	Edges        []string // grid-edge notes of the marked cells
	EdgeTitle    string
	Results      htmlTable
	Paper        *htmlPaper // nil without a paper reference
	Tests        []string
	TestsCaption string
	Signs        []string // sign tests pooled over folds
	SignsCaption string
	Cost         htmlTable
	CostCaption  string
	Warnings     []string
	Figures      []htmlFigure
	Config       string // config.yaml, if present
}

type htmlTable struct {
	Head []htmlCell
	Rows [][]htmlCell
}

type htmlCell struct {
	Text string
	Num  bool // right-aligned
	Best bool // bold
}

// Class is the CSS class of the cell: "num", "best", both or none.
func (c htmlCell) Class() string {
	switch {
	case c.Num && c.Best:
		return "num best"
	case c.Num:
		return "num"
	case c.Best:
		return "best"
	}
	return ""
}

// htmlPaper is the "Against the paper" section.
type htmlPaper struct {
	Source, Note string
	Legend       string
	Table        htmlTable
}

type htmlFigure struct {
	Title         string
	Bars          string       // what the points and error bars are
	Image         template.URL // the PNG as a data: URI
	PNG, SVG, PDF string       // the files beside index.html
}

// indexTemplate embeds the figures as PNG data: URIs, so that index.html
// shows everything even when copied alone; the links to the other files
// work beside them. It embeds the PNGs rather than the SVGs because the
// SVGs do not embed their fonts, and a substitute font could make
// right-aligned legend text run into its markers. Tables sit in boxes that
// scroll sideways, so a wide table is never cut off.
func indexTemplate() *template.Template {
	return template.Must(template.New("index.html").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{.Title}}</title>
<style>
body { font-family: sans-serif; color: #222; max-width: 72em; margin: 2em auto; padding: 0 1em; }
table { border-collapse: collapse; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; }
th { background: #f3f3f3; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
.best { font-weight: bold; }
td.num { white-space: nowrap; }
.wide { overflow-x: auto; max-width: 100%; }
figure { display: inline-block; vertical-align: top; max-width: 500px; margin: 0 1.5em 1.5em 0; }
figure img { max-width: 100%; height: auto; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; }
</style>
</head>
<body>
<h1>{{.Title}}</h1>
<p>{{.NRuns}} runs{{with .Versions}}, code version {{range $i, $v := .}}{{if $i}}, {{end}}{{$v}}{{end}}{{end}}.
{{- with .Links}} Files:{{range $i, $f := .}}{{if $i}},{{end}} <a href="{{$f}}">{{$f}}</a>{{end}}.{{end}}</p>

<h2>Results</h2>
<p>{{range $i, $l := .Legend}}{{if $i}} {{end}}{{$l}}{{end}}</p>
{{template "table" .Results}}
{{- with .Edges}}
<p>{{$.EdgeTitle}}</p>
<ul>
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- with .Paper}}
<h2>Against the paper</h2>
<p>Source: {{.Source}}</p>
{{- with .Note}}
<p>Note: {{.}}</p>
{{- end}}
{{- if .Table.Rows}}
<p>{{.Legend}}</p>
{{template "table" .Table}}
{{- else}}
<p>{{.Legend}}</p>
{{- end}}
{{- end}}
{{- with .Tests}}
<h2>Paired t-tests</h2>
<p>{{$.TestsCaption}}</p>
<ul>
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- with .Signs}}
<h2>McNemar tests per sentence, pooled over folds</h2>
<p>{{$.SignsCaption}}</p>
<ul>
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- if .Cost.Rows}}
<h2>Training cost</h2>
<p>{{.CostCaption}}</p>
{{template "table" .Cost}}
{{- end}}
{{- with .Warnings}}
<h2>Warnings</h2>
<ul>
{{- range .}}
<li>{{.}}</li>
{{- end}}
</ul>
{{- end}}
{{- with .Figures}}
<h2>Figures</h2>
{{- range .}}
<figure>
<img src="{{.Image}}" alt="{{.Title}}" width="500">
<figcaption>{{.Title}}. {{.Bars}} (<a href="{{.PNG}}">PNG</a>, <a href="{{.SVG}}">SVG</a>, <a href="{{.PDF}}">PDF</a>)</figcaption>
</figure>
{{- end}}
{{- end}}
{{- with .Config}}
<h2>Configuration</h2>
<p><a href="config.yaml">config.yaml</a>:</p>
<pre>{{.}}</pre>
{{- end}}
</body>
</html>
{{define "table"}}<div class="wide"><table>
<thead>
<tr>{{range .Head}}<th{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</th>{{end}}</tr>
</thead>
<tbody>
{{- range .Rows}}
<tr>{{range .}}<td{{with .Class}} class="{{.}}"{{end}}>{{.Text}}</td>{{end}}</tr>
{{- end}}
</tbody>
</table></div>{{end}}`))
}

// newIndexPage gathers what index.html shows. It reads config.yaml from
// dir if it exists, and links runs.jsonl and report.json if they exist;
// paper is nil when the spec has no paper reference.
func newIndexPage(dir string, runs []Run, spec Spec, t *Table, paper *PaperTable, figures []renderedFigure) (*indexPage, error) {
	page := &indexPage{
		Title:        spec.Title,
		NRuns:        len(runs),
		Links:        []string{"table.md", "table.txt", "table.csv", "table.tex"},
		Legend:       t.cellLegend("Bold"),
		Edges:        t.edgeLines(),
		EdgeTitle:    edgeTitle,
		Results:      resultsHTML(t),
		Tests:        t.testLines(),
		TestsCaption: t.testsHeading(),
		Signs:        t.signLines(),
		SignsCaption: signTitle,
		CostCaption:  costTitle,
		Cost:         costHTML(t),
		Warnings:     t.Warnings,
	}
	if paper != nil {
		page.Paper = paperHTML(paper)
		page.Links = append(page.Links, "paper.md", "paper.txt", "paper.csv")
	}
	if page.Title == "" {
		abs, err := filepath.Abs(dir)
		if err != nil {
			return nil, fmt.Errorf("report: %w", err)
		}
		page.Title = "repro report: " + filepath.Base(abs)
	}
	for _, r := range runs {
		if r.Version != "" && !slices.Contains(page.Versions, r.Version) {
			page.Versions = append(page.Versions, r.Version)
		}
	}
	slices.Sort(page.Versions)
	for _, name := range []string{"runs.jsonl", "report.json"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			page.Links = append(page.Links, name)
		}
	}
	cfg, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	switch {
	case err == nil:
		page.Config = string(cfg)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("report: %w", err)
	}
	for _, f := range figures {
		name := f.spec.Name
		page.Figures = append(page.Figures, htmlFigure{
			Title: f.spec.title(), Bars: f.bars,
			// The bytes are our own PNG, so the URL is safe to mark as such.
			Image: template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(f.files["png"])),
			PNG:   name + ".png", SVG: name + ".svg", PDF: name + ".pdf",
		})
	}
	return page, nil
}

// resultsHTML is the results table with the best cells marked.
func resultsHTML(t *Table) htmlTable {
	var h htmlTable
	nKey := len(t.resultKeyHeader())
	for _, s := range t.resultKeyHeader() {
		h.Head = append(h.Head, htmlCell{Text: s})
	}
	for _, tr := range t.Trainers {
		h.Head = append(h.Head, htmlCell{Text: tr, Num: true})
	}
	for _, l := range t.resultLines() {
		var line []htmlCell
		for i, c := range l.cells {
			line = append(line, htmlCell{Text: c.text, Num: i >= nKey, Best: c.best})
		}
		h.Rows = append(h.Rows, line)
	}
	return h
}

// costHTML is the training-cost table; the columns after the trainer's
// are numbers.
func costHTML(t *Table) htmlTable {
	head, body := t.costGrid(identity)
	return gridHTML(head, body, len(t.keyHeader())+1)
}

// paperHTML is the comparison with the paper; the columns after the
// trainer's are numbers.
func paperHTML(p *PaperTable) *htmlPaper {
	if len(p.Rows) == 0 {
		return &htmlPaper{Source: p.Source, Note: p.Note, Legend: noPaperValues}
	}
	head, body := p.grid(identity)
	return &htmlPaper{Source: p.Source, Note: p.Note, Legend: p.legend(), Table: gridHTML(head, body, len(p.keyHeader()))}
}

// gridHTML turns a string grid into an HTML table whose columns from
// nText on are right-aligned numbers.
func gridHTML(head []string, body [][]string, nText int) htmlTable {
	cells := func(ss []string) []htmlCell {
		out := make([]htmlCell, len(ss))
		for i, s := range ss {
			out[i] = htmlCell{Text: s, Num: i >= nText}
		}
		return out
	}
	h := htmlTable{Head: cells(head)}
	for _, line := range body {
		h.Rows = append(h.Rows, cells(line))
	}
	return h
}
