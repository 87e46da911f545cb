//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user + system) of the whole process, all
// threads together: for benchmarks, which run one thing at a time.
func Process() (time.Duration, bool) {
	return usage(syscall.RUSAGE_SELF)
}

// WithChildren returns Process plus the CPU time of the child processes
// that have ended and been waited for (their own children included, where
// they waited for them): what a run that starts one process per unit has
// cost so far.
func WithChildren() (time.Duration, bool) {
	self, ok := usage(syscall.RUSAGE_SELF)
	if !ok {
		return 0, false
	}
	children, ok := usage(syscall.RUSAGE_CHILDREN)
	if !ok {
		return 0, false
	}
	return self + children, true
}

func usage(who int) (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
