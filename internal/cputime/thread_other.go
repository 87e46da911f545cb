//go:build !linux

package cputime

import "time"

// Thread is unavailable off Linux: units then record wall time only.
func Thread() (time.Duration, bool) { return 0, false }

// threadClock is unavailable off Linux.
type threadClock struct{}

func currentThreadClock() (threadClock, bool) { return threadClock{}, false }

func (threadClock) read() (time.Duration, bool) { return 0, false }
