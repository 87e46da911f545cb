package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/slurm"
)

const slurmUsage = `Usage: repro slurm [flags] CONFIG.yaml

Runs CONFIG.yaml's units on a Slurm cluster as job arrays. Writes
OUT/plan.jsonl (as 'repro plan' does) and one sbatch script per stage in
OUT/slurm/: a validation array, then a test array that starts only when
every validation task succeeded (--dependency=afterok); each array task
runs 'repro unit --plan OUT/plan.jsonl --index N' for one unit into the
store OUT/units/. OUT must be on a file system that every node shares,
and the repro binary too (see --repro). Submits the scripts with sbatch,
prints "STAGE JOBID" lines on stdout and how to follow the jobs on stderr.

Running the same command again submits only the units missing from the
store, and lists the earlier tasks that failed with their log files.
Once every unit is stored, 'repro slurm --collect CONFIG.yaml' writes
runs.jsonl, the tables, figures and index.html exactly as 'repro run'
would (it is 'repro run' computing nothing).

Flags:
`

// slurmDir is the directory in OUT holding the scripts, logs and the
// record of submitted jobs.
const slurmDir = "slurm"

// jobsFile records every array submitted for an output directory, one
// JSON line each, so that a later call can tell which task ran a unit.
const jobsFile = "jobs.jsonl"

// submission is one line of jobsFile.
type submission struct {
	Stage  string `json:"stage"`  // "validate" or "test"
	Job    string `json:"job"`    // the array's job id
	Offset int    `json:"offset"` // plan index = task id + offset
	Units  []int  `json:"units"`  // the plan indices it runs
	Script string `json:"script"`
	Output string `json:"output"` // log pattern, %A and %a as in sbatch
	Time   string `json:"submitted"`
}

// log returns the log file of the task that ran plan unit i.
func (s submission) log(i int) string {
	return strings.NewReplacer("%A", s.Job, "%a", strconv.Itoa(i-s.Offset)).Replace(s.Output)
}

func slurmCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	return slurmWith(ctx, args, stdout, stderr, slurm.ExecRunner{})
}

// slurmSettings are the command's flags after parsing.
type slurmSettings struct {
	partition, time, mem string
	maxParallel          int
	dryRun, collect      bool
	repro                string // the binary array tasks run
	data                 string // absolute data directory passed to tasks
}

// slurmWith is slurmCommand with the runner of Slurm's commands given, so
// that tests need no cluster.
func slurmWith(ctx context.Context, args []string, stdout, stderr io.Writer, runner slurm.Runner) error {
	fs := flag.NewFlagSet("slurm", flag.ContinueOnError)
	dataDir := fs.String("data", "", "data directory (default: $"+datasets.EnvDataDir+", else ./"+datasets.DefaultDataDir+")")
	out := fs.String("out", "", "output directory, on a shared file system (default: results/<config name>)")
	var s slurmSettings
	fs.StringVar(&s.partition, "partition", "", "Slurm partition (default: the cluster's default partition)")
	fs.IntVar(&s.maxParallel, "max-parallel", 0, "array tasks running at once per array (0: no limit)")
	fs.StringVar(&s.time, "time", "", "time limit per unit, in sbatch's format, e.g. 30:00 or 2:00:00 (default: the partition's)")
	fs.StringVar(&s.mem, "mem", "", "memory per unit, e.g. 1G (default: the partition's; see the estimate printed)")
	fs.BoolVar(&s.dryRun, "dry-run", false, "print the scripts; write and submit nothing")
	fs.BoolVar(&s.collect, "collect", false, "gather the stored units into the outputs, as repro run would, computing nothing")
	fs.StringVar(&s.repro, "repro", "", "the repro binary array tasks run, on the shared file system (default: this one)")
	args, help, err := parseFlags(fs, args, slurmUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) != 1:
		return usagef("slurm takes exactly one config file, got %d arguments %q", len(args), args)
	case s.maxParallel < 0:
		return usagef("--max-parallel must be at least 0, got %d", s.maxParallel)
	case s.collect && s.dryRun:
		return usagef("--collect and --dry-run exclude each other")
	}
	if !s.collect && !s.dryRun {
		if err := slurm.Available(runner); err != nil { // before anything is loaded or written
			return err
		}
	}
	cfg, err := config.Load(args[0])
	if err != nil {
		return err
	}
	dir, source := datasets.ResolveDataDir(*dataDir)
	opt := experiments.Options{DataDir: dir, DataSource: source, OutDir: *out, Progress: stderr, Stdout: stdout, Version: version()}
	if opt.OutDir == "" {
		opt.OutDir = filepath.Join("results", cfg.Name)
	}
	plan, err := experiments.Plan(ctx, cfg, opt)
	if err != nil {
		return err
	}
	stored, err := experiments.Stored(cfg, plan, opt)
	if err != nil {
		return err
	}
	sdir := filepath.Join(opt.OutDir, slurmDir)
	history, err := readSubmissions(filepath.Join(sdir, jobsFile))
	if err != nil {
		return err
	}
	if s.collect {
		return slurmCollect(ctx, cfg, opt, plan, stored, history, runner, stderr)
	}
	if s.data, err = filepath.Abs(dir); err != nil {
		return err
	}
	if s.repro, err = reproBinary(s.repro); err != nil {
		return err
	}
	return slurmSubmit(ctx, cfg, opt, plan, stored, history, s, runner, stdout, stderr)
}

