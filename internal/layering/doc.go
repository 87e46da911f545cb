// Package layering holds the repository's one layering test: a table of the
// import directions the packages may take (ARCHITECTURE.md's layout),
// checked against `go list` on every package, so that a leak (a dataset
// reader importing a decoder, a report importing a trainer) fails a test
// rather than waiting for a reviewer. It has no code of its own.
package layering
