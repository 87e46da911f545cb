package semimarkov

import (
	"cmp"
	"fmt"

	"github.com/maxmargin/repro/structpred"
)

// Scores holds the score tables of a semi-Markov model over N tokens, K
// labels and segments of length 1..L. The score of the segment [start, end)
// labelled y after a segment labelled prev is
//
//	Unary[s.Index(start, end, y)] + Trans[prev*K+y]
//
// with prev = K (START) for the first segment.
type Scores struct {
	N, K, L int
	// Unary has N*L*K entries indexed by Index: the segment's own score.
	// Entries of segments that would end past N are never read.
	Unary []float64
	// Trans has (K+1)*K entries indexed [prev*K+label], row K being START;
	// nil or empty means all zero.
	Trans []float64
}

// NewScores returns scores over n tokens, k labels and segments of length up
// to l, with zeroed Unary and Trans tables ready to be filled in.
func NewScores(n, k, l int) *Scores {
	s := &Scores{N: n, K: k, L: l, Unary: make([]float64, n*l*k), Trans: make([]float64, (k+1)*k)}
	s.check()
	return s
}

// Index returns the position of the segment [start, end) with the given
// label in Unary: ((start*L + end-start-1)*K + label). It does not check its
// arguments.
func (s *Scores) Index(start, end, label int) int {
	return (start*s.L+end-start-1)*s.K + label
}

// Seg returns the score of the segment [start, end) labelled label after a
// segment labelled prev (K for START). It panics if the segment does not fit
// the tables.
func (s *Scores) Seg(start, end, label, prev int) float64 {
	s.check()
	if start < 0 || end > s.N || end-start < 1 || end-start > s.L || label < 0 || label >= s.K || prev < 0 || prev > s.K {
		panic(fmt.Sprintf("semimarkov: Seg(%d, %d, %d, %d) out of range for N=%d, K=%d, L=%d", start, end, label, prev, s.N, s.K, s.L))
	}
	v := s.Unary[s.Index(start, end, label)]
	if len(s.Trans) > 0 {
		v += s.Trans[prev*s.K+label]
	}
	return v
}

// Score returns s(y). It panics if segs is not a segmentation of the N
// tokens into segments of length at most L with labels below K.
func (s *Scores) Score(segs []structpred.Segment) float64 {
	s.check()
	if err := CheckSegmentation(segs, s.N, s.K, s.L); err != nil {
		panic(err.Error())
	}
	return pathScore(s.Unary, s.Trans, s.K, s.L, segs)
}

// pathScore sums the scores along segs in a fixed order. Every decoder
// reports the score of its result through this function, so a returned Score
// is bit-for-bit the value Score would compute for the same tables.
func pathScore(unary, trans []float64, k, l int, segs []structpred.Segment) float64 {
	var v float64
	prev := k
	for _, g := range segs {
		if len(trans) > 0 {
			v += trans[prev*k+g.Label]
		}
		v += unary[(g.Start*l+g.End-g.Start-1)*k+g.Label]
		prev = g.Label
	}
	return v
}

// check panics if the tables do not match N, K and L.
func (s *Scores) check() {
	switch {
	case s == nil:
		panic("semimarkov: nil *Scores")
	case s.K < 1 || s.L < 1 || s.N < 0:
		panic(fmt.Sprintf("semimarkov: scores have N=%d, K=%d, L=%d; need N ≥ 0, K ≥ 1, L ≥ 1", s.N, s.K, s.L))
	case len(s.Unary) != s.N*s.L*s.K:
		panic(fmt.Sprintf("semimarkov: len(Unary)=%d, want N*L*K=%d", len(s.Unary), s.N*s.L*s.K))
	case len(s.Trans) != 0 && len(s.Trans) != (s.K+1)*s.K:
		panic(fmt.Sprintf("semimarkov: len(Trans)=%d, want 0 or (K+1)*K=%d", len(s.Trans), (s.K+1)*s.K))
	}
}

// trans returns the transition table, substituting a zero table from ws when
// there is none so the inner loops need no branch.
func (s *Scores) trans(ws *Workspace) []float64 {
	if len(s.Trans) != 0 {
		return s.Trans
	}
	z := grow(&ws.zeros, (s.K+1)*s.K)
	clear(z)
	return z
}

// Result is a segmentation together with the objective value it achieves.
type Result struct {
	Segments []structpred.Segment
	Score    float64
}

// CheckSegmentation reports whether segs is a segmentation of n tokens: its
// segments are non-empty, start at 0, follow each other without gaps and end
// at n, have labels in [0, k) and, if maxLen > 0, length at most maxLen
// (structpred.CheckSegmentation, its messages prefixed "semimarkov: ").
func CheckSegmentation(segs []structpred.Segment, n, k, maxLen int) error {
	if err := structpred.CheckSegmentation(segs, n, k, maxLen); err != nil {
		return fmt.Errorf("semimarkov: %w", err)
	}
	return nil
}

// Compare orders segmentations: segment by segment from the left, comparing
// Start, then Label, then End (for two segmentations of the same tokens the
// first difference is never in Start); a proper prefix comes first. Ties
// between equally scored segmentations go to the smaller one.
func Compare(a, b []structpred.Segment) int {
	for i := range min(len(a), len(b)) {
		if c := compareSeg(a[i], b[i]); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(a), len(b))
}

func compareSeg(a, b structpred.Segment) int {
	if c := cmp.Compare(a.Start, b.Start); c != 0 {
		return c
	}
	if c := cmp.Compare(a.Label, b.Label); c != 0 {
		return c
	}
	return cmp.Compare(a.End, b.End)
}

// SpanCount returns the number of spans [start, end) of n tokens with length
// 1..l: the number of PosLearn slack variables of one sequence.
func SpanCount(n, l int) int {
	return spanOffset(n, l, n)
}

// SpanIndex numbers the spans of n tokens with length 1..l densely from 0 to
// SpanCount(n, l)-1, ordered by start and then end. It panics if [start, end)
// is not such a span.
func SpanIndex(n, l, start, end int) int {
	if start < 0 || end > n || end-start < 1 || end-start > l {
		panic(fmt.Sprintf("semimarkov: SpanIndex of [%d, %d) with n=%d, l=%d", start, end, n, l))
	}
	return spanOffset(n, l, start) + end - start - 1
}

// spanOffset returns the number of spans starting before t: l for each start
// s ≤ n-l, and n-s for the later ones.
func spanOffset(n, l, t int) int {
	full := max(0, min(t, n-l+1)) // starts with all l lengths available
	rest := n - full              // spans of the remaining starts s = full..t-1 number n-s each
	tail := n - t
	return full*l + (rest*(rest+1)-tail*(tail+1))/2
}
