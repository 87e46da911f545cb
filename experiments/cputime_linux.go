package experiments

import (
	"time"

	"golang.org/x/sys/unix"
)

// threadCPU returns the CPU time (user + system) the calling OS thread has
// used. The caller must hold runtime.LockOSThread for differences of two
// readings to mean anything.
func threadCPU() (time.Duration, bool) {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_THREAD, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
