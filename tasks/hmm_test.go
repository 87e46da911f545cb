package tasks_test

import (
	"testing"

	"github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
)

// TestHMMOnlyWhereTokensEmitWords: the hmm trainer needs a model whose
// tokens emit one symbol each, which only the sequence task designates
// (its index's word attributes); every other task refuses it before any
// data loads.
func TestHMMOnlyWhereTokensEmitWords(t *testing.T) {
	t.Parallel()
	for _, task := range tasks.All() {
		err := task.Supports(trainers.HMM, nil)
		if want := task.Name() == tasks.SequenceName; (err == nil) != want {
			t.Errorf("task %s: Supports(hmm) = %v, want supported %v", task.Name(), err, want)
		}
	}
}
