package semimarkov_test

import (
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// benchProblem is Cora-sized: citations of about 30 tokens, 13 fields, and
// segments of up to 6 tokens.
func benchProblem(b *testing.B) (*semimarkov.Scores, []structpred.Segment, semimarkov.Loss, *semimarkov.Workspace) {
	const n, k, l = 30, 13, 6
	rng := newRand(1)
	s := randScores(rng, floatScores, n, k, l)
	truth := randTruth(rng, n, k, l)
	b.ReportAllocs()
	return s, truth, semimarkov.DefaultLoss(k), new(semimarkov.Workspace)
}

func BenchmarkViterbi(b *testing.B) {
	s, _, _, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.Viterbi(s, ws)
	}
}

func BenchmarkLossAugmented(b *testing.B) {
	s, truth, loss, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.LossAugmented(s, truth, loss, 1, ws)
	}
}

func BenchmarkBestExcluding(b *testing.B) {
	s, truth, loss, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.BestExcluding(s, truth, loss, 1, ws)
	}
}

func BenchmarkLossCount(b *testing.B) {
	s, truth, loss, ws := benchProblem(b)
	for b.Loop() {
		if _, err := semimarkov.LossCount(s, truth, loss, ws); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkComputeSpanMarginals(b *testing.B) {
	s, _, _, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.ComputeSpanMarginals(s, ws)
	}
}

// BenchmarkViolators is PosLearn's whole oracle for one sequence: span
// marginals plus one violator per span.
func BenchmarkViolators(b *testing.B) {
	s, truth, loss, ws := benchProblem(b)
	ts := s.Score(truth)
	var dst []semimarkov.SpanViolator
	for b.Loop() {
		dst = semimarkov.ComputeSpanMarginals(s, ws).Violators(truth, loss, ts, dst[:0])
	}
}

// BenchmarkKBest5 is k-best MIRA's oracle with its usual k; compare with
// BenchmarkViterbi (k = 1 costs about one Viterbi pass plus the list
// bookkeeping).
func BenchmarkKBest5(b *testing.B) {
	s, _, _, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.KBest(s, 5, ws)
	}
}

func BenchmarkLossAugmentedKBest5(b *testing.B) {
	s, truth, loss, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.LossAugmentedKBest(s, truth, loss, 1, 5, ws)
	}
}

// BenchmarkForwardBackward is the CRF gradient's inference step: the same
// O(N·(L·K + K²)) passes as Viterbi, but with an exp per term.
func BenchmarkForwardBackward(b *testing.B) {
	s, _, _, ws := benchProblem(b)
	for b.Loop() {
		semimarkov.ForwardBackward(s, ws)
	}
}
