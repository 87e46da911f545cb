package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// fixturePaper is a paper reference for fixtureRuns: values with runs
// (several splits, one split, a token-only task), values without (a
// trainer with no runs, a dataset we did not run, a trainer not in the
// table), and one with two decimals.
func fixturePaper() PaperReference {
	return PaperReference{
		Source: "Sarawagi & Gupta (ICML 2008), Table 1",
		Note:   "read off the <table> by hand",
		Values: []PaperValue{
			{Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 12.3, "span_f1": 74.9}},
			{Dataset: "cora", Task: "sequence", Trainer: "poslearn", Metrics: map[string]float64{"token_error": 9.25}},
			{Dataset: "cora", Task: "sequence", Trainer: "approx-slack", Metrics: map[string]float64{"token_error": 10.1, "span_f1": 80}},
			{Dataset: "conll", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"span_f1": 84.7}},
			{Dataset: "danish", Task: "parsing", Trainer: "margin", Metrics: map[string]float64{"attachment_error": 12.4}},
			{Dataset: "address", Task: "segmentation", Trainer: "margin", Metrics: map[string]float64{"token_error": 5}},
			{Dataset: "cora", Task: "sequence", Trainer: "crf", Metrics: map[string]float64{"token_error": 11}},
		},
	}
}

// fixturePaperText is paper.txt for fixtureRuns and fixturePaper.
const fixturePaperText = `Against the paper: Sarawagi & Gupta (ICML 2008), Table 1
Note: read off the <table> by hand
+---------+--------------+--------------+---+--------------+---------------+------------+----------------+-----------------+--------------+-----------+------------+---------+
| dataset | task         | trainer      | n | error (ours) | error (paper) | error diff | att-err (ours) | att-err (paper) | att-err diff | F1 (ours) | F1 (paper) | F1 diff |
+---------+--------------+--------------+---+--------------+---------------+------------+----------------+-----------------+--------------+-----------+------------+---------+
| cora    | sequence     | margin       | 6 |     12.4±0.5 |          12.3 |       +0.1 |              - |               - |            - |  74.8±0.9 |       74.9 |    -0.1 |
| cora    | sequence     | poslearn     | 5 |    9.50±0.45 |          9.25 |      +0.25 |              - |               - |            - |         - |          - |       - |
| cora    | sequence     | approx-slack | 0 |            - |          10.1 |          - |              - |               - |            - |         - |       80.0 |       - |
| conll   | sequence     | margin       | 1 |            - |             - |          - |              - |               - |            - |      84.7 |       84.7 |     0.0 |
| danish  | parsing      | margin       | 3 |            - |             - |          - |       12.5±0.1 |            12.4 |         +0.1 |         - |          - |       - |
| address | segmentation | margin       | 0 |            - |           5.0 |          - |              - |               - |            - |         - |          - |       - |
| cora    | sequence     | crf          | 0 |            - |          11.0 |          - |              - |               - |            - |         - |          - |       - |
+---------+--------------+--------------+---+--------------+---------------+------------+----------------+-----------------+--------------+-----------+------------+---------+
error: token error (%); att-err: attachment error (%); F1: span F1 (%); ours: mean±std over n splits; diff: ours - paper in percentage points, each quantity against the same quantity; -: not reported by the paper, or no runs of ours (or, for error, runs without a token error; for att-err, runs without an attachment error; for F1, runs without a span F1).
`

// runsOf returns the token errors and span F1s of the runs of one
// trainer on one dataset and task.
func runsOf(runs []Run, dataset, task, trainer string) (tok, f1 []float64) {
	for _, r := range runs {
		if r.Dataset == dataset && r.Task == task && r.Trainer == trainer {
			tok = append(tok, r.Metrics["token_error"])
			f1 = append(f1, r.Metrics["span_f1"])
		}
	}
	return tok, f1
}

