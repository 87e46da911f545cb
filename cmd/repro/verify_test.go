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

// repro verify recomputes a config's committed runs and passes when they
// match their records; a record edited by hand fails it, naming the field.
func TestVerifyCommand(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	config := "../../configs/quickstart.yaml"
	if err := run(context.Background(), []string{"run", config, "--quiet", "--out", out}, nil, &bytes.Buffer{}, &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"verify", config, "--out", out, "--runs", "0"}, nil, &stdout, &stderr); err != nil {
		t.Fatalf("verify of an untouched run: %v\n%s%s", err, stdout.String(), stderr.String())
	}
	if n := strings.Count(stdout.String(), "same  "); n < 2 || strings.Contains(stdout.String(), "DIFF") {
		t.Errorf("verify --runs 0 printed %d same lines:\n%s", n, stdout.String())
	}
	if !strings.Contains(stderr.String(), "reproduced exactly") {
		t.Errorf("no closing line on stderr:\n%s", stderr.String())
	}

	path := filepath.Join(out, "runs.jsonl")
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	edited := strings.Replace(lines[0], `"iterations":`, `"iterations":1`, 1) // 12 → 112, say
	if edited == lines[0] {
		t.Fatalf("the first record has no iterations: %s", lines[0])
	}
	lines[0] = edited
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	err = run(context.Background(), []string{"verify", config, "--out", out, "--runs", "0", "--quiet"}, nil, &stdout, &bytes.Buffer{})
	if err == nil || !strings.Contains(err.Error(), "differ from their records") {
		t.Errorf("verify of an edited record: error %v", err)
	}
	if !strings.Contains(stdout.String(), "DIFF") || !strings.Contains(stdout.String(), "iterations: ") {
		t.Errorf("the edited record's line does not name iterations:\n%s", stdout.String())
	}

	// A torn last line (what an interrupted run leaves) is damage in a
	// file being verified, not a warning.
	torn := strings.Join(lines[:len(lines)-1], "") + `{"key":"0123`
	if err := os.WriteFile(path, []byte(torn), 0o644); err != nil {
		t.Fatal(err)
	}
	err = run(context.Background(), []string{"verify", config, "--out", out, "--quiet"}, nil, &bytes.Buffer{}, &bytes.Buffer{})
	var lineErr *report.LineError
	if !errors.As(err, &lineErr) || lineErr.Line != len(lines) {
		t.Errorf("verify of a torn runs.jsonl: error %v, want one naming its line %d", err, len(lines))
	}

	err = run(context.Background(), []string{"verify", config, "--runs", "-1"}, nil, &stdout, &bytes.Buffer{})
	var usage usageError
	if !errors.As(err, &usage) {
		t.Errorf("--runs -1: %v, want a usage error", err)
	}
}
