package experiments

import "github.com/maxmargin/repro/experiments/store"

// The runner's names for a unit's spec and result, which package store
// defines (they are what a unit file holds).
type (
	unitSpec   = store.Spec
	unitResult = store.Result
)
