package experiments

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/report"
)

// costRow is one line of the README's table of what regenerating each
// committed config costs.
type costRow struct {
	config, version string
	units           int
	wallMinutes     float64
	cpuSeconds      float64
	largestUnitMiB  float64
	line            int
}

// readmeCostRows parses the table under "### What regenerating the results
// costs" in README.md.
func readmeCostRows(t *testing.T, readme string) []costRow {
	t.Helper()
	lines := strings.Split(readme, "\n")
	start := -1
	for i, l := range lines {
		if l == "### What regenerating the results costs" {
			start = i
			break
		}
	}
	if start < 0 {
		t.Fatal(`README has no "### What regenerating the results costs" section`)
	}
	var rows []costRow
	inTable := false
	for i := start + 1; i < len(lines) && !strings.HasPrefix(lines[i], "#"); i++ {
		l := strings.TrimSpace(lines[i])
		if !strings.HasPrefix(l, "|") {
			if inTable {
				break
			}
			continue
		}
		inTable = true
		cells := strings.Split(strings.Trim(l, "|"), "|")
		for j := range cells {
			cells[j] = strings.TrimSpace(cells[j])
		}
		if len(cells) != 6 {
			t.Fatalf("README.md:%d: cost table row has %d cells, want 6: %q", i+1, len(cells), l)
		}
		if cells[0] == "config" || strings.HasPrefix(cells[0], "---") {
			continue
		}
		units, err := strconv.Atoi(cells[2])
		if err != nil {
			t.Fatalf("README.md:%d: units %q: %v", i+1, cells[2], err)
		}
		wallText, _, _ := strings.Cut(cells[3], " ") // "3.5 (1 worker)"
		wall, err := strconv.ParseFloat(wallText, 64)
		if err != nil {
			t.Fatalf("README.md:%d: wall minutes %q: %v", i+1, cells[3], err)
		}
		cpu, err := strconv.ParseFloat(cells[4], 64)
		if err != nil {
			t.Fatalf("README.md:%d: CPU seconds %q: %v", i+1, cells[4], err)
		}
		mib, err := strconv.ParseFloat(cells[5], 64)
		if err != nil {
			t.Fatalf("README.md:%d: largest unit %q: %v", i+1, cells[5], err)
		}
		rows = append(rows, costRow{config: cells[0], version: cells[1], units: units, wallMinutes: wall, cpuSeconds: cpu, largestUnitMiB: mib, line: i + 1})
	}
	if len(rows) == 0 {
		t.Fatal("README's cost section has no table rows")
	}
	return rows
}

