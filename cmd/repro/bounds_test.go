package main

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
)

// boundsCases are the same mistakes stated on the command line and in a
// config: both are refused with the same reason, from one declaration of
// each bound (a trainer's param tags, features.Settings), before anything
// is read or trained. config is a trainer entry or a features block.
var boundsCases = []struct {
	name    string
	args    []string // after train -o MODEL, before the (missing) training file
	cli     string
	config  string
	cfgWant string
}{
	{"window huge", []string{"--trainer", "perceptron", "--window", "1000000"},
		`invalid value "1000000" for flag -window: must be in [0, 5], got 1000000`,
		"features: {window: 1000000}", "features.window: must be in [0, 5], got 1000000"},
	{"affixes huge", []string{"--trainer", "perceptron", "--affixes", "1000000"},
		`invalid value "1000000" for flag -affixes: must be in [0, 10], got 1000000`,
		"features: {affixes: 1000000}", "features.affixes: must be in [0, 10], got 1000000"},
	{"min-count huge", []string{"--trainer", "perceptron", "--min-count", "100000000"},
		`invalid value "100000000" for flag -min-count: must be in [1, 1000], got 100000000`,
		"features: {min_count: 100000000}", "features.min_count: must be in [1, 1000], got 100000000"},
	{"window not a number", []string{"--trainer", "perceptron", "--window", "wide"},
		`invalid value "wide" for flag -window: takes an integer, got "wide"`,
		"features: {window: wide}", `features.window: cannot use "wide" as an integer`},
	{"epochs 0", []string{"--trainer", "perceptron", "--epochs", "0"},
		"--epochs must not be 0 (omit it for the default, 10)",
		"trainers: [{name: perceptron, epochs: 0}]", "trainers[0].epochs: must not be 0 (omit it for the default, 10)"},
	{"param epochs 0", []string{"--trainer", "mira", "--param", "epochs=0"},
		"--param epochs must not be 0 (omit it for the default, 10)",
		"trainers: [{name: mira, epochs: 0}]", "trainers[0].epochs: must not be 0 (omit it for the default, 10)"},
	{"param max_iterations 0", []string{"--trainer", "margin", "--C", "1", "--param", "max_iterations=0"},
		"--param max_iterations must not be 0 (omit it for the default, 500)",
		"trainers: [{name: margin, C: [1], max_iterations: 0}]", "trainers[0].max_iterations: must not be 0 (omit it for the default, 500)"},
	{"crf max_iterations 0", []string{"--trainer", "crf", "--C", "1", "--param", "max_iterations=0"},
		"--param max_iterations must not be 0 (omit it for the default, 1000)",
		"trainers: [{name: crf, C: [1], max_iterations: 0}]", "trainers[0].max_iterations: must not be 0 (omit it for the default, 1000)"},
	{"margin without C", []string{"--trainer", "margin"},
		"--C is required and missing (the regularisation trade-off)",
		"trainers: [{name: margin}]", `trainers[0].C: trainer "margin" needs a non-empty grid of C values`},
	{"crf without C", []string{"--trainer", "crf"},
		"--C is required and missing (the regularisation trade-off)",
		"trainers: [{name: crf}]", `trainers[0].C: trainer "crf" needs a non-empty grid of C values`},
	{"C huge", []string{"--trainer", "margin", "--C", "1e308"},
		"--C must be in (0, 1e+12], got 1e+308",
		"trainers: [{name: margin, C: [1e308]}]", "trainers[0].C[0]: must be in (0, 1e+12], got 1e+308"},
	{"C 0", []string{"--trainer", "crf", "--C", "0"},
		"--C must be in (0, 1e+12], got 0",
		"trainers: [{name: crf, C: [0]}]", "trainers[0].C[0]: must be in (0, 1e+12], got 0"},
	{"epochs not a number", []string{"--trainer", "perceptron", "--param", "epochs=ten"},
		`--param epochs takes an integer, got "ten"`,
		"trainers: [{name: perceptron, epochs: ten}]", `trainers[0].epochs: cannot use "ten" as an integer`},
	{"average not a bool", []string{"--trainer", "perceptron", "--param", "average=maybe"},
		`--param average takes true or false, got "maybe"`,
		"trainers: [{name: perceptron, average: maybe}]", `trainers[0].average: cannot use "maybe" as true or false`},
}

// boundsConfig is a valid config but for the case's entry.
func boundsConfig(entry string) string {
	cfg := "datasets: [{name: synthetic}]\n" + entry + "\n"
	if !strings.HasPrefix(entry, "trainers:") {
		cfg += "trainers: [{name: perceptron}]\n"
	}
	return cfg
}

func TestBoundsSharedByFlagsAndConfigs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	missing := filepath.Join(dir, "never-read.txt")
	for _, tc := range boundsCases {
		t.Run(tc.name, func(t *testing.T) {
			args := append(append([]string{"train", "--quiet", "-o", filepath.Join(dir, "m.repro")}, tc.args...), missing)
			_, _, err := repro(t, "", args...)
			var ue usageError
			if err == nil || !strings.Contains(err.Error(), tc.cli) || !errors.As(err, &ue) {
				t.Errorf("repro %s: %v, want a usage error containing %q", strings.Join(args, " "), err, tc.cli)
			}
			_, err = config.Parse([]byte(boundsConfig(tc.config)), "b.yaml")
			if err == nil || !strings.Contains(err.Error(), tc.cfgWant) {
				t.Errorf("config %q: %v, want an error containing %q", tc.config, err, tc.cfgWant)
			}
		})
	}
}

// The built binary exits with status 2 on each, naming the flag on stderr.
func TestBoundsExitStatus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	t.Parallel()
	dir := t.TempDir()
	bin := filepath.Join(dir, "repro")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	for _, tc := range boundsCases {
		args := append(append([]string{"train", "--quiet", "-o", filepath.Join(dir, "m.repro")}, tc.args...), filepath.Join(dir, "never-read.txt"))
		cmd := exec.Command(bin, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), tc.cli) {
			t.Errorf("%s: %v, stderr %q; want status 2 and %q", tc.name, err, stderr.String(), tc.cli)
		}
	}
}
