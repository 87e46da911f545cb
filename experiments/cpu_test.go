package experiments

import (
	"math"

	"github.com/maxmargin/repro/internal/cputime"
)

// cpuSeconds is the process's CPU time for benchmarks (NaN where unknown).
func cpuSeconds() float64 {
	d, ok := cputime.Process()
	if !ok {
		return math.NaN()
	}
	return d.Seconds()
}
