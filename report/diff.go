package report

import (
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"

	"github.com/maxmargin/repro/metrics"
)

// measuredFields are the JSON fields of a run record, of its selection
// candidates and of its curve points, that measure the machine or name the
// code version: two runs of the same unit differ in them by nature.
var measuredFields = []string{"train_seconds", "cpu_seconds", "peak_mib", "version"}

// Diff compares two run records field by field as runs.jsonl stores them,
// leaving out the times, memory and code version (of the run, of its
// validation candidates and of its curve points), the metrics that are
// measurements of the machine (metrics.Def.Measured) and the top-level
// fields named in ignore. A field one record lacks equals an empty one. A metric
// the old record lacks (in the run, a candidate or a curve point) is one
// the code added since, not a difference: records written before a task
// declared it verify against a rerun that has it. Metrics are compared one
// by one, as "metrics.NAME".
// Each difference is "field: old, now new", or just the field's name for
// the long ones (per-sentence outcomes, curves, the selection grid); none
// means the runs agree in everything a rerun reproduces.
func Diff(old, now Run, ignore ...string) ([]string, error) {
	now = withoutNewMetrics(old, now)
	a, err := comparedFields(old, ignore)
	if err != nil {
		return nil, err
	}
	b, err := comparedFields(now, ignore)
	if err != nil {
		return nil, err
	}
	union := maps.Clone(a)
	maps.Copy(union, b)
	var diffs []string
	for _, f := range slices.Sorted(maps.Keys(union)) {
		va, vb := a[f], b[f]
		if reflect.DeepEqual(va, vb) {
			continue
		}
		switch f {
		case "outcomes", "curve", "selection":
			diffs = append(diffs, f)
		default:
			diffs = append(diffs, fmt.Sprintf("%s: %v, now %v", f, orNone(va), orNone(vb)))
		}
	}
	return diffs, nil
}

// withoutNewMetrics returns now without the metrics old lacks, in the run,
// its candidates and its curve points (matched by position).
func withoutNewMetrics(old, now Run) Run {
	keep := func(o, n map[string]float64) map[string]float64 {
		out := map[string]float64{}
		for k, v := range n {
			if _, ok := o[k]; ok {
				out[k] = v
			}
		}
		return out
	}
	now.Metrics = keep(old.Metrics, now.Metrics)
	now.Selection = slices.Clone(now.Selection)
	for i := range now.Selection {
		if i < len(old.Selection) {
			now.Selection[i].Metrics = keep(old.Selection[i].Metrics, now.Selection[i].Metrics)
		}
	}
	now.Curve = slices.Clone(now.Curve)
	for i := range now.Curve {
		if i < len(old.Curve) {
			now.Curve[i].Metrics = keep(old.Curve[i].Metrics, now.Curve[i].Metrics)
		}
	}
	return now
}

// orNone shows a field that one of two runs lacks.
func orNone(v any) any {
	if v == nil {
		return "(none)"
	}
	return v
}

// comparedFields returns run's JSON fields, as runs.jsonl holds them, less
// the measured ones and those in ignore.
func comparedFields(run Run, ignore []string) (map[string]any, error) {
	b, err := json.Marshal(run)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	for _, f := range ignore {
		delete(m, f)
	}
	dropMeasured(m)
	for _, nested := range []string{"selection", "curve"} {
		if items, ok := m[nested].([]any); ok {
			for _, item := range items {
				if obj, ok := item.(map[string]any); ok {
					dropMeasured(obj)
				}
			}
		}
	}
	if ms, ok := m["metrics"].(map[string]any); ok {
		delete(m, "metrics")
		for k, v := range ms {
			m["metrics."+k] = v
		}
	}
	for f, v := range m {
		if isEmpty(v) {
			delete(m, f) // null, [] and {} alike: files of other code write either
		}
	}
	return m, nil
}

// dropMeasured removes measuredFields from a record or one of its items,
// and from its metrics those that measure the machine (metrics.Def.Measured,
// e.g. qp_seconds), which differ between two runs as the times do.
func dropMeasured(m map[string]any) {
	for _, f := range measuredFields {
		delete(m, f)
	}
	if ms, ok := m["metrics"].(map[string]any); ok {
		for name := range ms {
			if d, ok := metrics.Lookup(name); ok && d.Measured {
				delete(ms, name)
			}
		}
	}
}

// isEmpty reports whether a JSON value is null, [] or {}.
func isEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return true
	case []any:
		return len(v) == 0
	case map[string]any:
		return len(v) == 0
	}
	return false
}

// RunsDiff is how two sets of runs of one config differ, run by run
// (matched by key).
type RunsDiff struct {
	Same    int
	Changed []ChangedRun
	// OnlyOld and OnlyNew are the runs of one set whose key the other lacks.
	OnlyOld, OnlyNew []Run
}

// ChangedRun is a run whose records differ (see Diff).
type ChangedRun struct {
	Old, New Run
	Diffs    []string
}

// Equal reports whether the two sets hold the same runs and every one
// agrees.
func (d RunsDiff) Equal() bool {
	return len(d.Changed) == 0 && len(d.OnlyOld) == 0 && len(d.OnlyNew) == 0
}

// DiffRuns compares two sets of runs, such as a committed runs.jsonl and
// the one a regeneration wrote, matching runs by key. Changed, OnlyOld and
// OnlyNew keep their set's order. A key twice in one set is an error.
func DiffRuns(old, now []Run) (RunsDiff, error) {
	var d RunsDiff
	byKey := make(map[string]Run, len(now))
	for _, r := range now {
		if _, dup := byKey[r.Key]; dup {
			return d, fmt.Errorf("run %s is in the new runs twice", r.Key)
		}
		byKey[r.Key] = r
	}
	seen := make(map[string]bool, len(old))
	for _, o := range old {
		if seen[o.Key] {
			return d, fmt.Errorf("run %s is in the old runs twice", o.Key)
		}
		seen[o.Key] = true
		n, ok := byKey[o.Key]
		if !ok {
			d.OnlyOld = append(d.OnlyOld, o)
			continue
		}
		diffs, err := Diff(o, n)
		if err != nil {
			return d, fmt.Errorf("run %s: %w", o.Key, err)
		}
		if len(diffs) == 0 {
			d.Same++
		} else {
			d.Changed = append(d.Changed, ChangedRun{Old: o, New: n, Diffs: diffs})
		}
	}
	for _, n := range now {
		if !seen[n.Key] {
			d.OnlyNew = append(d.OnlyNew, n)
		}
	}
	return d, nil
}
