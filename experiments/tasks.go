package experiments

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/maxmargin/repro/trainers"
)

// task is what the runner needs of a task: a check, at config time, that it
// can serve a trainer entry, and the function that runs one unit.
type task struct {
	supports func(t TrainerSpec) error
	run      unitFunc
}

// tasks returns the task table. It is a function, not a package variable, so
// that there is no mutable global state.
func tasks() map[string]task {
	return map[string]task{
		TaskSequence:     {supports: checkTrainerSupportsSequence, run: runSequenceUnit},
		TaskSegmentation: {supports: checkTrainerSupportsSegmentation, run: runSegmentationUnit},
	}
}

// KnownTasks lists the task names a config may use.
func KnownTasks() []string {
	var names []string
	for name := range tasks() {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// canTrain reports whether probe, an empty model of a task, serves trainer
// entry t with its settings (e.g. entropy-margin with slack rescaling needs a
// slack-rescaled partition function, which not every model has).
func canTrain[Y any](t TrainerSpec, probe trainers.Model[Y]) error {
	v, err := t.params()
	if err != nil {
		return err
	}
	return trainers.Check(t.Name, probe, v)
}

// dispatchUnit runs a unit with its task's function.
func dispatchUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	t, ok := tasks()[u.Task]
	if !ok {
		return unitResult{}, fmt.Errorf("unknown task %q (known: %s)", u.Task, strings.Join(KnownTasks(), ", "))
	}
	return t.run(ctx, d, u, train, eval)
}
