package executor

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/slurm"
)

// SlurmDir is the directory in OUT holding the scripts, logs and the
// record of submitted jobs.
const SlurmDir = "slurm"

// jobsFile records every array submitted for an output directory, one
// JSON line each, so that a later call can tell which task ran a unit.
const jobsFile = "jobs.jsonl"

// Submission is one line of jobsFile.
type Submission struct {
	Stage  string `json:"stage"`  // "validate" or "test"
	Job    string `json:"job"`    // the array's job id
	Offset int    `json:"offset"` // plan index = task id + offset
	Units  []int  `json:"units"`  // the plan indices it runs
	Script string `json:"script"`
	Output string `json:"output"` // log pattern, %A and %a as in sbatch
	Time   string `json:"submitted"`
}

// log returns the log file of the task that ran plan unit i.
func (s Submission) log(i int) string {
	return strings.NewReplacer("%A", s.Job, "%a", strconv.Itoa(i-s.Offset)).Replace(s.Output)
}

// Slurm runs a config's units on a Slurm cluster as job arrays (Submit).
// It is also the executor of the run that collects them afterwards
// (Collect): by then every unit is in the store, so Execute, handed the
// units that are not, reports them failed rather than computing them on
// the login node.
type Slurm struct {
	// Partition, Time and Mem are sbatch's (empty: the partition's).
	Partition, Time, Mem string
	// MaxParallel is how many tasks of an array run at once (0: no limit).
	MaxParallel int
	// DryRun prints the scripts and writes and submits nothing.
	DryRun bool
	// Repro is the absolute path of the repro binary the array tasks run,
	// Data the absolute data directory they are given.
	Repro, Data string
	// Runner runs Slurm's commands (slurm.ExecRunner{}; tests stand in).
	Runner slurm.Runner
	// Memory is the estimated memory of a task, as Submit reports it.
	Memory string
}

// Submit submits the units of plan that are not stored: one array per
// stage (and per MaxTaskID+1 plan indices), the test array after the
// validation array. history is the output directory's earlier
// submissions (ReadSubmissions).
func (s *Slurm) Submit(ctx context.Context, cfg *config.Config, opt experiments.Options, plan []experiments.PlannedUnit, stored []bool,
	history []Submission, stdout, stderr io.Writer) (err error) {
	queued, err := s.queued(ctx, history, opt.OutDir)
	if err != nil {
		return err
	}
	missing := map[string][]int{}
	for i, p := range plan {
		if !stored[i] {
			missing[p.Phase] = append(missing[p.Phase], i)
		}
	}
	n := len(missing["validate"]) + len(missing["test"])
	listFailed(stderr, plan, stored, history, queued)
	if n == 0 {
		fmt.Fprintf(stderr, "repro: all %d units of %s are in %s; gather them with: repro slurm --collect %s\n",
			len(plan), cfg.File(), filepath.Join(opt.OutDir, "units"), cfg.File())
		return nil
	}
	fmt.Fprintf(stderr, "repro: %s: %d of %d units to submit (%d validation, %d test); estimated memory: %s (%s)\n",
		cfg.File(), n, len(plan), len(missing["validate"]), len(missing["test"]), s.Memory, memNote(s.Mem))

	sdir, err := filepath.Abs(filepath.Join(opt.OutDir, SlurmDir))
	if err != nil {
		return err
	}
	planPath, err := filepath.Abs(filepath.Join(opt.OutDir, experiments.PlanFile))
	if err != nil {
		return err
	}
	var validationJobs, submitted []string
	// What this call creates goes again if it submits nothing: a failed
	// first submission leaves the output directory as it found it.
	var created []string
	note := func(paths ...string) {
		for _, p := range paths {
			if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
				created = append(created, p)
			}
		}
	}
	defer func() {
		if err != nil && len(submitted) == 0 {
			for _, p := range slices.Backward(created) {
				os.Remove(p) // directories only if empty
			}
		}
	}()
	if !s.DryRun {
		note(opt.OutDir, sdir, filepath.Join(sdir, "logs"), planPath)
		if err := os.MkdirAll(filepath.Join(sdir, "logs"), 0o755); err != nil {
			return err
		}
		if err := experiments.WritePlan(planPath, plan); err != nil {
			return err
		}
	}
	for _, stage := range []string{"validate", "test"} {
		var after []string
		if stage == "test" && needsValidation(plan, missing["test"], stored) {
			after = validationJobs
			if s.DryRun && len(missing["validate"]) > 0 {
				after = []string{"<validation job id>"}
			}
		}
		chunks := slurm.Chunks(missing[stage])
		for _, c := range chunks {
			name := stage
			if len(chunks) > 1 {
				name = fmt.Sprintf("%s-%d", stage, c.Offset)
			}
			a := arrayFor(cfg, s, stage, c, planPath, filepath.Join(sdir, "logs", name+"-%A_%a.out"), after)
			a.CPUs = cpusFor(plan, c) // as many as the unit with the most threads
			script := filepath.Join(sdir, name+".sbatch")
			text := a.Script()
			if s.DryRun {
				fmt.Fprintf(stdout, "# ---- %s ----\n%s", script, text)
				continue
			}
			note(script)
			job, units, err := s.submitArray(ctx, stage, c, a, script, text, sdir, submitted)
			if err != nil {
				return err
			}
			submitted = append(submitted, job)
			if stage == "validate" {
				validationJobs = append(validationJobs, job)
			}
			fmt.Fprintf(stdout, "%s %s\n", stage, job)
			dep := ""
			if len(after) > 0 {
				dep = ", after " + strings.Join(after, ", ") + " succeed(s)"
			}
			fmt.Fprintf(stderr, "repro: submitted %s array %s: %d task(s), plan units %s%s\n", stage, job, len(c.IDs), slurm.ArraySpec(units, 0), dep)
		}
	}
	if s.DryRun {
		return nil
	}
	printFollow(stderr, submitted, sdir, cfg.File())
	return nil
}