func TestComparePaper(t *testing.T) {
	t.Parallel()
	runs, ref := fixtureRuns(), fixturePaper()
	pt := ComparePaper(fixtureTable(t), ref)
	if pt.Source != ref.Source || pt.Note != ref.Note || pt.ShowFraction {
		t.Errorf("PaperTable %q, %q, ShowFraction %v; want the reference's source and note, one fraction",
			pt.Source, pt.Note, pt.ShowFraction)
	}
	if len(pt.Rows) != len(ref.Values) {
		t.Fatalf("got %d rows, want one per paper value (%d)", len(pt.Rows), len(ref.Values))
	}
	// The texts of each row after the trainer: n, then ours, paper and
	// diff for token error, attachment error (the parsing row) and span F1.
	wantTexts := [][]string{
		{"6", "12.4±0.5", "12.3", "+0.1", "-", "-", "-", "74.8±0.9", "74.9", "-0.1"},
		{"5", "9.50±0.45", "9.25", "+0.25", "-", "-", "-", "-", "-", "-"},
		{"0", "-", "10.1", "-", "-", "-", "-", "-", "80.0", "-"},
		{"1", "-", "-", "-", "-", "-", "-", "84.7", "84.7", "0.0"},
		{"3", "-", "-", "-", "12.5±0.1", "12.4", "+0.1", "-", "-", "-"},
		{"0", "-", "5.0", "-", "-", "-", "-", "-", "-", "-"},
		{"0", "-", "11.0", "-", "-", "-", "-", "-", "-", "-"},
	}
	_, body := pt.grid(identity)
	for i, v := range ref.Values {
		row := pt.Rows[i]
		if !reflect.DeepEqual(row.Paper, v) {
			t.Errorf("row %d: Paper = %+v, want %+v", i, row.Paper, v)
		}
		if got := body[i][3:]; !slices.Equal(got, wantTexts[i]) {
			t.Errorf("row %d (%s): texts %q, want %q", i, v.name(), got, wantTexts[i])
		}
		if !slices.Equal(body[i][:3], []string{v.Dataset, v.Task, v.Trainer}) {
			t.Errorf("row %d: key cells %q", i, body[i][:3])
		}

		// Our numbers and the differences, from the runs directly.
		tok, f1 := runsOf(runs, v.Dataset, v.Task, v.Trainer)
		if row.Ours.N != len(tok) {
			t.Errorf("row %d (%s): n = %d, want %d", i, v.name(), row.Ours.N, len(tok))
		}
		for _, m := range []struct {
			metric Metric
			xs     []float64
			paper  *float64
			ours   Stat
		}{
			{"token_error", tok, v.metric("token_error"), row.Ours.Stats["token_error"]},
			{"span_f1", f1, v.metric("span_f1"), row.Ours.Stats["span_f1"]},
		} {
			diff, ok := row.Diff(m.metric)
			tokenOnly := m.metric == "span_f1" && v.Task == "parsing"
			if len(m.xs) == 0 || m.paper == nil || tokenOnly {
				if ok {
					t.Errorf("row %d (%s): %s diff %v, want none", i, v.name(), m.metric, diff)
				}
				continue
			}
			mean, std := naiveMeanStd(m.xs)
			if math.Abs(m.ours.Mean-mean) > 1e-9 || math.Abs(m.ours.Std-std) > 1e-9 {
				t.Errorf("row %d (%s): ours %s = %v, want %v ± %v", i, v.name(), m.metric, m.ours, mean, std)
			}
			if !ok || math.Abs(diff-(mean-*m.paper)) > 1e-9 {
				t.Errorf("row %d (%s): %s diff %v (%v), want %v", i, v.name(), m.metric, diff, ok, mean-*m.paper)
			}
		}
	}
}

func TestComparePaperFractions(t *testing.T) {
	t.Parallel()
	runs := curveRuns()
	tab, err := Summarize(runs, Options{Trainers: curveTrainers()})
	if err != nil {
		t.Fatal(err)
	}
	ref := PaperReference{Source: "Figure 1", Values: []PaperValue{
		{Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 10}},
		{Dataset: "cora", Task: "sequence", Trainer: "crf", Metrics: map[string]float64{"token_error": 10}},
	}}
	pt := ComparePaper(tab, ref)
	if !pt.ShowFraction {
		t.Error("ShowFraction = false for runs at three train fractions")
	}
	// One row per fraction with runs, in ascending order; the value
	// without runs gets one row with "-" for its fraction.
	var got [][]string
	_, body := pt.grid(identity)
	for _, line := range body {
		got = append(got, line[2:7])
	}
	want := [][]string{
		{"0.1", "margin", "3"}, {"0.25", "margin", "3"}, {"0.5", "margin", "3"}, {"-", "crf", "0"},
	}
	for i := range want {
		if i >= len(got) || !slices.Equal(got[i][:3], want[i]) {
			t.Fatalf("rows (fraction, trainer, n, ours, paper) = %q, want prefixes %q", got, want)
		}
	}
	for i, fr := range []float64{0.1, 0.25, 0.5} {
		var tok []float64
		for _, r := range runs {
			if r.Dataset == "cora" && r.Trainer == "margin" && r.TrainFraction == fr {
				tok = append(tok, r.Metrics["token_error"])
			}
		}
		mean, _ := naiveMeanStd(tok)
		if diff, ok := pt.Rows[i].Diff("token_error"); !ok || math.Abs(diff-(mean-10)) > 1e-9 {
			t.Errorf("fraction %g: diff %v (%v), want %v", fr, diff, ok, mean-10)
		}
	}
}

