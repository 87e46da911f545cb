package segment

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/semimarkov"
	"github.com/maxmargin/repro/decoders/semimarkov/bruteforce"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// tol is the absolute-or-relative tolerance of float comparisons.
const tol = 1e-9

func approx(a, b float64) bool {
	d := math.Abs(a - b)
	return a == b || d <= tol || d <= tol*max(math.Abs(a), math.Abs(b))
}

// randomSegmentation cuts n tokens into segments of length 1..maxSeg with
// random labels below k.
func randomSegmentation(rng *rand.Rand, n, k, maxSeg int) []structpred.Segment {
	segs := []structpred.Segment{}
	for t := 0; t < n; {
		u := min(n, t+1+rng.IntN(maxSeg))
		segs = append(segs, structpred.Segment{Start: t, End: u, Label: rng.IntN(k)})
		t = u
	}
	return segs
}

// randomInstance has n tokens, each with a random subset of attrs attribute
// ids (possibly none), and a random truth with segments up to maxSeg long.
func randomInstance(rng *rand.Rand, n, k, attrs, maxSeg int) Instance {
	x := Instance{Attrs: make([][]int32, n), Segments: randomSegmentation(rng, n, k, maxSeg)}
	for p := range n {
		for a := range int32(attrs) {
			if rng.IntN(2) == 0 {
				x.Attrs[p] = append(x.Attrs[p], a)
			}
		}
	}
	return x
}

// denseFeatures is f(x, y) written out literally from the table in the
// package doc, with A attributes, K labels and its own offsets.
func denseFeatures(m *Model, x Instance, y []structpred.Segment) []float64 {
	A, K, n := m.attrs, m.k, len(x.Attrs)
	f := make([]float64, m.Dim())
	prev := K
	for _, g := range y {
		t, u, c := g.Start, g.End, g.Label
		for p := t; p < u; p++ {
			for _, a := range x.Attrs[p] {
				f[(int(a)*5+0)*K+c]++ // inside
			}
		}
		for _, a := range x.Attrs[t] {
			f[(int(a)*5+1)*K+c]++ // first
		}
		for _, a := range x.Attrs[u-1] {
			f[(int(a)*5+2)*K+c]++ // last
		}
		if t > 0 {
			for _, a := range x.Attrs[t-1] {
				f[(int(a)*5+3)*K+c]++ // before
			}
		} else {
			f[5*A*K+c]++ // BOS
		}
		if u < n {
			for _, a := range x.Attrs[u] {
				f[(int(a)*5+4)*K+c]++ // after
			}
		} else {
			f[5*A*K+K+c]++ // EOS
		}
		f[5*A*K+2*K+(min(u-t, 10)-1)*K+c]++ // length
		if m.edges {
			f[5*A*K+12*K+prev*K+c]++ // edge
		}
		prev = c
	}
	return f
}

// sg is a segment literal.
func sg(start, end, label int) structpred.Segment {
	return structpred.Segment{Start: start, End: end, Label: label}
}

