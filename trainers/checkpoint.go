package trainers

import (
	"fmt"
	"runtime"
	"slices"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
)

// Checkpoint is a training run's state at one checkpoint: what a learning
// curve (test accuracy against training time, Crammer et al.'s Figure 2)
// needs. Checkpoints are for observation only: a hook that reads them
// changes nothing the trainer computes, and the trainer's result is
// bit-identical with or without one.
type Checkpoint struct {
	// Iteration is the epoch of an online trainer, the outer iteration of
	// a cutting-plane solver (an n-slack pass, a one-slack iteration) or
	// the L-BFGS major iteration of CRF and entropy-margin, from 1 (0 only
	// when L-BFGS stops at its starting point).
	Iteration int
	// W is the weight vector the trainer would return if it stopped here:
	// for averaging online trainers the average so far, not the last
	// weights. It is a fresh slice the hook may keep.
	W []float64
	// CPU is the trainer's own CPU time so far: the calling thread's since
	// training started plus what the trainer measured on threads of its own
	// (L-BFGS), minus the time spent inside the hook; 0 where the platform
	// has no thread CPU clock (see package internal/cputime).
	CPU time.Duration
	// Elapsed is the wall-clock time so far, minus the time spent inside
	// the hook.
	Elapsed time.Duration
}

// CheckpointFunc receives a training run's checkpoints, in increasing
// Iteration, on the goroutine that called the trainer. The last call is
// at the weights the trainer returns, at Result.Iterations. An error
// stops training; the trainer returns it wrapped.
//
// When it is called: online trainers (perceptron, MIRA, passive-aggressive,
// subgradient) after every epoch; the cutting-plane solvers and L-BFGS at
// iterations 1 to 8, then at iterations growing by a quarter each time
// (10, 12, 15, 18, 22, 27, ...): 27 checkpoints in 500 iterations and 37
// in 5000, plus the last. That bounds what evaluating every
// checkpoint costs while a log-scaled time axis still gets evenly spread
// points; the schedule depends on the iteration count only, so the same
// run checkpoints at the same iterations whatever the machine's load.
type CheckpointFunc func(Checkpoint) error

// Option is an optional setting of [Train] and [Trainer.Train] that is not
// a param: it changes what a caller observes, never the result.
type Option func(*options)

type options struct {
	checkpoint CheckpointFunc
}

// WithCheckpoints has the trainer call f at its checkpoints (see
// [CheckpointFunc]).
func WithCheckpoints(f CheckpointFunc) Option {
	return func(o *options) { o.checkpoint = f }
}

func collectOptions(opts []Option) options {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	return o
}

// checkpointer calls a CheckpointFunc and keeps the trainer's own cost:
// the calling thread's CPU time since the start, plus the CPU the trainer
// measured on other threads, minus the time spent in the hook. A nil
// *checkpointer (no hook) does nothing, so trainers call it
// unconditionally and run exactly as without one.
type checkpointer struct {
	hook     CheckpointFunc
	other    *cputime.Counter // CPU measured on other threads; nil if none
	start    time.Time
	cpu0     time.Duration
	cpuOK    bool
	hookCPU  time.Duration
	hookWall time.Duration
	next     int // the next iteration due
	last     int // the iteration of the last call, -1 before the first
}

// newCheckpointer returns nil for a nil hook. Otherwise it locks the
// calling goroutine to its OS thread, so that thread CPU readings can be
// subtracted, until close.
func newCheckpointer(hook CheckpointFunc, other *cputime.Counter) *checkpointer {
	if hook == nil {
		return nil
	}
	runtime.LockOSThread()
	c := &checkpointer{hook: hook, other: other, start: time.Now(), next: 1, last: -1}
	c.cpu0, c.cpuOK = cputime.Thread()
	return c
}

// close releases the thread newCheckpointer locked; call it (deferred) on
// the same goroutine.
func (c *checkpointer) close() {
	if c != nil {
		runtime.UnlockOSThread()
	}
}

// due reports whether iteration it is a scheduled checkpoint of an
// iterative solver (see CheckpointFunc) and, if so, moves the schedule on.
func (c *checkpointer) due(it int) bool {
	if c == nil || it < c.next {
		return false
	}
	c.next = it + max(1, it/4)
	return true
}

// at calls the hook at iteration it with a copy of w, unless the last call
// was at the same iteration (a solver whose scheduled checkpoint turns out
// to be its last).
func (c *checkpointer) at(it int, w []float64) error {
	if c == nil || it == c.last {
		return nil
	}
	c.last = it
	now := time.Now()
	cp := Checkpoint{Iteration: it, W: slices.Clone(w), Elapsed: now.Sub(c.start) - c.hookWall}
	t0, ok := cputime.Thread()
	ok = ok && c.cpuOK
	if ok {
		cp.CPU = t0 - c.cpu0 - c.hookCPU
		if c.other != nil {
			cp.CPU += c.other.Total()
		}
	}
	err := c.hook(cp)
	if t1, ok1 := cputime.Thread(); ok && ok1 {
		c.hookCPU += t1 - t0
	}
	c.hookWall += time.Since(now)
	if err != nil {
		return fmt.Errorf("checkpoint at iteration %d: %w", it, err)
	}
	return nil
}

// record adds the time spent in the hook to st, for callers that measure
// the whole training and must take it out.
func (c *checkpointer) record(st *Stats) {
	if c != nil {
		st.CheckpointCPU, st.CheckpointWall = c.hookCPU, c.hookWall
	}
}
