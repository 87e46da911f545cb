package experiments

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/maxmargin/repro/internal/atomicfile"
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

// RecordCost updates dir's cost record after a complete run whose outputs
// it holds. A whole run (RunCost.Whole) replaces the record. A run that
// took units from the store measured only part of the work: it leaves a
// record of its own code version, which still says what regenerating these
// outputs costs, and removes one of another version, which no longer
// describes them. It reports whether it wrote c.
func RecordCost(dir string, c RunCost) (bool, error) {
	path := filepath.Join(dir, CostFile)
	if c.Whole() {
		b, err := json.MarshalIndent(c, "", "  ")
		if err != nil {
			return false, err
		}
		if err := atomicfile.WriteFile(path, append(b, '\n')); err != nil {
			return false, fmt.Errorf("writing the run's cost: %w", err)
		}
		return true, nil
	}
	old, err := ReadCost(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err == nil && old.Version == c.Version:
		return false, nil
	}
	// Another version's record, or one that cannot be read: either way it
	// does not describe these outputs.
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("removing a stale cost record: %w", err)
	}
	return false, nil
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
