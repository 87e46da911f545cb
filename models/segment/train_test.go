package segment

import (
	"context"
	"math/rand/v2"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// separableData draws instances whose segmentation follows from the
// attributes: neighbouring segments have different labels, every token
// carries the attribute naming its segment's label, and half the tokens
// carry a noise attribute that says nothing.
func separableData(rng *rand.Rand, count, k, maxSeg int) []Instance {
	const noise = 3
	var data []Instance
	for range count {
		var x Instance
		n := 2 + rng.IntN(6)
		for t, prev := 0, -1; t < n; {
			c := rng.IntN(k)
			if c == prev {
				c = (c + 1) % k
			}
			u := min(n, t+1+rng.IntN(maxSeg))
			for range u - t {
				attrs := []int32{int32(c)}
				if rng.IntN(2) == 0 {
					attrs = append(attrs, int32(k+rng.IntN(noise)))
				}
				x.Attrs = append(x.Attrs, attrs)
			}
			x.Segments = append(x.Segments, structpred.Segment{Start: t, End: u, Label: c})
			t, prev = u, c
		}
		data = append(data, x)
	}
	return data
}

// Every cutting-plane trainer separates a small segmentation problem whose
// truth follows from the attributes, so a perfect w exists.
func TestTrainersSeparateSegmentations(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	const k = 3
	data := separableData(rng, 15, k, 3)
	maxLen, err := MaxSegmentLength(data, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if maxLen != 3 {
		t.Fatalf("MaxSegmentLength = %d, want 3", maxLen)
	}
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		m, err := New(data, k+3, k, maxLen, true, semimarkov.Loss{})
		if err != nil {
			t.Fatal(err)
		}
		if m.LongSegments() != 0 {
			t.Fatalf("LongSegments = %d with L = the longest segment", m.LongSegments())
		}
		sep, err := trainers.NewSeparator[[]structpred.Segment](trainer, m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		res, err := trainers.CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, trainers.Settings{C: 100, Epsilon: 1e-3})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Converged || res.Gap < -1e-9 {
			t.Errorf("%s: converged=%v gap=%v", trainer, res.Converged, res.Gap)
		}
		for i, x := range data {
			if got := m.Predict(x, res.W); semimarkov.Compare(got, x.Segments) != 0 {
				t.Errorf("%s: instance %d: predicted %v, want %v", trainer, i, got, x.Segments)
			}
		}
		t.Logf("%s: %d iterations, %d constraints", trainer, res.Iterations, res.Constraints)
	}
}
