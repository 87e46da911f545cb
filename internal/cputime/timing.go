package cputime

import (
	"runtime"
	"runtime/metrics"
	"time"
)

// Timing is what a training run cost: wall-clock seconds, the CPU seconds
// of the thread that ran it (0 where the platform cannot say), and the peak
// memory the Go runtime held meanwhile. Wall time grows with whatever else
// shares the machine; CPU time does not, so cost figures and tables use it
// when it is there.
type Timing struct {
	Wall, CPU float64
	// PeakBytes is the most memory the Go runtime held from the OS at any
	// sample while the unit trained: everything it mapped
	// (/memory/classes/total:bytes) less the heap it had already returned
	// (/memory/classes/heap/released:bytes). The runtime never unmaps
	// released heap, so the mapped total alone is a high-water mark of the
	// whole process's life, not of the unit. It is process-wide: units
	// training at the same time count too, so it is one unit's peak only
	// under --workers 1.
	PeakBytes uint64
}

// memorySample is how often the peak memory is sampled during training.
const memorySample = 20 * time.Millisecond

// Timed runs f on a locked OS thread and measures it. The CPU time covers
// that thread only; a trainer that works on other goroutines reports their
// CPU itself (trainers.Stats.OtherThreadsCPU, which the experiments runner
// adds), and the garbage collector's background workers (a few percent)
// are not counted.
func Timed(f func() error) (Timing, error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	peak := make(chan uint64)
	stop := make(chan struct{})
	go samplePeakMemory(stop, peak)
	cpu0, okCPU := Thread()
	start := time.Now()
	err := f()
	t := Timing{Wall: time.Since(start).Seconds()}
	if cpu1, ok := Thread(); ok && okCPU {
		t.CPU = (cpu1 - cpu0).Seconds()
	}
	close(stop)
	t.PeakBytes = <-peak
	return t, err
}

// samplePeakMemory reads the memory the runtime holds (see
// Timing.PeakBytes) until stop is closed, then sends the largest value it
// saw.
func samplePeakMemory(stop <-chan struct{}, peak chan<- uint64) {
	s := []metrics.Sample{
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	var most uint64
	read := func() {
		metrics.Read(s)
		if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
			return
		}
		total, released := s[0].Value.Uint64(), s[1].Value.Uint64()
		if released < total {
			most = max(most, total-released)
		}
	}
	tick := time.NewTicker(memorySample)
	defer tick.Stop()
	for read(); ; read() {
		select {
		case <-stop:
			read()
			peak <- most
			return
		case <-tick.C:
		}
	}
}
