package experiments

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// progress reports a phase's units done/total, units running, elapsed time
// and an ETA on w. On a terminal it redraws one status line several times a
// second; otherwise (CI logs, files) it prints a plain line when units finish
// (at most every few seconds) and a heartbeat while long units run. A nil w
// disables it.
type progress struct {
	w                                        io.Writer
	tty                                      bool
	phase                                    string
	mu                                       sync.Mutex
	total, running, finished, cached, failed int
	begin, lastLine                          time.Time
	quit                                     chan struct{}
	wg                                       sync.WaitGroup
}

const (
	ttyRefresh     = 250 * time.Millisecond
	plainThrottle  = 5 * time.Second
	plainHeartbeat = 30 * time.Second
)

func newProgress(w io.Writer, phase string, total int) *progress {
	p := &progress{w: w, phase: phase, total: total, begin: time.Now(), quit: make(chan struct{})}
	if w == nil || total == 0 {
		return p
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.tty = true
		}
	}
	every := plainHeartbeat
	if p.tty {
		every = ttyRefresh
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-p.quit:
				return
			case <-t.C:
				p.mu.Lock()
				p.print()
				p.mu.Unlock()
			}
		}
	}()
	return p
}

func (p *progress) start() {
	p.mu.Lock()
	p.running++
	p.mu.Unlock()
}

func (p *progress) done(cached, failed bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
	p.finished++
	if cached {
		p.cached++
	}
	if failed {
		p.failed++
	}
	if p.w != nil && !p.tty && (time.Since(p.lastLine) >= plainThrottle || p.finished == p.total) {
		p.print()
	}
}

// print writes the status; the caller holds p.mu.
func (p *progress) print() {
	if p.w == nil {
		return
	}
	p.lastLine = time.Now()
	elapsed := time.Since(p.begin)
	eta := "?"
	switch computed := p.finished - p.cached; {
	case p.finished == p.total:
		eta = "done"
	case computed > 0:
		// Cached units cost nothing, so only computed ones set the pace.
		eta = (elapsed / time.Duration(computed) * time.Duration(p.total-p.finished)).Round(time.Second).String()
	}
	status := fmt.Sprintf("%s units %d/%d (%d running, %d cached, %d failed), elapsed %s, ETA %s",
		p.phase, p.finished, p.total, p.running, p.cached, p.failed, elapsed.Round(time.Second), eta)
	if p.tty {
		const width = 24
		filled := width * p.finished / max(p.total, 1)
		fmt.Fprintf(p.w, "\r\033[K[%s%s] %s", strings.Repeat("#", filled), strings.Repeat(".", width-filled), status)
		return
	}
	fmt.Fprintln(p.w, "repro:", status)
}

// stop ends the ticker and, on a terminal, finishes the status line.
func (p *progress) stop() {
	close(p.quit)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.w != nil && p.total > 0 {
		p.print()
		fmt.Fprintln(p.w)
	}
}