func dot(a, b []float64) float64 {
	var s float64
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// lossFor returns a loss over k labels: "default" (unit penalties),
// "integer" (penalties 0..2, so zero-loss segmentations ≠ y_i can exist) or
// "real" (non-integer penalties).
func lossFor(rng *rand.Rand, name string, k int) semimarkov.Loss {
	l := semimarkov.DefaultLoss(k)
	draw := func() float64 {
		switch name {
		case "integer":
			return float64(rng.IntN(3))
		case "real":
			return 0.25 + rng.Float64()
		}
		return 1
	}
	for c := range k {
		l.Precision[c], l.Recall[c] = draw(), draw()
		for d := range k {
			if c != d {
				l.Misclass[c*k+d] = draw()
			}
		}
	}
	return l
}

type shape struct {
	n, k, l int
	edges   bool
	loss    string
	maxSeg  int // longest true segment; > l tests the long-segment policy
}

var shapes = []shape{
	{0, 2, 2, true, "default", 1},
	{1, 3, 1, true, "default", 1},
	{3, 2, 2, true, "default", 2},
	{4, 3, 3, true, "integer", 3},
	{5, 2, 3, false, "default", 3},
	{5, 3, 2, true, "real", 2},
	{6, 2, 3, true, "integer", 3},
	{6, 3, 2, true, "default", 4},  // true segments up to 4 > L = 2
	{5, 2, 1, false, "integer", 3}, // L = 1: a linear chain
	{4, 1, 2, true, "default", 3},
}

// randomModel builds a model over 2 random instances of shape s and a random
// Gaussian weight vector.
func randomModel(t *testing.T, rng *rand.Rand, s shape) (*Model, []float64) {
	t.Helper()
	const attrs = 4
	data := []Instance{randomInstance(rng, s.n, s.k, attrs, s.maxSeg), randomInstance(rng, s.n, s.k, attrs, s.maxSeg)}
	m, err := New(data, attrs, s.k, s.l, s.edges, lossFor(rng, s.loss, s.k))
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	return m, w
}

func TestFeaturesScoreAndDelta(t *testing.T) {
	t.Parallel()
	for seed := range uint64(10) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*100+s.k*10+s.l)))
			m, w := randomModel(t, rng, s)
			for i := range m.Len() {
				x := m.data[i]
				truthF := denseFeatures(m, x, x.Segments)
				if got, want := m.Score(i, w, x.Segments), dot(w, truthF); !approx(got, want) {
					t.Fatalf("%+v: Score(truth) = %v, want w·f = %v", s, got, want)
				}
				sc := m.scores(x, w)
				for _, y := range bruteforce.Segmentations(s.n, s.k, s.l) {
					yf := denseFeatures(m, x, y)
					got := m.Score(i, w, y)
					if want := dot(w, yf); !approx(got, want) {
						t.Fatalf("%+v: Score(%v) = %v, want w·f = %v", s, y, got, want)
					}
					// Score and the tables add the same numbers in the same order.
					if tab := sc.Score(y); tab != got {
						t.Fatalf("%+v: tables score %v as %v, Score gives %v", s, y, tab, got)
					}
					d := m.DeltaFeatures(i, y)
					if !slices.IsSorted(d.Idx) {
						t.Fatalf("δf indices not sorted: %v", d.Idx)
					}
					dense := make([]float64, m.Dim())
					d.AddTo(dense, 1)
					for j := range dense {
						if dense[j] != truthF[j]-yf[j] {
							t.Fatalf("%+v: y=%v δf[%d] = %v, want %v", s, y, j, dense[j], truthF[j]-yf[j])
						}
					}
				}
			}
		}
	}
}

func TestOraclesAgainstBruteForce(t *testing.T) {
	t.Parallel()
	for seed := range uint64(10) {
		for _, s := range shapes {
			rng := rand.New(rand.NewPCG(seed, uint64(s.n*100+s.k*10+s.l)+7))
			m, w := randomModel(t, rng, s)
			for i := range m.Len() {
				x := m.data[i]
				name := fmt.Sprintf("seed=%d %+v instance %d truth %v", seed, s, i, x.Segments)
				score := func(y []structpred.Segment) float64 { return dot(w, denseFeatures(m, x, y)) }
				loss := func(y []structpred.Segment) float64 { return m.loss.Of(x.Segments, y) }
				if got := m.Loss(i, x.Segments); got != 0 {
					t.Fatalf("%s: Loss(truth) = %v", name, got)
				}

				want, _ := bruteforce.Best(s.n, s.k, s.l, score, nil)
				got := m.Predict(x, w)
				if !approx(score(got), want.Score) || semimarkov.CheckSegmentation(got, s.n, s.k, s.l) != nil {
					t.Fatalf("%s: Predict = %v scoring %v, want %v", name, got, score(got), want.Score)
				}

				for _, scale := range []float64{1, 0.5} {
					obj := func(y []structpred.Segment) float64 { return score(y) + scale*loss(y) }
					want, _ = bruteforce.Best(s.n, s.k, s.l, obj, nil)
					got = m.LossAugmented(i, w, scale)
					if !approx(obj(got), want.Score) {
						t.Fatalf("%s: LossAugmented(%v) = %v value %v, want %v", name, scale, got, obj(got), want.Score)
					}
					want, ok := bruteforce.Best(s.n, s.k, s.l, obj, func(y []structpred.Segment) bool {
						return semimarkov.Compare(y, x.Segments) != 0
					})
					got, gotOK := m.BestExcluding(i, w, scale)
					if ok != gotOK || ok && (semimarkov.Compare(got, x.Segments) == 0 || !approx(obj(got), want.Score)) {
						t.Fatalf("%s: BestExcluding(%v) = %v, %v value %v; want %v, %v", name, scale, got, gotOK, obj(got), want, ok)
					}
				}

				if s.loss == "real" {
					if err := m.CanCountLoss(); err == nil {
						t.Fatalf("%s: CanCountLoss accepts a non-integer loss", name)
					}
				} else {
					checkBestPerLoss(t, name, m, i, w, score, loss)
				}
				checkPositionViolators(t, name, m, i, w, score)
				checkLossRange(t, name, m, i, loss)
			}
		}
	}
}