// reproBinary returns the absolute path of the binary array tasks run.
func reproBinary(flagValue string) (string, error) {
	path := flagValue
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding this binary for the array tasks (pass --repro PATH): %w", err)
		}
		// go run deletes its binary when it exits, before the tasks run.
		if strings.Contains(exe, string(filepath.Separator)+"go-build") {
			return "", usagef("this repro is a temporary binary of 'go run', gone before the array tasks start; build one on the shared file system (CGO_ENABLED=0 go build -o bin/repro ./cmd/repro) and run that, or pass --repro PATH")
		}
		path = exe
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	if _, err := os.Stat(abs); err != nil {
		return "", usagef("--repro: %v", err)
	}
	return abs, nil
}

// slurmSubmit submits the units of plan that are not stored: one array per
// stage (and per MaxTaskID+1 plan indices), the test array after the
// validation array.
func slurmSubmit(ctx context.Context, cfg *config.Config, opt experiments.Options, plan []experiments.PlannedUnit, stored []bool,
	history []submission, s slurmSettings, runner slurm.Runner, stdout, stderr io.Writer) (err error) {
	var queued []string
	if !s.dryRun && len(history) > 0 {
		var err error
		if queued, err = slurm.Queued(ctx, runner, jobIDs(history)); err != nil {
			return err
		}
		if len(queued) > 0 {
			ids := strings.Join(queued, ",")
			return fmt.Errorf("jobs %s of an earlier submission for %s are still queued or running; wait for them (squeue -j %s) or cancel them (scancel %s), then run this again to submit what is missing",
				ids, opt.OutDir, ids, strings.Join(queued, " "))
		}
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
	e := cfg.Estimate()
	e.UnitBytes += e.DataBytes // a task loads the data itself
	fmt.Fprintf(stderr, "repro: %s: %d of %d units to submit (%d validation, %d test); estimated memory: %s (%s)\n",
		cfg.File(), n, len(plan), len(missing["validate"]), len(missing["test"]), unitMemory(e), memNote(s.mem))

	sdir, err := filepath.Abs(filepath.Join(opt.OutDir, slurmDir))
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
	if !s.dryRun {
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
			if s.dryRun && len(missing["validate"]) > 0 {
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
			if s.dryRun {
				fmt.Fprintf(stdout, "# ---- %s ----\n%s", script, text)
				continue
			}
			note(script)
			if err := atomicfile.WriteFile(script, []byte(text)); err != nil {
				return err
			}
			job, err := slurm.Submit(ctx, runner, script)
			if err != nil {
				if len(submitted) > 0 {
					return fmt.Errorf("%w (jobs %s were submitted already: cancel them with scancel %s, or let them run and submit again)", err, strings.Join(submitted, ","), strings.Join(submitted, " "))
				}
				return err
			}
			units := make([]int, len(c.IDs))
			for i, id := range c.IDs {
				units[i] = id + c.Offset
			}
			rec := submission{Stage: stage, Job: job, Offset: c.Offset, Units: units, Script: script, Output: a.Output, Time: time.Now().UTC().Format(time.RFC3339)}
			if err := appendSubmission(filepath.Join(sdir, jobsFile), rec); err != nil {
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
	if s.dryRun {
		return nil
	}
	ids := strings.Join(submitted, ",")
	fmt.Fprintf(stderr, `repro: follow them with: squeue -j %s   (after they end: sacct -j %s, where accounting is enabled)
repro: task logs: %s
repro: when they are done, gather the results: repro slurm --collect %s; if tasks failed, the same submit command lists them and submits only the missing units
`, ids, ids, filepath.Join(sdir, "logs"), cfg.File())
	return nil
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
func arrayFor(cfg *config.Config, s slurmSettings, stage string, c slurm.Chunk, planPath, output string, after []string) slurm.Array {
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
		Chunk: c, MaxParallel: s.maxParallel, Output: output,
		Partition: s.partition, Time: s.time, Mem: s.mem,
		AfterOK: after,
		Command: []string{s.repro, "unit", "--plan", planPath, "--index", slurm.TaskVar, "--data", s.data},
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
func listFailed(w io.Writer, plan []experiments.PlannedUnit, stored []bool, history []submission, queued []string) {
	last := map[int]submission{}
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

// lastLine returns ": " and the last non-empty line of a log (the error,
// as a rule), or "".
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if l := strings.TrimSpace(lines[len(lines)-1]); l != "" {
		return ": " + l
	}
	return ""
}

// slurmCollect writes the outputs from a complete store, computing nothing.
func slurmCollect(ctx context.Context, cfg *config.Config, opt experiments.Options, plan []experiments.PlannedUnit, stored []bool,
	history []submission, runner slurm.Runner, stderr io.Writer) error {
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
		return fmt.Errorf("%d of %d units of %s are not in %s yet%s; submit the missing ones with repro slurm %s",
			missing, len(plan), cfg.File(), filepath.Join(opt.OutDir, "units"), still, cfg.File())
	}
	opt.Executor = storeOnly{}
	res, err := experiments.Run(ctx, cfg, opt)
	if res != nil {
		fmt.Fprintf(stderr, "repro: collected %d units from the store; results in %s\n", res.Cached, res.OutDir)
	}
	if err == nil && res != nil && !res.Partial {
		// The jobs' cost is not measured here; an earlier run's record may
		// no longer describe the outputs just written.
		recorded, err := store.RecordCost(res.OutDir, store.RunCost{Version: opt.Version, UnitsCached: res.Cached}, res.Runs)
		if err != nil {
			return err
		}
		reportCostRecord(stderr, recorded, res.Cached)
	}
	return err
}

// storeOnly is the executor of a collecting run: every unit is in the
// store already (Stored said so), so a unit handed to it is reported as
// failed rather than computed on the login node.
type storeOnly struct{}

func (storeOnly) Execute(_ context.Context, units []experiments.Unit, _ experiments.Worker, track experiments.Tracker) {
	for _, u := range units {
		track.Finished(u, errors.New("not in the store; submit it with repro slurm"))
	}
}

func jobIDs(history []submission) []string {
	var ids []string
	for _, s := range history {
		ids = append(ids, s.Job)
	}
	return ids
}

// readSubmissions reads jobsFile; a missing file is an empty history.
func readSubmissions(path string) ([]submission, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []submission
	sc := bufio.NewScanner(bytes.NewReader(b))
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var s submission
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, err)
		}
		out = append(out, s)
	}
	return out, sc.Err()
}

// appendSubmission adds one line to jobsFile.
func appendSubmission(path string, s submission) error {
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
