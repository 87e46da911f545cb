package trainers

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/structpred"
)

// forEach visits every instance exactly once, on goroutines numbered below
// the pool's worker count, for any thread count and any n.
func TestPoolVisitsEveryInstanceOnce(t *testing.T) {
	t.Parallel()
	for _, threads := range []int{1, 2, 3, 8} {
		for _, n := range []int{0, 1, 5, 17, 100} {
			p := pool{threads: threads, cpu: new(cputime.Counter)}
			visits := make([]atomic.Int32, n)
			var badWorker atomic.Bool
			err := p.forEach(context.Background(), n, func(k, i int) error {
				if k < 0 || k >= p.workers(n) {
					badWorker.Store(true)
				}
				visits[i].Add(1)
				return nil
			})
			if err != nil {
				t.Fatalf("threads %d, n %d: %v", threads, n, err)
			}
			if badWorker.Load() {
				t.Errorf("threads %d, n %d: a worker outside [0, %d)", threads, n, p.workers(n))
			}
			for i := range visits {
				if v := visits[i].Load(); v != 1 {
					t.Errorf("threads %d, n %d: instance %d visited %d times", threads, n, i, v)
				}
			}
		}
	}
}

// An instance's error, or a cancellation during the pass, ends forEach
// with that error on every thread count.
func TestPoolStopsOnErrorAndCancel(t *testing.T) {
	t.Parallel()
	failure := errors.New("oracle failed")
	for _, threads := range []int{1, 2, 4} {
		p := pool{threads: threads, cpu: new(cputime.Counter)}
		err := p.forEach(context.Background(), 50, func(_, i int) error {
			if i == 23 {
				return fmt.Errorf("instance %d: %w", i, failure)
			}
			return nil
		})
		if !errors.Is(err, failure) {
			t.Errorf("threads %d: err = %v, want the instance's error", threads, err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		var after atomic.Int32
		err = p.forEach(ctx, 1000, func(_, i int) error {
			if ctx.Err() != nil {
				after.Add(1)
			}
			if i == 10 {
				cancel()
			}
			return nil
		})
		cancel()
		if !errors.Is(err, context.Canceled) {
			t.Errorf("threads %d: err = %v, want context.Canceled", threads, err)
		}
		// Each goroutine may finish the chunk it was in when the context
		// was cancelled, and no more.
		if n := after.Load(); n >= int32(p.workers(1000)*chunk) {
			t.Errorf("threads %d: %d instances started after the cancellation", threads, n)
		}
	}
}

// threads > 1 needs a model that forks: the toy model does not, so Check
// refuses it (before anything trains) and so does CuttingPlane; a
// separator from outside the package cannot fork either.
func TestThreadsNeedAForkingModel(t *testing.T) {
	t.Parallel()
	m := separableToy(rand.New(rand.NewPCG(1, 1)), 10, 3, 3)
	for _, trainer := range []string{Margin, ApproxSlack} {
		if err := Check[int](trainer, m, Values{"threads": 1}); err != nil {
			t.Errorf("%s, threads 1: %v", trainer, err)
		}
		if err := Check[int](trainer, m, Values{"threads": 2}); err == nil || !strings.Contains(err.Error(), "Fork") {
			t.Errorf("%s, threads 2: Check = %v, want an error naming Fork", trainer, err)
		}
	}
	sep, err := NewSeparator[int](Margin, m, 0.01)
	if err != nil {
		t.Fatal(err)
	}
	for _, solver := range Solvers() {
		s := Settings{C: 1, Solver: solver, Threads: 2}
		if _, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s); err == nil || !strings.Contains(err.Error(), "Fork") {
			t.Errorf("%s: err = %v, want an error naming Fork", solver, err)
		}
		if _, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), quiet{}, s); err == nil || !strings.Contains(err.Error(), "several goroutines") {
			t.Errorf("%s, a separator of another package: err = %v", solver, err)
		}
	}
	if err := Validate(Margin, Values{ParamC: 1, "threads": -1}); err == nil {
		t.Error("threads -1 accepted")
	}
}

// quiet is a separator from outside the package's own: it proposes nothing.
type quiet struct{}

func (quiet) Groups() int { return 10 }

func (quiet) Separate(_ int, _ []float64, _ func(int) float64, dst []structpred.Constraint) ([]structpred.Constraint, error) {
	return dst, nil
}
