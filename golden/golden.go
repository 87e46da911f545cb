// Package golden compares the metrics of a run with committed golden values,
// so that CI notices when a change moves an accuracy number. Each metric has
// an absolute tolerance declared in the golden file itself.
package golden

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/report"
)

// File is a golden file: the config that produced it, per-metric
// tolerances, and one entry per final test evaluation.
type File struct {
	Config     string             `json:"config"`
	Version    string             `json:"version,omitempty"` // code version that wrote it
	Tolerances map[string]float64 `json:"tolerances"`        // metric → allowed |now − golden|
	Entries    []Entry            `json:"entries"`
}

// Entry holds the golden metrics of one (dataset, task, trainer, fraction, split).
type Entry struct {
	Dataset       string             `json:"dataset"`
	Task          string             `json:"task"`
	Trainer       string             `json:"trainer"`
	TrainFraction float64            `json:"train_fraction"`
	Split         int                `json:"split"`
	Metrics       map[string]float64 `json:"metrics"`
}

func (e Entry) id() string {
	return fmt.Sprintf("%s/%s %s %.0f%% split %d", e.Dataset, e.Task, e.Trainer, 100*e.TrainFraction, e.Split)
}

// DefaultTolerances are written by FromRuns: in percentage points. The code
// is deterministic, so on one platform the numbers repeat exactly; the
// tolerance absorbs floating-point differences between platforms. A
// metric without one of its own (every metric a task declares is
// checked) gets defaultTolerance.
func DefaultTolerances() map[string]float64 {
	return map[string]float64{"token_error": 0.2, "span_f1": 0.5}
}

// defaultTolerance is the tolerance of a metric DefaultTolerances does not
// name, in its units.
const defaultTolerance = 0.2

// metricsOf are the values a golden file holds for r: every metric it
// has but those that measure the machine (metrics.Def.Measured, e.g.
// qp_seconds, which no tolerance would hold, as train_seconds is not
// held), and the chosen C.
func metricsOf(r report.Run) map[string]float64 {
	m := maps.Clone(r.Metrics)
	if m == nil {
		m = map[string]float64{}
	}
	maps.DeleteFunc(m, func(name string, _ float64) bool {
		d, ok := metrics.Lookup(name)
		return ok && d.Measured
	})
	m["C"] = r.Params["C"]
	return m
}

// FromRuns builds a golden file from runs, keeping any tolerances given.
func FromRuns(runs []report.Run, config, version string, tolerances map[string]float64) File {
	if tolerances == nil {
		tolerances = DefaultTolerances()
	}
	tolerances = maps.Clone(tolerances)
	f := File{Config: config, Version: version, Tolerances: tolerances}
	for _, r := range runs {
		m := map[string]float64{}
		for k, v := range metricsOf(r) {
			if _, ok := tolerances[k]; !ok && k != "C" {
				tolerances[k] = defaultTolerance
			}
			if _, ok := tolerances[k]; ok {
				m[k] = v
			}
		}
		f.Entries = append(f.Entries, Entry{Dataset: r.Dataset, Task: r.Task, Trainer: r.Trainer, TrainFraction: r.TrainFraction, Split: r.Split, Metrics: m})
	}
	slices.SortFunc(f.Entries, func(a, b Entry) int { return strings.Compare(a.id(), b.id()) })
	return f
}

// Diff is one compared value.
type Diff struct {
	Entry     string
	Metric    string
	Golden    float64
	Now       float64
	Tolerance float64
	Problem   string // "" when within tolerance; else what is wrong
}

// better says which way a metric improves: -1 lower, +1 higher, 0 for a
// value that only changes (C, the chosen hyperparameter).
func better(name string) int {
	d, ok := metrics.Lookup(name)
	switch {
	case !ok:
		return 0
	case d.Lower():
		return -1
	}
	return 1
}

// Worse reports whether d is a problem in the bad direction: a metric
// that got worse, a missing evaluation, or any other problem that is not
// an improvement. An improvement outside the tolerance fails the check
// too (the golden file is out of date), but is not called a regression.
func (d Diff) Worse() bool {
	if d.Problem == "" {
		return false
	}
	switch better(d.Metric) {
	case -1:
		return !(d.Now < d.Golden)
	case 1:
		return !(d.Now > d.Golden)
	}
	return true
}

