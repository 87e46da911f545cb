// Package cputime reads the CPU time of the calling OS thread, so that a
// unit's training cost can be measured while other units share the machine
// (wall-clock time cannot tell the two apart). Readings mean something only
// between calls on one thread: hold runtime.LockOSThread around them. Work a
// trainer hands to other goroutines must be measured there and added (see
// Counter). Timed measures one run: its wall and thread CPU time and the
// peak memory the Go runtime held meanwhile.
package cputime

import (
	"math"
	"runtime"
	"slices"
	"sync"
	"time"
)

// Counter sums CPU time measured on other threads, e.g. by goroutines that a
// library starts; it is safe for concurrent use. The zero value is ready.
type Counter struct {
	mu   sync.Mutex
	done time.Duration
	live []*liveMeasure // measurements in progress
}

// liveMeasure is a Measure call in progress: its thread's clock and the
// reading when it started.
type liveMeasure struct {
	clock threadClock
	start time.Duration
}

// Measure runs f on a locked OS thread and adds the CPU time it used.
// While f runs, Total includes the CPU time it has used so far (where the
// platform lets one thread read another's clock), so that a long
// measurement, such as a library's worker goroutine that lives as long as
// the computation, is seen as it goes and not only at its end.
func (c *Counter) Measure(f func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	t0, ok0 := Thread()
	var m *liveMeasure
	if clock, ok := currentThreadClock(); ok && ok0 {
		m = &liveMeasure{clock: clock, start: t0}
		c.mu.Lock()
		c.live = append(c.live, m)
		c.mu.Unlock()
	}
	f()
	t1, ok1 := Thread()
	c.mu.Lock()
	defer c.mu.Unlock()
	if ok0 && ok1 {
		c.done += t1 - t0
	}
	if m != nil {
		c.live = slices.DeleteFunc(c.live, func(x *liveMeasure) bool { return x == m })
	}
}

// Total returns the CPU time summed so far, including what the
// measurements still in progress have used.
func (c *Counter) Total() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.done
	for _, m := range c.live {
		if now, ok := m.clock.read(); ok && now > m.start {
			t += now - m.start
		}
	}
	return t
}

// ProcessSeconds is Process in seconds, NaN where the platform cannot say:
// the form benchmarks report as a metric.
func ProcessSeconds() float64 {
	d, ok := Process()
	if !ok {
		return math.NaN()
	}
	return d.Seconds()
}
