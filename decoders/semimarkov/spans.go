package semimarkov

import (
	"fmt"
	"math"

	"github.com/maxmargin/repro/structpred"
)

// SpanMarginals holds, for every segment (t, u, y) of length 1..L, the best
// score of a segmentation containing it, together with the forward and
// backward passes (Sarawagi & Gupta sec. 4.3.2's γ and β) and their
// back-pointers, which give that segmentation without decoding again. It is
// what PosLearn needs for segmentation, for about twice the cost of one
// Viterbi.
type SpanMarginals struct {
	N, K, L int

	best []float64 // laid out like Scores.Unary; -Inf past N
	fwd  []float64 // γ: fwd[i*K+y], i = 1..N
	bwd  []float64 // β: bwd[i*(K+1)+p], i = 0..N

	prev  []int32 // prev[t*K+y]: label before a segment labelled y starting at t > 0
	last  []int32 // last[i*K+y]: length of the last segment of γ(i, y)
	next  []int32 // next[i*(K+1)+p]: first label of β(i, p)'s suffix
	first []int32 // first[i*K+y]: length of a first segment labelled y at i
}

// ComputeSpanMarginals runs a forward and a backward pass over s in
// O(N·(L·K + K²)) time. The result owns its tables; the workspace only lends
// scratch space.
func ComputeSpanMarginals(s *Scores, ws *Workspace) *SpanMarginals {
	s.check()
	ws = ws.orNew()
	n, k, l := s.N, s.K, s.L
	trans := s.trans(ws)
	fl := make([]float64, n*l*k+(n+1)*k+(n+1)*(k+1)+n*k)
	in := make([]int32, n*k+(n+1)*k+n*(k+1)+n*k)
	m := &SpanMarginals{N: n, K: k, L: l}
	m.best, fl = fl[:n*l*k], fl[n*l*k:]
	m.fwd, fl = fl[:(n+1)*k], fl[(n+1)*k:]
	m.bwd, fl = fl[:(n+1)*(k+1)], fl[(n+1)*(k+1):]
	enter := fl // enter[t*K+y]: best score of tokens 0..t-1 plus the transition into y at t
	m.prev, in = in[:n*k], in[n*k:]
	m.last, in = in[:(n+1)*k], in[(n+1)*k:]
	m.next, m.first = in[:n*(k+1)], in[n*(k+1):]

	// Forward: enter(0, y) = Trans[START, y]; γ(i, y) = max over the last
	// segment's length of enter(i-len, y) + Unary; enter(t, y) = max over y'
	// of γ(t, y') + Trans[y', y]. Ties go to the shortest length and the
	// lowest previous label.
	for i := range k {
		m.fwd[i] = math.Inf(-1)
	}
	if n > 0 {
		copy(enter[:k], trans[k*k:])
	}
	for i := 1; i <= n; i++ {
		g, bp := m.fwd[i*k:(i+1)*k], m.last[i*k:(i+1)*k]
		for ln := 1; ln <= min(l, i); ln++ {
			t := i - ln
			e, u := enter[t*k:(t+1)*k], s.Unary[(t*l+ln-1)*k:][:k]
			for y := range g {
				if v := e[y] + u[y]; ln == 1 || v > g[y] {
					g[y], bp[y] = v, int32(ln)
				}
			}
		}
		if i == n {
			break
		}
		e, pp := enter[i*k:(i+1)*k], m.prev[i*k:(i+1)*k]
		for y := range k {
			e[y], pp[y] = g[0]+trans[y], 0
		}
		for p := 1; p < k; p++ {
			row := trans[p*k:][:k]
			for y := range k {
				if v := g[p] + row[y]; v > e[y] {
					e[y], pp[y] = v, int32(p)
				}
			}
		}
	}

	// Backward, as in Viterbi, but into the result's own tables.
	backward(n, k, l, s.Unary, trans, ws)
	copy(m.bwd, ws.b)
	copy(m.next, ws.next)
	copy(m.first, ws.first)

	for i := range m.best {
		m.best[i] = math.Inf(-1)
	}
	for t := range n {
		for ln := 1; ln <= min(l, n-t); ln++ {
			row := m.best[(t*l+ln-1)*k:][:k]
			e, u, b := enter[t*k:(t+1)*k], s.Unary[(t*l+ln-1)*k:][:k], m.bwd[(t+ln)*(k+1):][:k]
			for y := range row {
				row[y] = e[y] + u[y] + b[y]
			}
		}
	}
	return m
}

// Best returns the best score of a segmentation containing the segment
// [start, end) labelled label: max over y' of γ(start, y') + Seg(start, end,
// label, y') + β(end, label), with START before the first token. It panics
// if the segment does not fit N, K and L.
func (m *SpanMarginals) Best(start, end, label int) float64 {
	m.checkSeg(start, end, label)
	return m.best[(start*m.L+end-start-1)*m.K+label]
}

// Forward returns γ(i, y), the best score of a segmentation of tokens
// 0..i-1 whose last segment is labelled y, for 1 ≤ i ≤ N. It panics
// otherwise.
func (m *SpanMarginals) Forward(i, y int) float64 {
	if i < 1 || i > m.N || y < 0 || y >= m.K {
		panic(fmt.Sprintf("semimarkov: Forward(%d, %d) out of range for N=%d, K=%d", i, y, m.N, m.K))
	}
	return m.fwd[i*m.K+y]
}