func checkBestPerLoss(t *testing.T, name string, m *Model, i int, w []float64, score, loss func([]structpred.Segment) float64) {
	t.Helper()
	if err := m.CanCountLoss(); err != nil {
		t.Fatalf("%s: CanCountLoss: %v", name, err)
	}
	ys, scores, err := m.BestPerLoss(i, w)
	if err != nil {
		t.Fatal(err)
	}
	x := m.data[i]
	best := map[int]float64{}
	for _, y := range bruteforce.Segmentations(len(x.Attrs), m.k, m.maxLen) {
		l := int(loss(y))
		if v, seen := best[l]; !seen || score(y) > v {
			best[l] = score(y)
		}
	}
	for l := range ys {
		want, exists := best[l]
		if found := !math.IsInf(scores[l], -1); found != exists {
			t.Fatalf("%s: loss %d: found = %v (score %v), brute force %v", name, l, found, scores[l], exists)
		}
		if exists && (int(loss(ys[l])) != l || !approx(score(ys[l]), want)) {
			t.Fatalf("%s: loss %d: %v has loss %v score %v, want score %v", name, l, ys[l], loss(ys[l]), score(ys[l]), want)
		}
		// The reported score is the segmentation's own, exactly as Score
		// computes it (the slack oracle relies on this instead of rescoring).
		if exists && scores[l] != m.Score(i, w, ys[l]) {
			t.Fatalf("%s: loss %d: reported score %v, Score gives %v", name, l, scores[l], m.Score(i, w, ys[l]))
		}
	}
	for l := range best {
		if l >= len(ys) {
			t.Fatalf("%s: brute force reaches loss %d, BestPerLoss stops at %d", name, l, len(ys)-1)
		}
	}
}

