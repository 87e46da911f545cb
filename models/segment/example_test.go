package segment_test

import (
	"context"
	"fmt"

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
