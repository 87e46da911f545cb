package layering

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/maxmargin/repro"

// rule says which of the module's packages a package (or, with a trailing
// "/...", a tree of packages) may import; "..." in may is every package.
type rule struct {
	pkg string
	may []string
	why string
}

// rules is the layout: each arrow points down ARCHITECTURE.md's list.
func rules() []rule {
	return []rule{
		{"cmd/...", []string{"experiments/...", "tasks", "tagger", "report", "golden", "datasets", "features", "trainers", "internal/..."},
			"the command line is flags over the libraries; models and decoders are the tasks' business"},
		{"scripts/...", []string{"..."}, "tools and benchmarks outside the product"},
		{"experiments", []string{"experiments/config", "experiments/store", "experiments/progress", "tasks", "tagger", "report", "metrics", "features", "datasets", "golden", "trainers", "structpred", "internal/..."},
			"a unit trains through its task's route (package tasks), not by joining models and decoders itself"},
		{"experiments/executor", []string{"experiments", "experiments/config", "experiments/store", "internal/..."},
			"executors decide where and when the runner's units run (child processes, Slurm arrays), never what a unit computes"},
		{"experiments/store", []string{"experiments/config", "report", "metrics", "trainers", "internal/..."},
			"the store keeps unit files, locks, the directory's owner and cost record; it runs nothing and reads no data"},
		{"experiments/progress", nil, "the status line knows counts and times, nothing of units"},
		{"experiments/config", []string{"tasks", "tagger", "report", "metrics", "features", "datasets", "trainers", "structpred", "internal/..."},
			"a config is checked against the registries of tasks, trainers, metrics and datasets; it knows nothing of units, stores or executors"},
		{"tasks", []string{"tagger", "models/...", "decoders/...", "taxonomy", "trainers", "metrics", "features", "datasets", "structpred", "internal/..."},
			"a task joins its reading, features, model, decoding and model file, for units and the command line alike"},
		{"tagger", []string{"models/...", "decoders/...", "trainers", "metrics", "features", "datasets", "structpred", "internal/..."},
			"the own-data route joins reading, features, model and decoding"},
		{"report", []string{"metrics", "internal/..."}, "tables and figures come from stored results and the metrics' declarations alone, never a trainer"},
		{"golden", []string{"report", "metrics"}, "golden values compare records"},
		{"metrics", []string{"structpred"}, "scores compare labelings, knowing no decoder; metric declarations are data"},
		{"features", []string{"structpred"}, "templates know tokens only"},
		{"datasets", []string{"structpred", "internal/..."}, "readers know formats, not models or decoders"},
		{"taxonomy", []string{"models/multiclass", "decoders", "structpred", "internal/..."}, "a class tree read from a config becomes a multiclass model's embedding and cost"},
		{"models/...", []string{"decoders/...", "structpred"}, "models join features, weights and decoders, and never import trainers"},
		{"trainers", []string{"structpred", "internal/..."}, "trainers know capabilities, not YAML, data or decoders"},
		{"decoders/...", []string{"decoders/...", "structpred"}, "exact inference on score tables only"},
		{"structpred", nil, "the shared types import nothing of ours"},
		{"internal/...", []string{"internal/..."}, "helpers below everything"},
	}
}

// exceptions are known leaks, each with the change that removes it. An
// exception that no import needs any more fails too, so the table shrinks
// as they go.
func exceptions() map[[2]string]string {
	return map[[2]string]string{
		{"models/cfg", "datasets"}: "the CFG model takes the treebank reader's phrase trees until that type moves to structpred",
	}
}

// matches reports whether package p is pattern, or under it for "x/...".
func matches(pattern, p string) bool {
	if pattern == "..." {
		return true
	}
	if tree, ok := strings.CutSuffix(pattern, "/..."); ok {
		return p == tree || strings.HasPrefix(p, tree+"/")
	}
	return p == pattern
}

