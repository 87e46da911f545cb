package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// hostileCase is one bad input given to the built binary, as a hostile
// (or hurried) user would: the command must fail with a clear error
// (naming the file, line, flag or bound) and leave what was there alone.
type hostileCase struct {
	name  string
	setup func(t *testing.T, dir string) []string // writes files, returns the arguments
	stdin string                                  // a file in dir to append stdout to ("" : discard)
	exit  int
	want  []string // substrings of stderr
	check func(t *testing.T, dir string)
	quick bool // must fail before any training: no progress line on stderr
}

// TestHostileInputs drives the built binary with the inputs of issue 42's
// table (rows 1, 2, 5, 6, 7, 8, 10, 12, 13, 16; 15 is tested in
// slurm_test.go) and checks the error and that nothing
// was lost.
func TestHostileInputs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	bin := builtRepro(t)
	for _, tc := range hostileCases() {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			args := tc.setup(t, dir)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, args...)
			cmd.Dir = dir
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if tc.stdin != "" {
				f, err := os.OpenFile(filepath.Join(dir, tc.stdin), os.O_WRONLY|os.O_APPEND, 0)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				cmd.Stdout = f
			}
			cmd.Run()
			if got := cmd.ProcessState.ExitCode(); got != tc.exit {
				t.Errorf("exit status %d, want %d; stderr:\n%.2000s", got, tc.exit, stderr.String())
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr.String(), w) {
					t.Errorf("stderr lacks %q:\n%.2000s", w, stderr.String())
				}
			}
			if tc.quick && strings.Contains(stderr.String(), "iteration") {
				t.Errorf("the error came after training started:\n%.2000s", stderr.String())
			}
			if stderr.Len() > 4096 {
				t.Errorf("stderr is %d bytes long", stderr.Len())
			}
			if tc.check != nil {
				tc.check(t, dir)
			}
		})
	}
}

