package executor

import (
	"testing"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/internal/slurm"
)

// A task asks for as many CPUs as the most threads any unit of its array
// trains with, and one when none says.
func TestSlurmCPUsFollowThreads(t *testing.T) {
	t.Parallel()
	plan := []experiments.PlannedUnit{{}, {Threads: 4}, {}, {Threads: 2}}
	for _, tc := range []struct {
		name string
		c    slurm.Chunk
		want int
	}{
		{"no threads", slurm.Chunk{IDs: []int{0, 2}}, 1},
		{"one unit with 4", slurm.Chunk{IDs: []int{0, 1, 2}}, 4},
		{"offset", slurm.Chunk{Offset: 2, IDs: []int{0, 1}}, 2},
	} {
		if got := cpusFor(plan, tc.c); got != tc.want {
			t.Errorf("%s: %d CPUs, want %d", tc.name, got, tc.want)
		}
	}
}
