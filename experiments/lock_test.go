package experiments

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/store"
)

func TestLockExcludesSecondRun(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	l, err := store.AcquireDirLock(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.AcquireDirLock(dir, nil); err == nil || !strings.Contains(err.Error(), "in use by another repro run") {
		t.Fatalf("second lock: %v", err)
	}
	l.Release()
	l2, err := store.AcquireDirLock(dir, nil)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	l2.Release()
}

func TestLockReplacesStaleLock(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	host, _ := os.Hostname()
	// A PID far above any real one on this machine stands for a killed run.
	stale := fmt.Sprintf("%d %s 2026-01-01T00:00:00Z\n", 1<<30, host)
	if err := os.WriteFile(filepath.Join(dir, store.LockName), []byte(stale), 0o644); err != nil {
		t.Fatal(err)
	}
	var warned string
	l, err := store.AcquireDirLock(dir, func(s string) { warned = s })
	if err != nil {
		t.Fatalf("stale lock not replaced: %v", err)
	}
	defer l.Release()
	if !strings.Contains(warned, "stale lock") {
		t.Errorf("no warning about the stale lock: %q", warned)
	}
}

func TestLockFromOtherHostIsRespected(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	other := "1 some-other-host 2026-01-01T00:00:00Z\n"
	if err := os.WriteFile(filepath.Join(dir, store.LockName), []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := store.AcquireDirLock(dir, nil); err == nil {
		t.Fatal("took a lock that may belong to a live run on another host")
	}
}
