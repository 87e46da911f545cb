package trainers

import (
	"context"
	"time"
)

// progressKey is the context key of a training's progress observer.
type progressKey struct{}

// WithProgress returns a context under which every training reports its
// progress to f: after each pass or iteration of the cutting-plane solvers,
// each epoch of the online trainers and each L-BFGS iteration of the
// log-linear ones, with the figures known by then (see [Stats]; before the
// end Primal and Gap are zero for the cutting-plane solvers, whose working
// set figures are WorkingPrimal and WorkingGap; the online trainers report
// the epoch as Iterations and its updates as Added).
//
// The observer travels in the context, as net/http/httptrace's hooks do,
// because the registry's Train takes a trainer's params as plain values
// (what a config or a command line states), and a callback is not a param:
// it changes nothing the training computes. A Progress set in a trainer's
// own settings takes precedence. f is called on the training's goroutine
// and must not block for long.
func WithProgress(ctx context.Context, f func(Stats)) context.Context {
	return context.WithValue(ctx, progressKey{}, f)
}

// progressOf returns the observer of ctx, or nil.
func progressOf(ctx context.Context) func(Stats) {
	f, _ := ctx.Value(progressKey{}).(func(Stats))
	return f
}

// onlineProgress adapts the observer of ctx to OnlineSettings.Progress, or
// returns nil when there is none.
func onlineProgress(ctx context.Context, start time.Time) func(epoch, updates int) {
	f := progressOf(ctx)
	if f == nil {
		return nil
	}
	return func(epoch, updates int) {
		f(Stats{Iterations: epoch, Added: updates, Elapsed: time.Since(start)})
	}
}
