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

// threadClock is the CPU clock of one OS thread, which every thread of the
// process can read.
type threadClock struct{ id int32 }

// currentThreadClock returns the calling thread's CPU clock: the clock id
// that glibc's pthread_getcpuclockid computes from the thread id (the
// kernel's MAKE_THREAD_CPUCLOCK(tid, CPUCLOCK_SCHED)). It names the OS
// thread, so the caller must hold runtime.LockOSThread while it is read.
func currentThreadClock() (threadClock, bool) {
	tid := unix.Gettid()
	return threadClock{id: int32(^uint32(tid)<<3 | 6)}, true
}

// read returns the thread's CPU time so far.
func (c threadClock) read() (time.Duration, bool) {
	var ts unix.Timespec
	if err := unix.ClockGettime(c.id, &ts); err != nil {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
