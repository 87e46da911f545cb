package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// DirLock keeps two runs from writing one output directory at once. The lock
// file holds the owner's PID, host and start time; a lock whose process is
// gone (a killed run) is recognised as stale and taken over.
type DirLock struct{ path string }

const LockName = ".lock"

// AcquireDirLock takes the lock of dir. warn receives a message when a stale
// lock is replaced.
func AcquireDirLock(dir string, warn func(string)) (*DirLock, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, LockName)
	host, _ := os.Hostname()
	content := fmt.Sprintf("%d %s %s\n", os.Getpid(), host, time.Now().UTC().Format(time.RFC3339))
	for attempt := 0; attempt < 2; attempt++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			_, werr := f.WriteString(content)
			if cerr := f.Close(); werr == nil {
				werr = cerr
			}
			if werr != nil {
				os.Remove(path)
				return nil, fmt.Errorf("writing lock %s: %w", path, werr)
			}
			return &DirLock{path: path}, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("locking %s: %w", dir, err)
		}
		owner, alive := lockOwner(path, host)
		if alive {
			return nil, fmt.Errorf("output directory %s is in use by another repro run (%s); wait for it to finish, or use --out to write elsewhere", dir, owner)
		}
		if warn != nil {
			warn(fmt.Sprintf("removing stale lock %s (%s: that process is no longer running)", path, owner))
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("removing stale lock: %w", err)
		}
	}
	return nil, fmt.Errorf("could not lock %s: another run keeps taking it", dir)
}

// lockOwner describes the lock's owner and reports whether it still runs. A
// lock from another host, or one that cannot be read, is assumed alive: we
// cannot tell, and deleting a live run's lock is the worse mistake.
func lockOwner(path, host string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "unreadable lock file", !errors.Is(err, fs.ErrNotExist)
	}
	fields := strings.Fields(string(b))
	if len(fields) < 3 {
		return "malformed lock file " + strconv.Quote(string(b)), false
	}
	owner := fmt.Sprintf("pid %s on %s since %s", fields[0], fields[1], fields[2])
	pid, err := strconv.Atoi(fields[0])
	if err != nil || pid <= 0 {
		return owner, false
	}
	if fields[1] != host {
		return owner, true
	}
	// Signal 0 checks existence without touching the process; EPERM means it
	// exists but belongs to someone else.
	err = syscall.Kill(pid, 0)
	return owner, err == nil || errors.Is(err, syscall.EPERM)
}

func (l *DirLock) Release() { os.Remove(l.path) }
