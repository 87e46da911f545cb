package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func fixtureTable(t *testing.T) *Table {
	t.Helper()
	tab, err := Summarize(fixtureRuns(), fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	return tab
}

// cellsOf splits a table line drawn with "|" into trimmed cells.
func cellsOf(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimPrefix(strings.TrimSuffix(line, "|"), "|")
	var out []string
	for _, s := range strings.Split(line, "|") {
		out = append(out, strings.TrimSpace(s))
	}
	return out
}

func TestWriteText(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := fixtureTable(t).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(out, "\n")
	if !strings.HasPrefix(lines[0], "+---") {
		t.Errorf("first line %q is not an ASCII box border", lines[0])
	}
	// Header auto-formatting is off: names stay as written.
	if got, want := cellsOf(lines[1]), []string{"task", "dataset", "margin", "slack", "approx-slack", "poslearn"}; !reflect.DeepEqual(got, want) {
		t.Errorf("header = %q; want %q", got, want)
	}
	if got, want := cellsOf(lines[3]), []string{"sequence", "cora", "12.4±0.5/74.8±0.9", "10.8±0.5/80.9±0.9 (n=5)", "-", "9.5±0.5/83.4±0.8 (n=5)*"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first row = %q; want %q", got, want)
	}
	if got, want := cellsOf(lines[5]), []string{"parsing", "danish", "12.5±0.1*", "-", "-", "12.6±0.1"}; !reflect.DeepEqual(got, want) {
		t.Errorf("parsing row = %q; want %q", got, want)
	}
	for _, want := range []string{
		// The legend under the table explains the cells: the fixture has
		// 6, 1 and 3 splits in its rows, a cell with fewer, and parsing.
		"+\nCells: error (%) / span F1 (%), mean ± std over the row's splits (1–6).\n" +
			"Error: token error, or in attachment rows the unlabelled attachment error: the percentage of words whose predicted head is not the true head (100 − UAS).\n" +
			"Rows of parsing: attachment error (%) only.\n" +
			"(n=K): a cell with fewer splits than the fullest cell of its row.\n" +
			"*: best (lowest) mean error in the row.\n",
		"\n" + testsTitle + "\n",
		"\nposlearn vs margin (cora/sequence): token error diff -2.80 points, t=-22.14, p=2.5e-05, n=5\n",
		"\n" + costTitle + "\n",
		"| sequence | cora    | margin   | 6 |          12.5 |       22.5 |       125.0 |\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("text output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "APPROX") {
		t.Errorf("header was upper-cased:\n%s", out)
	}
}

func TestWriteMarkdown(t *testing.T) {
	t.Parallel()
	tab := fixtureTable(t)
	tab.Warnings = []string{"runs come from 2 code versions: a, b"}
	var buf bytes.Buffer
	if err := tab.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	lines := strings.Split(out, "\n")
	if got, want := cellsOf(lines[0]), []string{"task", "dataset", "margin", "slack", "approx-slack", "poslearn"}; !reflect.DeepEqual(got, want) {
		t.Errorf("header row = %q; want %q\n%s", got, want, out)
	}
	for i, sep := range cellsOf(lines[1]) {
		want := "-:" // numbers right-aligned
		if i < 2 {
			want = ":-" // keys left-aligned
		}
		if strings.Trim(sep, ":-") != "" || !strings.Contains(sep, want) {
			t.Errorf("separator cell %d = %q; want dashes with %q", i, sep, want)
		}
	}
	if got, want := cellsOf(lines[2]), []string{"sequence", "cora", "12.4±0.5/74.8±0.9", "10.8±0.5/80.9±0.9 (n=5)", "-", "**9.5±0.5/83.4±0.8 (n=5)**"}; !reflect.DeepEqual(got, want) {
		t.Errorf("first row = %q; want %q", got, want)
	}
	for _, want := range []string{
		"|\n\nCells: error (%) / span F1 (%), mean ± std over the row's splits (1–6). Error: token error, or in attachment rows the unlabelled attachment error: the percentage of words whose predicted head is not the true head (100 − UAS). Rows of parsing: attachment error (%) only. (n=K): a cell with fewer splits than the fullest cell of its row. Bold: best (lowest) mean error in the row.\n",
		"\n- poslearn vs margin (conll/sequence): not tested: only 1 shared split(s); need 2\n",
		"\n| task     | dataset | trainer  | n | train seconds | iterations | constraints |\n",
		"\nWarnings:\n\n- runs come from 2 code versions: a, b\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteMarkdownEscapesPipes(t *testing.T) {
	t.Parallel()
	tab, err := Summarize([]Run{
		{Dataset: "a|b", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 1}},
		{Dataset: "a|b", Task: "sequence", Trainer: "poslearn", Metrics: map[string]float64{"token_error": 2}},
	}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `| a\|b `) {
		t.Errorf("pipe in a dataset name not escaped:\n%s", buf.String())
	}
}

func TestWriteCSVRoundTrip(t *testing.T) {
	t.Parallel()
	tab := fixtureTable(t)
	var buf bytes.Buffer
	if err := tab.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("output is not valid CSV: %v", err)
	}
	if !reflect.DeepEqual(recs[0], csvHeader([]string{"token_error", "span_f1", "attachment_error"}, false)) {
		t.Errorf("header = %q", recs[0])
	}
	col := make(map[string]int)
	for i, h := range recs[0] {
		col[h] = i
	}
	body := recs[1:]
	if want := len(tab.Rows) * len(tab.Trainers); len(body) != want {
		t.Fatalf("got %d records; want %d", len(body), want)
	}
	num := func(rec []string, name string) float64 {
		t.Helper()
		x, err := strconv.ParseFloat(rec[col[name]], 64)
		if err != nil {
			t.Fatalf("column %s: %v", name, err)
		}
		return x
	}
	i := 0
	for _, row := range tab.Rows {
		for _, c := range row.Cells {
			rec := body[i]
			i++
			if rec[col["dataset"]] != row.Dataset || rec[col["task"]] != row.Task || rec[col["trainer"]] != c.Trainer ||
				num(rec, "train_fraction") != row.TrainFraction || rec[col["n"]] != strconv.Itoa(c.N) ||
				rec[col["best"]] != strconv.FormatBool(c.Best) {
				t.Errorf("record %q does not match cell %+v of %s", rec, c, row.Label)
				continue
			}
			if c.N == 0 {
				if rec[col["token_error_mean"]] != "" || rec[col["constraints"]] != "" {
					t.Errorf("empty cell %s/%s has numbers: %q", row.Label, c.Trainer, rec)
				}
				continue
			}
			got := []float64{num(rec, "train_seconds"), num(rec, "iterations"), num(rec, "constraints")}
			want := []float64{c.TrainSeconds, c.Iterations, c.Constraints}
			for _, m := range []string{"token_error", "span_f1", "attachment_error"} {
				if !slices.Contains(row.Metrics, m) {
					if rec[col[m+"_mean"]] != "" || rec[col[m+"_std"]] != "" {
						t.Errorf("row %s has no %s, but CSV %q", row.Label, m, rec)
					}
					continue
				}
				got = append(got, num(rec, m+"_mean"), num(rec, m+"_std"))
				want = append(want, c.Stats[m].Mean, c.Stats[m].Std)
			}
			if !reflect.DeepEqual(got, want) { // exact: numbers are written at full precision
				t.Errorf("%s/%s: read back %v; want %v", row.Label, c.Trainer, got, want)
			}
		}
	}
}