// ruleOf returns the first rule for package p.
func ruleOf(p string) (rule, bool) {
	for _, r := range rules() {
		if matches(r.pkg, p) {
			return r, true
		}
	}
	return rule{}, false
}

// imports lists every package of the module with its own (non-test)
// imports of the module's packages, paths relative to the module. It reads
// every package's directory and Go files itself as well, so that go test's
// cache, which does not see what a child process reads, reruns the test
// when any of them changes.
func imports(t *testing.T) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-json=ImportPath,Imports,Dir,GoFiles", module+"/...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.String())
	}
	pkgs := map[string][]string{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p struct {
			ImportPath, Dir  string
			Imports, GoFiles []string
		}
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if _, err := os.ReadDir(p.Dir); err != nil {
			t.Fatal(err)
		}
		for _, f := range p.GoFiles {
			if _, err := os.ReadFile(filepath.Join(p.Dir, f)); err != nil {
				t.Fatal(err)
			}
		}
		own := strings.TrimPrefix(strings.TrimPrefix(p.ImportPath, module), "/")
		pkgs[own] = []string{}
		for _, imp := range p.Imports {
			if rest, ok := strings.CutPrefix(imp, module+"/"); ok {
				pkgs[own] = append(pkgs[own], rest)
			}
		}
	}
	return pkgs
}

// check returns the leaks of pkgs against the rules and the exceptions no
// import needs.
func check(pkgs map[string][]string) []string {
	var problems []string
	used := map[[2]string]bool{}
	for _, p := range slices.Sorted(func(yield func(string) bool) {
		for p := range pkgs {
			if !yield(p) {
				return
			}
		}
	}) {
		r, ok := ruleOf(p)
		if !ok {
			problems = append(problems, fmt.Sprintf("package %s has no rule: add it to the table", p))
			continue
		}
		for _, imp := range pkgs[p] {
			if slices.ContainsFunc(r.may, func(m string) bool { return matches(m, imp) }) {
				continue
			}
			if _, ok := exceptions()[[2]string{p, imp}]; ok {
				used[[2]string{p, imp}] = true
				continue
			}
			problems = append(problems, fmt.Sprintf("%s imports %s (%s may import %v: %s)", p, imp, r.pkg, r.may, r.why))
		}
	}
	for e, why := range exceptions() {
		if !used[e] {
			problems = append(problems, fmt.Sprintf("exception %s → %s (%s) is no longer needed: remove it", e[0], e[1], why))
		}
	}
	slices.Sort(problems)
	return problems
}

func TestLayering(t *testing.T) {
	t.Parallel()
	pkgs := imports(t)
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages", len(pkgs))
	}
	for _, p := range check(pkgs) {
		t.Error(p)
	}
}

// The check itself catches what it is for: the leaks this test replaced.
func TestLayeringCatchesLeaks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		pkgs map[string][]string
		want []string
	}{
		{map[string][]string{"datasets": {"decoders/mst"}}, []string{"datasets imports decoders/mst"}},
		{map[string][]string{"metrics": {"decoders/semimarkov"}}, []string{"metrics imports decoders/semimarkov"}},
		{map[string][]string{"models/chain": {"trainers"}}, []string{"models/chain imports trainers"}},
		{map[string][]string{"report": {"trainers"}}, []string{"report imports trainers"}},
		{map[string][]string{"experiments/config": {"experiments"}}, []string{"experiments/config imports experiments"}},
		{map[string][]string{"experiments/store": {"experiments"}}, []string{"experiments/store imports experiments"}},
		{map[string][]string{"experiments": {"experiments/executor"}}, []string{"experiments imports experiments/executor"}},
		{map[string][]string{"newpkg": nil}, []string{"package newpkg has no rule"}},
		{map[string][]string{"models/cfg": {"decoders/cky"}}, []string{"exception models/cfg → datasets"}},
	}
	for _, tt := range tests {
		got := strings.Join(check(tt.pkgs), "\n")
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%v: problems\n%s\nlack %q", tt.pkgs, got, w)
			}
		}
	}
}
