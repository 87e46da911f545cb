package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/tagger"
)

// checkOutputFile checks, before any work, that a file can be written at
// out (named by flag in errors) without replacing an input: out is not a
// directory, its directory exists (it is not created silently: a typo in a
// path should not become a tree of directories) and takes a new file, and
// out is none of the inputs (os.SameFile: the same file under another name
// or through a link counts too).
func checkOutputFile(flag, out string, inputs ...string) error {
	if st, err := os.Stat(out); err == nil {
		if st.IsDir() {
			return fmt.Errorf("%s %s is a directory; name the file to write in it, e.g. %s", flag, out, filepath.Join(out, "model.repro"))
		}
		for _, in := range inputs {
			if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
				return fmt.Errorf("%s %s is the input file %s: writing it would destroy the input; name another file", flag, out, in)
			}
		}
	}
	dir := filepath.Dir(out)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("%s %s: the directory %s does not exist (create it first)", flag, out, dir)
	case err != nil:
		return fmt.Errorf("%s %s: %w", flag, out, err)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a directory", flag, out, dir)
	}
	probe, err := os.CreateTemp(dir, ".repro-probe-*")
	if err != nil {
		return fmt.Errorf("%s %s: cannot write in %s: %w", flag, out, dir, err)
	}
	name := probe.Name()
	probe.Close()
	os.Remove(name)
	return nil
}

// checkNotOutput refuses to read an input file that is also where w (the
// command's standard output) goes: reading a file while appending to it
// never ends (repro tag in.txt >> in.txt), and the user's data is lost.
// Writers that are not regular files (a terminal, a pipe) are fine.
func checkNotOutput(w io.Writer, inputs ...string) error {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return nil
	}
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && os.SameFile(st, ist) {
			return fmt.Errorf("standard output is the input file %s: writing it would destroy the input; redirect the output to another file", in)
		}
	}
	return nil
}

// maxLineFlag registers --max-line, the bound on one line of a data file.
func maxLineFlag(fs *flag.FlagSet) *int {
	return fs.Int("max-line", datasets.DefaultMaxLine, "the longest line of a data file to read, in `bytes` (a longer line is an error naming it)")
}

// checkMaxLine validates --max-line.
func checkMaxLine(n int) error {
	if n < 1 {
		return usagef("--max-line must be at least 1 byte, got %d", n)
	}
	return nil
}

// lineHint adds to a too-long-line error how to raise the bound.
func lineHint(err error) error {
	var tl *datasets.LineTooLongError
	if errors.As(err, &tl) {
		return fmt.Errorf("%w (--max-line raises the bound)", err)
	}
	return err
}

// describeUnseen warns of test labels the model never saw (each token with
// one is an error whatever the model does), and fails when no token of the
// test file has a label the model knows: its score would only measure the
// mismatch.
func describeUnseen(w io.Writer, path string, m *tagger.Model, e *tagger.Evaluation) error {
	n := e.UnseenTokens()
	if n == 0 {
		return nil
	}
	labels := firstN(slices.Sorted(maps.Keys(e.Unseen)), 10)
	if n == e.Tokens {
		return fmt.Errorf("%s: no token has a label the model knows (the file's labels: %s; the model's: %s): is it the right model, and the right label column?",
			path, strings.Join(labels, ", "), strings.Join(firstN(m.Labels, 10), ", "))
	}
	fmt.Fprintf(w, "repro: warning: %s: %d of %d tokens (%.2f%%) have labels the model never saw, each counted as an error: %s\n",
		path, n, e.Tokens, 100*float64(n)/float64(e.Tokens), strings.Join(labels, ", "))
	return nil
}

// firstN returns at most n of s, saying how many more there are.
func firstN(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(slices.Clone(s[:n]), fmt.Sprintf("and %d more", len(s)-n))
}

// maxWordBytes bounds one word of an error message as printed: a value
// quoted from a hostile input (a 10 MB name) is cut, so that the message
// stays readable and the line that matters is not lost in it.
const maxWordBytes = 256

// shortenWords cuts every run of non-space bytes longer than limit to its
// first limit/2 bytes (on a UTF-8 boundary) and says how long it was.
func shortenWords(msg string, limit int) string {
	var b strings.Builder
	for len(msg) > 0 {
		i := strings.IndexFunc(msg, unicode.IsSpace)
		if i < 0 {
			i = len(msg)
		}
		word := msg[:i]
		if len(word) > limit {
			cut := limit / 2
			for cut > 0 && !utf8.RuneStart(word[cut]) {
				cut--
			}
			fmt.Fprintf(&b, "%s… (cut: %d bytes)", word[:cut], len(word))
		} else {
			b.WriteString(word)
		}
		msg = msg[i:]
		j := strings.IndexFunc(msg, func(r rune) bool { return !unicode.IsSpace(r) })
		if j < 0 {
			j = len(msg)
		}
		b.WriteString(msg[:j])
		msg = msg[j:]
	}
	return b.String()
}
