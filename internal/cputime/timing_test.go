package cputime

import (
	"errors"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestTimedMeasuresThreadCPU(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("thread CPU time is measured on Linux only")
	}
	spin := func() error {
		x := 0.0
		for i := range 20_000_000 {
			x += float64(i % 7)
		}
		if x < 0 {
			return errors.New("unreachable")
		}
		return nil
	}
	tm, err := Timed(spin)
	if err != nil {
		t.Fatal(err)
	}
	if tm.CPU <= 0 || tm.Wall <= 0 || tm.PeakBytes == 0 {
		t.Fatalf("timing %+v: want positive CPU and wall seconds", tm)
	}
	// CPU time of one thread cannot exceed the wall time it ran for (small
	// slack for the clocks' granularity).
	if tm.CPU > tm.Wall+0.01 {
		t.Errorf("CPU %v s exceeds wall %v s", tm.CPU, tm.Wall)
	}
	boom := errors.New("boom")
	if _, err := Timed(func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}

// The peak memory covers what the unit allocates while it trains.
func TestTimedRecordsPeakMemory(t *testing.T) {
	const size = 64 << 20
	var keep []byte
	tm, err := Timed(func() error {
		keep = make([]byte, size)
		for i := range keep {
			keep[i] = byte(i)
		}
		time.Sleep(3 * memorySample)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tm.PeakBytes < size {
		t.Errorf("peak %d bytes, below the %d the unit allocated", tm.PeakBytes, size)
	}
	runtime.KeepAlive(keep)
}

// Memory the runtime has returned to the OS is not held by a later unit:
// after a large allocation is freed and scavenged, a small unit's peak stays
// far below it (the mapped total alone would still count it).
func TestTimedPeakExcludesReleasedMemory(t *testing.T) {
	const big = 512 << 20
	func() {
		b := make([]byte, big)
		for i := 0; i < len(b); i += 4096 {
			b[i] = 1
		}
		runtime.KeepAlive(b)
	}()
	debug.FreeOSMemory()
	tm, err := Timed(func() error {
		time.Sleep(3 * memorySample)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if tm.PeakBytes >= big {
		t.Errorf("peak %d MiB after freeing %d MiB: released memory is counted", tm.PeakBytes>>20, big>>20)
	}
}
