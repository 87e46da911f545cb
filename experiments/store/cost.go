package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/version"
	"github.com/maxmargin/repro/report"
)

// CostFile is the record, beside an output directory's runs.jsonl, of what
// regenerating its config cost: the last complete run that computed every
// unit. The README's table of what regenerating each committed config
// costs is checked against these.
const CostFile = "cost.json"

// RunCost is what one complete `repro run` cost.
type RunCost struct {
	Version  string `json:"version"`
	Executor string `json:"executor"`
	Workers  int    `json:"workers"`
	Force    bool   `json:"force"` // every unit computed, none taken from the store
	// UnitsComputed and UnitsCached count the run's units (validation,
	// grid extensions and test); a resumed run computed only some.
	UnitsComputed int     `json:"units_computed"`
	UnitsCached   int     `json:"units_cached"`
	WallSeconds   float64 `json:"wall_seconds"`
	// CPUSeconds is the runner's CPU and that of the unit processes it
	// waited for (0: not measured on this system).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// LargestUnitMiB is the largest peak memory of a unit computed in the
	// run, each measured in its own process under --executor process.
	LargestUnitMiB float64 `json:"largest_unit_mib"`
}

// Whole reports whether the run computed every unit, so that its cost is
// what regenerating the config costs.
func (c RunCost) Whole() bool { return c.UnitsComputed > 0 && c.UnitsCached == 0 }

// CostRecorded is what RecordCost did with an output directory's record.
type CostRecorded int

const (
	// CostWritten: the run computed every unit; its cost is the record.
	CostWritten CostRecorded = iota
	// CostKept: the run took units from the store, and the record of the
	// whole run that computed them still describes the outputs.
	CostKept
	// CostRemoved: the run took units from the store, and the record no
	// longer described the outputs (other units, another code version).
	CostRemoved
	// CostAbsent: the run took units from the store, and there was no
	// record to keep.
	CostAbsent
)

// RecordCost updates dir's cost record after a complete run that wrote
// runs into dir. A whole run (RunCost.Whole) replaces the record. A run
// that took units from the store measured only part of the work: it keeps
// the record of an earlier whole run only while that still describes the
// outputs (the same number of units, every run written at the record's
// code version, a version that names one build), and removes it
// otherwise.
func RecordCost(dir string, c RunCost, runs []report.Run) (CostRecorded, error) {
	path := filepath.Join(dir, CostFile)
	if c.Whole() {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return 0, err
		}
		if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
			return 0, fmt.Errorf("writing the run's cost: %w", err)
		}
		return CostWritten, nil
	}
	old, err := ReadCost(path)
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return CostAbsent, nil
	case err == nil && describes(old, c, runs):
		return CostKept, nil
	case err != nil && !errors.As(err, &syntax) && !errors.As(err, &typeErr):
		return 0, err // unreadable, not wrong: leave it
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return 0, fmt.Errorf("removing a stale cost record: %w", err)
	}
	return CostRemoved, nil
}

// describes reports whether the record of a whole run, old, still
// describes the outputs of run c, which wrote runs.
func describes(old, c RunCost, runs []report.Run) bool {
	if !old.Whole() || !version.Exact(old.Version) || old.UnitsComputed != c.UnitsComputed+c.UnitsCached {
		return false
	}
	for _, r := range runs {
		if r.Version != old.Version {
			return false
		}
	}
	return true
}

// ReadCost reads a cost record written by RecordCost.
func ReadCost(path string) (RunCost, error) {
	var c RunCost
	b, err := os.ReadFile(path)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("%s: %w", path, err)
	}
	return c, nil
}
