// Package config is an experiment's YAML config: its schema, strict
// decoding (file:line: field errors, unknown keys with did-you-mean), the
// defaults and cross-field checks (which feature kinds, splits, trainers
// and metrics go together), the size bounds checked before any data loads
// (Estimate, MaxUnits) and the resolved settings a unit is keyed by
// (UnitFeatures, SegmentLoss, TrainerSpec.UnitParams).
//
// It is the only package that reads configs; it knows nothing of units,
// stores or executors (package experiments plans and runs them).
package config
