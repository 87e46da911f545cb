package store

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// DefaultLockAge is how long a unit lock held on another host may go
// without a heartbeat before it is reported as probably abandoned. Holders
// refresh their lock's modification time every quarter of it, so only a
// holder that stopped (a killed job, a host that went down, a network
// partition) lets it age that far.
const DefaultLockAge = 10 * time.Minute

// lockPoll is how often a worker waiting for another holder's unit lock
// looks again.
const lockPoll = time.Second

// Locks claims units so that no two workers compute one at once, in one
// process or on several hosts sharing the store's file system. A claim is
// the file units/<key>.lock, created with O_CREATE|O_EXCL (atomic on local
// file systems and on NFSv3 and later), holding the holder's host, pid and
// start time; its modification time is the holder's heartbeat.
//
// Another holder's lock is waited for. A lock of this host whose process is
// gone (a killed run) is replaced, with a warning. A lock of another host
// whose heartbeat is older than maxAge is reported as an error naming the
// file, never removed: this host cannot tell a dead holder from a slow file
// system, and two hosts computing one unit is the worse mistake.
type Locks struct {
	dir    string
	host   string
	maxAge time.Duration
	poll   time.Duration
	warn   func(string)
	// waiting, if set, is called each time acquire waits for a holder
	// (tests use it to act only once a claimant is certainly waiting).
	waiting func()
}

// NewLocks returns the locks of the units stored in dir; maxAge 0 is
// DefaultLockAge, and warn (if not nil) hears of the stale locks replaced.
func NewLocks(dir string, maxAge time.Duration, warn func(string)) Locks {
	host, _ := os.Hostname()
	if maxAge <= 0 {
		maxAge = DefaultLockAge
	}
	return Locks{dir: dir, host: host, maxAge: maxAge, poll: lockPoll, warn: warn}
}

// WithPoll returns l looking at a holder's lock every d while it waits,
// and calling waiting (if not nil) each time it does: tests use it to act
// only once a claimant is certainly waiting.
func (l Locks) WithPoll(d time.Duration, waiting func()) Locks {
	l.poll, l.waiting = d, waiting
	return l
}

// lockInfo is the content of a unit lock file.
type lockInfo struct {
	Host string    `json:"host"`
	PID  int       `json:"pid"`
	Time time.Time `json:"time"`
}

func (i lockInfo) String() string {
	return fmt.Sprintf("pid %d on %s since %s", i.PID, i.Host, i.Time.Format(time.RFC3339))
}

func (l Locks) Path(key string) string { return filepath.Join(l.dir, key+".lock") }

// Acquire claims key, waiting while another live holder has it. waited
// reports that it did wait, so the caller looks in the store again (the
// other holder has probably saved the unit). release removes the lock.
func (l Locks) Acquire(ctx context.Context, key string) (release func(), waited bool, err error) {
	path := l.Path(key)
	me, err := json.Marshal(lockInfo{Host: l.host, PID: os.Getpid(), Time: time.Now().UTC().Truncate(time.Second)})
	if err != nil {
		return nil, false, err
	}
	me = append(me, '\n')
	for {
		ok, err := createExclusive(path, me)
		if err != nil {
			return nil, waited, fmt.Errorf("locking unit %s: %w", key, err)
		}
		if ok {
			return l.heartbeat(path), waited, nil
		}
		wait, err := l.judge(path)
		if err != nil {
			return nil, waited, err
		}
		if !wait {
			continue // a stale lock was removed: try again
		}
		waited = true
		if l.waiting != nil {
			l.waiting()
		}
		select {
		case <-ctx.Done():
			return nil, waited, ctx.Err()
		case <-time.After(l.poll):
		}
	}
}

// createExclusive creates path with content unless it exists; ok reports
// whether this call created it.
func createExclusive(path string, content []byte) (ok bool, err error) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	_, err = f.Write(content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return false, err
	}
	return true, nil
}

// judge decides what to do about an existing lock: wait for its holder,
// or (wait == false) try again because the lock is gone or was stale and
// has been removed. A foreign lock past maxAge is an error.
func (l Locks) judge(path string) (wait bool, err error) {
	content, err := os.ReadFile(path)
	st, serr := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(serr, fs.ErrNotExist) {
		return false, nil // released meanwhile
	}
	if err != nil {
		return false, fmt.Errorf("reading unit lock: %w", err)
	}
	if serr != nil {
		return false, fmt.Errorf("reading unit lock: %w", serr)
	}
	age := time.Since(st.ModTime())
	var info lockInfo
	if json.Unmarshal(content, &info) != nil || info.PID <= 0 {
		// Being written this instant, or damaged: wait, unless it is old.
		if age > l.maxAge {
			return false, fmt.Errorf("unit lock %s is unreadable (%q) and %s old; if no repro process is computing this unit, delete it", path, content, age.Round(time.Second))
		}
		return true, nil
	}
	if info.Host != l.host {
		if age > l.maxAge {
			return false, fmt.Errorf("unit lock %s is held by %s, whose last heartbeat is %s old (the limit is %s): if that process is gone, delete the lock and run again; if its file system is just slow, raise --lock-age",
				path, info, age.Round(time.Second), l.maxAge)
		}
		return true, nil
	}
	if processAlive(info.PID) {
		return true, nil
	}
	if l.warn != nil {
		l.warn(fmt.Sprintf("removing stale unit lock %s (%s: that process is no longer running)", path, info))
	}
	return false, removeIfSame(path, content)
}

// processAlive reports whether a process of this host exists. Signal 0
// checks existence without touching it; EPERM means it exists but belongs
// to someone else.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// removeIfSame removes the lock at path if it still holds content. Two
// workers may find the same stale lock; the lock is first renamed to a name
// of this process's own, so that only one of them takes it, and if what
// was taken is not the stale lock (another worker replaced it in between)
// it is put back with a create-if-absent link.
func removeIfSame(path string, content []byte) error {
	aside := path + ".stale-" + strconv.Itoa(os.Getpid())
	if err := os.Rename(path, aside); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("removing stale unit lock: %w", err)
	}
	defer os.Remove(aside)
	got, err := os.ReadFile(aside)
	if err == nil && !bytes.Equal(got, content) {
		if lerr := os.Link(aside, path); lerr != nil && !errors.Is(lerr, fs.ErrExist) {
			return fmt.Errorf("restoring unit lock %s: %w", path, lerr)
		}
	}
	return nil
}

// heartbeat refreshes the lock's modification time every quarter of maxAge
// until the returned release is called, which stops it and removes the lock.
func (l Locks) heartbeat(path string) (release func()) {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(max(l.maxAge/4, time.Millisecond)) // NewTicker needs a positive period
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case now := <-t.C:
				os.Chtimes(path, now, now) // best effort: a missed beat only ages the lock
			}
		}
	}()
	var once sync.Once
	return func() {
		once.Do(func() {
			close(stop)
			wg.Wait()
			os.Remove(path)
		})
	}
}
