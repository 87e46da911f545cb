// Package align is local sequence alignment (Smith & Waterman 1981) under
// a linear scoring model: a substitution score for every pair (native
// letter, candidate letter) over an alphabet of A letters, and one score
// per gap position (insertion or deletion, no affine opening cost). Local
// returns the best-scoring alignment of any substring of the native
// against any substring of the candidate, and its score; the empty
// alignment scores 0, so the best score is never negative.
//
// Scores may have any sign (a learned gap score may be positive): the
// dynamic program is exact over every path through the alignment grid,
// gaps at either end included, which is the set bruteforce enumerates.
package align

import (
	"fmt"
	"slices"
)

// Op is one column of an alignment.
type Op uint8

const (
	// Match aligns the next native letter with the next candidate letter
	// (a substitution, or an identity).
	Match Op = iota
	// Delete aligns the next native letter with a gap.
	Delete
	// Insert aligns the next candidate letter with a gap.
	Insert
)

// String returns "M", "D" or "I".
func (o Op) String() string {
	switch o {
	case Match:
		return "M"
	case Delete:
		return "D"
	case Insert:
		return "I"
	}
	return fmt.Sprintf("Op(%d)", uint8(o))
}

// Alignment is a local alignment: it starts before native position S and
// candidate position T and consumes letters by its Ops.
type Alignment struct {
	S, T int
	Ops  []Op
}

// String writes the alignment as "S,T:ops", e.g. "2,0:MMDM".
func (a Alignment) String() string {
	b := make([]byte, 0, len(a.Ops))
	for _, o := range a.Ops {
		b = append(b, o.String()[0])
	}
	return fmt.Sprintf("%d,%d:%s", a.S, a.T, b)
}

// Equal reports whether a and b are the same alignment.
func (a Alignment) Equal(b Alignment) bool {
	return a.S == b.S && a.T == b.T && slices.Equal(a.Ops, b.Ops)
}

// Ends returns the native and candidate positions after the last column.
func (a Alignment) Ends() (i, j int) {
	i, j = a.S, a.T
	for _, o := range a.Ops {
		switch o {
		case Match:
			i, j = i+1, j+1
		case Delete:
			i++
		case Insert:
			j++
		}
	}
	return i, j
}

// Check reports an alignment that does not fit sequences of lengths n and
// m, or has an unknown op.
func (a Alignment) Check(n, m int) error {
	if a.S < 0 || a.T < 0 || a.S > n || a.T > m {
		return fmt.Errorf("alignment starts at (%d, %d), outside sequences of lengths %d and %d", a.S, a.T, n, m)
	}
	for k, o := range a.Ops {
		if o > Insert {
			return fmt.Errorf("alignment column %d: unknown op %d", k, o)
		}
	}
	if i, j := a.Ends(); i > n || j > m {
		return fmt.Errorf("alignment %v ends at (%d, %d), beyond sequences of lengths %d and %d", a, i, j, n, m)
	}
	return nil
}

// Scores is the linear scoring model: Sub[a·A + b] scores native letter a
// against candidate letter b, Gap every gap column.
type Scores struct {
	A   int
	Sub []float64 // A·A
	Gap float64
}

// Check reports scores of the wrong shape.
func (sc Scores) Check() error {
	if sc.A < 1 || len(sc.Sub) != sc.A*sc.A {
		return fmt.Errorf("substitution scores: %d entries for an alphabet of %d letters", len(sc.Sub), sc.A)
	}
	return nil
}

// Score returns the alignment's score: its substitutions' scores plus Gap
// per gap column. The alignment must fit s and t (see Check).
func (sc Scores) Score(s, t []byte, a Alignment) float64 {
	var v float64
	i, j := a.S, a.T
	for _, o := range a.Ops {
		switch o {
		case Match:
			v += sc.Sub[int(s[i])*sc.A+int(t[j])]
			i, j = i+1, j+1
		case Delete:
			v += sc.Gap
			i++
		case Insert:
			v += sc.Gap
			j++
		}
	}
	return v
}

// Workspace holds the dynamic program's tables, reused across calls; the
// zero value is ready. A Workspace is not safe for concurrent use.
type Workspace struct {
	h    []float64 // (n+1)·(m+1) best scores of alignments ending at (i, j)
	from []Op      // the last op of that alignment; start marks an empty one
}

// start marks a cell whose best alignment is empty (it starts there).
const start Op = 255

// Local returns the best local alignment of candidate t against native s
// and its score. Letters must be in [0, sc.A). On ties it prefers, at each
// cell, starting afresh, then Match, Delete, Insert, and among end cells
// the first in row-major order, so the result is deterministic.
func (w *Workspace) Local(s, t []byte, sc Scores) (float64, Alignment) {
	best, bi, bj := w.fill(s, t, sc)
	return best, w.trace(bi, bj, len(t))
}

// LocalScore returns the best local alignment's score only.
func (w *Workspace) LocalScore(s, t []byte, sc Scores) float64 {
	best, _, _ := w.fill(s, t, sc)
	return best
}

// fill runs the dynamic program and returns the best score and its cell.
func (w *Workspace) fill(s, t []byte, sc Scores) (best float64, bi, bj int) {
	n, m := len(s), len(t)
	cells := (n + 1) * (m + 1)
	w.h = slices.Grow(w.h[:0], cells)[:cells]
	w.from = slices.Grow(w.from[:0], cells)[:cells]
	stride := m + 1
	w.h[0], w.from[0] = 0, start
	for j := 1; j <= m; j++ { // row 0: insertions only
		w.h[j], w.from[j] = 0, start
		if v := w.h[j-1] + sc.Gap; v > 0 {
			w.h[j], w.from[j] = v, Insert
		}
	}
	for i := 1; i <= n; i++ {
		row := i * stride
		w.h[row], w.from[row] = 0, start
		if v := w.h[row-stride] + sc.Gap; v > 0 {
			w.h[row], w.from[row] = v, Delete
		}
		sub := sc.Sub[int(s[i-1])*sc.A : int(s[i-1])*sc.A+sc.A]
		for j := 1; j <= m; j++ {
			c := row + j
			v, op := 0.0, start
			if d := w.h[c-stride-1] + sub[t[j-1]]; d > v {
				v, op = d, Match
			}
			if d := w.h[c-stride] + sc.Gap; d > v {
				v, op = d, Delete
			}
			if d := w.h[c-1] + sc.Gap; d > v {
				v, op = d, Insert
			}
			w.h[c], w.from[c] = v, op
		}
	}
	for i := 0; i <= n; i++ {
		for j := 0; j <= m; j++ {
			if v := w.h[i*stride+j]; v > best {
				best, bi, bj = v, i, j
			}
		}
	}
	return best, bi, bj
}

// trace follows the ops back from cell (i, j).
func (w *Workspace) trace(i, j, m int) Alignment {
	var ops []Op
	for {
		op := w.from[i*(m+1)+j]
		if op == start {
			break
		}
		ops = append(ops, op)
		switch op {
		case Match:
			i, j = i-1, j-1
		case Delete:
			i--
		case Insert:
			j--
		}
	}
	slices.Reverse(ops)
	return Alignment{S: i, T: j, Ops: ops}
}