// direction words the change of an outside-tolerance value.
func (d Diff) direction() string {
	delta := fmt.Sprintf("%+.3g", d.Now-d.Golden)
	switch {
	case math.IsNaN(d.Now):
		return "worse (NaN)"
	case better(d.Metric) == -1 && d.Now < d.Golden,
		better(d.Metric) == 1 && d.Now > d.Golden:
		return "better (" + delta + ")"
	case better(d.Metric) == -1:
		return "worse (" + delta + ", lower is better)"
	case better(d.Metric) == 1:
		return "worse (" + delta + ", higher is better)"
	}
	return "changed (" + delta + ")"
}

// Compare checks runs against f. Every golden value must be matched within
// its tolerance; a missing or an unexpected evaluation is a problem too, and
// so is a metric a run has that its golden entry lacks (every metric a
// task declares is checked).
func Compare(f File, runs []report.Run) []Diff {
	now := map[string]report.Run{}
	for _, r := range runs {
		e := Entry{Dataset: r.Dataset, Task: r.Task, Trainer: r.Trainer, TrainFraction: r.TrainFraction, Split: r.Split}
		now[e.id()] = r
	}
	var diffs []Diff
	seen := map[string]bool{}
	for _, e := range f.Entries {
		id := e.id()
		seen[id] = true
		r, ok := now[id]
		metrics := slices.Sorted(mapsKeys(e.Metrics))
		if !ok {
			diffs = append(diffs, Diff{Entry: id, Metric: "-", Problem: "missing from this run"})
			continue
		}
		got := metricsOf(r)
		for _, m := range slices.Sorted(mapsKeys(got)) {
			if _, ok := e.Metrics[m]; !ok && m != "C" {
				// A metric the task declares is checked, or the file is
				// out of date.
				diffs = append(diffs, Diff{Entry: id, Metric: m, Now: got[m], Problem: "not in the golden file"})
			}
		}
		for _, m := range metrics {
			tol, want := f.Tolerances[m], e.Metrics[m]
			d := Diff{Entry: id, Metric: m, Golden: want, Now: got[m], Tolerance: tol}
			if v, known := got[m]; !known {
				d.Problem = "unknown metric"
			} else if math.IsNaN(v) || math.Abs(v-want) > tol {
				d.Problem = "outside tolerance: " + d.direction()
			}
			diffs = append(diffs, d)
		}
	}
	var extra []string
	for id := range now {
		if !seen[id] {
			extra = append(extra, id)
		}
	}
	slices.Sort(extra)
	for _, id := range extra {
		diffs = append(diffs, Diff{Entry: id, Metric: "-", Problem: "not in the golden file"})
	}
	return diffs
}

func mapsKeys(m map[string]float64) func(func(string) bool) {
	return func(yield func(string) bool) {
		for k := range m {
			if !yield(k) {
				return
			}
		}
	}
}

// Failed counts the diffs with a problem.
func Failed(diffs []Diff) int {
	n := 0
	for _, d := range diffs {
		if d.Problem != "" {
			n++
		}
	}
	return n
}

// WriteDiffs prints a readable table: every problem, or with all=true every
// compared value.
func WriteDiffs(w io.Writer, diffs []Diff, all bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "evaluation\tmetric\tgolden\tnow\ttolerance\tstatus")
	for _, d := range diffs {
		if d.Problem == "" && !all {
			continue
		}
		status := "ok"
		switch {
		case d.Problem != "" && d.Worse():
			status = "REGRESSION: " + d.Problem
		case d.Problem != "":
			status = "IMPROVEMENT: " + d.Problem + "; update the golden file if intended"
		}
		if d.Metric == "-" {
			fmt.Fprintf(tw, "%s\t-\t-\t-\t-\t%s\n", d.Entry, status)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%.4g\t%.4g\t±%g\t%s\n", d.Entry, d.Metric, d.Golden, d.Now, d.Tolerance, status)
	}
	return tw.Flush()
}

// Read parses a golden file; unknown fields are an error.
func Read(path string) (File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return File{}, err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return File{}, fmt.Errorf("%s: %w", path, err)
	}
	for m := range f.Tolerances {
		if f.Tolerances[m] < 0 || math.IsNaN(f.Tolerances[m]) {
			return File{}, fmt.Errorf("%s: tolerance of %q must be a non-negative number", path, m)
		}
	}
	return f, nil
}

// Marshal renders f as indented JSON.
func (f File) Marshal() ([]byte, error) {
	b, err := json.MarshalIndent(f, "", "  ")
	return append(b, '\n'), err
}
