package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/tagger"
)

// attributeFile writes a small learnable CRFsuite attribute file: the
// attribute w=WORD decides the label, some with a value (w=x:2).
func attributeFile(t *testing.T, dir, name string, sentences int) string {
	t.Helper()
	words := map[string]string{"Ada": "PER", "Alan": "PER", "Paris": "LOC", "Oslo": "LOC", "met": "O", "in": "O"}
	order := []string{"Ada", "met", "Alan", "in", "Paris", "Oslo"}
	var b strings.Builder
	for i := range sentences {
		for k := range 3 + i%3 {
			w := order[(i+k*5)%len(order)]
			fmt.Fprintf(&b, "%s\tw=%s\tlen:%d\tbias\n", words[w], w, len(w))
		}
		b.WriteString("\n")
	}
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// repro train --format crfsuite trains on an attribute file's own
// attributes and values, with --pairs seen or all; repro tag writes what
// `crfsuite tag` writes and repro eval scores an attribute file, all
// through the built binary.
func TestTrainCRFsuiteFormat(t *testing.T) {
	t.Parallel()
	bin := builtRepro(t)
	dir := t.TempDir()
	train := attributeFile(t, dir, "train.txt", 12)
	test := attributeFile(t, dir, "test.txt", 4)
	cmd := func(args ...string) (string, string, error) {
		c := exec.Command(bin, args...)
		var out, errb strings.Builder
		c.Stdout, c.Stderr = &out, &errb
		err := c.Run()
		return out.String(), errb.String(), err
	}
	var weights []int
	for _, pairs := range []string{"all", "seen"} {
		model := filepath.Join(dir, pairs+".repro")
		_, stderr, err := cmd("train", "--trainer", "crf", "--C", "10", "--format", "crfsuite", "--pairs", pairs, "-o", model, train)
		if err != nil {
			t.Fatalf("train --pairs %s: %v\n%s", pairs, err, stderr)
		}
		if !strings.Contains(stderr, "CRFsuite attribute file") {
			t.Errorf("train's stderr does not name the format:\n%s", stderr)
		}
		m, err := tagger.LoadFile(model)
		if err != nil {
			t.Fatal(err)
		}
		if m.Features.Kind != tagger.Given || m.Format.Kind != tagger.FormatCRFsuite || m.NumAttributes() != 6+1+1 { // w=WORD, len (valued), bias
			t.Errorf("--pairs %s: features %+v, format %+v, %d attributes", pairs, m.Features, m.Format, m.NumAttributes())
		}
		weights = append(weights, len(m.Weights))
		out, stderr, err := cmd("tag", "-m", model, test)
		if err != nil {
			t.Fatalf("tag: %v\n%s", err, stderr)
		}
		var want strings.Builder
		text, _ := os.ReadFile(test)
		for line := range strings.Lines(string(text)) {
			label, _, _ := strings.Cut(line, "\t")
			want.WriteString(strings.TrimSuffix(label, "\n") + "\n")
		}
		if out != want.String() {
			t.Errorf("--pairs %s: tag wrote\n%s\nwant\n%s", pairs, out, want.String())
		}
		out, stderr, err = cmd("eval", "-m", model, test)
		if err != nil || !strings.Contains(out, "token error: 0.00%") {
			t.Errorf("--pairs %s: eval: %v\n%s%s", pairs, err, out, stderr)
		}
	}
	if k := 3; weights[0] != 8*k+k*k || weights[1] >= weights[0] {
		t.Errorf("weights: pairs all %d, seen %d; want 33 and fewer", weights[0], weights[1])
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--format", "crfsuite", "--features", "ner"}, "attribute file's attributes are its features"},
		{[]string{"--format", "crfsuite", "--window", "2"}, "do not apply to an attribute file"},
		{[]string{"--format", "crfsuite", "--pairs", "some"}, `pairs "some"`},
		{[]string{"--format", "crfsuite", "--task", "segmentation", "--pairs", "seen"}, "only the sequence task"},
	} {
		args := append([]string{"train", "--trainer", "crf", "--C", "1", "-o", filepath.Join(dir, "x.repro")}, tc.args...)
		if _, stderr, err := cmd(append(args, train)...); err == nil || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: %v, stderr %q; want an error mentioning %q", tc.args, err, stderr, tc.want)
		}
	}
}
