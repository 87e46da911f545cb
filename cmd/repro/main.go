// Command repro reproduces the experiments of structured max-margin learning
// papers: `repro run CONFIG` trains and evaluates every unit a config
// declares and writes runs.jsonl and Table-1-style tables.
//
// Exit status: 0 on success (and for -h/--help, whose text goes to
// stdout); 1 when a command fails; 2 for a command-line mistake (unknown
// command or flag, wrong arguments); 128 + the signal's number when
// interrupted: 130 for SIGINT (Ctrl-C), 143 for SIGTERM. A second signal
// stops the program at once.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	codeversion "github.com/maxmargin/repro/internal/version"
)

func main() {
	collectSooner()
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	go func() {
		sig := <-sigs
		signal.Stop(sigs) // the next signal takes its default action: exit at once
		cancel(interruption{sig})
	}()
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	os.Exit(exitCode(ctx, err, os.Stderr))
}

// gcPercent is the collector's growth target unless GOGC says otherwise:
// the heap may grow 50% past what the last collection kept, not Go's
// default 100%. Most of what a training unit holds is pointer-free
// (encoded data, packed constraints, weight vectors), which the collector
// does not scan, so collecting more often costs little CPU (none
// measurable on a parsing unit; about 2% where CoNLL'03 PosLearn's caches
// keep labelings), while a unit's peak falls from about twice its live
// memory to 1.5 times (Talbanken's largest parsing units: about 2 GB to
// 1.4–1.6 GB).
const gcPercent = 50

// collectSooner sets the collector's target to gcPercent unless the
// environment sets GOGC.
func collectSooner() {
	if os.Getenv("GOGC") == "" { // the runtime reads an empty GOGC as unset too
		debug.SetGCPercent(gcPercent)
	}
}

// interruption is the cancellation cause when a signal arrives.
type interruption struct{ sig os.Signal }

func (i interruption) Error() string { return "interrupted by " + i.sig.String() }

// exitCode prints err (if any) and returns the process's exit status (see
// the package doc). Whatever error the interrupted command returns, a run
// stopped by a signal exits with 128 + the signal's number, as shells do.
func exitCode(ctx context.Context, err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, "repro:", shortenWords(err.Error(), maxWordBytes))
	var intr interruption
	if ctx.Err() != nil && errors.As(context.Cause(ctx), &intr) {
		if s, ok := intr.sig.(syscall.Signal); ok {
			return 128 + int(s)
		}
		return 128 + int(syscall.SIGINT)
	}
	var ue usageError
	if errors.As(err, &ue) {
		fmt.Fprintln(stderr, "Run 'repro help' for usage.")
		return 2
	}
	return 1
}

// usageError is a command-line mistake (exit status 2), as opposed to a
// failure of the command itself.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error {
	return usageError{fmt.Errorf(format, args...)}
}

const usage = `repro reproduces structured max-margin learning experiments.

Usage:
  repro run [flags] CONFIG.yaml   run an experiment and write its results
  repro plan [flags] CONFIG.yaml  list its units, keys and dependencies in OUT/plan.jsonl
  repro unit --plan FILE --index N  run one unit of a plan into the shared store
  repro slurm [flags] CONFIG.yaml run its units as Slurm job arrays; --collect gathers them
  repro report [flags] DIR        regenerate DIR's tables, figures and index.html from runs.jsonl
  repro pages [--check]           write results/index.html, docs/results.md and the README's table
  repro train [flags] -o MODEL FILE  train a model on your own labelled file
  repro tag -m MODEL [INPUT|-]    label text with a model (stdin to stdout)
  repro eval -m MODEL TEST_FILE   score a model on a labelled file
  repro check [flags]             rerun configs/ci.yaml and compare with results/golden/ci.json
  repro verify [flags] CONFIG.yaml  recompute committed runs of a config and compare with their records
  repro diff OLD NEW              compare two runs.jsonl (a regeneration with what is committed), times aside
  repro version                   print the code version
  repro help                      print this text

Run 'repro COMMAND -h' for the flags of a command; flags may come before
or after the arguments. Exit status: 0 success, 1 failure, 2 usage error,
130 interrupted (Ctrl-C, SIGINT), 143 terminated (SIGTERM).
`

// run dispatches a subcommand; it returns errors instead of exiting so that
// tests can drive it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return usagef("no command given")
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], stdout, stderr)
	case "plan":
		return planCommand(ctx, args[1:], stdout, stderr)
	case "unit":
		return unitCommand(ctx, args[1:], stdout, stderr)
	case "slurm":
		return slurmCommand(ctx, args[1:], stdout, stderr)
	case "check":
		return checkCommand(ctx, args[1:], stdout, stderr)
	case "verify":
		return verifyCommand(ctx, args[1:], stdout, stderr)
	case "diff":
		return diffCommand(ctx, args[1:], stdin, stdout)
	case "report":
		return reportCommand(ctx, args[1:], stdout, stderr)
	case "pages":
		return pagesCommand(ctx, args[1:], stdout, stderr)
	case "train":
		return trainCommand(ctx, args[1:], stdout, stderr)
	case "tag":
		return tagCommand(ctx, args[1:], stdin, stdout, stderr)
	case "eval":
		return evalCommand(ctx, args[1:], stdout, stderr)
	case "version":
		if len(args) > 1 {
			return usagef("version takes no arguments, got %q", args[1:])
		}
		fmt.Fprintln(stdout, version())
		return nil
	case "help", "-h", "-help", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	return usagef("unknown command %q (commands: run, plan, unit, slurm, report, pages, check, verify, diff, train, tag, eval, version, help)", args[0])
}

// parseFlags parses args into fs, allowing flags after the positional
// arguments (repro run CONFIG.yaml --workers 2); "--" ends the flags. On
// -h or --help it prints the usage to stdout and reports help = true; a
// bad flag is a usageError.
func parseFlags(fs *flag.FlagSet, args []string, usageText string, stdout io.Writer) (positional []string, help bool, err error) {
	fs.SetOutput(io.Discard) // errors are returned; usage goes where it is asked for
	fs.Usage = func() {}
	for {
		err := fs.Parse(args)
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usageText)
			fs.SetOutput(stdout)
			fs.PrintDefaults()
			return nil, true, nil
		}
		if err != nil {
			return nil, false, usageError{fmt.Errorf("%s: %w", fs.Name(), err)}
		}
		rest := fs.Args()
		if len(rest) == 0 {
			return positional, false, nil
		}
		if consumed := len(args) - len(rest); consumed > 0 && args[consumed-1] == "--" {
			return append(positional, rest...), false, nil
		}
		positional = append(positional, rest[0])
		args = rest[1:]
	}
}

// version is the code version stamped into results (see internal/version:
// the VCS revision of a clean stamped build, else a hash of the executable,
// so that `go run` after an edit is told apart from the code before it).
func version() string { return codeversion.String() }