// checkPositionViolators compares, per span (t, u), the reported violator
// with the brute-force max over segmentations containing a segment (t, u, c)
// not in the truth of L((t, u, c))·[1 − s(y_i) + s(y)]_+.
func checkPositionViolators(t *testing.T, name string, m *Model, i int, w []float64, score func([]structpred.Segment) float64) {
	t.Helper()
	x := m.data[i]
	n, l := len(x.Attrs), m.maxLen
	if got, want := m.Positions(i), semimarkov.SpanCount(n, l); got != want {
		t.Fatalf("%s: Positions = %d, want %d", name, got, want)
	}
	inTruth := func(g structpred.Segment) bool { return slices.Contains(x.Segments, g) }
	truth := score(x.Segments)
	best := make([]float64, m.Positions(i))
	for _, y := range bruteforce.Segmentations(n, m.k, l) {
		v := 1 - truth + score(y)
		for _, g := range y {
			if !inTruth(g) {
				j := semimarkov.SpanIndex(n, l, g.Start, g.End)
				best[j] = max(best[j], m.loss.Segment(x.Segments, g)*v)
			}
		}
	}
	got := m.PositionViolators(i, w, nil)
	byPos := map[int]trainers.PositionViolator[[]structpred.Segment]{}
	for _, v := range got {
		if _, dup := byPos[v.Position]; dup || v.Position < 0 || v.Position >= len(best) {
			t.Fatalf("%s: bad or repeated position %d", name, v.Position)
		}
		byPos[v.Position] = v
	}
	for j, want := range best {
		v, found := byPos[j]
		if want <= tol {
			if found && v.Loss*(1-truth+v.Score) > tol {
				t.Fatalf("%s: span %d: violator %v reported, brute-force best %v", name, j, v.Y, want)
			}
			continue
		}
		if !found {
			t.Fatalf("%s: span %d: no violator, brute force finds %v", name, j, want)
		}
		// v.Y must hold a wrong segment on span j, whose loss v.Loss is.
		var seg *structpred.Segment
		for k, g := range v.Y {
			if semimarkov.SpanIndex(n, l, g.Start, g.End) == j && !inTruth(g) {
				seg = &v.Y[k]
			}
		}
		if seg == nil || v.Loss != m.loss.Segment(x.Segments, *seg) {
			t.Fatalf("%s: span %d: violator %v has no wrong segment there with loss %v", name, j, v.Y, v.Loss)
		}
		if !approx(v.Score, score(v.Y)) || !approx(v.Loss*(1-truth+v.Score), want) {
			t.Fatalf("%s: span %d: violator %v value %v, want %v", name, j, v.Y, v.Loss*(1-truth+v.Score), want)
		}
	}
}

func checkLossRange(t *testing.T, name string, m *Model, i int, loss func([]structpred.Segment) float64) {
	t.Helper()
	lmin, lmax := m.LossRange(i)
	x := m.data[i]
	var want float64
	for _, y := range bruteforce.Segmentations(len(x.Attrs), m.k, m.maxLen) {
		v := loss(y)
		want = max(want, v)
		if v > 0 && v < lmin-tol {
			t.Fatalf("%s: loss %v of %v below LossRange's lmin %v", name, v, y, lmin)
		}
	}
	if !approx(lmax, want) {
		t.Fatalf("%s: LossRange lmax = %v, want %v", name, lmax, want)
	}
}

// A truth with segments longer than L is kept whole: Truth, Score and δf
// use it, LongSegments counts it, and no decoder outputs a long segment.
func TestLongSegments(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	x := randomInstance(rng, 7, 2, 3, 1)
	x.Segments = []structpred.Segment{{Start: 0, End: 5, Label: 1}, {Start: 5, End: 6, Label: 0}, {Start: 6, End: 7, Label: 1}}
	y := randomInstance(rng, 6, 2, 3, 1)
	y.Segments = []structpred.Segment{{Start: 0, End: 4, Label: 0}, {Start: 4, End: 6, Label: 1}}
	data := []Instance{x, y}
	tests := []struct {
		maxLen, long int
	}{{1, 3}, {2, 2}, {3, 2}, {4, 1}, {5, 0}}
	for _, tt := range tests {
		m, err := New(data, 3, 2, tt.maxLen, true, semimarkov.Loss{})
		if err != nil {
			t.Fatal(err)
		}
		if got := m.LongSegments(); got != tt.long {
			t.Errorf("L=%d: LongSegments = %d, want %d", tt.maxLen, got, tt.long)
		}
		w := make([]float64, m.Dim())
		for j := range w {
			w[j] = rng.NormFloat64()
		}
		for i := range data {
			if !slices.Equal(m.Truth(i), data[i].Segments) {
				t.Errorf("L=%d: Truth(%d) = %v, want %v", tt.maxLen, i, m.Truth(i), data[i].Segments)
			}
			if got, want := m.Score(i, w, m.Truth(i)), dot(w, denseFeatures(m, data[i], data[i].Segments)); !approx(got, want) {
				t.Errorf("L=%d: Score(truth) = %v, want %v", tt.maxLen, got, want)
			}
			n := len(data[i].Attrs)
			outs := [][]structpred.Segment{m.Predict(data[i], w), m.LossAugmented(i, w, 1)}
			if y, ok := m.BestExcluding(i, w, 1); ok {
				outs = append(outs, y)
			}
			ys, scores, err := m.BestPerLoss(i, w)
			if err != nil {
				t.Fatal(err)
			}
			for v, y := range ys {
				if !math.IsInf(scores[v], -1) {
					outs = append(outs, y)
				}
			}
			for _, v := range m.PositionViolators(i, w, nil) {
				outs = append(outs, v.Y)
			}
			for _, y := range outs {
				if err := semimarkov.CheckSegmentation(y, n, 2, tt.maxLen); err != nil {
					t.Errorf("L=%d: decoded %v: %v", tt.maxLen, y, err)
				}
			}
		}
	}
}

