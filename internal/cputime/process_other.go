//go:build !unix

package cputime

import "time"

// Process is unavailable off Unix.
func Process() (time.Duration, bool) { return 0, false }

// WithChildren is unavailable off Unix.
func WithChildren() (time.Duration, bool) { return 0, false }