// printFollow tells how to follow the jobs submitted and what to do when
// they end.
func printFollow(w io.Writer, submitted []string, sdir, config string) {
	ids := strings.Join(submitted, ",")
	fmt.Fprintf(w, `repro: follow them with: squeue -j %s   (after they end: sacct -j %s, where accounting is enabled)
repro: task logs: %s
repro: when they are done, gather the results: repro slurm --collect %s; if tasks failed, the same submit command lists them and submits only the missing units
`, ids, ids, filepath.Join(sdir, "logs"), config)
}

// queued returns the jobs of history still queued or running (none for a
// dry run), and an error naming them if there are any: units they may
// still store must not be submitted again.
func (s *Slurm) queued(ctx context.Context, history []Submission, outDir string) ([]string, error) {
	if s.DryRun || len(history) == 0 {
		return nil, nil
	}
	queued, err := slurm.Queued(ctx, s.Runner, jobIDs(history))
	if err != nil {
		return nil, err
	}
	if len(queued) > 0 {
		ids := strings.Join(queued, ",")
		return queued, fmt.Errorf("jobs %s of an earlier submission for %s are still queued or running; wait for them (squeue -j %s) or cancel them (scancel %s), then run this again to submit what is missing",
			ids, outDir, ids, strings.Join(queued, " "))
	}
	return nil, nil
}

// submitArray writes the script of array a (running chunk c of stage),
// submits it and records the submission in jobsFile, returning its job
// id and plan units. submitted are the jobs this call submitted before,
// which an error names.
func (s *Slurm) submitArray(ctx context.Context, stage string, c slurm.Chunk, a slurm.Array, script, text, sdir string, submitted []string) (string, []int, error) {
	if err := atomicfile.WriteFile(script, []byte(text)); err != nil {
		return "", nil, err
	}
	job, err := slurm.Submit(ctx, s.Runner, script)
	if err != nil {
		if len(submitted) > 0 {
			return "", nil, fmt.Errorf("%w (jobs %s were submitted already: cancel them with scancel %s, or let them run and submit again)", err, strings.Join(submitted, ","), strings.Join(submitted, " "))
		}
		return "", nil, err
	}
	units := make([]int, len(c.IDs))
	for i, id := range c.IDs {
		units[i] = id + c.Offset
	}
	rec := Submission{Stage: stage, Job: job, Offset: c.Offset, Units: units, Script: script, Output: a.Output, Time: time.Now().UTC().Format(time.RFC3339)}
	if err := appendSubmission(filepath.Join(sdir, jobsFile), rec); err != nil {
		return "", nil, err
	}
	return job, units, nil
}

// memNote says where the memory limit per task comes from.
func memNote(mem string) string {
	if mem == "" {
		return "no --mem: the partition's default applies"
	}
	return "--mem " + mem
}

// needsValidation reports whether any of the test units depends on a
// validation unit that is not stored.
func needsValidation(plan []experiments.PlannedUnit, tests []int, stored []bool) bool {
	for _, i := range tests {
		for _, d := range plan[i].DependsOn {
			if !stored[d] {
				return true
			}
		}
	}
	return false
}

// arrayFor describes the array running the plan units of chunk c.
func arrayFor(cfg *config.Config, s *Slurm, stage string, c slurm.Chunk, planPath, output string, after []string) slurm.Array {
	what := "validation units (each trains on part of a split's training set and scores the rest)"
	if stage == "test" {
		what = "test units (each chooses C from its group's stored validation units, trains and scores the test set)"
	}
	index := "the task id"
	if c.Offset > 0 {
		index = fmt.Sprintf("the task id + %d", c.Offset)
	}
	return slurm.Array{
		Name: "repro-" + cfg.Name + "-" + stage,
		Comment: []string{
			"Written by repro slurm for " + cfg.File() + ": the " + what + ".",
			"Each task runs the unit of " + planPath + " whose index is " + index + ".",
		},
		Chunk: c, MaxParallel: s.MaxParallel, Output: output,
		Partition: s.Partition, Time: s.Time, Mem: s.Mem,
		AfterOK: after,
		Command: []string{s.Repro, "unit", "--plan", planPath, "--index", slurm.TaskVar, "--data", s.Data},
	}
}

