package experiments

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// task is what the runner needs of a task: a check, at config time, that it
// can serve a trainer, and the function that runs one unit.
type task struct {
	supports func(trainer string) error
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

// dispatchUnit runs a unit with its task's function.
func dispatchUnit(ctx context.Context, d *preparedData, u unitSpec, train, eval []int) (unitResult, error) {
	t, ok := tasks()[u.Task]
	if !ok {
		return unitResult{}, fmt.Errorf("unknown task %q (known: %s)", u.Task, strings.Join(KnownTasks(), ", "))
	}
	return t.run(ctx, d, u, train, eval)
}
