// Command repro reproduces the experiments of structured max-margin learning
// papers: `repro run CONFIG` trains and evaluates every unit a config
// declares and writes runs.jsonl and Table-1-style tables.
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
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	if errors.Is(err, flag.ErrHelp) {
		os.Exit(2)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "repro:", err)
		os.Exit(1)
	}
}

const usage = `repro reproduces structured max-margin learning experiments.

Usage:
  repro run [flags] CONFIG.yaml   run an experiment and write its results
  repro report DIR                regenerate DIR's tables, figures and index.html from runs.jsonl
  repro check [flags]             rerun configs/ci.yaml and compare with results/golden/ci.json
  repro version                   print the code version

Run 'repro run -h' for the flags of run.
`

// run dispatches a subcommand; it returns errors instead of exiting so that
// tests can drive it.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return flag.ErrHelp
	}
	switch args[0] {
	case "run":
		return runCommand(ctx, args[1:], stdout, stderr)
	case "check":
		return checkCommand(ctx, args[1:], stdout, stderr)
	case "report":
		return reportCommand(ctx, args[1:], stdout, stderr)
	case "version":
		fmt.Fprintln(stdout, version())
		return nil
	case "help", "-h", "--help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return fmt.Errorf("unknown command %q", args[0])
}

// version returns the VCS revision the binary was built from (with
// "+dirty" when the tree had local changes), or "devel".
func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	var rev, dirty string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = "+dirty"
			}
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev + dirty
}
