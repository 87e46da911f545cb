package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// The tests that drive the built binary share one build per test run:
// builtRepro builds it on first use (so a run of tests that need no binary
// builds nothing) into a directory TestMain removes at the end.
var built struct {
	once sync.Once
	dir  string
	bin  string
	err  error
}

func TestMain(m *testing.M) {
	code := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(code)
}

// builtRepro returns the path of the repro binary built from this
// package, building it once per test run. Tests must not modify or remove
// it; a test that needs a wrapper writes its own next to its temporary
// files.
func builtRepro(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		dir, err := os.MkdirTemp("", "repro-bin-")
		if err != nil {
			built.err = err
			return
		}
		built.dir = dir
		built.bin = filepath.Join(dir, "repro")
		if out, err := exec.Command("go", "build", "-o", built.bin, ".").CombinedOutput(); err != nil {
			built.err = fmt.Errorf("go build: %w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatalf("build: %v", built.err)
	}
	return built.bin
}
