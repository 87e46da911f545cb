// Package bruteforce is the test oracle for package align: it enumerates
// every local alignment of two short sequences. It is exported so that the
// tests of other packages (models/align) can check their inference
// against it; the count grows exponentially with the lengths, so it is
// meant for sequences of a handful of letters.
package bruteforce

import "github.com/maxmargin/repro/decoders/align"

// Alignments calls visit for every alignment of sequences of lengths n and
// m: every start (S, T) and every sequence of ops that stays within both
// (the empty one included, once per start). visit must not keep a.Ops.
func Alignments(n, m int, visit func(a align.Alignment)) {
	var ops []align.Op
	var rec func(s, t, i, j int)
	rec = func(s, t, i, j int) {
		visit(align.Alignment{S: s, T: t, Ops: ops})
		for _, o := range []align.Op{align.Match, align.Delete, align.Insert} {
			ni, nj := i, j
			switch o {
			case align.Match:
				ni, nj = i+1, j+1
			case align.Delete:
				ni++
			case align.Insert:
				nj++
			}
			if ni > n || nj > m {
				continue
			}
			ops = append(ops, o)
			rec(s, t, ni, nj)
			ops = ops[:len(ops)-1]
		}
	}
	for s := 0; s <= n; s++ {
		for t := 0; t <= m; t++ {
			rec(s, t, s, t)
		}
	}
}

// Best returns the highest score over every alignment of s and t, and how
// many alignments there are.
func Best(s, t []byte, sc align.Scores) (best float64, count int) {
	Alignments(len(s), len(t), func(a align.Alignment) {
		if v := sc.Score(s, t, a); count == 0 || v > best {
			best = v
		}
		count++
	})
	return best, count
}