func TestMaxSegmentLength(t *testing.T) {
	t.Parallel()
	seg := func(lens ...int) Instance {
		var x Instance
		for _, l := range lens {
			s := 0
			if n := len(x.Segments); n > 0 {
				s = x.Segments[n-1].End
			}
			x.Segments = append(x.Segments, structpred.Segment{Start: s, End: s + l})
		}
		return x
	}
	data := []Instance{seg(1, 5, 2), seg(3), seg(1)} // lengths 1 1 2 3 5
	tests := []struct {
		name     string
		data     []Instance
		quantile float64
		limit    int
		want     int
		wantErr  bool
	}{
		{"longest", data, 1, 0, 5, false},
		{"80%", data, 0.8, 0, 3, false},
		{"60% exactly", data, 0.6, 0, 2, false},
		{"50%", data, 0.5, 0, 2, false},
		{"tiny quantile", data, 0.01, 0, 1, false},
		{"capped", data, 1, 4, 4, false},
		{"cap above", data, 1, 9, 5, false},
		{"no segments", []Instance{{}}, 1, 0, 1, false},
		{"no data capped", nil, 0.9, 3, 1, false},
		{"zero quantile", data, 0, 0, 0, true},
		{"above one", data, 1.5, 0, 0, true},
		{"NaN", data, math.NaN(), 0, 0, true},
	}
	for _, tt := range tests {
		got, err := MaxSegmentLength(tt.data, tt.quantile, tt.limit)
		if (err != nil) != tt.wantErr || got != tt.want {
			t.Errorf("%s: MaxSegmentLength = %d, %v; want %d, error %v", tt.name, got, err, tt.want, tt.wantErr)
		}
	}
}

func TestTokenLabels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		segs []structpred.Segment
		n    int
		want []int
	}{
		{nil, 0, []int{}},
		{[]structpred.Segment{sg(0, 2, 1), sg(2, 3, 0)}, 3, []int{1, 1, 0}},
		{[]structpred.Segment{sg(0, 1, 2), sg(1, 4, 1)}, 4, []int{2, 1, 1, 1}},
		{[]structpred.Segment{sg(1, 2, 0)}, 3, []int{-1, 0, -1}},
		{[]structpred.Segment{sg(0, 5, 1)}, 2, []int{1, 1}},
	}
	for _, tt := range tests {
		if got := TokenLabels(tt.segs, tt.n); !slices.Equal(got, tt.want) {
			t.Errorf("TokenLabels(%v, %d) = %v, want %v", tt.segs, tt.n, got, tt.want)
		}
	}
}

