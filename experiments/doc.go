// Package experiments turns a YAML experiment config into units of work
// (dataset × task × trainer × hyperparameters × split × training fraction),
// runs them in parallel with errgroup, caches every finished unit on disk so
// that interrupted runs resume, selects hyperparameters on validation data,
// and writes the final test evaluations as runs.jsonl.
//
// It is the only package that knows about configs; trainers, decoders and
// models receive plain Go values.
package experiments
