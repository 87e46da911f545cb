package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/report"
)

var reportUsage = fmt.Sprintf(`Usage: repro report [flags] DIR

Renders tables, figures and index.html in DIR from DIR/%s and DIR/%s,
without training.

--config CONFIG.yaml first writes DIR/%s again from CONFIG.yaml, the
config that made the runs (its effective form must be DIR/config.yaml's,
comments aside): after a change to what the report takes from a config
(such as the folds of a split file, for the pooled sign tests), without
rerunning a unit.

Flags:
`, report.RunsFile, report.SpecFile, report.SpecFile)

// reportCommand implements `repro report [flags] DIR`: it re-renders the
// tables, figures and index.html of a results directory from its
// runs.jsonl and report.json, without training.
func reportCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	quiet := fs.Bool("quiet", false, "do not print the table to stdout")
	configPath := fs.String("config", "", "write DIR/"+report.SpecFile+" from this config first (the one that made the runs)")
	args, help, err := parseFlags(fs, args, reportUsage, stdout)
	if help || err != nil {
		return err
	}
	if len(args) != 1 {
		return usagef("report takes exactly one results directory, got %d arguments %q", len(args), args)
	}
	// Rendering is fast and cannot be interrupted part-way without
	// leaving a mix of old and new files, so ctx is only checked first.
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := args[0]
	if *configPath != "" {
		if err := respec(dir, *configPath); err != nil {
			return err
		}
	}
	res, err := report.ReportDir(dir)
	if err != nil {
		return err
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(stderr, "repro: warning:", w)
	}
	if !*quiet {
		if err := res.Table.WriteText(stdout); err != nil {
			return err
		}
		if slices.Contains(res.Files, "paper.txt") {
			txt, err := os.ReadFile(filepath.Join(dir, "paper.txt"))
			if err != nil {
				return err
			}
			fmt.Fprintf(stdout, "\n%s", txt)
		}
	}
	fmt.Fprintf(stderr, "repro: wrote %s in %s\n", strings.Join(res.Files, ", "), dir)
	return nil
}

// respec writes dir's report.json from the config at path, after checking
// that it is the config dir's runs were made with: its effective form is
// dir/config.yaml, apart from the comment lines that name the file.
func respec(dir, path string) error {
	cfg, err := config.Load(path)
	if err != nil {
		return err
	}
	effective, err := cfg.Effective()
	if err != nil {
		return err
	}
	made, err := os.ReadFile(filepath.Join(dir, "config.yaml"))
	if err != nil {
		return fmt.Errorf("--config: %w (the effective config of the runs, which %s must match)", err, path)
	}
	if !bytes.Equal(withoutComments(effective), withoutComments(made)) {
		return fmt.Errorf("--config: %s is not the config that made the runs in %s (its effective form differs from %s): rerun it (repro run) instead",
			path, dir, filepath.Join(dir, "config.yaml"))
	}
	return report.WriteSpec(filepath.Join(dir, report.SpecFile), cfg.ReportSpec())
}

// withoutComments drops the lines of a YAML file that are comments only.
func withoutComments(b []byte) []byte {
	var out []byte
	for line := range bytes.Lines(b) {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}
