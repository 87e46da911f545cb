package progress

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// defaultWidth is assumed when neither the terminal nor $COLUMNS tells.
const defaultWidth = 80

// terminalWidth returns f's terminal width in columns: from the terminal
// itself, else from $COLUMNS (which shells set but rarely export), else 80.
func terminalWidth(f *os.File) int {
	if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
		return int(ws.Col)
	}
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	return defaultWidth
}
