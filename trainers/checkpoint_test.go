package trainers_test

import (
	"context"
	"errors"
	"runtime"
	"slices"
	"testing"

	"github.com/maxmargin/repro/trainers"
)

// scheduled are the first iterations at which the cutting-plane solvers and
// L-BFGS checkpoint (see trainers.CheckpointFunc).
var scheduled = []int{1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 18, 22, 27, 33, 41, 51, 63, 78, 97, 121, 151, 188, 235}

// withoutTimes is a run's statistics with the measurements zeroed, which
// differ between any two runs.
func withoutTimes(s trainers.Stats) trainers.Stats {
	s.Elapsed, s.OtherThreadsCPU, s.CheckpointCPU, s.CheckpointWall, s.QPTime = 0, 0, 0, 0, 0
	return s
}

// Checkpoints observe a run without changing it: the same weights and
// statistics with a hook as without (so a run without one is as it was
// before hooks existed), checkpoints in increasing iteration on the
// trainer's schedule, the last one at the returned weights, and the CPU
// time never decreasing.
func TestCheckpointsObserveWithoutChanging(t *testing.T) {
	t.Parallel()
	tests := []struct {
		trainer string
		v       trainers.Values
		epochs  bool // every epoch, rather than the solvers' schedule
	}{
		{trainers.PerceptronName, trainers.Values{"epochs": 6, "seed": uint64(3)}, true},
		{trainers.PerceptronName, trainers.Values{"epochs": 6, "seed": uint64(3), "average": false}, true},
		{trainers.MIRAName, trainers.Values{"epochs": 4, "k": 3, "C": 1.0}, true},
		{trainers.PassiveAggressiveName, trainers.Values{"epochs": 4, "C": 0.5}, true},
		{trainers.SubgradientName, trainers.Values{"epochs": 5, "C": 1.0}, true},
		{trainers.Margin, trainers.Values{"C": 1.0}, false},
		{trainers.Margin, trainers.Values{"C": 1.0, "solver": trainers.OneSlack}, false},
		{trainers.PosLearn, trainers.Values{"C": 1.0}, false},
		{trainers.ApproxSlack, trainers.Values{"C": 1.0, "solver": trainers.OneSlack}, false},
		{trainers.CRFName, trainers.Values{"C": 1.0}, false},
		{trainers.EntropyMarginName, trainers.Values{"C": 1.0, "beta": 5.0}, false},
	}
	for _, tt := range tests {
		t.Run(tt.trainer, func(t *testing.T) {
			t.Parallel()
			// A model of its own: models keep scratch space and are not
			// for concurrent use.
			m, _ := randomChain(7, chainShape{n: 20, tokens: 6, k: 3, attrs: 40, perTok: 3, noise: 0.1, edges: true})
			ctx := context.Background()
			plain, err := trainers.Train(ctx, tt.trainer, m, tt.v)
			if err != nil {
				t.Fatal(err)
			}
			var cps []trainers.Checkpoint
			hooked, err := trainers.Train(ctx, tt.trainer, m, tt.v, trainers.WithCheckpoints(func(c trainers.Checkpoint) error {
				keep := c
				keep.W = slices.Clone(c.W)
				cps = append(cps, keep)
				clear(c.W) // the hook's own copy: the trainer must not see this
				return nil
			}))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(plain.W, hooked.W) || withoutTimes(plain.Stats) != withoutTimes(hooked.Stats) {
				t.Fatalf("the hook changed the run:\n%+v\n%+v", withoutTimes(plain.Stats), withoutTimes(hooked.Stats))
			}
			var iters []int
			for i, c := range cps {
				iters = append(iters, c.Iteration)
				if i > 0 && c.CPU < cps[i-1].CPU {
					t.Errorf("CPU went back from %v to %v at iteration %d", cps[i-1].CPU, c.CPU, c.Iteration)
				}
			}
			var want []int
			for it := 1; it < hooked.Iterations; it++ {
				if tt.epochs || slices.Contains(scheduled, it) {
					want = append(want, it)
				}
			}
			want = append(want, hooked.Iterations)
			if !slices.Equal(iters, want) {
				t.Errorf("checkpoints at %v, want %v (%d iterations)", iters, want, hooked.Iterations)
			}
			last := cps[len(cps)-1]
			if !slices.Equal(last.W, hooked.W) {
				t.Error("the last checkpoint is not at the returned weights")
			}
			if runtime.GOOS == "linux" && !(last.CPU > 0) {
				t.Errorf("last checkpoint's CPU time %v", last.CPU)
			}
		})
	}
}

// An averaging trainer's checkpoints hold the average it would return if
// stopped there: training for k epochs returns the k-th checkpoint's
// weights.
func TestCheckpointsHoldTheWeightsTrainingWouldReturn(t *testing.T) {
	t.Parallel()
	m, _ := randomChain(11, chainShape{n: 20, tokens: 6, k: 3, attrs: 40, perTok: 3, noise: 0.2, edges: true})
	ctx := context.Background()
	var cps []trainers.Checkpoint
	if _, err := trainers.Train(ctx, trainers.MIRAName, m, trainers.Values{"epochs": 4, "k": 2, "C": 1.0},
		trainers.WithCheckpoints(func(c trainers.Checkpoint) error { cps = append(cps, c); return nil })); err != nil {
		t.Fatal(err)
	}
	for _, c := range cps {
		res, err := trainers.Train(ctx, trainers.MIRAName, m, trainers.Values{"epochs": c.Iteration, "k": 2, "C": 1.0})
		if err != nil {
			t.Fatal(err)
		}
		if res.Iterations == c.Iteration && !slices.Equal(res.W, c.W) {
			t.Errorf("epoch %d: the checkpoint's weights are not what %d epochs return", c.Iteration, c.Iteration)
		}
	}
}

// A hook's error stops training and comes back from Train.
func TestCheckpointErrorStopsTraining(t *testing.T) {
	t.Parallel()
	m, _ := randomChain(5, chainShape{n: 10, tokens: 5, k: 3, attrs: 30, perTok: 3, noise: 0.1, edges: true})
	stop := errors.New("enough")
	for _, tt := range []struct {
		trainer string
		v       trainers.Values
	}{
		{trainers.PerceptronName, trainers.Values{"epochs": 5}},
		{trainers.Margin, trainers.Values{"C": 10.0}},
		{trainers.Margin, trainers.Values{"C": 10.0, "solver": trainers.OneSlack}},
		{trainers.CRFName, trainers.Values{"C": 10.0}},
	} {
		calls := 0
		res, err := trainers.Train(context.Background(), tt.trainer, m, tt.v, trainers.WithCheckpoints(func(trainers.Checkpoint) error {
			calls++
			return stop
		}))
		if !errors.Is(err, stop) || res != nil || calls != 1 {
			t.Errorf("%s %v: got %v, %v after %d calls; want the hook's error after one", tt.trainer, tt.v, res, err, calls)
		}
	}
}
