package main

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/report"
)

func TestDiffCommand(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, runs ...report.Run) string {
		t.Helper()
		var buf bytes.Buffer
		if err := report.WriteRuns(&buf, runs); err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	run1 := report.Run{Key: "k1", Dataset: "cora", Task: "sequence", Trainer: "margin", Params: map[string]float64{"C": 0.1}, Metrics: map[string]float64{"token_error": 7.25}, Iterations: 12, CPUSeconds: 2, Version: "old"}
	run2 := report.Run{Key: "k2", Dataset: "cora", Task: "sequence", Trainer: "slack", Params: map[string]float64{"C": 1}, Metrics: map[string]float64{"token_error": 7.5}, Version: "old"}
	retimed := run1
	retimed.CPUSeconds, retimed.Version = 3, "new"
	moved := retimed
	moved.Iterations = 13
	committed := write("committed.jsonl", run1, run2)
	if err := os.Mkdir(filepath.Join(dir, "same"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(filepath.Join("same", report.RunsFile), retimed, run2)
	torn := write("torn.jsonl", run1)
	if err := os.WriteFile(torn, append(mustRead(t, torn), `{"key":"k2","data`...), 0o644); err != nil {
		t.Fatal(err) // what an interrupted run leaves
	}

	for _, tc := range []struct {
		name    string
		args    []string
		wantErr string // "" for success
		wantOut []string
	}{
		{"times differ only; NEW a directory", []string{committed, filepath.Join(dir, "same")}, "", []string{"2 runs, equal but for times"}},
		{"OLD from standard input", []string{"-", filepath.Join(dir, "same")}, "", []string{"2 runs, equal"}},
		{"a run differs", []string{committed, write("moved.jsonl", moved, run2)}, "1 differ",
			[]string{"DIFF  cora/sequence margin C=0.1 split 0", "iterations: 12, now 13"}},
		{"a run is missing", []string{committed, write("short.jsonl", run1)}, "1 only in",
			[]string{"only in " + committed + ": cora/sequence slack C=1"}},
		{"a torn last line", []string{committed, torn}, "torn.jsonl:2", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var stdout bytes.Buffer
			err := run(context.Background(), append([]string{"diff"}, tc.args...), bytes.NewReader(mustRead(t, committed)), &stdout, &bytes.Buffer{})
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("error %v\n%s", err, stdout.String())
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
			for _, w := range tc.wantOut {
				if !strings.Contains(stdout.String(), w) {
					t.Errorf("output lacks %q:\n%s", w, stdout.String())
				}
			}
		})
	}

	var usage usageError
	for _, args := range [][]string{{"diff", committed}, {"diff", committed, "-"}} {
		if err := run(context.Background(), args, nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.As(err, &usage) {
			t.Errorf("%q: %v, want a usage error", args, err)
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
