package trainers

import (
	"time"

	"github.com/maxmargin/repro/internal/cputime"
)

// qpTimer sums the time a cutting-plane solver spends on its working-set QP
// (Stats.QPTime): the CPU time of the calling OS thread where the platform
// has a thread clock, else wall-clock time. Thread readings subtract only
// while the goroutine stays on one thread, so CuttingPlane holds it there
// (runtime.LockOSThread) for the whole run. The QP always runs on the
// caller's goroutine: only separation goes to the pool's.
type qpTimer struct {
	cpu   bool      // readings are thread CPU time
	base  time.Time // wall-clock origin, when !cpu
	total time.Duration
}

func newQPTimer() *qpTimer {
	_, ok := cputime.Thread()
	return &qpTimer{cpu: ok, base: time.Now()}
}

// now is a reading of the timer's clock.
func (t *qpTimer) now() time.Duration {
	if t.cpu {
		d, _ := cputime.Thread() // it read at newQPTimer: the clock is there
		return d
	}
	return time.Since(t.base)
}

// start returns a reading to hand to stop when the QP work ends.
func (t *qpTimer) start() time.Duration { return t.now() }

// stop adds the time since start's reading t0.
func (t *qpTimer) stop(t0 time.Duration) { t.total += max(0, t.now()-t0) }

// record puts the sum so far in st.
func (t *qpTimer) record(st *Stats) { st.QPTime, st.QPTimeCPU = t.total, t.cpu }
