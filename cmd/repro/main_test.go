package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunDispatch(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	if err := os.WriteFile(bad, []byte("datasets: [{name: synthetic}]\ntrainer: []\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		args    []string
		wantErr string // substring; "" means success
		wantOut string
	}{
		{"no arguments", nil, "help requested", ""},
		{"unknown command", []string{"frobnicate"}, `unknown command "frobnicate"`, ""},
		{"version", []string{"version"}, "", ""},
		{"help", []string{"help"}, "", "repro run"},
		{"run without config", []string{"run"}, "exactly one config", ""},
		{"run with missing config", []string{"run", filepath.Join(dir, "nope.yaml")}, "nope.yaml", ""},
		{"run with misspelt key", []string{"run", bad}, `bad.yaml:2: trainer: unknown key (did you mean "trainers"?)`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			err := run(context.Background(), tt.args, &stdout, &stderr)
			switch {
			case tt.wantErr == "" && err != nil:
				t.Fatalf("unexpected error %v", err)
			case tt.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tt.wantErr)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantErr)
			}
			if !strings.Contains(stdout.String(), tt.wantOut) {
				t.Errorf("stdout %q lacks %q", stdout.String(), tt.wantOut)
			}
		})
	}
}

func TestRunQuickstartConfig(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	if err := run(context.Background(), []string{"run", "--quiet", "--out", out, "../../configs/quickstart.yaml"}, &stdout, &stderr); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if !strings.Contains(stdout.String(), "synthetic") {
		t.Errorf("table not printed:\n%s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(out, "runs.jsonl")); err != nil {
		t.Error(err)
	}
}

func TestNoArgumentsIsHelp(t *testing.T) {
	t.Parallel()
	if err := run(context.Background(), nil, &bytes.Buffer{}, &bytes.Buffer{}); !errors.Is(err, flag.ErrHelp) {
		t.Fatalf("err = %v", err)
	}
}
