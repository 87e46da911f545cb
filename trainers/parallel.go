package trainers

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/maxmargin/repro/internal/cputime"
)

// pool runs the per-instance work of a separation pass on several
// goroutines. Results must not depend on their number, so the work of
// instance i goes to slot i of whatever the caller collects into, and the
// caller reduces the slots in instance order on one goroutine afterwards:
// which goroutine computed an instance, and when, then changes nothing.
type pool struct {
	threads int
	// cpu sums the CPU time of the goroutines other than the caller's
	// (Stats.OtherThreadsCPU): the caller measures its own thread.
	cpu *cputime.Counter
}

// chunk is how many consecutive instances a goroutine takes at a time:
// enough that handing them out costs little next to the cheapest work (a
// cache scan of a few dot products), few enough to balance the load.
const chunk = 4

// forEach calls f(k, i) for every instance i in [0, n), with k in [0,
// workers(n)) naming the goroutine that runs it, so that f can use
// goroutine k's own scratch (a fork of the separator, a buffer). Goroutine
// 0 is the caller's; the others' CPU time is added to p.cpu. Instances are
// handed out as they are asked for, so f(k, i) must write what it computes
// to a place of i's, or of k's that is then merged in a way no order can
// change (groupMax), and may read only what no call writes. forEach stops
// at the first error and returns it (with several, whichever came first),
// or ctx's error once ctx is cancelled.
func (p pool) forEach(ctx context.Context, n int, f func(k, i int) error) error {
	workers := p.workers(n)
	if workers <= 1 {
		for i := range n {
			if err := ctx.Err(); err != nil {
				return err
			}
			if err := f(0, i); err != nil {
				return err
			}
		}
		return nil
	}
	parent := ctx
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	work := func(k int) {
		for {
			lo := int(next.Add(chunk)) - chunk
			if lo >= n || ctx.Err() != nil {
				return
			}
			for i := lo; i < min(lo+chunk, n); i++ {
				if err := f(k, i); err != nil {
					cancel(err) // the first error stops every goroutine
					return
				}
			}
		}
	}
	var wg sync.WaitGroup
	for k := 1; k < workers; k++ {
		wg.Go(func() { p.cpu.Measure(func() { work(k) }) })
	}
	work(0)
	wg.Wait()
	if err := parent.Err(); err != nil {
		return err
	}
	return context.Cause(ctx) // nil, or the first error
}

// workers returns how many goroutines forEach uses for n instances.
func (p pool) workers(n int) int { return max(1, min(p.threads, n)) }

// forkable is implemented by the separators of this package: fork returns
// a separator of the same constraints over a fork of the model (Forker),
// with scratch of its own, for another goroutine.
type forkable interface {
	fork() (Separator, error)
}

// forks returns sep followed by copies of it for goroutines 1..workers−1
// of a pool.
func forks(sep Separator, workers int) ([]Separator, error) {
	out := []Separator{sep}
	if workers <= 1 {
		return out, nil
	}
	f, ok := sep.(forkable)
	if !ok {
		return nil, fmt.Errorf("separator %T cannot be used from several goroutines: threads > 1 needs a separator of this package", sep)
	}
	for range workers - 1 {
		s, err := f.fork()
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// forkModel returns a fork of m for another goroutine, or an error if m
// cannot make one.
func forkModel[Y any](m Model[Y]) (Model[Y], error) {
	f, ok := m.(Forker[Y])
	if !ok {
		return nil, fmt.Errorf("threads > 1 needs a model usable from several goroutines (Fork), which %T is not", m)
	}
	return f.Fork(), nil
}
