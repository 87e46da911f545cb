package experiments

import (
	"context"

	"golang.org/x/sync/errgroup"
)

// Unit is a unit as an executor sees it: what to compute and where its
// result goes. Executors never interpret a unit; they hand it to a Worker
// (in this process or, through `repro unit`, in another one).
type Unit struct {
	// Index is the unit's position in the batch given to Execute; trackers
	// are told about units by it.
	Index int
	// Key names the unit's result in the store: units/<Key>.json.
	Key string
	// Name describes the unit for messages (dataset, task, trainer, C,
	// split, fraction, phase).
	Name string
	spec unitSpec
}

// Group names the unit's selection group: a test unit whose C validation
// chooses takes it from the validation units of its group.
func (u Unit) Group() string { return groupOf(u.spec) }

// Phase is store.PhaseValidate or store.PhaseTest.
func (u Unit) Phase() string { return u.spec.Phase }

// C is the unit's C (a grid-extension point's, for a validation unit the
// runner added after a first selection).
func (u Unit) C() float64 { return u.spec.C }

// Worker computes one unit in this process and saves its result in the
// store; a nil error means the result is there. Workers take the unit's
// lock (see unitLock), so two workers, in one process or on two hosts
// sharing the store, never compute the same unit at once.
type Worker func(ctx context.Context, u Unit) error

// Tracker hears about units while an executor runs them. Its methods may be
// called from several goroutines at once.
type Tracker interface {
	// Started: the unit is being computed now.
	Started(u Unit)
	// Finished: err == nil means the unit's result is in the store; an
	// error while ctx is cancelled means the unit was abandoned, not that
	// it failed.
	Finished(u Unit, err error)
}

// Executor runs a batch of units, none of which is in the store yet, and
// returns when each has finished, failed, or was abandoned because ctx was
// cancelled. The runner reads the results from the store afterwards, so an
// executor only has to get them there: LocalExecutor calls work on a pool
// of goroutines; an executor that hands units to a cluster (one array task
// per unit running `repro unit --plan FILE --key K` into a shared store)
// would submit them, wait, and report each unit as the store shows it.
// Results never depend on the executor: a unit's result is a function of
// its spec alone.
type Executor interface {
	Execute(ctx context.Context, units []Unit, work Worker, track Tracker)
}

// LocalExecutor runs units on up to Workers goroutines of this process (at
// least one). Cancelling ctx stops it from starting more; running units see
// the cancellation through their context.
type LocalExecutor struct{ Workers int }

// Execute implements Executor.
func (e LocalExecutor) Execute(ctx context.Context, units []Unit, work Worker, track Tracker) {
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, e.Workers))
	for _, u := range units {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			track.Started(u)
			track.Finished(u, work(gctx, u))
			return nil // unit errors go to the tracker, so one never stops the others
		})
	}
	_ = g.Wait()
}
