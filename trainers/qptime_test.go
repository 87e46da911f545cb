package trainers_test

import (
	"context"
	"runtime"
	"testing"
	"time"

	"github.com/maxmargin/repro/internal/cputime"
	"github.com/maxmargin/repro/trainers"
)

// The QP's time is part of the training's: positive whenever the
// cutting-plane solvers ran their QP, never more than the CPU time of the
// caller's thread over the whole call (the QP runs there, not on the
// separation threads), and zero for trainers without a working set.
func TestQPTimeWithinTrainingTime(t *testing.T) {
	t.Parallel()
	if _, ok := cputime.Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	m, _ := randomChain(5, chainShape{n: 40, tokens: 8, k: 4, attrs: 120, perTok: 5, noise: 0.1, edges: true})
	for _, tc := range []struct {
		name    string
		trainer string
		v       trainers.Values
		qp      bool // the trainer has a working-set QP
	}{
		{"n-slack margin", trainers.Margin, trainers.Values{"solver": trainers.NSlack}, true},
		{"n-slack slack", trainers.Slack, trainers.Values{"solver": trainers.NSlack}, true},
		{"n-slack margin SVM_2", trainers.Margin, trainers.Values{"solver": trainers.NSlack, "slack_penalty": trainers.SlackQuadratic}, true},
		{"n-slack margin drop_idle", trainers.Margin, trainers.Values{"solver": trainers.NSlack, "drop_idle": 1}, true},
		{"one-slack margin", trainers.Margin, trainers.Values{"solver": trainers.OneSlack}, true},
		{"one-slack slack SVM_2", trainers.Slack, trainers.Values{"solver": trainers.OneSlack, "slack_penalty": trainers.SlackQuadratic}, true},
		{"one-slack margin 2 threads", trainers.Margin, trainers.Values{"solver": trainers.OneSlack, "threads": 2}, true},
		{"perceptron", trainers.PerceptronName, trainers.Values{"epochs": 3}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := trainers.Values{}
			if tc.qp {
				v[trainers.ParamC] = 1.0
			}
			for k, x := range tc.v {
				v[k] = x
			}
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			t0, _ := cputime.Thread()
			res, err := trainers.Train(context.Background(), tc.trainer, trainers.Model[[]int](m), v)
			t1, _ := cputime.Thread()
			if err != nil {
				t.Fatal(err)
			}
			caller := t1 - t0
			switch {
			case !tc.qp && (res.QPTime != 0 || res.QPTimeCPU):
				t.Errorf("no QP, but QPTime %v (CPU %v)", res.QPTime, res.QPTimeCPU)
			case tc.qp && !(res.QPTime > 0):
				t.Errorf("QPTime %v after %d constraints in %d iterations", res.QPTime, res.Constraints, res.Iterations)
			case tc.qp && !res.QPTimeCPU:
				t.Error("QPTime is not thread CPU time on a platform that has it")
			case res.QPTime > caller:
				t.Errorf("QPTime %v exceeds the caller's thread CPU time over the training, %v", res.QPTime, caller)
			}
			t.Logf("QP %v of %v caller CPU (+%v other threads), %d constraints", res.QPTime, caller, res.OtherThreadsCPU, res.Constraints)
		})
	}
}

// A Progress report carries the QP time so far, which only grows.
func TestQPTimeInProgress(t *testing.T) {
	t.Parallel()
	if _, ok := cputime.Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	m, _ := randomChain(6, chainShape{n: 30, tokens: 8, k: 4, attrs: 80, perTok: 5, noise: 0.1, edges: true})
	for _, solver := range trainers.Solvers() {
		sep, err := trainers.NewSeparator(trainers.Margin, trainers.Model[[]int](m), 0)
		if err != nil {
			t.Fatal(err)
		}
		var seen []time.Duration
		s := trainers.Settings{C: 1, Solver: solver, Progress: func(st trainers.Stats) { seen = append(seen, st.QPTime) }}
		res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, s)
		if err != nil {
			t.Fatal(err)
		}
		if len(seen) == 0 || !(seen[0] > 0) || seen[len(seen)-1] != res.QPTime {
			t.Errorf("%s: QP times reported %v, final %v", solver, seen, res.QPTime)
		}
		for i := 1; i < len(seen); i++ {
			if seen[i] < seen[i-1] {
				t.Errorf("%s: QP time fell from %v to %v", solver, seen[i-1], seen[i])
			}
		}
	}
}