func TestWriteLaTeX(t *testing.T) {
	t.Parallel()
	runs := fixtureRuns()
	for i := range runs {
		if runs[i].Dataset == "conll" {
			runs[i].Dataset = "conll_03 & 100%"
		}
	}
	tab, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WriteLaTeX(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"\\begin{tabular}{llrrrr}\n\\toprule\ntask & dataset & margin & slack & approx-slack & poslearn \\\\\n\\midrule\n",
		"sequence & cora & 12.4$\\pm$0.5/74.8$\\pm$0.9 & 10.8$\\pm$0.5/80.9$\\pm$0.9 (n=5) & - & \\textbf{9.5$\\pm$0.5/83.4$\\pm$0.8 (n=5)} \\\\\n",
		"sequence & conll\\_03 \\& 100\\% & 2.9/84.7",
		// A \midrule separates the tasks.
		"\\textbf{2.8/85.1} \\\\\n\\midrule\nparsing & danish & \\textbf{12.5$\\pm$0.1} & - & - & 12.6$\\pm$0.1 \\\\\n\\bottomrule\n\\end{tabular}\n",
		"% poslearn vs margin (cora/sequence): token error diff -2.80 points",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("LaTeX output lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteErrors(t *testing.T) {
	t.Parallel()
	tab := fixtureTable(t)
	for name, write := range map[string]func(*Table) error{
		"text":     func(tab *Table) error { return tab.WriteText(failingWriter{}) },
		"markdown": func(tab *Table) error { return tab.WriteMarkdown(failingWriter{}) },
		"csv":      func(tab *Table) error { return tab.WriteCSV(failingWriter{}) },
		"latex":    func(tab *Table) error { return tab.WriteLaTeX(failingWriter{}) },
	} {
		if err := write(tab); !errors.Is(err, errWriteFailed) {
			t.Errorf("%s: err = %v; want one wrapping the write error", name, err)
		}
	}
}

// The legend follows the table: one split, equal splits, token-only rows,
// and span F1 as the metric.
func TestCellLegend(t *testing.T) {
	t.Parallel()
	var one, three []Run
	for _, r := range fixtureRuns() {
		if r.Dataset == "conll" {
			one = append(one, r)
		}
		if r.Dataset == "danish" {
			three = append(three, r)
		}
	}
	for _, tc := range []struct {
		name string
		runs []Run
		opt  Options
		want []string
	}{
		{"one split", one, Options{}, []string{
			"Cells: token error (%) / span F1 (%), from 1 split (no std).",
			"*: best (lowest) mean token error in the row."}},
		{"one metric", three, Options{}, []string{
			"Cells: attachment error (%), mean ± std over 3 splits.",
			"*: best (lowest) mean attachment error in the row."}},
		{"span F1", one, Options{Metric: "span_f1"}, []string{
			"Cells: token error (%) / span F1 (%), from 1 split (no std).",
			"*: best (highest) mean span F1 in the row."}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tab, err := Summarize(tc.runs, tc.opt)
			if err != nil {
				t.Fatal(err)
			}
			if got := tab.cellLegend("*"); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("legend %q, want %q", got, tc.want)
			}
		})
	}
}
