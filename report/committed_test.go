package report

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// notRendered are the files of a results directory that repro run writes
// and ReportDir does not: its inputs, the effective config, and package
// experiments' owner record (ownerFile), cost record (CostFile), plan
// (PlanFile) and lock (lockName), which this package cannot import; the
// last two are working files that .gitignore keeps out of the repository.
var notRendered = []string{RunsFile, SpecFile, "config.yaml", ".owner.json", "cost.json", "plan.jsonl", ".lock"}

// Every results directory in the repository holds what ReportDir (repro report)
// renders from its runs.jsonl and report.json at this code, byte for byte:
// the tables, paper comparisons, figures and index.html are repro's output,
// not edited by hand, and a change to the rendering cannot land without
// the committed directories rendered again (repro report DIR). A file that
// the rendering no longer writes is reported as stale.
func TestCommittedResultsRenderAsCommitted(t *testing.T) {
	runsFiles, err := filepath.Glob(filepath.Join("..", "results", "*", RunsFile))
	if err != nil {
		t.Fatal(err)
	}
	if len(runsFiles) == 0 {
		t.Skip("no committed results beside this package")
	}
	for _, runs := range runsFiles {
		committed := filepath.Dir(runs)
		name := filepath.Base(committed)
		if name == "quickstart" {
			continue // the README's smoke run, not committed
		}
		shown := filepath.Join("results", name) // as the repository's root names it
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			dir := filepath.Join(t.TempDir(), name) // index.html's title is the directory's name
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			for _, input := range []string{RunsFile, SpecFile, "config.yaml"} { // index.html shows the config
				b, err := os.ReadFile(filepath.Join(committed, input))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, input), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := ReportDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range res.Warnings {
				t.Errorf("%s: %v", shown, w)
			}
			for _, f := range res.Files {
				want, err := os.ReadFile(filepath.Join(committed, f))
				if err != nil {
					t.Errorf("%s renders %s, which is missing: run repro report %s", shown, f, shown)
					continue
				}
				got, err := os.ReadFile(filepath.Join(dir, f))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s differs from what this code renders from %s: run repro report %s", filepath.Join(shown, f), RunsFile, shown)
				}
			}
			entries, err := os.ReadDir(committed)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if e.IsDir() || slices.Contains(notRendered, e.Name()) || slices.Contains(res.Files, e.Name()) {
					continue
				}
				if matched, _ := filepath.Match(".staging-*", e.Name()); matched {
					continue
				}
				t.Errorf("%s: the report no longer writes it (stale, or written by hand)", filepath.Join(shown, e.Name()))
			}
		})
	}
}
