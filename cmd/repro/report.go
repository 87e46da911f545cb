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

// reportCommand implements `repro report [flags] DIR`: it re-renders the
// tables, figures and index.html of a results directory from its
// runs.jsonl and report.json, without training.
func reportCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("report", flag.ContinueOnError)
	fs.SetOutput(stderr)
	quiet := fs.Bool("quiet", false, "do not print the table to stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: repro report [flags] DIR")
		fmt.Fprintf(stderr, "Renders tables, figures and index.html in DIR from DIR/%s and DIR/%s.\n",
			report.RunsFile, report.SpecFile)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return fmt.Errorf("report takes exactly one results directory, got %d arguments", fs.NArg())
	}
	// Rendering is fast and cannot be interrupted part-way without
	// leaving a mix of old and new files, so ctx is only checked first.
	if err := ctx.Err(); err != nil {
		return err
	}
	dir := fs.Arg(0)
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
