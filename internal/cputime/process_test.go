package cputime

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// childEnv makes the test binary, run as a child, spin and print its own
// CPU time instead of running the tests.
const childEnv = "CPUTIME_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		x := spin(50_000_000)
		d, _ := Process()
		fmt.Println(d.Nanoseconds(), x)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// WithChildren counts a child process's CPU once it has been waited for;
// Process does not.
func TestWithChildrenCountsAWaitedChild(t *testing.T) {
	before, ok := WithChildren()
	if !ok {
		t.Skip("no process CPU time on this platform")
	}
	self0, _ := Process()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v", err)
	}
	first, _, _ := strings.Cut(string(out), " ")
	ns, err := strconv.ParseInt(first, 10, 64)
	if err != nil {
		t.Fatalf("child printed %q: %v", out, err)
	}
	child := time.Duration(ns)
	after, _ := WithChildren()
	self1, _ := Process()
	if child <= 0 {
		t.Fatalf("the child measured %v of its own CPU", child)
	}
	// The child's own last reading comes just before it exits, so the
	// kernel's account of it is larger; the tenth spared is for the readings
	// of this process's own time, which are not taken at the same instants.
	if got := (after - before) - (self1 - self0); got < child*9/10 {
		t.Errorf("WithChildren grew by %v beyond this process's own %v; the child used %v", after-before, self1-self0, child)
	}
}
