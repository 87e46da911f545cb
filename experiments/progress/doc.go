// Package progress is the runner's status line: units done of the total,
// running, elapsed time and an ETA, redrawn within the terminal's width on
// a terminal and printed as plain lines elsewhere, with warnings printed
// above it.
package progress
