package experiments

import (
	"encoding/json"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

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
		path := filepath.Join("..", "results", row.config, "runs.jsonl")
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
	path := filepath.Join("..", "results", row.config, "cost.json")
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Version        string  `json:"version"`
		UnitsComputed  int     `json:"units_computed"`
		UnitsCached    int     `json:"units_cached"`
		WallSeconds    float64 `json:"wall_seconds"`
		CPUSeconds     float64 `json:"cpu_seconds"`
		LargestUnitMiB float64 `json:"largest_unit_mib"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
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
			t.Errorf("README.md:%d: %s: %s %g, but %s records %.2f", row.line, row.config, check.what, check.readme, path, check.file)
		}
	}
	if !strings.HasPrefix(c.Version, row.version) {
		t.Errorf("README.md:%d: %s at version %q, but %s records %q", row.line, row.config, row.version, path, c.Version)
	}
	if c.UnitsCached > 0 {
		t.Errorf("%s: %d units came from the store: the cost is not the whole config's", path, c.UnitsCached)
	}
}