// write writes a file in dir and returns its path.
func write(t *testing.T, dir, name, content string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// unchanged fails the test if the file at path no longer holds content.
func unchanged(t *testing.T, path, content string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil || string(b) != content {
		t.Errorf("%s changed (%d bytes, %v)", path, len(b), err)
	}
}

// nerText is a small learnable IOB2 column file of n sentences.
func nerText(n int) string {
	people := []string{"Ada Lovelace", "Alan Turing", "Grace Hopper", "Kurt"}
	places := []string{"Paris", "Oslo", "Lima"}
	var b strings.Builder
	for i := range n {
		for k, w := range strings.Fields(people[i%len(people)]) {
			prefix := "I"
			if k == 0 {
				prefix = "B"
			}
			b.WriteString(w + " NNP " + prefix + "-PER\n")
		}
		b.WriteString("visited VBD O\n" + places[i%len(places)] + " NNP B-LOC\n. . O\n\n")
	}
	return b.String()
}

func hostileCases() []hostileCase {
	data := nerText(12)
	train := []string{"train", "--trainer", "perceptron", "--param", "epochs=2"}
	trainTo := func(out, in string) []string { return append(append([]string{}, train...), "-o", out, in) }
	return []hostileCase{
		{name: "output is the input", exit: 1, quick: true, want: []string{"-o v.txt is the input file v.txt"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				return trainTo("v.txt", "v.txt")
			},
			check: func(t *testing.T, dir string) { unchanged(t, filepath.Join(dir, "v.txt"), data) }},
		{name: "output is a hard link to the input", exit: 1, quick: true, want: []string{"-o w.txt is the input file v.txt"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				if err := os.Link(filepath.Join(dir, "v.txt"), filepath.Join(dir, "w.txt")); err != nil {
					t.Skip(err)
				}
				return trainTo("w.txt", "v.txt")
			},
			check: func(t *testing.T, dir string) { unchanged(t, filepath.Join(dir, "v.txt"), data) }},
		{name: "tag appending to its input", exit: 1, stdin: "v.txt", want: []string{"standard output is the input file v.txt"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				write(t, dir, "m.repro", "")
				return []string{"tag", "-m", "m.repro", "v.txt"}
			},
			check: func(t *testing.T, dir string) { unchanged(t, filepath.Join(dir, "v.txt"), data) }},
		{name: "config in its output directory", exit: 1, want: []string{"the config out/config.yaml is out/config.yaml, which the run writes"},
			setup: func(t *testing.T, dir string) []string {
				os.Mkdir(filepath.Join(dir, "out"), 0o755)
				write(t, dir, "out/config.yaml", "datasets: [{name: synthetic}]\ntrainers: [{name: perceptron}]\n")
				return []string{"run", "--out", "out", "out/config.yaml"}
			},
			check: func(t *testing.T, dir string) {
				unchanged(t, filepath.Join(dir, "out", "config.yaml"), "datasets: [{name: synthetic}]\ntrainers: [{name: perceptron}]\n")
			}},
		{name: "config is /dev/zero", exit: 1, want: []string{"/dev/zero: larger than the 4 MiB bound for a config"},
			setup: func(t *testing.T, dir string) []string { return []string{"run", "--out", "out", "/dev/zero"} }},
		{name: "data file is /dev/zero", exit: 1, quick: true, want: []string{"zero:1: line too long: over the 1 MiB bound on one line (--max-line raises the bound)"},
			setup: func(t *testing.T, dir string) []string { return trainTo("m.repro", "/dev/zero") }},
		{name: "model file is /dev/zero", exit: 1, want: []string{"/dev/zero: not a readable model file: it does not start with the model file header"},
			setup: func(t *testing.T, dir string) []string { return []string{"eval", "-m", "/dev/zero", "/dev/null"} }},
		{name: "cut CoNLL file", exit: 1, quick: true, want: []string{`cut.txt:70: field "label": tag "B-" is not O or PREFIX-TYPE`, "--encoding none"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "cut.txt", data+"Ada NNP B-")
				return trainTo("m.repro", "cut.txt")
			}},
		{name: "cut CoNLL file read as plain labels", exit: 0, want: []string{"label encoding none"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "cut.txt", data+"Ada NNP B-")
				return append(trainTo("m.repro", "cut.txt"), "--encoding", "none")
			}},
		{name: "NUL byte in a label", exit: 1, quick: true, want: []string{`nul.txt:2: field "label": tag "I-P\x00ER" is not O or PREFIX-TYPE`},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "nul.txt", strings.Replace(data, "I-PER", "I-P\x00ER", 1))
				return trainTo("m.repro", "nul.txt")
			}},
		{name: "min count above every count", exit: 1, quick: true, want: []string{"no attribute of the training data is kept (min count 1000)"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				return append(trainTo("m.repro", "v.txt"), "--min-count", "1000")
			},
			check: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "m.repro")); err == nil {
					t.Error("a model was written")
				}
			}},
		{name: "eval on labels the model never saw", exit: 1, want: []string{"other.txt: no token has a label the model knows (the file's labels: B-GENE, I-GENE; the model's: O, B-LOC"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				write(t, dir, "other.txt", "p53 NN B-GENE\nbinds VBZ I-GENE\n\n")
				trainModel(t, dir, trainTo("m.repro", "v.txt"))
				return []string{"eval", "-m", "m.repro", "other.txt"}
			}},
		{name: "eval with some labels the model never saw", exit: 0, want: []string{"warning: other.txt: 1 of 3 tokens (33.33%) have labels the model never saw, each counted as an error: B-GENE"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				write(t, dir, "other.txt", "Ada NNP B-PER\nvisited VBD O\np53 NN B-GENE\n\n")
				trainModel(t, dir, trainTo("m.repro", "v.txt"))
				return []string{"eval", "-m", "m.repro", "other.txt"}
			}},
		{name: "too small for its splits", exit: 1, want: []string{`c.yaml: dataset "synthetic" has 3 sequences: split 0 with train_fraction 0.25 leaves 1 to train on and 0 to validate`},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "c.yaml", "datasets: [{name: synthetic, synthetic: {sequences: 3}}]\ntrainers: [{name: margin, C: [0.1, 1]}]\n")
				return []string{"run", "--out", "out", "c.yaml"}
			},
			check: func(t *testing.T, dir string) {
				if units, _ := filepath.Glob(filepath.Join(dir, "out", "units", "*")); len(units) > 0 {
					t.Errorf("units written: %v", units)
				}
			}},
		{name: "output is a directory", exit: 1, quick: true, want: []string{"-o sub is a directory; name the file to write in it, e.g. sub/model.repro"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				os.Mkdir(filepath.Join(dir, "sub"), 0o755)
				return trainTo("sub", "v.txt")
			}},
		{name: "output in a missing directory", exit: 1, quick: true, want: []string{"-o nonexistent/dir/m.repro: the directory nonexistent/dir does not exist (create it first)"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "v.txt", data)
				return trainTo("nonexistent/dir/m.repro", "v.txt")
			},
			check: func(t *testing.T, dir string) {
				if _, err := os.Stat(filepath.Join(dir, "nonexistent")); err == nil {
					t.Error("the directory was created")
				}
			}},
		{name: "failed training keeps the old model", exit: 1, want: []string{"bad.txt:2: 2 columns, want 3"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "bad.txt", "EU NNP B-ORG\nrejects O\n")
				write(t, dir, "m.repro", "the old model")
				return trainTo("m.repro", "bad.txt")
			},
			check: func(t *testing.T, dir string) { unchanged(t, filepath.Join(dir, "m.repro"), "the old model") }},
		{name: "a 2 MiB line", exit: 1, quick: true, want: []string{"long.txt:70: line too long: over the 1 MiB bound on one line (--max-line raises the bound)"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "long.txt", data+strings.Repeat("x", 2<<20)+" NNP O\n")
				return trainTo("m.repro", "long.txt")
			}},
		{name: "a 2 MiB line with the bound raised", exit: 0,
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "long.txt", data+strings.Repeat("x", 2<<20)+" NNP O\n")
				return append(trainTo("m.repro", "long.txt"), "--max-line", "3000000", "--quiet")
			}},
		{name: "a BOM is not part of the first word", exit: 0,
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "bom.txt", "\xEF\xBB\xBF"+data)
				write(t, dir, "plain.txt", data)
				trainModel(t, dir, append(trainTo("plain.repro", "plain.txt"), "--quiet"))
				return append(trainTo("bom.repro", "bom.txt"), "--quiet")
			},
			check: func(t *testing.T, dir string) {
				a, _ := os.ReadFile(filepath.Join(dir, "plain.repro"))
				b, _ := os.ReadFile(filepath.Join(dir, "bom.repro"))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Error("the model trained on the file with a BOM differs from the one without")
				}
			}},
		{name: "a 3 MB name", exit: 1, want: []string{"c.yaml:1: name: 3000000 bytes long"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "c.yaml", "name: "+strings.Repeat("a/", 1500000)+"\ndatasets: [{name: synthetic}]\ntrainers: [{name: perceptron}]\n")
				return []string{"run", "c.yaml"}
			}},
		{name: "a 3 MB dataset name", exit: 1, want: []string{`unknown dataset "bbbb`, "(cut: 3000002 bytes)"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "c.yaml", "datasets: [{name: "+strings.Repeat("b", 3000000)+"}]\ntrainers: [{name: perceptron}]\n")
				return []string{"run", "--out", "out", "c.yaml"}
			}},
		{name: "unit file without its checksum", exit: 0, want: []string{"has no checksum, so an edit cannot be ruled out; recomputing it", "1 units computed, 0 from cache"},
			setup: func(t *testing.T, dir string) []string {
				write(t, dir, "c.yaml", "datasets: [{name: synthetic, synthetic: {sequences: 20}}]\nsplits: {count: 1}\ntrainers: [{name: perceptron}]\n")
				args := []string{"run", "--out", "out", "c.yaml"}
				trainModel(t, dir, args)
				units, _ := filepath.Glob(filepath.Join(dir, "out", "units", "*.json"))
				for _, u := range units {
					b, _ := os.ReadFile(u)
					var fields map[string]json.RawMessage
					if err := json.Unmarshal(b, &fields); err != nil {
						t.Fatal(err)
					}
					delete(fields, "checksum")
					var metrics map[string]float64
					if err := json.Unmarshal(fields["metrics"], &metrics); err != nil || len(metrics) == 0 {
						t.Fatalf("unit file %s: no metrics (%v)", u, err)
					}
					metrics["token_error"] = 0 // the edit
					fields["metrics"], _ = json.Marshal(metrics)
					b, _ = json.Marshal(fields)
					os.WriteFile(u, b, 0o644)
				}
				return args
			},
			check: func(t *testing.T, dir string) {
				b, _ := os.ReadFile(filepath.Join(dir, "out", "runs.jsonl"))
				if len(b) == 0 || bytes.Contains(b, []byte(`"token_error":0,`)) || bytes.Contains(b, []byte(`"token_error":0}`)) {
					t.Error("the edited number reached runs.jsonl")
				}
			}},
	}
}

// trainModel runs the binary with args in dir as a test's preparation.
func trainModel(t *testing.T, dir string, args []string) {
	t.Helper()
	cmd := exec.Command(builtRepro(t), args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, out)
	}
}
