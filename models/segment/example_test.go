package segment_test

import (
	"context"
	"fmt"
	"math"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Train a segmentation model with margin scaling on three author–title
// fragments and segment a new one. Attribute 0 marks a name, 1 an ordinary
// word and 2 a token ending in a period.
func Example() {
	const (
		author, title      = 0, 1
		name, word, period = 0, 1, 2
	)
	seg := func(start, end, label int) structpred.Segment {
		return structpred.Segment{Start: start, End: end, Label: label}
	}
	train := []segment.Instance{
		{Attrs: [][]int32{{name}, {name, period}, {word}, {word}}, Segments: []structpred.Segment{seg(0, 2, author), seg(2, 4, title)}},
		{Attrs: [][]int32{{name, period}, {word}, {word}, {word}}, Segments: []structpred.Segment{seg(0, 1, author), seg(1, 4, title)}},
		{Attrs: [][]int32{{name}, {name}, {name, period}, {word}}, Segments: []structpred.Segment{seg(0, 3, author), seg(3, 4, title)}},
	}
	maxLen, err := segment.MaxSegmentLength(train, 1, 0) // the longest training segment
	if err != nil {
		panic(err)
	}
	m, err := segment.New(train, 3, 2, maxLen, true, semimarkov.Loss{})
	if err != nil {
		panic(err)
	}
	sep, err := trainers.NewSeparator[[]structpred.Segment](trainers.Margin, m, 0.01)
	if err != nil {
		panic(err)
	}
	res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, trainers.Settings{C: 10})
	if err != nil {
		panic(err)
	}
	x := segment.Instance{Attrs: [][]int32{{name}, {name, period}, {word}, {word}, {word}}}
	y := m.Predict(x, res.W)
	fmt.Println("L =", maxLen, "long training segments:", m.LongSegments())
	fmt.Println(y)
	fmt.Println(segment.TokenLabels(y, len(x.Attrs)))
	// Output:
	// L = 3 long training segments: 0
	// [{0 2 0} {2 5 1}]
	// [0 0 1 1 1]
}

// With w = 0 every segmentation of two tokens into segments of up to two
// tokens over two labels scores 0: there are six of them, so the CRF loss is
// log 6; with the loss added and β = 10 it approaches the largest loss, 3.
func ExampleModel_LogLoss() {
	data := []segment.Instance{{Attrs: [][]int32{{0}, {1}}, Segments: []structpred.Segment{{Start: 0, End: 2, Label: 0}}}}
	m, err := segment.New(data, 2, 2, 2, true, semimarkov.Loss{})
	if err != nil {
		panic(err)
	}
	w := make([]float64, m.Dim())
	grad := make([]float64, m.Dim())
	fmt.Printf("crf: %.6f (log 6 = %.6f)\n", m.LogLoss(0, w, 1, 0, grad), math.Log(6))
	fmt.Printf("entropy-margin, β = 10: %.6f\n", m.LogLoss(0, w, 10, 1, nil))
	// The weight of attribute 0 inside a segment labelled 0 (the truth):
	// P(token 0 is labelled 0) − 1 = 3/6 − 1.
	fmt.Printf("grad[0]: %.2f\n", grad[0])
	// Output:
	// crf: 1.791759 (log 6 = 1.791759)
	// entropy-margin, β = 10: 3.138629
	// grad[0]: -0.50
}

// MIRA's oracle at w = 0 with the loss added: the four segmentations into
// two one-token segments tie at the largest loss (two wrong segments and the
// missed true one), and ties are listed in semimarkov.Compare order.
func ExampleModel_KBest() {
	data := []segment.Instance{{Attrs: [][]int32{{0}, {1}}, Segments: []structpred.Segment{{Start: 0, End: 2, Label: 0}}}}
	m, err := segment.New(data, 2, 2, 2, true, semimarkov.Loss{})
	if err != nil {
		panic(err)
	}
	w := make([]float64, m.Dim())
	for _, y := range m.KBest(0, w, 1, 3) {
		fmt.Println(y, m.Loss(0, y))
	}
	// Output:
	// [{0 1 0} {1 2 0}] 3
	// [{0 1 0} {1 2 1}] 3
	// [{0 1 1} {1 2 0}] 3
}