func TestPaperWriteText(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := ComparePaper(fixtureTable(t), fixturePaper()).WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != fixturePaperText {
		t.Errorf("WriteText:\n%s\nwant:\n%s", got, fixturePaperText)
	}
}

func TestPaperWriteMarkdown(t *testing.T) {
	t.Parallel()
	ref := fixturePaper()
	ref.Values[0].Dataset = "co|ra"
	runs := fixtureRuns()
	for i := range runs {
		if runs[i].Dataset == "cora" {
			runs[i].Dataset = "co|ra"
		}
	}
	tab, err := Summarize(runs, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := ComparePaper(tab, ref).WriteMarkdown(&buf); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{
		"Against the paper: Sarawagi & Gupta (ICML 2008), Table 1\n\nNote: read off the <table> by hand\n\n| dataset ",
		`| co\|ra  | sequence     | margin       | 6 |     12.4±0.5 |          12.3 |       +0.1 |              - |               - |            - |  74.8±0.9 |       74.9 |    -0.1 |`,
		"\n\nerror: token error (%); att-err: attachment error (%); F1: span F1 (%);",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, out)
		}
	}
}

func TestPaperWriteCSV(t *testing.T) {
	t.Parallel()
	pt := ComparePaper(fixtureTable(t), fixturePaper())
	var buf bytes.Buffer
	if err := pt.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatalf("output is not valid CSV: %v", err)
	}
	if !slices.Equal(recs[0], paperCSVHeader(pt.Metrics)) {
		t.Errorf("header = %q", recs[0])
	}
	if len(recs) != len(pt.Rows)+1 {
		t.Fatalf("got %d records, want %d", len(recs)-1, len(pt.Rows))
	}
	col := make(map[string]int)
	for i, h := range recs[0] {
		col[h] = i
	}
	for i, row := range pt.Rows {
		rec := recs[i+1]
		if rec[col["dataset"]] != row.Paper.Dataset || rec[col["task"]] != row.Paper.Task ||
			rec[col["trainer"]] != row.Paper.Trainer || rec[col["n"]] != strconv.Itoa(row.Ours.N) {
			t.Errorf("record %q does not match row %+v", rec, row)
		}
		if got, want := rec[col["train_fraction"]] == "", row.Ours.N == 0; got != want {
			t.Errorf("record %q: empty train_fraction %v, want %v", rec, got, want)
		}
		for _, m := range []struct {
			metric Metric
			prefix string
			paper  *float64
			ours   Stat
		}{
			{"token_error", "token_error_", row.Paper.metric("token_error"), row.Ours.Stats["token_error"]},
			{"span_f1", "span_f1_", row.Paper.metric("span_f1"), row.Ours.Stats["span_f1"]},
		} {
			field := func(name string) string { return rec[col[m.prefix+name]] }
			if m.paper == nil {
				if field("paper") != "" || field("mean") != "" || field("diff") != "" {
					t.Errorf("record %q: %s not reported by the paper, yet has numbers", rec, m.metric)
				}
				continue
			}
			if field("paper") != strconv.FormatFloat(*m.paper, 'g', -1, 64) {
				t.Errorf("record %q: %s paper %q, want %v", rec, m.metric, field("paper"), *m.paper)
			}
			diff, ok := row.Diff(m.metric)
			if !ok {
				if field("mean") != "" || field("std") != "" || field("diff") != "" {
					t.Errorf("record %q: %s without ours, yet has numbers", rec, m.metric)
				}
				continue
			}
			got := []string{field("mean"), field("std"), field("diff")}
			want := []string{
				strconv.FormatFloat(m.ours.Mean, 'g', -1, 64),
				strconv.FormatFloat(m.ours.Std, 'g', -1, 64),
				strconv.FormatFloat(diff, 'g', -1, 64),
			}
			if !slices.Equal(got, want) { // full precision: exact
				t.Errorf("record %q: %s mean, std, diff = %q, want %q", rec, m.metric, got, want)
			}
		}
	}
}

