package experiments

import (
	"runtime"
	"time"
)

// timing is what a training run cost: wall-clock seconds, and the CPU
// seconds of the thread that ran it (0 where the platform cannot say).
// Wall time grows with whatever else shares the machine; CPU time does not,
// so cost figures and tables use it when it is there.
type timing struct {
	Wall, CPU float64
}

// timed runs f on a locked OS thread and measures it. The CPU time covers
// that thread only: the trainers run single-threaded, and the garbage
// collector's background workers (a few percent) are not counted.
func timed(f func() error) (timing, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0, okCPU := threadCPU()
	start := time.Now()
	err := f()
	t := timing{Wall: time.Since(start).Seconds()}
	if cpu1, ok := threadCPU(); ok && okCPU {
		t.CPU = (cpu1 - cpu0).Seconds()
	}
	return t, err
}
