package semimarkov_test

import (
	"fmt"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
)

// exampleScores is a 4-token citation fragment over labels 0 (author) and
// 1 (title) with segments of up to 3 tokens: an author over [0, 2) then a
// title over [2, 4) scores 0.5+3 + 1+2 = 6.5, narrowly beating a one-token
// author followed by a three-token title (0.5+0 + 1+4.5 = 6).
func exampleScores() *semimarkov.Scores {
	s := semimarkov.NewScores(4, 2, 3)
	s.Unary[s.Index(0, 2, 0)] = 3
	s.Unary[s.Index(2, 4, 1)] = 2
	s.Unary[s.Index(1, 4, 1)] = 4.5
	s.Trans[2*2+0] = 0.5 // START → author
	s.Trans[0*2+1] = 1   // author → title
	s.Trans[1*2+1] = -1  // title → title
	return s
}

var exampleTruth = []structpred.Segment{{Start: 0, End: 2, Label: 0}, {Start: 2, End: 4, Label: 1}}

func ExampleViterbi() {
	best := semimarkov.Viterbi(exampleScores(), nil)
	fmt.Println(best.Segments, best.Score)
	// Output: [{0 2 0} {2 4 1}] 6.5
}

func ExampleLossAugmented() {
	// Margin scaling: every unit of segment loss is worth one point, and
	// the runner-up has loss 4 (p+r for each of its two segments).
	y := semimarkov.LossAugmented(exampleScores(), exampleTruth, semimarkov.DefaultLoss(2), 1, nil)
	fmt.Println(y.Segments, y.Score)
	// Output: [{0 1 0} {1 4 1}] 10
}

func ExampleBestExcluding() {
	y, ok := semimarkov.BestExcluding(exampleScores(), exampleTruth, semimarkov.DefaultLoss(2), 0, nil)
	fmt.Println(y.Segments, y.Score, ok)
	// Output: [{0 1 0} {1 4 1}] 6 true
}

func ExampleLossCount() {
	// Exact slack scaling: the best segmentation for each loss value. Four
	// one-token segments against two true segments give the maximum, 4+2.
	best, err := semimarkov.LossCount(exampleScores(), exampleTruth, semimarkov.DefaultLoss(2), nil)
	if err != nil {
		panic(err)
	}
	for loss, r := range best {
		fmt.Println(loss, r.Segments, r.Score)
	}
	// Output:
	// 0 [{0 2 0} {2 4 1}] 6.5
	// 1 [{0 2 0} {2 4 0}] 3.5
	// 2 [{0 2 1} {2 4 0}] 0
	// 3 [{0 2 0} {2 3 0} {3 4 1}] 4.5
	// 4 [{0 1 0} {1 4 1}] 6
	// 5 [{0 1 0} {1 3 0} {3 4 1}] 1.5
	// 6 [{0 1 0} {1 2 1} {2 3 0} {3 4 1}] 2.5
}

func ExampleComputeSpanMarginals() {
	m := semimarkov.ComputeSpanMarginals(exampleScores(), nil)
	fmt.Println("MAP", m.Backward(0, 2))
	// The best segmentations with [1, 4) as one segment, for each label:
	for y := range 2 {
		fmt.Println(y, m.Best(1, 4, y), m.Segmentation(1, 4, y))
	}
	// Output:
	// MAP 6.5
	// 0 0.5 [{0 1 0} {1 4 0}]
	// 1 6 [{0 1 0} {1 4 1}]
}

func ExampleSpanMarginals_Violators() {
	s := exampleScores()
	m := semimarkov.ComputeSpanMarginals(s, nil)
	// PosLearn: one most violating segmentation per span whose constraint
	// L·(1 − s(y_i) + s(y)) > 0 is violated at all.
	for _, v := range m.Violators(exampleTruth, semimarkov.DefaultLoss(2), s.Score(exampleTruth), nil) {
		fmt.Println(v.Index, v.Segment, v.Segments, v.Score, v.Loss, v.Value)
	}
	// Output:
	// 0 {0 1 0} [{0 1 0} {1 4 1}] 6 2 1
	// 5 {1 4 1} [{0 1 0} {1 4 1}] 6 2 1
}

func ExampleKBest() {
	for _, r := range semimarkov.KBest(exampleScores(), 3, nil) {
		fmt.Println(r.Segments, r.Score)
	}
	// Output:
	// [{0 2 0} {2 4 1}] 6.5
	// [{0 1 0} {1 4 1}] 6
	// [{0 2 0} {2 3 0} {3 4 1}] 4.5
}

func ExampleLossAugmentedKBest() {
	// With the loss added, the truth (6.5, loss 0) drops out of the top 3,
	// overtaken by fine segmentations that share no segment with it (loss 6).
	for _, r := range semimarkov.LossAugmentedKBest(exampleScores(), exampleTruth, semimarkov.DefaultLoss(2), 1, 3, nil) {
		fmt.Println(r.Segments, r.Score)
	}
	// Output:
	// [{0 1 0} {1 4 1}] 10
	// [{0 1 0} {1 2 1} {2 3 0} {3 4 1}] 8.5
	// [{0 1 0} {1 2 0} {2 3 0} {3 4 1}] 7.5
}

func ExampleForwardBackward() {
	s := exampleScores()
	p := semimarkov.ForwardBackward(s, nil)
	fmt.Printf("log Z = %.4f\n", p.LogZ)
	fmt.Printf("P(author [0,2)) = %.4f\n", p.Segment[s.Index(0, 2, 0)])
	fmt.Printf("P(title [1,4)) = %.4f\n", p.Segment[s.Index(1, 4, 1)])
	// Row START of Trans is the distribution of the first label.
	fmt.Printf("P(first segment is an author) = %.4f\n", p.Trans[2*2+0])
	// Output:
	// log Z = 7.3328
	// P(author [0,2)) = 0.6175
	// P(title [1,4)) = 0.2854
	// P(first segment is an author) = 0.9483
}

func ExampleLossAugmentedForwardBackward() {
	// The tempered, loss-augmented distribution of the entropy-and-margin
	// loss, p(y) ∝ exp(β(s(y) + L(y))): scale the scores and the loss by β.
	// (1/β) log Z is close to the loss-augmented MAP value, 10.
	const beta = 4
	s := exampleScores()
	for i := range s.Unary {
		s.Unary[i] *= beta
	}
	for i := range s.Trans {
		s.Trans[i] *= beta
	}
	p := semimarkov.LossAugmentedForwardBackward(s, exampleTruth, semimarkov.DefaultLoss(2), beta, nil)
	fmt.Printf("(1/β) log Z = %.4f\n", p.LogZ/beta)
	fmt.Printf("P(title [1,4)) = %.4f\n", p.Segment[s.Index(1, 4, 1)])
	// Output:
	// (1/β) log Z = 10.0007
	// P(title [1,4)) = 0.9973
}
