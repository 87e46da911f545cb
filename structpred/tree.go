package structpred

import (
	"errors"
	"fmt"
	"strings"
)

// The errors CheckTree wraps, so that a reader can tell them apart with
// errors.Is and add its own file:line context.
var (
	ErrBadHead = errors.New("head out of range")
	ErrNoRoot  = errors.New("no word attaches to the root")
	ErrCycle   = errors.New("head cycle")
)

// CheckTree reports whether heads is a dependency tree over len(heads)-1
// words: every heads[d], d ≥ 1, is a node in [0, N], and following heads
// from any word reaches the root 0. heads[0] is not looked at (decoders set
// it to -1). The error wraps ErrBadHead, ErrNoRoot or ErrCycle and names the
// words involved; a word that is its own head is a cycle. Any number of words
// may attach to the root.
func CheckTree(heads []int) error {
	if len(heads) == 0 {
		return fmt.Errorf("empty head vector (need at least the root): %w", ErrBadHead)
	}
	n := len(heads) - 1
	rooted := false
	for d := 1; d <= n; d++ {
		switch h := heads[d]; {
		case h < 0 || h > n:
			return fmt.Errorf("word %d has head %d, want 0..%d: %w", d, h, n, ErrBadHead)
		case h == d:
			return fmt.Errorf("word %d is its own head: %w", d, ErrCycle)
		case h == 0:
			rooted = true
		}
	}
	if n > 0 && !rooted {
		return ErrNoRoot
	}
	if c := findCycle(heads); c != nil {
		parts := make([]string, len(c))
		for i, d := range c {
			parts[i] = fmt.Sprintf("%d has head %d", d, heads[d])
		}
		return fmt.Errorf("word %s: %w", strings.Join(parts, ", "), ErrCycle)
	}
	return nil
}

// findCycle returns the words of a head cycle, starting from its smallest
// word and following heads, or nil if every word reaches the root. Heads
// must be in range.
func findCycle(heads []int) []int {
	const (
		unseen = iota
		onPath
		done
	)
	state := make([]uint8, len(heads))
	state[0] = done
	for start := 1; start < len(heads); start++ {
		x := start
		for state[x] == unseen {
			state[x] = onPath
			x = heads[x]
		}
		if state[x] == onPath {
			return cycleFrom(heads, x)
		}
		for y := start; state[y] == onPath; y = heads[y] {
			state[y] = done
		}
	}
	return nil
}

// cycleFrom lists the cycle through x starting from its smallest word.
func cycleFrom(heads []int, x int) []int {
	lo := x
	for y := heads[x]; y != x; y = heads[y] {
		lo = min(lo, y)
	}
	c := []int{lo}
	for y := heads[lo]; y != lo; y = heads[y] {
		c = append(c, y)
	}
	return c
}