func TestPaperWriteErrors(t *testing.T) {
	t.Parallel()
	pt := ComparePaper(fixtureTable(t), fixturePaper())
	for name, write := range map[string]func() error{
		"text":     func() error { return pt.WriteText(failingWriter{}) },
		"markdown": func() error { return pt.WriteMarkdown(failingWriter{}) },
		"csv":      func() error { return pt.WriteCSV(failingWriter{}) },
	} {
		if err := write(); !errors.Is(err, errWriteFailed) {
			t.Errorf("%s: err = %v; want one wrapping the write error", name, err)
		}
	}
}

func TestSigned(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		x    float64
		d    int
		want string
	}{
		{0.1, 1, "+0.1"}, {-0.1, 1, "-0.1"}, {-0.04, 1, "0.0"}, {0.04, 1, "0.0"},
		{0, 2, "0.00"}, {-0.004, 2, "0.00"}, {-2.345, 2, "-2.35"},
	} {
		if got := signed(tc.x, tc.d); got != tc.want {
			t.Errorf("signed(%v, %d) = %q, want %q", tc.x, tc.d, got, tc.want)
		}
	}
}

// paperSpec is curveSpec with a paper reference whose source and note
// need escaping in HTML.
func paperSpec() Spec {
	s := curveSpec()
	s.Paper = &PaperReference{
		Source: `Smith & Jones <script>alert("x")</script>`,
		Note:   "accuracy -> error: 100 - <acc>",
		Values: []PaperValue{
			{Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 10.5, "span_f1": 75}},
			{Dataset: "cora", Task: "sequence", Trainer: "crf", Metrics: map[string]float64{"token_error": 9}},
		},
	}
	return s
}

