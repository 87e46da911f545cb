package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Thread returns the CPU time the calling OS thread has used, from the
// scheduler's nanosecond account (CLOCK_THREAD_CPUTIME_ID; getrusage's
// thread times are tick-scaled and can repeat a value across a short unit).
// The caller must hold runtime.LockOSThread for differences of two
// readings to mean anything.
func Thread() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
