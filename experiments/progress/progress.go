package progress

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
)

// Line reports a run's units done/total (both phases: every selection
// group has one test unit, so the total is known up front), units running,
// elapsed time and an ETA for the whole run on w. On a terminal it redraws
// one status line, cut to the terminal's width so that it never wraps,
// several times a second; otherwise (CI logs, files) it prints a plain line
// when units finish (at most every few seconds) and a heartbeat while long
// units run. A nil w (or a nil *Line) disables it.
type Line struct {
	w     io.Writer
	width func() int // terminal columns; nil when w is not a terminal
	quit  chan struct{}
	wg    sync.WaitGroup

	mu                                       sync.Mutex
	phase                                    string
	total, running, finished, cached, failed int
	begin, lastLine                          time.Time
	stopped                                  bool
}

const (
	ttyRefresh     = 250 * time.Millisecond
	plainThrottle  = 5 * time.Second
	plainHeartbeat = 30 * time.Second
	barWidth       = 24
)

// New returns a Line reporting on w a run of total units, until Stop.
func New(w io.Writer, total int) *Line {
	p := &Line{w: w, total: total, begin: time.Now(), quit: make(chan struct{})}
	if w == nil {
		return p
	}
	if f, ok := w.(*os.File); ok {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.width = func() int { return terminalWidth(f) }
		}
	}
	every := plainHeartbeat
	if p.width != nil {
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
				if p.running > 0 || p.width != nil {
					p.print()
				}
				p.mu.Unlock()
			}
		}
	}()
	return p
}

// Warnings returns a Line that only prints Log's lines on w, with no
// status (planning, a unit run in a child process).
func Warnings(w io.Writer) *Line { return &Line{w: w} }

// SetPhase names the phase whose units run now.
func (p *Line) SetPhase(phase string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.phase = phase
}

// SetTotal corrects the run's unit count (test units are fewer than
// expected when every validation unit of a group failed).
func (p *Line) SetTotal(total int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.total = total
}

// FromCache counts n units as done without computing them.
func (p *Line) FromCache(n int) {
	if p == nil || n == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.finished += n
	p.cached += n
	p.printPlain()
}

func (p *Line) Start() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running++
}

// Done counts a computed unit as finished (failed or not).
func (p *Line) Done(failed bool) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
	p.finished++
	if failed {
		p.failed++
	}
	p.printPlain()
}

// Abandon counts a unit that was stopped by cancellation: it is no longer
// running, and it is not done.
func (p *Line) Abandon() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.running--
}

// Log prints a line of its own (a warning), above the status line on a
// terminal.
func (p *Line) Log(line string) {
	if p == nil || p.w == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width != nil && !p.stopped {
		fmt.Fprint(p.w, "\r\033[K")
	}
	fmt.Fprintln(p.w, line)
	if p.width != nil && !p.stopped {
		p.print()
	}
}

// printPlain prints a plain line when one is due; the caller holds p.mu.
func (p *Line) printPlain() {
	if p.w != nil && p.width == nil && (time.Since(p.lastLine) >= plainThrottle || p.finished == p.total) {
		p.print()
	}
}

// status is the progress text without the bar; the caller holds p.mu.
func (p *Line) status() string {
	elapsed := time.Since(p.begin)
	eta := "?"
	switch computed := p.finished - p.cached; {
	case p.finished >= p.total:
		eta = "done"
	case computed > 0:
		// Cached units cost nothing, so only computed ones set the pace;
		// every unit not yet done is assumed to need computing.
		eta = (elapsed / time.Duration(computed) * time.Duration(p.total-p.finished)).Round(time.Second).String()
	}
	return fmt.Sprintf("%s: units %d/%d (%d running, %d cached, %d failed), elapsed %s, ETA %s",
		p.phase, p.finished, p.total, p.running, p.cached, p.failed, elapsed.Round(time.Second), eta)
}

// print writes the status; the caller holds p.mu.
func (p *Line) print() {
	if p.w == nil || p.stopped {
		return
	}
	p.lastLine = time.Now()
	if p.width == nil {
		fmt.Fprintln(p.w, "repro:", p.status())
		return
	}
	fmt.Fprint(p.w, "\r\033[K"+statusLine(p.status(), p.finished, p.total, p.width()))
}

// statusLine renders a terminal status line of fewer than width columns (a
// line that fills the last column wraps on many terminals): a bar when
// there is room for it, then the status, cut at the end if need be.
func statusLine(status string, finished, total, width int) string {
	room := width - 1
	line := status
	if room-len(status) >= barWidth+3 {
		filled := barWidth * min(finished, total) / max(total, 1)
		line = "[" + strings.Repeat("#", filled) + strings.Repeat(".", barWidth-filled) + "] " + status
	}
	if r := []rune(line); len(r) > room {
		line = string(r[:max(room, 0)])
	}
	return line
}

// Stop ends the ticker and, on a terminal, finishes the status line. It may
// be called more than once.
func (p *Line) Stop() {
	if p == nil {
		return
	}
	p.mu.Lock()
	if p.stopped {
		p.mu.Unlock()
		return
	}
	p.mu.Unlock()
	close(p.quit)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.width != nil && p.w != nil && p.total > 0 {
		p.print()
		fmt.Fprintln(p.w)
	}
	p.stopped = true
}