func TestWriteAllPaper(t *testing.T) {
	spec := paperSpec()
	dir := writeResultsDir(t, curveRuns(), &spec, false)
	res, err := ReportDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.Insert(curveFiles(), 4, "paper.md", "paper.txt", "paper.csv")
	if !slices.Equal(res.Files, want) {
		t.Errorf("Files = %q, want %q", res.Files, want)
	}

	pt := ComparePaper(res.Table, *spec.Paper)
	for name, write := range map[string]func(*bytes.Buffer) error{
		"paper.txt": func(b *bytes.Buffer) error { return pt.WriteText(b) },
		"paper.md":  func(b *bytes.Buffer) error { return pt.WriteMarkdown(b) },
		"paper.csv": func(b *bytes.Buffer) error { return pt.WriteCSV(b) },
	} {
		var buf bytes.Buffer
		if err := write(&buf); err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || !bytes.Equal(got, buf.Bytes()) {
			t.Errorf("%s differs from the PaperTable's rendering (read error %v)", name, err)
		}
	}

	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	index := string(b)
	for _, s := range []string{
		"<h2>Against the paper</h2>",
		"<p>Source: Smith &amp; Jones &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;</p>",
		"<p>Note: accuracy -&gt; error: 100 - &lt;acc&gt;</p>",
		`<th class="num">error (paper)</th>`,
		`<a href="paper.csv">`, `<a href="paper.txt">`, `<a href="paper.md">`,
	} {
		if !strings.Contains(index, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	if strings.Contains(index, "<script") {
		t.Error("index.html contains an unescaped <script")
	}
	// The section follows the results table and precedes the t-tests.
	results, paper, tests := strings.Index(index, "<h2>Results</h2>"),
		strings.Index(index, "<h2>Against the paper</h2>"), strings.Index(index, "<h2>Paired t-tests</h2>")
	if !(results < paper && paper < tests) {
		t.Errorf("sections at %d (results), %d (paper), %d (t-tests); want the paper after the results", results, paper, tests)
	}
	// Every row of the comparison is in the page (html/template writes
	// "+" as "&#43;").
	_, body := pt.grid(strings.NewReplacer("+", "&#43;").Replace)
	for _, line := range body {
		cells := make([]string, len(line))
		for i, s := range line {
			cells[i] = "<td>" + s + "</td>"
			if i >= len(pt.keyHeader()) {
				cells[i] = `<td class="num">` + s + "</td>"
			}
		}
		if row := "<tr>" + strings.Join(cells, "") + "</tr>"; !strings.Contains(index, row) {
			t.Errorf("index.html lacks the row %q", row)
		}
	}
}

func TestWriteAllWithoutPaper(t *testing.T) {
	dir := t.TempDir()
	res, err := writeAll(dir, curveRuns(), curveSpec())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range res.Files {
		if strings.HasPrefix(name, "paper.") {
			t.Errorf("wrote %s without a paper reference", name)
		}
	}
	for _, name := range []string{"paper.md", "paper.txt", "paper.csv"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("%s: stat error %v, want not exist", name, err)
		}
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(index, []byte("Against the paper")) || bytes.Contains(index, []byte("paper.")) {
		t.Error("index.html has a paper section or links without a paper reference")
	}
}

func TestWriteAllInvalidPaperWritesNothing(t *testing.T) {
	spec := paperSpec()
	spec.Paper.Values[1].Metrics["token_error"] = 101
	dir := t.TempDir()
	err := WriteAll(dir, curveRuns(), spec)
	if err == nil || !strings.Contains(err.Error(), "not a percentage") {
		t.Fatalf("WriteAll error %v, want one about the percentage", err)
	}
	if names := dirNames(t, dir); len(names) > 0 {
		t.Errorf("WriteAll failed but wrote %q", names)
	}
}

// A value with a train fraction sits beside our row of that fraction
// only, and survives report.json.
func TestComparePaperAtFraction(t *testing.T) {
	t.Parallel()
	tab, err := Summarize(curveRuns(), Options{Trainers: curveTrainers()})
	if err != nil {
		t.Fatal(err)
	}
	v := PaperValue{Dataset: "cora", Task: "sequence", Trainer: "margin", TrainFraction: 0.25, Metrics: map[string]float64{"token_error": 10}}
	pt := ComparePaper(tab, PaperReference{Source: "Figure 1", Values: []PaperValue{v}})
	if len(pt.Rows) != 1 || pt.Rows[0].TrainFraction != 0.25 || pt.Rows[0].Ours.N != 3 {
		t.Fatalf("rows %+v, want one at fraction 0.25 with 3 runs", pt.Rows)
	}
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var back PaperValue
	if err := json.Unmarshal(b, &back); err != nil || back.TrainFraction != 0.25 || back.Metrics["token_error"] != 10 {
		t.Errorf("%s read back as %+v (%v)", b, back, err)
	}
	if b, _ := json.Marshal(PaperValue{Dataset: "d", Task: "sequence", Trainer: "t"}); strings.Contains(string(b), "train_fraction") {
		t.Errorf("no fraction written as %s", b)
	}
}

// A reference without values (a figure the paper draws without numbers)
// writes its source and note and says that there is nothing to compare,
// in every format.
func TestPaperFigureOnly(t *testing.T) {
	t.Parallel()
	ref := PaperReference{Source: "Pletscher et al. (2010), Figure 3", Note: "contours only"}
	if err := ref.Validate(); err != nil {
		t.Fatal(err)
	}
	pt := ComparePaper(fixtureTable(t), ref)
	var txt, md, csvOut bytes.Buffer
	for _, err := range []error{pt.WriteText(&txt), pt.WriteMarkdown(&md), pt.WriteCSV(&csvOut)} {
		if err != nil {
			t.Fatal(err)
		}
	}
	if want := "Against the paper: Pletscher et al. (2010), Figure 3\nNote: contours only\n" + noPaperValues + "\n"; txt.String() != want {
		t.Errorf("text %q, want %q", txt.String(), want)
	}
	if !strings.Contains(md.String(), "Note: contours only\n\n"+noPaperValues) || strings.Contains(md.String(), "|") {
		t.Errorf("markdown %q", md.String())
	}
	if lines := strings.Count(csvOut.String(), "\n"); lines != 1 {
		t.Errorf("CSV has %d lines, want the header alone:\n%s", lines, csvOut.String())
	}
	dir := t.TempDir()
	spec := Spec{Paper: &ref}
	if err := WriteAll(dir, fixtureRuns(), spec); err != nil {
		t.Fatal(err)
	}
	html, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(html), "<p>"+noPaperValues+"</p>") {
		t.Errorf("index.html lacks %q", noPaperValues)
	}
}
