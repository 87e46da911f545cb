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
