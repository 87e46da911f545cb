package cputime

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

func spin(n int) float64 {
	x := 0.0
	for i := range n {
		x += float64(i % 7)
	}
	return x
}

// Work measured on several goroutines adds up in one Counter.
func TestCounterSumsGoroutines(t *testing.T) {
	if _, ok := Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	var c, one Counter
	sums := make([]float64, 5)
	one.Measure(func() { sums[4] = spin(5_000_000) })
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() { c.Measure(func() { sums[i] = spin(5_000_000) }) })
	}
	wg.Wait()
	for _, s := range sums {
		if s != sums[4] {
			t.Fatalf("the same work summed to %v", sums)
		}
	}
	if !(one.Total() > 0) {
		t.Fatalf("one measurement: %v", one.Total())
	}
	// Four equal pieces of work cost more than one of them (scheduling
	// noise aside, about four times as much).
	if c.Total() < 2*one.Total() {
		t.Errorf("four goroutines summed to %v, one alone took %v", c.Total(), one.Total())
	}
}

// A measurement in progress counts in Total before it ends: a goroutine
// that measures one long piece of work is seen while it works.
func TestCounterSeesLiveMeasurement(t *testing.T) {
	if _, ok := Thread(); !ok {
		t.Skip("no thread CPU clock on this platform")
	}
	var c Counter
	seen := make(chan struct{})
	done := make(chan float64)
	go c.Measure(func() {
		x := 0.0
		for {
			select {
			case <-seen:
				done <- x
				return
			default:
				x += spin(10_000)
			}
		}
	})
	deadline := time.Now().Add(time.Minute) // only a broken clock waits that long
	for c.Total() == 0 {
		if time.Now().After(deadline) {
			t.Fatal("Total stayed 0 while a measurement was running")
		}
		runtime.Gosched()
	}
	close(seen)
	<-done
}
