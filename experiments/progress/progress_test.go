package progress

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// A terminal status line never reaches the last column, so it never wraps.
func TestStatusLineFitsTheTerminal(t *testing.T) {
	t.Parallel()
	long := "validation: units 12345/67890 (16 running, 12000 cached, 3 failed), elapsed 1h2m3s, ETA 4h5m6s"
	for _, tc := range []struct {
		width   int
		wantBar bool
	}{{80, false}, {40, false}, {200, true}, {1, false}} {
		line := statusLine(long, 12345, 67890, tc.width)
		if n := utf8.RuneCountInString(line); n >= max(tc.width, 1) && n > 0 {
			t.Errorf("width %d: %d columns: %q", tc.width, n, line)
		}
		if strings.HasPrefix(line, "[") != tc.wantBar {
			t.Errorf("width %d: bar shown = %v: %q", tc.width, !tc.wantBar, line)
		}
	}
	if line := statusLine("short", 1, 2, 80); line != "["+strings.Repeat("#", 12)+strings.Repeat(".", 12)+"] short" {
		t.Errorf("short status: %q", line)
	}
}

// A unit stopped by cancellation is neither done nor running.
func TestProgressAbandonedUnitIsNotDone(t *testing.T) {
	t.Parallel()
	p := New(nil, 3)
	defer p.Stop()
	p.Start()
	p.Start()
	p.Done(false)
	p.Abandon()
	if p.finished != 1 || p.running != 0 {
		t.Errorf("finished %d, running %d; want 1 and 0", p.finished, p.running)
	}
}
