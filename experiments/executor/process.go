package executor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/maxmargin/repro/experiments"
	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
	"golang.org/x/sync/errgroup"
)

// LogDir is where ProcessExecutor writes each child's stderr and stdout,
// inside the output directory: logs/<key>.log.
const LogDir = "logs"

// ProcessExecutor runs each unit in a child process, `repro unit --plan
// OUT/plan.jsonl --index N`, up to Workers at once (at least one). A unit
// that crashes or that the kernel kills for its memory then fails alone,
// and the memory a unit held goes back to the system when its process
// ends, instead of staying in the runner's heap (CoNLL'03 PosLearn units
// hold many GB).
//
// Before its first batch it plans Config (loading the data once more, in
// this process) and writes OUT/plan.jsonl, which children find their unit
// in. Validation units are found in the plan by key; a test unit whose C
// validation chooses is found by its group's test line, whose child
// chooses C from the store with the same selection as the runner, so it
// computes the same key. The grid-extension validation points the runner
// adds after a first selection are in no plan line: their child gets their
// group's test line and C (`repro unit --grid-extension C`, see
// RunGridExtension). Units whose group has a validation unit missing from
// the store (it failed: a child could not choose C as the runner did) run
// in this process, through work, as LocalExecutor runs them.
//
// Children always get --force: the runner hands over only units it wants
// computed (Options.Force and Options.RefreshStale included), as
// LocalExecutor's work computes them without looking in the store first.
type ProcessExecutor struct {
	Workers int
	// Config and Options are the run's: Options.OutDir, DataDir and
	// LockAge are handed to the children.
	Config  *config.Config
	Options experiments.Options
	// Exe is the repro executable children run; "": this one
	// (os.Executable). Tests set it to stand-ins that fail.
	Exe string
	// StopDelay is how long a child has to exit after SIGTERM when ctx is
	// cancelled before it is killed; 0: 30 seconds.
	StopDelay time.Duration

	mu       sync.Mutex
	plan     []experiments.PlannedUnit
	planPath string
	planErr  error
}

// Execute implements Executor.
func (e *ProcessExecutor) Execute(ctx context.Context, units []experiments.Unit, work experiments.Worker, track experiments.Tracker) {
	planErr := e.preparePlan(ctx)
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(max(1, e.Workers))
	for _, u := range units {
		if gctx.Err() != nil {
			break
		}
		g.Go(func() error {
			track.Started(u)
			if planErr != nil {
				track.Finished(u, planErr)
				return nil
			}
			index, extension, ok := e.indexOf(u)
			if !ok {
				track.Finished(u, work(gctx, u))
				return nil
			}
			track.Finished(u, e.runChild(gctx, u, index, extension))
			return nil // unit errors go to the tracker, so one never stops the others
		})
	}
	_ = g.Wait()
}

// preparePlan plans the config and writes OUT/plan.jsonl, once.
func (e *ProcessExecutor) preparePlan(ctx context.Context) error {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.plan != nil || e.planErr != nil {
		return e.planErr
	}
	opt := e.Options.WithDefaults(e.Config)
	opt.Progress, opt.Stdout = nil, nil // the runner reports warnings already
	e.planPath = filepath.Join(opt.OutDir, experiments.PlanFile)
	plan, err := experiments.Plan(ctx, e.Config, opt)
	if err == nil {
		err = experiments.WritePlan(e.planPath, plan)
	}
	if err != nil {
		e.planErr = fmt.Errorf("process executor: writing the plan its children read: %w", err)
		return e.planErr
	}
	e.plan = plan
	if e.Exe == "" {
		if e.Exe, err = os.Executable(); err != nil {
			e.planErr = fmt.Errorf("process executor: finding the repro executable: %w", err)
		}
	}
	return e.planErr
}

// indexOf returns the plan line a child runs u from, and whether u is a
// grid extension of that line's group, or false when u must run in this
// process (see ProcessExecutor).
func (e *ProcessExecutor) indexOf(u experiments.Unit) (index int, extension bool, ok bool) {
	if i, err := experiments.IndexOf(e.plan, u.Key); err == nil {
		return i, false, true
	}
	group := u.Group()
	dir := filepath.Join(e.Options.WithDefaults(e.Config).OutDir, "units")
	for _, p := range e.plan {
		if p.Phase != store.PhaseTest || !p.CFromValidation || p.Group != group {
			continue
		}
		for _, d := range p.DependsOn {
			if _, err := os.Stat((store.Cache{Dir: dir}).Path(e.plan[d].Key)); err != nil {
				return 0, false, false // the runner chose C without it; so must we
			}
		}
		return p.Index, u.Phase() != store.PhaseTest, true
	}
	return 0, false, false
}

// runChild runs `repro unit` on the plan's line index for u (with
// --grid-extension and u's C when u extends that line's grid), its output
// going to OUT/logs/<key>.log, and checks that u is in the store after.
func (e *ProcessExecutor) runChild(ctx context.Context, u experiments.Unit, index int, extension bool) error {
	out := filepath.Dir(e.planPath)
	logPath := filepath.Join(out, LogDir, u.Key+".log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		return fmt.Errorf("process executor: %w", err)
	}
	log, err := os.Create(logPath)
	if err != nil {
		return fmt.Errorf("process executor: %w", err)
	}
	defer log.Close()
	args := []string{"unit", "--plan", e.planPath, "--index", strconv.Itoa(index), "--force"}
	if extension {
		args = append(args, "--grid-extension", strconv.FormatFloat(u.C(), 'g', -1, 64))
	}
	if e.Options.DataDir != "" {
		args = append(args, "--data", e.Options.DataDir)
	}
	if e.Options.LockAge > 0 {
		args = append(args, "--lock-age", e.Options.LockAge.String())
	}
	cmd := exec.CommandContext(ctx, e.Exe, args...)
	cmd.Stdout, cmd.Stderr = log, log
	// A cancelled run asks its children to stop as Ctrl-C would, so they
	// release their unit locks, and kills those that do not.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGTERM) }
	cmd.WaitDelay = e.StopDelay
	if cmd.WaitDelay <= 0 {
		cmd.WaitDelay = 30 * time.Second
	}
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("unit %d stopped (%w); its log: %s", index, ctx.Err(), logPath)
		}
		return fmt.Errorf("repro unit --index %d failed (%w)%s; its log: %s", index, err, lastLine(logPath), logPath)
	}
	result := (store.Cache{Dir: filepath.Join(out, "units")}).Path(u.Key)
	if _, err := os.Stat(result); err != nil {
		return fmt.Errorf("repro unit --index %d exited 0 but left no result at %s (%w); its log: %s", index, result, errors.Unwrap(err), logPath)
	}
	return nil
}

// lastLine returns ": " and the last non-empty line of the file at path,
// which is usually the child's error, or "" if there is none.
func lastLine(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	lines := bytes.Split(bytes.TrimSpace(b), []byte("\n"))
	if l := bytes.TrimSpace(lines[len(lines)-1]); len(l) > 0 {
		return ": " + string(l)
	}
	return ""
}
