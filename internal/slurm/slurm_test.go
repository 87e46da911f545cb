package slurm

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestArraySpec(t *testing.T) {
	tests := []struct {
		ids  []int
		max  int
		want string
	}{
		{[]int{0}, 0, "0"},
		{[]int{0, 1, 2, 3}, 0, "0-3"},
		{[]int{0, 1, 2, 3, 7, 9, 10, 11, 12}, 4, "0-3,7,9-12%4"},
		{[]int{2, 4, 6}, 1, "2,4,6%1"},
		{[]int{5, 6}, 0, "5-6"},
	}
	for _, tt := range tests {
		if got := ArraySpec(tt.ids, tt.max); got != tt.want {
			t.Errorf("ArraySpec(%v, %d) = %q, want %q", tt.ids, tt.max, got, tt.want)
		}
	}
}

func TestChunks(t *testing.T) {
	tests := []struct {
		numbers []int
		want    []Chunk
	}{
		{nil, nil},
		{[]int{3, 1, 2, 1}, []Chunk{{0, []int{1, 2, 3}}}},
		{[]int{0, 1000}, []Chunk{{0, []int{0, 1000}}}},
		{[]int{1000, 1001, 2003, 5}, []Chunk{{0, []int{5, 1000}}, {1001, []int{0}}, {2002, []int{1}}}},
	}
	for _, tt := range tests {
		got := Chunks(tt.numbers)
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Chunks(%v) = %v, want %v", tt.numbers, got, tt.want)
		}
		for _, c := range got {
			for _, id := range c.IDs {
				if id < 0 || id > MaxTaskID {
					t.Errorf("Chunks(%v): task id %d outside 0..%d", tt.numbers, id, MaxTaskID)
				}
			}
		}
	}
}

func TestScriptOptions(t *testing.T) {
	base := Array{Name: "j", Chunk: Chunk{IDs: []int{0, 1}}, Output: "logs/j-%A_%a.out", Command: []string{"true"}}
	full := base
	full.Partition, full.Time, full.Mem, full.CPUs, full.MaxParallel = "short", "10:00", "1G", 1, 3
	full.AfterOK = []string{"11", "12"}
	tests := []struct {
		name      string
		a         Array
		want, not []string
	}{
		{"defaults", base,
			[]string{"#!/bin/bash\n", "#SBATCH --job-name=j\n", "#SBATCH --array=0-1\n", "#SBATCH --output=logs/j-%A_%a.out\n", "TASK=$SLURM_ARRAY_TASK_ID\n", "exec true\n"},
			[]string{"--partition", "--time", "--mem", "--cpus-per-task", "--dependency", "%3"}},
		{"every option", full,
			[]string{"#SBATCH --array=0-1%3\n", "#SBATCH --partition=short\n", "#SBATCH --time=10:00\n", "#SBATCH --mem=1G\n",
				"#SBATCH --cpus-per-task=1\n", "#SBATCH --dependency=afterok:11:12\n", "#SBATCH --kill-on-invalid-dep=yes\n"},
			nil},
	}
	for _, tt := range tests {
		s := tt.a.Script()
		for _, w := range tt.want {
			if !strings.Contains(s, w) {
				t.Errorf("%s: script lacks %q:\n%s", tt.name, w, s)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(s, n) {
				t.Errorf("%s: script has %q:\n%s", tt.name, n, s)
			}
		}
		// #SBATCH lines count only before the first command.
		body := s[strings.Index(s, "set -euo pipefail"):]
		if strings.Contains(body, "#SBATCH") {
			t.Errorf("%s: #SBATCH after the first command:\n%s", tt.name, s)
		}
	}
}

// The script runs its command with the task's number and every argument
// intact, whatever characters it holds.
func TestScriptRunsCommand(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	args := []string{"plain", "a b", "it's", `$HOME`, "semi;colon", ""}
	tests := []struct {
		offset, taskID int
		want           string
	}{
		{0, 7, "7"},
		{MaxTaskID + 1, 2, "1003"},
	}
	for _, tt := range tests {
		a := Array{Chunk: Chunk{Offset: tt.offset, IDs: []int{tt.taskID}}, Command: append([]string{"printf", "%s|"}, append(args, TaskVar)...)}
		path := filepath.Join(t.TempDir(), "job.sbatch")
		if err := os.WriteFile(path, []byte(a.Script()), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bash, path)
		cmd.Env = append(os.Environ(), fmt.Sprintf("SLURM_ARRAY_TASK_ID=%d", tt.taskID))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("offset %d: %v\n%s", tt.offset, err, out)
		}
		if want := strings.Join(args, "|") + "|" + tt.want + "|"; string(out) != want {
			t.Errorf("offset %d: printed %q, want %q", tt.offset, out, want)
		}
	}
}