func TestNewRejectsBadInput(t *testing.T) {
	t.Parallel()
	good := []Instance{{Attrs: [][]int32{{0}, {1}}, Segments: []structpred.Segment{sg(0, 2, 1)}}}
	negative := semimarkov.DefaultLoss(2)
	negative.Precision[0] = -1
	tests := []struct {
		name   string
		data   []Instance
		attrs  int
		k, l   int
		loss   semimarkov.Loss
		accept bool
	}{
		{"good", good, 2, 2, 1, semimarkov.Loss{}, true},
		{"label out of range", good, 2, 1, 2, semimarkov.Loss{}, false},
		{"gap", []Instance{{Attrs: [][]int32{{0}, {0}}, Segments: []structpred.Segment{sg(0, 1, 0)}}}, 1, 1, 2, semimarkov.Loss{}, false},
		{"past the end", []Instance{{Attrs: [][]int32{{0}}, Segments: []structpred.Segment{sg(0, 2, 0)}}}, 1, 1, 2, semimarkov.Loss{}, false},
		{"attribute out of range", good, 1, 2, 2, semimarkov.Loss{}, false},
		{"no labels", nil, 1, 0, 2, semimarkov.Loss{}, false},
		{"zero max length", good, 2, 2, 0, semimarkov.Loss{}, false},
		{"loss for other K", good, 2, 2, 2, semimarkov.DefaultLoss(3), false},
		{"negative penalty", good, 2, 2, 2, negative, false},
		{"more weights than int32 indices reach", nil, 1 << 28, 2, 2, semimarkov.Loss{}, false},
	}
	for _, tt := range tests {
		_, err := New(tt.data, tt.attrs, tt.k, tt.l, true, tt.loss)
		if (err == nil) != tt.accept {
			t.Errorf("%s: New error = %v, want accepted=%v", tt.name, err, tt.accept)
		}
	}
}

// The slack trainer needs integer penalties; NewSeparator says so before
// training starts.
func TestSlackNeedsIntegerLoss(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	data := []Instance{randomInstance(rng, 4, 2, 3, 2)}
	for _, tt := range []struct {
		loss string
		ok   bool
	}{{"default", true}, {"integer", true}, {"real", false}} {
		m, err := New(data, 3, 2, 2, true, lossFor(rng, tt.loss, 2))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := trainers.NewSeparator[[]structpred.Segment](trainers.Slack, m, 0.01); (err == nil) != tt.ok {
			t.Errorf("%s loss: NewSeparator(slack) error = %v, want ok=%v", tt.loss, err, tt.ok)
		}
	}
}

// δf at Cora-like size, where CountAccumulator's radix sort is taken,
// against the dense difference of feature vectors.
func TestDeltaFeaturesLarge(t *testing.T) {
	t.Parallel()
	const n, k, attrs, maxLen = 30, 13, 200, 8
	for seed := range uint64(5) {
		rng := rand.New(rand.NewPCG(seed, 99))
		x := Instance{Attrs: make([][]int32, n), Segments: randomSegmentation(rng, n, k, maxLen+2)}
		for p := range x.Attrs {
			for a := range int32(attrs) {
				if rng.IntN(8) == 0 {
					x.Attrs[p] = append(x.Attrs[p], a)
				}
			}
		}
		m, err := New([]Instance{x}, attrs, k, maxLen, seed%2 == 0, semimarkov.Loss{})
		if err != nil {
			t.Fatal(err)
		}
		truthF := denseFeatures(m, x, x.Segments)
		ys := [][]structpred.Segment{randomSegmentation(rng, n, k, maxLen), randomSegmentation(rng, n, k, 1), x.Segments}
		for _, y := range ys {
			d := m.DeltaFeatures(0, y)
			dense := make([]float64, m.Dim())
			d.AddTo(dense, 1)
			yf := denseFeatures(m, x, y)
			for j := range dense {
				if dense[j] != truthF[j]-yf[j] {
					t.Fatalf("seed %d: δf[%d] = %v, want %v", seed, j, dense[j], truthF[j]-yf[j])
				}
			}
			if !slices.IsSorted(d.Idx) || slices.Contains(d.Val, 0) {
				t.Fatalf("seed %d: δf not compact: %v", seed, d)
			}
		}
	}
}

