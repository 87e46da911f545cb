package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/maxmargin/repro/report"
)

var reportUsage = fmt.Sprintf(`Usage: repro report [flags] DIR

Renders tables, figures and index.html in DIR from DIR/%s and DIR/%s,
without training.

Flags:
`, report.RunsFile, report.SpecFile)

// reportCommand implements `repro report [flags] DIR`: it re-renders the
// tables, figures and index.html of a results directory from its
// runs.jsonl and report.json, without training.
func reportCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	quiet := fs.Bool("quiet", false, "do not print the table to stdout")
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