// cpusFor is the CPUs each task of chunk c asks for: the largest threads
// of its plan units (a unit trains on one core unless its trainer's
// threads param says more; one array has one size for all its tasks).
func cpusFor(plan []experiments.PlannedUnit, c slurm.Chunk) int {
	cpus := 1
	for _, id := range c.IDs {
		cpus = max(cpus, plan[id+c.Offset].Threads)
	}
	return cpus
}

// listFailed lists the units that earlier submissions ran but that are not
// in the store, with the log of the task that ran each.
func listFailed(w io.Writer, plan []experiments.PlannedUnit, stored []bool, history []Submission, queued []string) {
	last := map[int]Submission{}
	for _, s := range history {
		for _, i := range s.Units {
			last[i] = s
		}
	}
	for i := range plan {
		s, ok := last[i]
		if stored[i] || !ok || slices.Contains(queued, s.Job) {
			continue
		}
		log := s.log(i)
		if _, err := os.Stat(log); err != nil {
			fmt.Fprintf(w, "repro: unit %d (%s, job %s task %d) did not run: no log %s (cancelled, e.g. because a task it waited for failed)\n", i, describePlanned(plan[i]), s.Job, i-s.Offset, log)
			continue
		}
		fmt.Fprintf(w, "repro: unit %d (%s, job %s task %d) failed: %s%s\n", i, describePlanned(plan[i]), s.Job, i-s.Offset, log, lastLine(log))
	}
}

// describePlanned names a plan unit for messages.
func describePlanned(p experiments.PlannedUnit) string {
	name := p.Label
	if name == "" {
		name = p.Spec.Trainer
	}
	c := fmt.Sprintf("C=%g", p.Spec.C)
	if p.CFromValidation {
		c = "C by validation"
	}
	return fmt.Sprintf("%s %s %s split %d, %s", p.Phase, p.Spec.Dataset, name, p.Spec.Split, c)
}

// Collect writes the outputs from a complete store, computing nothing: it
// is experiments.Run with s as the executor, and returns Run's outcome
// (nil when units are missing from the store).
func (s *Slurm) Collect(ctx context.Context, cfg *config.Config, opt experiments.Options, plan []experiments.PlannedUnit, stored []bool,
	history []Submission, stderr io.Writer) (*experiments.Outcome, error) {
	runner := s.Runner
	missing := 0
	for _, ok := range stored {
		if !ok {
			missing++
		}
	}
	if missing > 0 {
		queued, err := slurm.Queued(ctx, runner, jobIDs(history))
		if err != nil {
			queued = nil // no queue to ask: the logs still tell
		}
		listFailed(stderr, plan, stored, history, queued)
		still := ""
		if len(queued) > 0 {
			still = fmt.Sprintf("; jobs %s are still queued or running (squeue -j %s)", strings.Join(queued, ","), strings.Join(queued, ","))
		}
		return nil, fmt.Errorf("%d of %d units of %s are not in %s yet%s; submit the missing ones with repro slurm %s",
			missing, len(plan), cfg.File(), filepath.Join(opt.OutDir, "units"), still, cfg.File())
	}
	opt.Executor = s
	res, err := experiments.Run(ctx, cfg, opt)
	if res != nil {
		fmt.Fprintf(stderr, "repro: collected %d units from the store; results in %s\n", res.Cached, res.OutDir)
	}
	return res, err
}

// Execute implements experiments.Executor for a collecting run: every unit
// is in the store already (Stored said so), so a unit handed to it is
// reported as failed rather than computed on the login node.
func (s *Slurm) Execute(_ context.Context, units []experiments.Unit, _ experiments.Worker, track experiments.Tracker) {
	for _, u := range units {
		track.Finished(u, errors.New("not in the store; submit it with repro slurm"))
	}
}

func jobIDs(history []Submission) []string {
	var ids []string
	for _, s := range history {
		ids = append(ids, s.Job)
	}
	return ids
}

// ReadSubmissions reads the record of the arrays submitted for the output
// directory outDir (OUT/slurm/jobs.jsonl); a missing file is an empty history.
func ReadSubmissions(outDir string) ([]Submission, error) {
	path := filepath.Join(outDir, SlurmDir, jobsFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []Submission
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var s Submission
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// appendSubmission adds one line to jobsFile.
func appendSubmission(path string, s Submission) error {
	b, err := json.Marshal(s)
	if err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