// Score and DeltaFeatures reject what is not a segmentation of the instance.
func TestMalformedSegmentationPanics(t *testing.T) {
	t.Parallel()
	data := []Instance{{Attrs: [][]int32{{0}, {1}, {0}}, Segments: []structpred.Segment{sg(0, 2, 1), sg(2, 3, 0)}}}
	m, err := New(data, 2, 2, 2, true, semimarkov.Loss{})
	if err != nil {
		t.Fatal(err)
	}
	w := make([]float64, m.Dim())
	tests := []struct {
		name string
		y    []structpred.Segment
	}{
		{"label out of range", []structpred.Segment{sg(0, 3, 2)}},
		{"too short", []structpred.Segment{sg(0, 2, 0)}},
		{"overlap", []structpred.Segment{sg(0, 2, 0), sg(1, 3, 0)}},
		{"past the end", []structpred.Segment{sg(0, 4, 0)}},
	}
	for _, tt := range tests {
		for name, call := range map[string]func(){
			"Score":         func() { m.Score(0, w, tt.y) },
			"DeltaFeatures": func() { m.DeltaFeatures(0, tt.y) },
		} {
			func() {
				defer func() {
					if recover() == nil {
						t.Errorf("%s: %s did not panic", tt.name, name)
					}
				}()
				call()
			}()
		}
	}
}

// The score tables add an attribute's row of five blocks with SIMD adds
// (gonum's floats); Score sums the same weights one by one. They must
// agree bit for bit (the package doc promises it, and the trainers compare
// the two), whatever the label count and with weights of wildly different
// magnitudes, which would show any other rounding.
func TestTablesRoundAsScore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	const numAttrs, n, maxLen = 300, 14, 4
	for _, k := range []int{1, 2, 3, 13} {
		for _, edges := range []bool{false, true} {
			x := Instance{Attrs: make([][]int32, n), Segments: randomSegmentation(rng, n, k, maxLen)}
			for p := range x.Attrs {
				for a := range int32(numAttrs) {
					if rng.IntN(4) == 0 {
						x.Attrs[p] = append(x.Attrs[p], a)
					}
				}
			}
			m, err := New([]Instance{x}, numAttrs, k, maxLen, edges, semimarkov.Loss{})
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, m.Dim())
			for j := range w {
				w[j] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(13)-6))
			}
			for range 20 {
				y := randomSegmentation(rng, n, k, maxLen)
				sc := m.scores(x, w)
				var fromTables float64
				prev := k
				for _, g := range y {
					if edges {
						fromTables += sc.Trans[prev*k+g.Label]
					}
					fromTables += sc.Unary[(g.Start*maxLen+g.Len()-1)*k+g.Label]
					prev = g.Label
				}
				if s := m.Score(0, w, y); math.Float64bits(s) != math.Float64bits(fromTables) {
					t.Fatalf("K=%d edges=%v: Score(%v) = %v, from the tables %v", k, edges, y, s, fromTables)
				}
			}
		}
	}
}

// LossAugmented and KBest at scale 0 skip the loss table; they must
// pick exactly the segmentations the augmented passes pick, ties included
// (weights of a few small integers, or all zero, tie often).
func TestDecodingAtZeroLossScale(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 18))
	for trial := range 200 {
		n := 1 + rng.IntN(6)
		m, w := randomModel(t, rng, shape{n: n, k: 1 + rng.IntN(3), l: 1 + rng.IntN(3), edges: trial%2 == 0, loss: "default", maxSeg: 3})
		for j := range w {
			w[j] = float64(rng.IntN(3)-1) * float64(trial%3)
		}
		for i := range m.Len() {
			x := m.data[i]
			want := semimarkov.LossAugmented(m.scores(x, w), x.Segments, m.loss, 0, nil).Segments
			if got := m.LossAugmented(i, w, 0); semimarkov.Compare(got, want) != 0 {
				t.Fatalf("trial %d instance %d: LossAugmented(0) = %v, the augmented pass %v", trial, i, got, want)
			}
			for _, k := range []int{1, 3, 7} {
				want := semimarkov.LossAugmentedKBest(m.scores(x, w), x.Segments, m.loss, 0, k, nil)
				got := m.KBest(i, w, 0, k)
				if len(got) != len(want) {
					t.Fatalf("trial %d instance %d: KBest(0, %d) has %d entries, the augmented pass %d", trial, i, k, len(got), len(want))
				}
				for j := range got {
					if !(semimarkov.Compare(got[j], want[j].Segments) == 0) {
						t.Fatalf("trial %d instance %d: KBest(0, %d)[%d] = %v, the augmented pass %v", trial, i, k, j, got[j], want[j].Segments)
					}
				}
			}
		}
	}
}
