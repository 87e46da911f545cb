//go:build unix

package experiments

import (
	"math"
	"syscall"
)

// cpuSeconds returns the process's user and system CPU time, which unlike
// wall time does not grow when other processes share the cores.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return math.NaN()
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}