// fakeRunner answers every command with out and err, and records calls.
type fakeRunner struct {
	out   string
	err   error
	calls [][]string
}

func (f *fakeRunner) Run(_ context.Context, name string, args ...string) ([]byte, error) {
	f.calls = append(f.calls, append([]string{name}, args...))
	return []byte(f.out), f.err
}

func TestSubmit(t *testing.T) {
	tests := []struct {
		out     string
		err     error
		want    string
		wantErr bool
	}{
		{"123\n", nil, "123", false},
		{"456;cluster2\n", nil, "456", false},
		{"", nil, "", true},
		{"Submitted batch job 5\n", nil, "", true},
		{"", errors.New("sbatch: error: invalid partition"), "", true},
	}
	for _, tt := range tests {
		r := &fakeRunner{out: tt.out, err: tt.err}
		got, err := Submit(context.Background(), r, "x.sbatch")
		if got != tt.want || (err != nil) != tt.wantErr {
			t.Errorf("sbatch printing %q (%v): Submit = %q, %v; want %q, error %v", tt.out, tt.err, got, err, tt.want, tt.wantErr)
		}
		if want := []string{"sbatch", "--parsable", "x.sbatch"}; !reflect.DeepEqual(r.calls, [][]string{want}) {
			t.Errorf("calls %q, want %q", r.calls, want)
		}
	}
}

func TestQueued(t *testing.T) {
	r := &fakeRunner{out: "17\n17\n20\n"}
	got, err := Queued(context.Background(), r, []string{"15", "17", "20"})
	if err != nil || !reflect.DeepEqual(got, []string{"17", "20"}) {
		t.Errorf("Queued = %v, %v; want [17 20]", got, err)
	}
	r = &fakeRunner{}
	if got, err := Queued(context.Background(), r, nil); got != nil || err != nil || len(r.calls) > 0 {
		t.Errorf("Queued of no jobs = %v, %v after %d calls; want nothing, no call", got, err, len(r.calls))
	}
}

func TestExecRunnerMissingCommand(t *testing.T) {
	_, err := ExecRunner{}.Run(context.Background(), "no-such-command-repro-test")
	if !errors.Is(err, ErrNoSlurm) {
		t.Errorf("error %v, want ErrNoSlurm", err)
	}
}

func ExampleArray_Script() {
	a := Array{
		Name:        "repro-demo-validate",
		Chunk:       Chunk{IDs: []int{0, 1, 2, 5}},
		MaxParallel: 2,
		Output:      "logs/validate-%A_%a.out",
		Mem:         "1G",
		Command:     []string{"/shared/bin/repro", "unit", "--plan", "/shared/out/plan.jsonl", "--index", TaskVar},
	}
	fmt.Print(a.Script())
	// Output:
	// #!/bin/bash
	// #SBATCH --job-name=repro-demo-validate
	// #SBATCH --array=0-2,5%2
	// #SBATCH --output=logs/validate-%A_%a.out
	// #SBATCH --mem=1G
	// set -euo pipefail
	// TASK=$SLURM_ARRAY_TASK_ID
	// exec /shared/bin/repro unit --plan /shared/out/plan.jsonl --index "$TASK"
}
