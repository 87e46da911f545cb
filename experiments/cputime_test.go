package experiments

import (
	"errors"
	"runtime"
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
	tm, err := timed(spin)
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
	if _, err := timed(func() error { return boom }); !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
}

// The peak memory covers what the unit allocates while it trains.
func TestTimedRecordsPeakMemory(t *testing.T) {
	const size = 64 << 20
	var keep []byte
	tm, err := timed(func() error {
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
