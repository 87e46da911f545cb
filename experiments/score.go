package experiments

import (
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/report"
	tasklib "github.com/maxmargin/repro/tasks"
)

// scoreSheet accumulates one unit's evaluation: the task's own scorer
// (tasks.Task.NewScorer: what it counts and under which metric names) and,
// where kept, the per-item outcomes that McNemar's test and the paired
// bootstrap compare.
type scoreSheet struct {
	scorer   tasklib.Scorer
	outcomes *report.Outcomes // nil: not kept
}

// newScoreSheet returns the sheet of a unit of task t on d. Outcomes are
// kept for the test units of fixed splits and split files (the paired
// tests compare runs on one split), unless outcomes is false (a curve
// point: significance tests compare final models only).
func newScoreSheet(t tasklib.Task, d *preparedData, u unitSpec, outcomes bool) *scoreSheet {
	s := &scoreSheet{}
	var keep func(tasklib.Outcome)
	if outcomes && (u.SplitKind == config.SplitFixed || u.SplitKind == config.SplitFile) && u.Phase == store.PhaseTest {
		s.outcomes = &report.Outcomes{}
		keep = func(o tasklib.Outcome) { s.outcomes.Add(o.TokenOK, o.TrueSpans, o.PredSpans, o.Matched) }
	}
	s.scorer = t.NewScorer(d.corpus(), keep)
	return s
}
