package store

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testLocks returns unit locks in a fresh directory that poll quickly.
func testLocks(t *testing.T) Locks {
	t.Helper()
	l := NewLocks(t.TempDir(), time.Hour, nil)
	l.poll = 5 * time.Millisecond
	return l
}

// writeLock puts a lock of the given holder in place.
func writeLock(t *testing.T, l Locks, key string, info lockInfo) {
	t.Helper()
	b, err := json.Marshal(info)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(l.Path(key), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// deadPID returns the pid of a process of this host that has exited.
func deadPID(t *testing.T) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skipf("cannot run a child process: %v", err)
	}
	return cmd.Process.Pid
}

func TestUnitLockHoldsHostAndPIDUntilReleased(t *testing.T) {
	t.Parallel()
	l := testLocks(t)
	release, waited, err := l.Acquire(context.Background(), "k")
	if err != nil || waited {
		t.Fatalf("acquire: waited %v, %v", waited, err)
	}
	b, err := os.ReadFile(l.Path("k"))
	var info lockInfo
	if err != nil || json.Unmarshal(b, &info) != nil || info.PID != os.Getpid() || info.Host != l.host || info.Time.IsZero() {
		t.Fatalf("lock file %q (%v)", b, err)
	}
	release()
	release() // idempotent
	if _, err := os.Stat(l.Path("k")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("lock left after release: %v", err)
	}
}

// A second claimant waits while the holder (here: a live process of this
// host, the test itself) has the lock, and gets it once it is released.
func TestUnitLockWaitsForLiveHolder(t *testing.T) {
	t.Parallel()
	for _, holder := range []lockInfo{
		{Host: "", PID: os.Getpid()},           // this host (filled in below)
		{Host: "other-host", PID: os.Getpid()}, // another host, heartbeat fresh
	} {
		l := testLocks(t)
		if holder.Host == "" {
			holder.Host = l.host
		}
		holder.Time = time.Now()
		writeLock(t, l, "k", holder)
		type result struct {
			release func()
			waited  bool
			err     error
		}
		got := make(chan result)
		polls := make(chan struct{}, 100)
		l.waiting = func() {
			select {
			case polls <- struct{}{}:
			default: // never block the claimant
			}
		}
		go func() {
			release, waited, err := l.Acquire(context.Background(), "k")
			got <- result{release, waited, err}
		}()
		// The claimant looks twice and keeps waiting; then the holder is done.
		<-polls
		<-polls
		if _, err := os.Stat(l.Path("k")); err != nil {
			t.Fatalf("holder %v: the held lock was removed: %v", holder, err)
		}
		if err := os.Remove(l.Path("k")); err != nil {
			t.Fatal(err)
		}
		r := <-got
		if r.err != nil || !r.waited {
			t.Fatalf("holder %v: waited %v, %v", holder, r.waited, r.err)
		}
		r.release()
	}
}

func TestUnitLockReplacesStaleLocalLock(t *testing.T) {
	t.Parallel()
	l := testLocks(t)
	writeLock(t, l, "k", lockInfo{Host: l.host, PID: deadPID(t), Time: time.Now()})
	var warned string
	l.warn = func(s string) { warned = s }
	release, _, err := l.Acquire(context.Background(), "k")
	if err != nil {
		t.Fatalf("stale lock not replaced: %v", err)
	}
	defer release()
	if !strings.Contains(warned, "stale unit lock") {
		t.Errorf("no warning about the stale lock: %q", warned)
	}
	if left, _ := filepath.Glob(l.Path("k") + ".stale-*"); len(left) > 0 {
		t.Errorf("left %v behind", left)
	}
}

// An old lock of another host is reported with its path, never removed.
func TestUnitLockReportsOldForeignLock(t *testing.T) {
	t.Parallel()
	l := testLocks(t)
	writeLock(t, l, "k", lockInfo{Host: "other-host", PID: 42, Time: time.Now().Add(-3 * l.maxAge)})
	old := time.Now().Add(-2 * l.maxAge)
	if err := os.Chtimes(l.Path("k"), old, old); err != nil {
		t.Fatal(err)
	}
	_, _, err := l.Acquire(context.Background(), "k")
	if err == nil || !strings.Contains(err.Error(), l.Path("k")) || !strings.Contains(err.Error(), "pid 42 on other-host") || !strings.Contains(err.Error(), "--lock-age") {
		t.Fatalf("err = %v", err)
	}
	if _, err := os.Stat(l.Path("k")); err != nil {
		t.Fatalf("the foreign lock was removed: %v", err)
	}
}

func TestUnitLockWaitObeysCancellation(t *testing.T) {
	t.Parallel()
	l := testLocks(t)
	writeLock(t, l, "k", lockInfo{Host: "other-host", PID: 1, Time: time.Now()})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := l.Acquire(ctx, "k"); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}

// If a worker replaced the stale lock between another worker's look and its
// removal, the replacement must survive.
func TestRemoveIfSameKeepsAReplacedLock(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "k.lock")
	if err := os.WriteFile(path, []byte("new holder"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := removeIfSame(path, []byte("stale holder")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "new holder" {
		t.Fatalf("lock now %q (%v), want the new holder's", b, err)
	}
	if err := removeIfSame(path, []byte("new holder")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("stale lock not removed: %v", err)
	}
}

// A holder keeps its lock young, so that other hosts never report it while
// it computes.
func TestUnitLockHeartbeat(t *testing.T) {
	t.Parallel()
	l := testLocks(t)
	l.maxAge = 20 * time.Millisecond
	release, _, err := l.Acquire(context.Background(), "k")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(l.Path("k"), old, old); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(l.maxAge) {
		st, err := os.Stat(l.Path("k"))
		if err != nil {
			t.Fatal(err)
		}
		if st.ModTime().After(old.Add(time.Minute)) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the holder never refreshed its lock")
		}
	}
}
