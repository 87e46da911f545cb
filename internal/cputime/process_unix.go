//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// Process returns the CPU time (user + system) of the whole process, all
// threads together: for benchmarks, which run one thing at a time.
func Process() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
