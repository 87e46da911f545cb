// Package forktest checks, for the models' tests, that forks of a model
// used from several goroutines at once answer exactly as the model does
// used alone: the contract of trainers.Forker. Run it under -race, which
// reports any scratch buffer a fork still shares with its model.
package forktest

import (
	"sync"
	"testing"
)

// Goroutines is how many goroutines Concurrent uses: the model itself and
// Goroutines−1 forks.
const Goroutines = 4

// Concurrent computes answer(m, i) for every instance i of m, one after
// another, as the reference; then Goroutines goroutines, the first with m
// and each other with a fork of its own, answer every instance again at
// the same time (each in its own order, twice, so that scratch left by one
// instance meets the next), and every answer must equal the reference.
// answer must return a value that does not alias the model's scratch
// (e.g. a string formatted from its results; %v formats floats exactly).
func Concurrent[M any](t *testing.T, m M, n int, fork func(M) M, answer func(m M, i int) string) {
	t.Helper()
	want := make([]string, n)
	for i := range n {
		want[i] = answer(m, i)
	}
	models := []M{m}
	for range Goroutines - 1 {
		models = append(models, fork(m))
	}
	type reply struct {
		i      int
		answer string
	}
	got := make([][]reply, Goroutines)
	var wg sync.WaitGroup
	for g, mg := range models {
		wg.Go(func() {
			for r := range 2 * n {
				i := (r*(g+1) + g) % n // first strides of g+1 from g,
				if r >= n {
					i = n - 1 - r%n // then every instance backwards
				}
				got[g] = append(got[g], reply{i, answer(mg, i)})
			}
		})
	}
	wg.Wait()
	for g := range models {
		for _, r := range got[g] {
			if r.answer != want[r.i] {
				t.Errorf("goroutine %d, instance %d: got\n%s\nalone:\n%s", g, r.i, r.answer, want[r.i])
			}
		}
	}
}
