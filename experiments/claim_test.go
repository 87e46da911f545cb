package experiments

import (
	"context"
	"errors"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/maxmargin/repro/experiments/store"
)

// A worker that finds its unit claimed waits, and when the holder has saved
// the unit it reuses that result instead of computing it again.
func TestClaimReusesResultOfHolder(t *testing.T) {
	t.Parallel()
	cache := store.Cache{Dir: t.TempDir()}
	var trained atomic.Int32
	train := func(ctx context.Context, d *preparedData, u unitSpec, tr, ev []int) (unitResult, error) {
		trained.Add(1)
		return unitResult{}, errors.New("must not train")
	}
	r := newRunner(mustConfig(t, smallConfig), Options{}, cache, train, nil)
	polls := make(chan struct{}, 100)
	r.locks = r.locks.WithPoll(5*time.Millisecond, func() {
		select {
		case polls <- struct{}{}:
		default: // never block the claimant
		}
	})
	res := validUnit()
	release, _, err := r.locks.Acquire(context.Background(), res.Key) // the holder: this process
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error)
	var reused bool
	go func() {
		var err error
		reused, err = r.claimAndRun(context.Background(), res.Spec)
		done <- err
	}()
	// Once the claimant waits, the holder finishes: it saves the unit, then
	// releases its lock.
	<-polls
	if err := cache.Store(res); err != nil {
		t.Fatal(err)
	}
	release()
	if err := <-done; err != nil || !reused || trained.Load() != 0 {
		t.Fatalf("claim: reused %v, trained %d times, %v", reused, trained.Load(), err)
	}
	if _, err := os.Stat(r.locks.Path(res.Key)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left behind: %v", err)
	}
}
