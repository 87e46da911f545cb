package trainers_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/trainers"
)

// trace is everything a cutting-plane run computes, floats as bits: the
// statistics after every iteration and at the end, and the weights.
type trace struct {
	progress []string
	final    string
	w        []uint64
}

// statsBits formats the fields of st that must not depend on the threads
// (everything but times), floats as their bits.
func statsBits(st trainers.Stats) string {
	b := math.Float64bits
	return fmt.Sprintf("it %d cons %d added %d conv %v qp %d calls %d primal %x dual %x gap %x wp %x wg %x exact %v",
		st.Iterations, st.Constraints, st.Added, st.Converged, st.QPUpdates, st.OracleCalls,
		b(st.Primal), b(st.Dual), b(st.Gap), b(st.WorkingPrimal), b(st.WorkingGap), st.PrimalExact)
}

// run trains m with a cutting-plane trainer at settings s and records its
// trace.
func run[Y any](t *testing.T, m trainers.Model[Y], trainer string, s trainers.Settings) trace {
	t.Helper()
	sep, err := trainers.NewSeparator(trainer, m, 0)
	if err != nil {
		t.Fatal(err)
	}
	if trainer == trainers.ApproxSlack {
		if s.Certifier, err = trainers.NewSeparator(trainers.Slack, m, 0); err != nil {
			t.Fatal(err)
		}
	}
	var tr trace
	s.Progress = func(st trainers.Stats) { tr.progress = append(tr.progress, statsBits(st)) }
	res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
	if err != nil {
		t.Fatal(err)
	}
	tr.final = statsBits(res.Stats)
	for _, x := range res.W {
		tr.w = append(tr.w, math.Float64bits(x))
	}
	return tr
}

// sameTrace reports the first difference between two traces.
func sameTrace(a, b trace) error {
	if len(a.progress) != len(b.progress) {
		return fmt.Errorf("%d progress reports, want %d", len(b.progress), len(a.progress))
	}
	for k := range a.progress {
		if a.progress[k] != b.progress[k] {
			return fmt.Errorf("report %d:\n got %s\nwant %s", k, b.progress[k], a.progress[k])
		}
	}
	if a.final != b.final {
		return fmt.Errorf("final:\n got %s\nwant %s", b.final, a.final)
	}
	for j := range a.w {
		if a.w[j] != b.w[j] {
			return fmt.Errorf("w[%d] = %v, want %v", j, math.Float64frombits(b.w[j]), math.Float64frombits(a.w[j]))
		}
	}
	return nil
}

// One-slack training separates on several goroutines and both solvers run
// their final exact pass on them; with 2 or 4 threads every iteration's
// statistics, the weights and the true primal must be bit for bit those of
// one thread, for every cutting-plane trainer on chains and
// segmentations. max_iterations 4 stops before convergence, so that the
// final pass certifies with the training oracle (exact oracles otherwise
// certify from the converging pass; approx-slack always certifies).
func TestThreadsDoNotChangeResults(t *testing.T) {
	t.Parallel()
	chainModel, _ := randomChain(5, chainShape{n: 25, tokens: 6, k: 4, attrs: 40, perTok: 4, noise: 0.2, edges: true})
	segModel, err := segment.New(noisySegmentations(9, 25, 3, 0.25), 6, 3, 3, true, semimarkov.Loss{})
	if err != nil {
		t.Fatal(err)
	}
	type problem struct {
		name string
		run  func(t *testing.T, trainer string, s trainers.Settings) trace
	}
	// Subtests run in parallel: each run trains a fork of its own.
	problems := []problem{
		{"chain", func(t *testing.T, trainer string, s trainers.Settings) trace {
			return run(t, chainModel.Fork(), trainer, s)
		}},
		{"segment", func(t *testing.T, trainer string, s trainers.Settings) trace {
			return run(t, segModel.Fork(), trainer, s)
		}},
	}
	cases := []struct {
		solver        string
		maxIterations int
	}{
		{trainers.OneSlack, 0},
		{trainers.OneSlack, 4},
		{trainers.NSlack, 4}, // n-slack's passes stay sequential: only its final pass is parallel
	}
	for _, p := range problems {
		for _, trainer := range trainers.CuttingPlaneTrainers() {
			for _, c := range cases {
				t.Run(fmt.Sprintf("%s/%s/%s/max%d", p.name, trainer, c.solver, c.maxIterations), func(t *testing.T) {
					t.Parallel()
					s := trainers.Settings{C: 0.5, Solver: c.solver, MaxIterations: c.maxIterations}
					one := p.run(t, trainer, s)
					for _, threads := range []int{2, 4} {
						s.Threads = threads
						if err := sameTrace(one, p.run(t, trainer, s)); err != nil {
							t.Errorf("threads %d: %v", threads, err)
						}
					}
				})
			}
		}
	}
}

// Work on goroutines other than the caller's is CPU time the caller's
// thread does not see: it must be reported, or a unit's cpu_seconds would
// shrink as threads grow.
func TestThreadsReportOtherThreadsCPU(t *testing.T) {
	t.Parallel()
	if _, ok := cputime.Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	m, _ := randomChain(3, chainShape{n: 60, tokens: 10, k: 5, attrs: 200, perTok: 6, noise: 0.1, edges: true})
	for _, tc := range []struct {
		solver, trainer string
		threads         int
		want            bool // CPU reported off the caller's thread
	}{
		{trainers.OneSlack, trainers.Margin, 1, false},
		{trainers.OneSlack, trainers.Margin, 2, true},
		{trainers.NSlack, trainers.Margin, 1, false},
		// n-slack's one parallel pass is approx-slack's certifying pass
		{trainers.NSlack, trainers.ApproxSlack, 2, true},
	} {
		v := trainers.Values{trainers.ParamC: 0.1, "solver": tc.solver, "threads": tc.threads}
		res, err := trainers.Train(context.Background(), tc.trainer, trainers.Model[[]int](m), v)
		if err != nil {
			t.Fatal(err)
		}
		if got := res.OtherThreadsCPU > 0; got != tc.want {
			t.Errorf("%s %s with %d threads: %v of CPU on other threads after %d iterations", tc.solver, tc.trainer, tc.threads, res.OtherThreadsCPU, res.Iterations)
		}
	}
}

// Cancelling the context stops a run on several threads as on one.
func TestThreadsStopOnCancel(t *testing.T) {
	t.Parallel()
	m, _ := randomChain(4, chainShape{n: 30, tokens: 6, k: 4, attrs: 40, perTok: 4, noise: 0.2, edges: true})
	for _, solver := range trainers.Solvers() {
		sep, err := trainers.NewSeparator(trainers.Margin, trainers.Model[[]int](m), 0)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		s := trainers.Settings{C: 1, Solver: solver, Threads: 2, Progress: func(trainers.Stats) { cancel() }}
		if _, err := trainers.CuttingPlane(ctx, m.Len(), m.Dim(), sep, s); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want context.Canceled", solver, err)
		}
		cancel()
	}
}
