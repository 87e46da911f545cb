package main

import (
	"fmt"
	"io"
	"slices"
	"time"

	"github.com/maxmargin/repro/trainers"
)

// progressEvery is the least time between two progress lines of a
// training: often enough to watch, rare enough for a log of a long run.
const progressEvery = time.Second

// trainingProgress prints a long training's progress on w (see
// trainers.WithProgress): iterations, objective, gap, constraints and
// elapsed time for the cutting-plane trainers, epochs and updates for the
// online ones, iterations and objective for the log-linear ones; at most
// one line every progressEvery, the first at once.
type trainingProgress struct {
	w       io.Writer
	cutting bool // a cutting-plane trainer
	online  bool // an online trainer (epochs)
	last    time.Time
}

func newTrainingProgress(w io.Writer, trainer string) *trainingProgress {
	p := &trainingProgress{w: w, cutting: slices.Contains(trainers.CuttingPlaneTrainers(), trainer)}
	if spec, err := trainers.SpecOf(trainer); err == nil {
		_, p.online = spec.Param("epochs")
	}
	return p
}

// report is the observer: it prints s unless a line was printed less than
// progressEvery ago.
func (p *trainingProgress) report(s trainers.Stats) {
	now := time.Now()
	if !p.last.IsZero() && now.Sub(p.last) < progressEvery {
		return
	}
	p.last = now
	elapsed := s.Elapsed.Round(time.Millisecond)
	switch {
	case p.cutting:
		fmt.Fprintf(p.w, "repro: train: iteration %d: objective %.6g (working set), gap %.3g, %d constraints, %s\n",
			s.Iterations, s.WorkingPrimal, s.WorkingGap, s.Constraints, elapsed)
	case p.online:
		fmt.Fprintf(p.w, "repro: train: epoch %d: %d updates, %s\n", s.Iterations, s.Added, elapsed)
	default:
		fmt.Fprintf(p.w, "repro: train: iteration %d: objective %.6g, %s\n", s.Iterations, s.Primal, elapsed)
	}
}
