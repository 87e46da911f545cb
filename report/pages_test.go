package report

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// pagesFixture writes fixtureRuns as results/fixture with a paper value,
// and a readings file with the given section body, below a temporary root.
func pagesFixture(t *testing.T, section string) (results, readings string) {
	t.Helper()
	root := t.TempDir()
	results = filepath.Join(root, "results")
	dir := filepath.Join(results, "fixture")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var runs bytes.Buffer
	if err := WriteRuns(&runs, fixtureRuns()); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, RunsFile), runs.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	opt := fixtureOptions()
	spec := Spec{Trainers: opt.Trainers, Comparisons: opt.Comparisons,
		Paper: &PaperReference{Source: "A paper, Table 1", Values: []PaperValue{{Dataset: "cora", Task: "sequence", Trainer: "margin", Metrics: map[string]float64{"token_error": 12.3, "span_f1": 74.9}}}}}
	if err := WriteSpec(filepath.Join(dir, SpecFile), spec); err != nil {
		t.Fatal(err)
	}
	readings = filepath.Join(root, "readings.md")
	text := "<!-- how to write readings -->\nThe intro.\n\n## fixture\n" + section
	if err := os.WriteFile(readings, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return results, readings
}

func TestLoadPagesRendersReadings(t *testing.T) {
	t.Parallel()
	results, readings := pagesFixture(t, `paper: A 2008
what: Table 1
headline: cora/sequence
outcome: margin {{(cell "" "cora/sequence" "margin").Tok}} vs {{(paper "" "cora/sequence" "margin").Tok}}

PosLearn {{(test "" "cora/sequence" "poslearn" "margin" "span_f1").Diff}} (p = {{(test "" "cora/sequence" "poslearn" "margin" "span_f1").P}}, {{(test "" "cora/sequence" "poslearn" "margin" "span_f1").Test}}).
`)
	p, err := LoadPages(results, readings)
	if err != nil {
		t.Fatal(err)
	}
	if p.Intro != "The intro." {
		t.Errorf("intro %q, want the text after the file's comment", p.Intro)
	}
	d := p.Dirs[0]
	// fixtureRuns: margin's mean token error over splits 0-5 is 12.4 and
	// poslearn's span F1 leads margin's on the five shared splits.
	if d.Outcome != "margin 12.4 vs 12.3" {
		t.Errorf("outcome %q", d.Outcome)
	}
	if !strings.HasPrefix(d.Body, "PosLearn +") || !strings.HasSuffix(d.Body, "paired t-test).") {
		t.Errorf("body %q", d.Body)
	}
	var md, html, table bytes.Buffer
	for _, w := range []func() error{
		func() error { return p.WriteResultsMarkdown(&md) },
		func() error { return p.WriteIndexHTML(&html) },
		func() error { return p.WriteReproducedTable(&table) },
	} {
		if err := w(); err != nil {
			t.Fatal(err)
		}
	}
	for _, want := range []string{"## fixture", "**Outcome.** margin 12.4 vs 12.3", "Against the paper: A paper, Table 1", "(../results/fixture/index.html)"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("results.md lacks %q:\n%s", want, md.String())
		}
	}
	for _, want := range []string{`<a href="fixture/index.html">fixture</a>`, "<td>paper</td><td class=\"num\">12.3/74.9</td>", "Row cora/sequence:"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("index.html lacks %q:\n%s", want, html.String())
		}
	}
	if want := "| A 2008 | Table 1 | [fixture.yaml](configs/fixture.yaml) | [fixture/](results/fixture/index.html) | margin 12.4 vs 12.3 |\n"; !strings.HasSuffix(table.String(), want) {
		t.Errorf("table:\n%s\nwant its last line %q", table.String(), want)
	}
}

// A reading that quotes what the results do not hold fails, naming the
// readings file and the section's line.
func TestLoadPagesErrors(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ name, section, want string }{
		{"no such row", "paper: A\nwhat: B\noutcome: {{(cell \"\" \"cora/parsing\" \"margin\").Tok}}\n", `readings.md:4: template: fixture outcome:1:3: executing "fixture outcome" at <cell "" "cora/parsing" "margin">: error calling cell: results/fixture has no row "cora/parsing"`},
		{"no runs", "paper: A\nwhat: B\noutcome: {{(cell \"\" \"cora/sequence\" \"approx-slack\").Tok}}\n", `has no runs of "approx-slack"`},
		{"no such test", "paper: A\nwhat: B\noutcome: {{(test \"\" \"cora/sequence\" \"slack\" \"margin\" \"token_error\").P}}\n", "no comparison slack vs margin on row cora/sequence"},
		{"no paper value", "paper: A\nwhat: B\noutcome: {{(paper \"\" \"cora/sequence\" \"slack\").Tok}}\n", "the paper has no value for cora/sequence slack"},
		{"no such directory", "paper: A\nwhat: B\noutcome: {{(cell \"cora\" \"cora/sequence\" \"margin\").Tok}}\n", `no results directory "cora"`},
		{"unknown key", "paper: A\nwhat: B\nheadlines: x\noutcome: x\n", `readings.md:7: want "key: value"`},
		{"no outcome", "paper: A\nwhat: B\n", `readings.md:4: section "fixture" needs paper, what and outcome`},
		{"bad headline", "paper: A\nwhat: B\nheadline: cora/x\noutcome: x\n", `readings.md:4: headline: results/fixture has no row "cora/x"`},
		{"no directory", "paper: A\nwhat: B\noutcome: x\n\n## other\npaper: A\nwhat: B\noutcome: x\n", `section "other": no other/runs.jsonl`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			results, readings := pagesFixture(t, tc.section)
			_, err := LoadPages(results, readings)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
	t.Run("directory without a section", func(t *testing.T) {
		t.Parallel()
		results, _ := pagesFixture(t, "paper: A\nwhat: B\noutcome: x\n")
		empty := filepath.Join(t.TempDir(), "readings.md")
		if err := os.WriteFile(empty, []byte("intro\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := LoadPages(results, empty); err == nil || !strings.Contains(err.Error(), "no section for") {
			t.Errorf("error %v, want no section for results/fixture", err)
		}
	})
}

func TestReplaceGenerated(t *testing.T) {
	t.Parallel()
	doc := "a\n" + GeneratedBegin + "\nold\n" + GeneratedEnd + "\nb\n"
	got, err := ReplaceGenerated([]byte(doc), []byte("new\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "a\n" + GeneratedBegin + "\nnew\n" + GeneratedEnd + "\nb\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
	for _, bad := range []string{"a\n", GeneratedEnd + "\n" + GeneratedBegin + "\n", doc + doc} {
		if _, err := ReplaceGenerated([]byte(bad), nil); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
