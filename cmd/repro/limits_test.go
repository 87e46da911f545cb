package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/internal/readlimit"
)

// TestLimitsDoc checks every bound docs/limits.md states against the
// constant the code applies, and that the doc states every one of them.
func TestLimitsDoc(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	bytesOf := func(n int) string { return fmt.Sprintf("%d bytes", n) }
	want := map[string]string{
		"config file":                  readlimit.Size(readlimit.ConfigBytes),
		"config name":                  bytesOf(config.MaxNameBytes),
		"unit file (`units/KEY.json`)": readlimit.Size(readlimit.UnitBytes),
		"plan (`plan.jsonl`)":          readlimit.Size(readlimit.PlanBytes),
		"one line of a plan":           readlimit.Size(experiments.PlanLineBytes),
		"split file":                   readlimit.Size(readlimit.SplitBytes),
		"data file, decompressed (`repro train`, `eval`)": readlimit.Size(readlimit.DataBytes),
		"one line of a data file":                         readlimit.Size(datasets.DefaultMaxLine),
		"one line of a treebank (CoNLL-X/U)":              readlimit.Size(datasets.TreebankMaxLine),
		"model file":                                      readlimit.Size(readlimit.ModelBytes),
		"one word of an error message":                    bytesOf(maxWordBytes),
	}
	seen := map[string]bool{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 5 || strings.TrimSpace(cells[1]) == "what" || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
			continue
		}
		what, bound := strings.TrimSpace(cells[1]), strings.TrimSpace(cells[2])
		w, ok := want[what]
		switch {
		case !ok:
			t.Errorf("docs/limits.md states a bound the test does not know: %q", what)
		case w != bound:
			t.Errorf("docs/limits.md: %s: %s, the code's is %s", what, bound, w)
		}
		seen[what] = true
	}
	for what := range want {
		if !seen[what] {
			t.Errorf("docs/limits.md does not state the bound on %s", what)
		}
	}
	// The example error is the one TestHostileInputs sees ("a 2 MiB line").
	if !strings.Contains(string(b), "long.txt:70: line too long: over the "+readlimit.Size(datasets.DefaultMaxLine)+" bound on one line (--max-line raises the bound)") {
		t.Error("docs/limits.md's example error is not the one the hostile-input test sees")
	}
}