// The README's regeneration cost table describes the committed results: it
// names every results directory, each at the code version its runs.jsonl
// records, and no final run there peaked above the largest unit it states. The
// table is written by hand from the runs' output, so this is what keeps it
// from going stale when a config is regenerated.
func TestREADMECostTableMatchesResults(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := readmeCostRows(t, string(readme))
	listed := make(map[string]bool)
	for _, row := range rows {
		if listed[row.config] {
			t.Errorf("README.md:%d: config %s listed twice", row.line, row.config)
		}
		listed[row.config] = true
		path := filepath.Join("..", "results", row.config, report.RunsFile)
		runs, _, err := report.ReadRunsFile(path)
		if err != nil {
			t.Errorf("README.md:%d: %v", row.line, err)
			continue
		}
		largest := 0.0
		versions := make(map[string]int)
		for _, r := range runs {
			largest = math.Max(largest, r.PeakMiB)
			versions[r.Version]++
		}
		if largest > row.largestUnitMiB+0.5 {
			t.Errorf("README.md:%d: %s: largest unit %g MiB, but a run in %s peaked at %.1f MiB", row.line, row.config, row.largestUnitMiB, path, largest)
		}
		for v, n := range versions {
			if row.version == "" || !strings.HasPrefix(v, row.version) {
				t.Errorf("README.md:%d: %s at version %q, but %d of %d runs in %s are at %q", row.line, row.config, row.version, n, len(runs), path, v)
			}
		}
		checkCostRecord(t, row)
	}
	committed, err := filepath.Glob(filepath.Join("..", "results", "*", "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, path := range committed {
		name := filepath.Base(filepath.Dir(path))
		if name == "quickstart" {
			continue // the README's smoke run, not committed
		}
		if !listed[name] {
			t.Errorf("%s is committed, but the README's cost table has no row for %s", path, name)
		}
	}
}

// checkCostRecord compares a cost table row with the cost.json that
// `repro run` wrote beside the config's committed runs, where there is one
// (runs regenerated before it existed have none; their row comes from
// /usr/bin/time).
func checkCostRecord(t *testing.T, row costRow) {
	t.Helper()
	path := filepath.Join("..", "results", row.config, CostFile)
	c, err := ReadCost(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range costMismatches(row, c) {
		t.Errorf("README.md:%d: %s: %s", row.line, path, m)
	}
}

// costMismatches lists where a cost table row and a cost record disagree,
// beyond the README's rounding.
func costMismatches(row costRow, c RunCost) []string {
	var out []string
	for _, check := range []struct {
		what         string
		readme, file float64
		tolerance    float64 // the README's rounding
	}{
		{"units", float64(row.units), float64(c.UnitsComputed + c.UnitsCached), 0},
		{"wall minutes", row.wallMinutes, c.WallSeconds / 60, 0.05},
		{"CPU seconds", row.cpuSeconds, c.CPUSeconds, 0.5},
		{"largest unit MiB", row.largestUnitMiB, c.LargestUnitMiB, 0.5},
	} {
		if math.Abs(check.readme-check.file) > check.tolerance+1e-9 {
			out = append(out, fmt.Sprintf("%s: README %g, record %.2f", check.what, check.readme, check.file))
		}
	}
	if row.version == "" || !strings.HasPrefix(c.Version, row.version) || !version.Exact(c.Version) {
		out = append(out, fmt.Sprintf("version: README %q, record %q", row.version, c.Version))
	}
	if !c.Whole() {
		out = append(out, fmt.Sprintf("%d units computed, %d from the store: not the whole config's cost", c.UnitsComputed, c.UnitsCached))
	}
	return out
}

func TestCostMismatches(t *testing.T) {
	row := costRow{config: "ocr", version: "9937bcc", units: 100, wallMinutes: 8.2, cpuSeconds: 950, largestUnitMiB: 60}
	whole := RunCost{Version: "9937bcc4efdf", UnitsComputed: 100, WallSeconds: 8.2 * 60, CPUSeconds: 950.4, LargestUnitMiB: 59.6}
	for _, tc := range []struct {
		name string
		edit func(*RunCost)
		want []string // substrings, one per mismatch
	}{
		{"agrees within rounding", func(*RunCost) {}, nil},
		{"wall", func(c *RunCost) { c.WallSeconds = 9 * 60 }, []string{"wall minutes"}},
		{"CPU", func(c *RunCost) { c.CPUSeconds = 951 }, []string{"CPU seconds"}},
		{"memory", func(c *RunCost) { c.LargestUnitMiB = 61 }, []string{"largest unit MiB"}},
		{"version", func(c *RunCost) { c.Version = "e640736" }, []string{"version"}},
		{"a build no version names", func(c *RunCost) { c.Version = "9937bcc4efdf+dirty" }, []string{"version"}},
		{"units from the store", func(c *RunCost) { c.UnitsComputed, c.UnitsCached = 40, 60 }, []string{"from the store"}},
		{"units", func(c *RunCost) { c.UnitsComputed = 99 }, []string{"units"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := whole
			tc.edit(&c)
			got := costMismatches(row, c)
			if len(got) != len(tc.want) {
				t.Fatalf("mismatches %q, want %d", got, len(tc.want))
			}
			for i, w := range tc.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("mismatch %q, want it about %q", got[i], w)
				}
			}
		})
	}
}

// A whole run replaces the record; a run that takes units from the store
// keeps it only while it describes the outputs written.
func TestRecordCost(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, CostFile)
	whole := RunCost{Version: "v1", UnitsComputed: 3, WallSeconds: 2}
	at := func(versions ...string) []report.Run {
		var runs []report.Run
		for _, v := range versions {
			runs = append(runs, report.Run{Version: v})
		}
		return runs
	}
	steps := []struct {
		name string
		run  RunCost
		runs []report.Run
		want CostRecorded
	}{
		{"a whole run", whole, at("v1", "v1"), CostWritten},
		{"a resumed run of the same units", RunCost{Version: "v1", UnitsComputed: 1, UnitsCached: 2}, at("v1", "v1"), CostKept},
		{"another build, every unit from the store", RunCost{Version: "v2", UnitsCached: 3}, at("v1", "v1"), CostKept},
		{"a grown config: more units than the record's", RunCost{Version: "v1", UnitsComputed: 1, UnitsCached: 3}, at("v1", "v1"), CostRemoved},
		{"no record left", RunCost{Version: "v1", UnitsCached: 4}, at("v1", "v1"), CostAbsent},
		{"a whole run again", whole, at("v1", "v1"), CostWritten},
		{"a run written by another version", RunCost{Version: "v2", UnitsComputed: 1, UnitsCached: 2}, at("v1", "v2"), CostRemoved},
		{"a whole run of a build no version names", RunCost{Version: "unknown", UnitsComputed: 3}, at("unknown"), CostWritten},
		{"its outputs again from the store", RunCost{Version: "unknown", UnitsCached: 3}, at("unknown"), CostRemoved},
	}
	for _, step := range steps {
		got, err := RecordCost(dir, step.run, step.runs)
		if err != nil || got != step.want {
			t.Fatalf("%s: RecordCost = %v, %v; want %v", step.name, got, err, step.want)
		}
		_, statErr := os.Stat(path)
		if exists := statErr == nil; exists != (got == CostWritten || got == CostKept) {
			t.Fatalf("%s: %v, but the record exists: %v", step.name, got, exists)
		}
	}
	if c, err := ReadCost(path); err == nil {
		t.Errorf("a record survived: %+v", c)
	}
	if err := os.WriteFile(path, []byte("{torn"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := RecordCost(dir, RunCost{Version: "v1", UnitsCached: 3}, at("v1")); err != nil || got != CostRemoved {
		t.Errorf("a torn record: RecordCost = %v, %v; want it removed", got, err)
	}
}
