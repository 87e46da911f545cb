package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestLockExcludesSecondRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := acquireLock(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := acquireLock(dir, nil); err == nil || !strings.Contains(err.Error(), "in use by another repro run") {
		t.Fatalf("second lock: %v", err)
	}
	l.release()
	l2, err := acquireLock(dir, nil)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	l2.release()
}

func TestLockReplacesStaleLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host, _ := os.Hostname()
	// A PID far above any real one on this machine stands for a killed run.
	stale := fmt.Sprintf("%d %s 2026-01-01T00:00:00Z\n", 1<<30, host)
	if err := os.WriteFile(filepath.Join(dir, lockName), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	var warned string
	l, err := acquireLock(dir, func(s string) { warned = s })
	if err != nil {
		t.Fatalf("stale lock not replaced: %v", err)
	}
	defer l.release()
	if !strings.Contains(warned, "stale lock") {
		t.Errorf("no warning about the stale lock: %q", warned)
	}
}

func TestLockFromOtherHostIsRespected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := "1 some-other-host 2026-01-01T00:00:00Z\n"
	if err := os.WriteFile(filepath.Join(dir, lockName), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := acquireLock(dir, nil); err == nil {
		t.Fatal("took a lock that may belong to a live run on another host")
	}
}
