// Package cputime reads the CPU time of the calling OS thread, so that a
// unit's training cost can be measured while other units share the machine
// (wall-clock time cannot tell the two apart). Readings mean something only
// between calls on one thread: hold runtime.LockOSThread around them. Work a
// trainer hands to other goroutines must be measured there and added (see
// Counter).
package cputime

import (
	"math"
	"runtime"
	"sync/atomic"
	"time"
)

// Counter sums CPU time measured on other threads, e.g. by goroutines that a
// library starts; it is safe for concurrent use. The zero value is ready.
type Counter struct{ ns atomic.Int64 }

// Measure runs f on a locked OS thread and adds the CPU time it used.
func (c *Counter) Measure(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok0 := Thread()
	f()
	if t1, ok1 := Thread(); ok0 && ok1 {
		c.ns.Add(int64(t1 - t0))
	}
}

// Total returns the CPU time summed so far.
func (c *Counter) Total() time.Duration { return time.Duration(c.ns.Load()) }

// ProcessSeconds is Process in seconds, NaN where the platform cannot say:
// the form benchmarks report as a metric.
func ProcessSeconds() float64 {
	d, ok := Process()
	if !ok {
		return math.NaN()
	}
	return d.Seconds()
}
