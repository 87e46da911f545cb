package report

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// curveFiles are the files WriteAll writes for curveSpec.
func curveFiles() []string {
	return []string{
		"table.md", "table.txt", "table.csv", "table.tex",
		"figure1.png", "figure1.svg", "figure1.pdf",
		"figure2.png", "figure2.svg", "figure2.pdf",
		"index.html",
	}
}

// dirNames lists the names in dir, sorted.
func dirNames(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

func TestWriteAll(t *testing.T) {
	dir := t.TempDir()
	config := "name: cora\n# <script>alert(\"x\")</script> & more\n"
	if err := os.WriteFile(filepath.Join(dir, "config.yaml"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, spec := curveRuns(), curveSpec()
	if err := WriteAll(dir, runs, spec); err != nil {
		t.Fatal(err)
	}

	want := append(curveFiles(), "config.yaml")
	slices.Sort(want)
	if got := dirNames(t, dir); !slices.Equal(got, want) {
		t.Errorf("dir holds %q, want %q (no temporary files left behind)", got, want)
	}
	for _, name := range curveFiles() {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Size() == 0 || fi.Mode().Perm() != 0o644 {
			t.Errorf("%s: size %d, mode %v; want non-empty, 0644", name, fi.Size(), fi.Mode().Perm())
		}
	}
	checkFigureFiles(t, dir, "figure1")
	checkFigureFiles(t, dir, "figure2")

	// The table files hold what the Table renders.
	tab, err := Summarize(runs, spec.options())
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := tab.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(dir, "table.md")); err != nil || !bytes.Equal(got, md.Bytes()) {
		t.Errorf("table.md differs from Table.WriteMarkdown (read error %v)", err)
	}

	b, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	index := string(b)
	var wantIn []string
	for _, row := range tab.Rows {
		for _, c := range row.Cells {
			cell := `<td class="num">` + c.Text + `</td>`
			if c.Best {
				cell = `<td class="num best">` + c.Text + `</td>`
			}
			wantIn = append(wantIn, cell)
		}
	}
	wantIn = append(wantIn,
		"<title>Cora learning curves</title>",
		`<th class="num">approx-slack</th>`,
		"poslearn vs margin (cora/sequence/0.25): token error diff",
		"<h2>Training cost</h2>",
		`<a href="figure2.pdf">`,
		"Points are means over 3 splits; error bars are ±1 standard deviation over the same splits.",
		`<div class="wide"><table>`,
		`<a href="table.csv">`,
		`# &lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt; &amp; more`,
	)
	for _, s := range wantIn {
		if !strings.Contains(index, s) {
			t.Errorf("index.html lacks %q", s)
		}
	}
	// Every image is embedded, byte for byte the PNG file, so that the
	// page shows the figures when copied alone.
	var srcs []string
	for _, m := range regexp.MustCompile(`<img src="([^"]*)"`).FindAllStringSubmatch(index, -1) {
		srcs = append(srcs, html.UnescapeString(m[1])) // html/template writes "+" as &#43;
	}
	var embedded []string
	for _, stem := range []string{"figure1", "figure2"} {
		png, err := os.ReadFile(filepath.Join(dir, stem+".png"))
		if err != nil {
			t.Fatal(err)
		}
		embedded = append(embedded, "data:image/png;base64,"+base64.StdEncoding.EncodeToString(png))
	}
	if !slices.Equal(srcs, embedded) {
		t.Errorf("index.html has %d images, not the data: URIs of figure1.png and figure2.png", len(srcs))
	}
	if strings.Contains(index, "<script") {
		t.Error("index.html contains an unescaped <script")
	}
	for _, s := range []string{`src="/`, `href="/`, "http://", "https://"} {
		if strings.Contains(index, s) {
			t.Errorf("index.html has a non-relative link %q", s)
		}
	}
}

func TestWriteAllErrorWritesNothing(t *testing.T) {
	spec := curveSpec()
	spec.Figures = append(spec.Figures, FigureSpec{Name: "figure3", Dataset: "address", Task: "segmentation", X: XTrainFraction, Y: "span_f1"})
	for _, tc := range []struct {
		name string
		runs []Run
		spec Spec
		want string
	}{
		{"figure without runs", curveRuns(), spec, `figure "figure3": no runs for address/segmentation`},
		{"no runs", nil, curveSpec(), "no runs"},
		{"invalid spec", curveRuns(), Spec{Trainers: []string{"x", "x"}}, "listed twice"},
		{"comparison with unknown trainer", curveRuns(), Spec{Comparisons: []Comparison{{"crf", "margin"}}}, `unknown trainer "crf"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			err := WriteAll(dir, tc.runs, tc.spec)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("WriteAll error %v, want one containing %q", err, tc.want)
			}
			if names := dirNames(t, dir); len(names) > 0 {
				t.Errorf("WriteAll failed but wrote %q", names)
			}
		})
	}
}

// writeResultsDir writes runs.jsonl (with a torn last line if torn) and,
// unless spec is nil, report.json into a new directory.
func writeResultsDir(t testing.TB, runs []Run, spec *Spec, torn bool) string {
	t.Helper()
	dir := t.TempDir()
	var buf bytes.Buffer
	if err := WriteRuns(&buf, runs); err != nil {
		t.Fatal(err)
	}
	if torn {
		buf.WriteString(`{"key":"half","dataset":"co`)
	}
	if err := os.WriteFile(filepath.Join(dir, RunsFile), buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if spec != nil {
		if err := WriteSpec(filepath.Join(dir, SpecFile), *spec); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestReportDir(t *testing.T) {
	spec := curveSpec()
	dir := writeResultsDir(t, curveRuns(), &spec, true)
	res, err := ReportDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Files, curveFiles()) {
		t.Errorf("Files = %q, want %q", res.Files, curveFiles())
	}
	for _, name := range res.Files {
		if _, err := os.Stat(filepath.Join(dir, name)); err != nil {
			t.Error(err)
		}
	}
	var le *LineError
	if len(res.Warnings) != 1 || !errors.As(res.Warnings[0], &le) || le.Line != len(curveRuns())+1 {
		t.Errorf("Warnings = %v, want the torn last line", res.Warnings)
	}
	if res.Table == nil || !slices.Equal(res.Table.Trainers, curveTrainers()) {
		t.Errorf("Table = %+v, want columns %q", res.Table, curveTrainers())
	}
	index, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	for _, link := range []string{RunsFile, SpecFile} {
		if !bytes.Contains(index, []byte(fmt.Sprintf(`<a href="%s">`, link))) {
			t.Errorf("index.html does not link %s", link)
		}
	}
}

func TestReportDirWithoutSpec(t *testing.T) {
	dir := writeResultsDir(t, curveRuns(), nil, false)
	res, err := ReportDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"table.md", "table.txt", "table.csv", "table.tex", "index.html"}
	if !slices.Equal(res.Files, want) {
		t.Errorf("Files = %q, want %q", res.Files, want)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0].Error(), "no report.json") {
		t.Errorf("Warnings = %v, want one about the missing report.json", res.Warnings)
	}
}

func TestReportDirErrors(t *testing.T) {
	spec := curveSpec()
	t.Run("no runs file", func(t *testing.T) {
		if _, err := ReportDir(t.TempDir()); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("ReportDir error %v, want one wrapping ErrNotExist", err)
		}
	})
	t.Run("bad spec", func(t *testing.T) {
		dir := writeResultsDir(t, curveRuns(), &spec, false)
		if err := os.WriteFile(filepath.Join(dir, SpecFile), []byte(`{"trainer": []}`), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := ReportDir(dir); err == nil || !strings.Contains(err.Error(), "unknown field") {
			t.Errorf("ReportDir error %v, want unknown field", err)
		}
	})
}

// BenchmarkReportDir renders a directory of 200 runs: 4 trainers × 5
// train fractions × 10 splits, with two figures.
func BenchmarkReportDir(b *testing.B) {
	var runs []Run
	for ti, tr := range curveTrainers() {
		for _, fr := range []float64{0.1, 0.25, 0.5, 0.75, 1} {
			for s := range 10 {
				runs = append(runs, Run{
					Key: fmt.Sprintf("%s-%g-%d", tr, fr, s), Dataset: "cora", Task: "sequence",
					Trainer: tr, Split: s, TrainFraction: fr,
					Metrics:      map[string]float64{"token_error": 20 - 10*fr - float64(ti) + 0.1*float64(s%3), "span_f1": 70 + 20*fr},
					TrainSeconds: 10 * fr * float64(1+ti),
				})
			}
		}
	}
	spec := curveSpec()
	dir := writeResultsDir(b, runs, &spec, false)
	for b.Loop() {
		if _, err := ReportDir(dir); err != nil {
			b.Fatal(err)
		}
	}
}
