// Package slurm writes sbatch scripts for job arrays and talks to Slurm's
// command-line tools (sbatch, squeue, scancel) through a Runner, so that
// the scripts and the commands can be tested without a cluster. It knows
// nothing of repro's units: callers give it array task ids and a command.
package slurm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strconv"
	"strings"
)

// Runner runs a command and returns what it printed on stdout.
type Runner interface {
	Run(ctx context.Context, name string, args ...string) ([]byte, error)
}

// ExecRunner runs commands as processes (found on $PATH).
type ExecRunner struct{}

// Run implements Runner; a failure's error holds the command's stderr.
func (ExecRunner) Run(ctx context.Context, name string, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, name, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return nil, fmt.Errorf("%s: %w", name, ErrNoSlurm)
	}
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			return out, fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
		}
		return out, fmt.Errorf("%s %s: %w: %s", name, strings.Join(args, " "), err, msg)
	}
	return out, nil
}

// MaxTaskID is the largest array task id a script gets. Slurm's default
// MaxArraySize is 1001 (task ids 0..1000); larger sets of tasks are split
// into several arrays, each adding its Offset to the task id (see Chunks).
const MaxTaskID = 1000

// Chunk is one job array's share of a set of task numbers: the array's
// task ids are the numbers minus Offset.
type Chunk struct {
	Offset int
	IDs    []int // task ids, sorted, each at most MaxTaskID
}

// Chunks splits numbers (non-negative, in any order, duplicates ignored)
// into arrays whose task ids stay within MaxTaskID: numbers n with
// n / (MaxTaskID+1) = c go to the array with Offset c·(MaxTaskID+1), so
// a set of numbers up to 1000 is one array whose task ids are the numbers
// themselves.
func Chunks(numbers []int) []Chunk {
	sorted := slices.Compact(slices.Sorted(slices.Values(numbers)))
	var out []Chunk
	for _, n := range sorted {
		off := n / (MaxTaskID + 1) * (MaxTaskID + 1)
		if len(out) == 0 || out[len(out)-1].Offset != off {
			out = append(out, Chunk{Offset: off})
		}
		c := &out[len(out)-1]
		c.IDs = append(c.IDs, n-off)
	}
	return out
}

// ArraySpec formats task ids (sorted, distinct) as sbatch's --array value
// with runs as ranges, e.g. "0-3,7,9-12", and "%N" when at most N tasks
// may run at once (maxParallel > 0).
func ArraySpec(ids []int, maxParallel int) string {
	var parts []string
	for i := 0; i < len(ids); {
		j := i
		for j+1 < len(ids) && ids[j+1] == ids[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(ids[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", ids[i], ids[j]))
		}
		i = j + 1
	}
	s := strings.Join(parts, ",")
	if maxParallel > 0 {
		s += "%" + strconv.Itoa(maxParallel)
	}
	return s
}

// Array describes one sbatch script running a job array.
type Array struct {
	Name string // --job-name
	// Comment lines head the script (each gets a "# ").
	Comment []string
	Chunk   Chunk
	// MaxParallel limits the tasks running at once (0: no limit).
	MaxParallel int
	// Output is the log file pattern (--output; %A is the array's job id,
	// %a the task id); stderr goes to the same file.
	Output string
	// Partition, Time and Mem are passed on when not empty (cluster
	// defaults otherwise); CPUs per task when positive.
	Partition, Time, Mem string
	CPUs                 int
	// AfterOK lists job ids that must all succeed before this array
	// starts; if one fails, Slurm cancels this array instead of leaving
	// it pending for ever.
	AfterOK []string
	// Command is run by every task with $TASK set to the task's number:
	// its array task id plus the chunk's offset. Arguments are quoted for
	// the shell except the literal word "$TASK".
	Command []string
}

// TaskVar is the word in Array.Command that stands for the task's number.
const TaskVar = "$TASK"

// Script returns the sbatch script of a.
func (a Array) Script() string {
	var b strings.Builder
	b.WriteString("#!/bin/bash\n")
	for _, c := range a.Comment {
		fmt.Fprintf(&b, "# %s\n", c)
	}
	opt := func(name, value string) {
		if value != "" {
			fmt.Fprintf(&b, "#SBATCH --%s=%s\n", name, value)
		}
	}
	opt("job-name", a.Name)
	opt("array", ArraySpec(a.Chunk.IDs, a.MaxParallel))
	opt("output", a.Output)
	opt("partition", a.Partition)
	opt("time", a.Time)
	opt("mem", a.Mem)
	if a.CPUs > 0 {
		opt("cpus-per-task", strconv.Itoa(a.CPUs))
	}
	if len(a.AfterOK) > 0 {
		opt("dependency", "afterok:"+strings.Join(a.AfterOK, ":"))
		opt("kill-on-invalid-dep", "yes")
	}
	b.WriteString("set -euo pipefail\n")
	if a.Chunk.Offset == 0 {
		b.WriteString("TASK=$SLURM_ARRAY_TASK_ID\n")
	} else {
		fmt.Fprintf(&b, "TASK=$((SLURM_ARRAY_TASK_ID + %d))\n", a.Chunk.Offset)
	}
	words := make([]string, len(a.Command))
	for i, w := range a.Command {
		if w == TaskVar {
			words[i] = `"$TASK"`
		} else {
			words[i] = shellQuote(w)
		}
	}
	fmt.Fprintf(&b, "exec %s\n", strings.Join(words, " "))
	return b.String()
}

// shellQuote quotes s for bash unless it needs no quoting.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Submit submits the script at path with `sbatch --parsable` and returns
// the job id sbatch prints ("id" or "id;cluster").
func Submit(ctx context.Context, r Runner, path string) (string, error) {
	out, err := r.Run(ctx, "sbatch", "--parsable", path)
	if err != nil {
		return "", err
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" || strings.Trim(id, "0123456789") != "" {
		return "", fmt.Errorf("sbatch --parsable %s printed %q, not a job id", path, out)
	}
	return id, nil
}

// Queued returns the ids among jobs (array job ids) that still have tasks
// pending or running, asking squeue about the caller's jobs.
func Queued(ctx context.Context, r Runner, jobs []string) ([]string, error) {
	if len(jobs) == 0 {
		return nil, nil
	}
	out, err := r.Run(ctx, "squeue", "--noheader", "--me", "--format=%F")
	if err != nil {
		return nil, err
	}
	inQueue := map[string]bool{}
	for _, l := range strings.Fields(string(out)) {
		inQueue[l] = true
	}
	var queued []string
	for _, j := range jobs {
		if inQueue[j] {
			queued = append(queued, j)
		}
	}
	return queued, nil
}

// Available reports whether sbatch can be run before anything is written
// for it: with ExecRunner, whether it is on $PATH (other runners are
// asked nothing; a test's fake answers for itself).
func Available(r Runner) error {
	if _, ok := r.(ExecRunner); !ok {
		return nil
	}
	if _, err := exec.LookPath("sbatch"); err != nil {
		return fmt.Errorf("sbatch: %w", ErrNoSlurm)
	}
	return nil
}

// ErrNoSlurm reports that a Slurm command is not on $PATH.
var ErrNoSlurm = errors.New("not on $PATH (is this a Slurm login node? try 'module load slurm')")
