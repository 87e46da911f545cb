package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/tasks"
)

const tagUsage = `Usage: repro tag -m MODEL [flags] [INPUT|-]

Labels the sentences of INPUT (standard input when absent or -) with the
model and writes every input line to standard output with the predicted
label appended, in the training file's label encoding. The input is bare
tokens (one per line, a blank line after each sentence) or the training
file's column layout, with or without its label column (conlleval reads
the latter's output: its last two columns are the truth and the guess).

  repro tag -m ner.repro eng.testb | conlleval
  printf 'EU\nrejects\nGerman\ncall\n' | repro tag -m ner.repro

A parsing model reads CoNLL-X or CoNLL-U (HEAD may be _) and writes every
line back as read but for the HEAD column, which it fills in.

Flags:
`

func tagCommand(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("tag", flag.ContinueOnError)
	model := fs.String("m", "", "the model file (required)")
	quiet := fs.Bool("quiet", false, "no warnings on stderr")
	maxLine := maxLineFlag(fs)
	args, help, err := parseFlags(fs, args, tagUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) > 1:
		return usagef("tag takes at most one input file, got %d arguments %q", len(args), args)
	case *model == "":
		return usagef("tag needs -m MODEL, the model file")
	}
	if err := checkMaxLine(*maxLine); err != nil {
		return err
	}
	if err := checkNotOutput(stdout, append([]string{*model}, args...)...); err != nil {
		return err
	}
	m, err := tasks.LoadFileContext(ctx, *model)
	if err != nil {
		return err
	}
	if tm, ok := m.(tasks.TaggerModel); ok {
		tm.Format.MaxLine = *maxLine
	}
	in, name := stdin, "stdin"
	if len(args) == 1 && args[0] != "-" {
		f, err := os.Open(args[0])
		if err != nil {
			return err
		}
		defer f.Close()
		in, name = f, args[0]
	}
	warnings, err := m.Tag(ctx, in, stdout, name)
	if err != nil {
		return lineHint(err)
	}
	warn(stderr, *quiet, warnings)
	return nil
}

// warn writes warnings to stderr unless quiet.
func warn(stderr io.Writer, quiet bool, warnings []string) {
	for _, w := range warnings {
		if !quiet {
			fmt.Fprintf(stderr, "repro: warning: %s\n", w)
		}
	}
}

const evalUsage = `Usage: repro eval -m MODEL [flags] TEST_FILE

Labels the labelled TEST_FILE (in the training file's format) with the
model and prints the token error and the span precision, recall and F1,
overall and per label, as the experiment units score them: conlleval's
chunks for chunk tags, segments for segmentation models, maximal runs of
one label otherwise. A parsing model's TEST_FILE is a treebank, scored
by the attachment error (words with a wrong head, punctuation included).

Flags:
`

func evalCommand(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("eval", flag.ContinueOnError)
	model := fs.String("m", "", "the model file (required)")
	conlleval := fs.Bool("conlleval", false, "print conlleval's own report of the spans instead")
	quiet := fs.Bool("quiet", false, "no warnings on stderr")
	maxLine := maxLineFlag(fs)
	args, help, err := parseFlags(fs, args, evalUsage, stdout)
	if help || err != nil {
		return err
	}
	switch {
	case len(args) != 1:
		return usagef("eval takes exactly one test file, got %d arguments %q", len(args), args)
	case *model == "":
		return usagef("eval needs -m MODEL, the model file")
	}
	if err := checkMaxLine(*maxLine); err != nil {
		return err
	}
	loaded, err := tasks.LoadFileContext(ctx, *model)
	if err != nil {
		return err
	}
	tm, ok := loaded.(tasks.TaggerModel)
	if !ok {
		if *conlleval {
			return usagef("--conlleval applies to sequence and segmentation models, not %s", loaded.TaskName())
		}
		e, warnings, err := loaded.Evaluate(ctx, args[0])
		warn(stderr, *quiet, warnings)
		if err != nil {
			return lineHint(err)
		}
		return e.WriteReport(stdout)
	}
	m := tm.Model
	m.Format.MaxLine = *maxLine
	d, err := tagger.ReadDataContext(ctx, args[0], m.Format)
	if err != nil {
		return lineHint(err)
	}
	if n := len(d.Repairs); n > 0 && !*quiet {
		fmt.Fprintf(stderr, "repro: warning: %s: %d tags break the label encoding's rules and were read as conlleval reads them, first: %v\n", args[0], n, d.Repairs[0])
	}
	e, err := m.Evaluate(ctx, d)
	if err != nil {
		return err
	}
	w := stderr
	if *quiet {
		w = io.Discard
	}
	if err := describeUnseen(w, args[0], m, e); err != nil {
		return err
	}
	if *conlleval {
		return e.Spans.WriteReport(stdout)
	}
	return e.WriteReport(stdout)
}
