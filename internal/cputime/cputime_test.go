package cputime

import (
	"sync"
	"testing"
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
	var c Counter
	var one Counter
	one.Measure(func() { spin(5_000_000) })
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() { c.Measure(func() { spin(5_000_000) }) })
	}
	wg.Wait()
	if !(one.Total() > 0) {
		t.Fatalf("one measurement: %v", one.Total())
	}
	// Four equal pieces of work cost more than one of them (scheduling
	// noise aside, about four times as much).
	if c.Total() < 2*one.Total() {
		t.Errorf("four goroutines summed to %v, one alone took %v", c.Total(), one.Total())
	}
}