// Backward returns β(i, p), the best score of a segmentation of tokens
// i..N-1 after a segment labelled p, for 0 ≤ i ≤ N and 0 ≤ p ≤ K, p = K
// meaning START (only meaningful at i = 0, where β(0, K) is the MAP score).
// It panics otherwise.
func (m *SpanMarginals) Backward(i, p int) float64 {
	if i < 0 || i > m.N || p < 0 || p > m.K {
		panic(fmt.Sprintf("semimarkov: Backward(%d, %d) out of range for N=%d, K=%d", i, p, m.N, m.K))
	}
	return m.bwd[i*(m.K+1)+p]
}

// Segmentation returns a segmentation containing the segment [start, end)
// labelled label whose score is Best(start, end, label) (up to rounding),
// read off the back-pointers. Among ties, the part after the segment is the
// smallest optimum in [Compare] order; the part before it is built from right
// to left, taking each time the lowest label and then the shortest length,
// i.e. it is the smallest optimum when its segments are read from the right,
// each compared by label and then length. It panics if the segment does not
// fit N, K and L.
func (m *SpanMarginals) Segmentation(start, end, label int) []structpred.Segment {
	m.checkSeg(start, end, label)
	k := m.K
	// Walk the pointers once to size the result, then again to fill it.
	before, after := 0, 0
	for t, y := start, label; t > 0; before++ {
		p := int(m.prev[t*k+y])
		t, y = t-int(m.last[t*k+p]), p
	}
	for i, p := end, label; i < m.N; after++ {
		y := int(m.next[i*(k+1)+p])
		i, p = i+int(m.first[i*k+y]), y
	}
	segs := make([]structpred.Segment, before+1+after)
	for t, y, j := start, label, before-1; t > 0; j-- {
		p := int(m.prev[t*k+y])
		b := t - int(m.last[t*k+p])
		segs[j] = structpred.Segment{Start: b, End: t, Label: p}
		t, y = b, p
	}
	segs[before] = structpred.Segment{Start: start, End: end, Label: label}
	for i, p, j := end, label, before+1; i < m.N; j++ {
		y := int(m.next[i*(k+1)+p])
		e := i + int(m.first[i*k+y])
		segs[j] = structpred.Segment{Start: i, End: e, Label: y}
		i, p = e, y
	}
	return segs
}

func (m *SpanMarginals) checkSeg(start, end, label int) {
	if start < 0 || end > m.N || end-start < 1 || end-start > m.L || label < 0 || label >= m.K {
		panic(fmt.Sprintf("semimarkov: segment [%d, %d) label %d out of range for N=%d, K=%d, L=%d",
			start, end, label, m.N, m.K, m.L))
	}
}

// SpanViolator is PosLearn's most violating segmentation for the slack
// variable of one span: the best segmentation that labels the span as a
// segment differently from the truth.
type SpanViolator struct {
	Index    int                  // SpanIndex(N, L, Segment.Start, Segment.End): the span's slack variable
	Segment  structpred.Segment   // the span with its wrong label
	Segments []structpred.Segment // Segmentation(Segment.Start, Segment.End, Segment.Label)
	Score    float64              // s(Segments), as Best(...)
	Loss     float64              // L_i(Segment), the span's position loss
	Value    float64              // Loss·(1 − s(y_i) + Score) > 0
}

// Violators returns, appended to dst in SpanIndex order, PosLearn's most
// violating constraint for every span (t, u) of length 1..L (sec. 4.3.2): the
// label y with (t, u, y) not a segment of truth that maximises
//
//	L_i((t, u, y)) · [1 − s(y_i) + Best(t, u, y)]_+
//
// with the lowest such label among ties. truthScore is s(y_i), normally
// s.Score(truth); it is a parameter because a truth with segments longer than
// L has no score in these tables but does have one under the features. Spans
// whose best value is not positive are omitted: they cannot be violated. It
// panics if truth is not a segmentation of the N tokens or loss.K != K.
func (m *SpanMarginals) Violators(truth []structpred.Segment, loss Loss, truthScore float64, dst []SpanViolator) []SpanViolator {
	checkLossShape(loss)
	if loss.K != m.K {
		panic(fmt.Sprintf("semimarkov: loss has K=%d, span marginals have K=%d", loss.K, m.K))
	}
	if err := CheckSegmentation(truth, m.N, m.K, 0); err != nil {
		panic("semimarkov: truth: " + err.Error())
	}
	n, k, l := m.N, m.K, m.L
	ws := new(Workspace)
	tab := lossTable(loss, truth, n, l, ws)
	lab, end := ws.tLabel, ws.tEnd
	idx := 0
	for t := range n {
		for ln := 1; ln <= min(l, n-t); ln++ {
			at := (t*l + ln - 1) * k
			by, bv := -1, 0.0
			for y := range k {
				if int(end[t]) == t+ln && int(lab[t]) == y {
					continue // (t, u, y) is a true segment
				}
				if v := tab[at+y] * (1 - truthScore + m.best[at+y]); v > bv {
					by, bv = y, v
				}
			}
			if by >= 0 {
				dst = append(dst, SpanViolator{
					Index:    idx,
					Segment:  structpred.Segment{Start: t, End: t + ln, Label: by},
					Segments: m.Segmentation(t, t+ln, by),
					Score:    m.best[at+by],
					Loss:     tab[at+by],
					Value:    bv,
				})
			}
			idx++
		}
	}
	return dst
}
