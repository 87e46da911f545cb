package report

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/maxmargin/repro/metrics"
	"gonum.org/v1/gonum/stat/distuv"
)

// McNemarTest is McNemar's test on paired token decisions of two systems
// on one test set: only the tokens one system gets right and the other
// wrong count.
type McNemarTest struct {
	Tokens int // tokens compared
	OnlyA  int // tokens A labels right and B wrong
	OnlyB  int // tokens B labels right and A wrong
	// MeanDiff is the tested metric of A minus B, in points: the token
	// error's difference for an error (token, attachment, error rate),
	// the accuracy's for a score (exact-tree accuracy), so that its sign
	// says the same as the tables' other differences.
	MeanDiff float64
	// P is the exact two-sided p-value: twice the binomial tail
	// P(X ≤ min(OnlyA, OnlyB)) for X ~ Binomial(OnlyA+OnlyB, ½), at most 1.
	P float64
	// ChiSquare is the continuity-corrected statistic
	// (|OnlyA − OnlyB| − 1)² / (OnlyA + OnlyB), with its p-value (one
	// degree of freedom), the large-sample form; both 0 and 1 when no
	// token is discordant.
	ChiSquare, ChiSquareP float64
}

// McNemar compares the token decisions of a and b, outcomes of two systems
// on the same test set, for metric d: an error counts the wrong tokens, a
// score the right ones (MeanDiff).
func McNemar(a, b *Outcomes, d metrics.Def) (McNemarTest, error) {
	if err := paired(a, b); err != nil {
		return McNemarTest{}, err
	}
	n := a.NumTokens()
	t := McNemarTest{Tokens: n}
	for i := range n {
		ra, rb := a.TokenRight(i), b.TokenRight(i)
		switch {
		case ra && !rb:
			t.OnlyA++
		case rb && !ra:
			t.OnlyB++
		}
	}
	// Right(A) − right(B) over the tokens is OnlyA − OnlyB; the errors
	// differ by the opposite.
	t.MeanDiff = 100 * float64(t.OnlyA-t.OnlyB) / float64(max(n, 1))
	if d.Lower() {
		t.MeanDiff = -t.MeanDiff
	}
	t.P = exactSignP(t.OnlyA, t.OnlyB)
	discordant := t.OnlyA + t.OnlyB
	if discordant == 0 {
		t.ChiSquareP = 1
		return t, nil
	}
	diff := math.Max(math.Abs(float64(t.OnlyA-t.OnlyB))-1, 0)
	t.ChiSquare = diff * diff / float64(discordant)
	t.ChiSquareP = distuv.ChiSquared{K: 1}.Survival(t.ChiSquare)
	return t, nil
}

// exactSignP is the exact two-sided p-value of a sign test with a
// successes against b: twice the binomial tail P(X ≤ min(a, b)) for
// X ~ Binomial(a+b, ½), at most 1; 1 when a+b is 0.
func exactSignP(a, b int) float64 {
	if a+b == 0 {
		return 1
	}
	return math.Min(1, 2*distuv.Binomial{N: float64(a + b), P: 0.5}.CDF(float64(min(a, b))))
}

// SignTest is McNemar's test with the item as its unit (a sign test),
// pooled over the test parts of several splits, which must be disjoint:
// per item, which of two systems has the better value of a metric on that
// item alone, ties dropped.
type SignTest struct {
	Items  int // items compared, ties included
	Splits int // splits whose test items were pooled
	// BetterA and BetterB count the items on which A, or B, has the
	// better value; Ties the items on which they have the same.
	BetterA, BetterB, Ties int
	// P is the exact two-sided p-value: twice the binomial tail
	// P(X ≤ min(BetterA, BetterB)) for X ~ Binomial(BetterA+BetterB, ½),
	// at most 1; 1 when every item is a tie.
	P float64
}

// Sign compares a and b item by item on metric d, which must declare the
// test (metrics.Sign): a[k] and b[k] are the outcomes of the two systems
// on the test part of the k-th split, the same part for both, and the
// items of every split are pooled. That each item lies in one split's
// test part only is the caller's to know (Options.Folds); Sign checks
// that each pair is on one test set.
func Sign(a, b []*Outcomes, d metrics.Def) (SignTest, error) {
	if !d.Has(metrics.Sign) {
		return SignTest{}, fmt.Errorf("report: %s declares no sign test", d.Label)
	}
	if len(a) != len(b) || len(a) == 0 {
		return SignTest{}, fmt.Errorf("report: sign test: %d and %d splits' outcomes", len(a), len(b))
	}
	t := SignTest{Splits: len(a)}
	for k := range a {
		if err := paired(a[k], b[k]); err != nil {
			return SignTest{}, fmt.Errorf("split %d of %d: %w", k+1, len(a), err)
		}
		for i := range a[k].Tokens {
			va, vb := itemValue(a[k], i, d), itemValue(b[k], i, d)
			switch {
			case va > vb:
				t.BetterA++
			case vb > va:
				t.BetterB++
			default:
				t.Ties++
			}
			t.Items++
		}
	}
	t.P = exactSignP(t.BetterA, t.BetterB)
	return t, nil
}

// itemValue is item i's value for the sign test of metric d, higher
// better: its span F1 in percent for a metric tested on span counts
// (metrics.Bootstrap; 100 for an item with no true and no predicted
// span), else the share of its tokens that are right, in percent
// (metrics.McNemar; for an error, fewer wrong tokens is better).
func itemValue(o *Outcomes, i int, d metrics.Def) float64 {
	if d.Has(metrics.Bootstrap) {
		spans := o.TrueSpans[i] + o.PredSpans[i]
		if spans == 0 {
			return 100
		}
		return 200 * float64(o.Matched[i]) / float64(spans)
	}
	if o.Tokens[i] == 0 {
		return 100
	}
	return 100 * float64(o.Tokens[i]-o.Wrong[i]) / float64(o.Tokens[i])
}

// Bootstrap is a paired bootstrap over sentences of the difference of a
// metric between two systems on one test set.
type Bootstrap struct {
	Resamples int
	Seed      uint64
	Diff      float64 // observed metric of A minus B
	// P is the two-sided p-value of the shifted (null-centred) bootstrap:
	// the share of resamples whose difference lies at least |Diff| from
	// Diff, (1 + count) / (1 + Resamples) (Efron & Tibshirani 1993, §16.4;
	// the form Berg-Kirkpatrick et al. 2012 recommend for NLP).
	P float64
	// Low and High bound the 95% percentile interval of the difference.
	Low, High float64
}

// DefaultResamples is the number of bootstrap resamples the tables use.
const DefaultResamples = 1000

// SpanF1Bootstrap resamples the sentences of a and b (outcomes of two
// systems on the same test set) with replacement, pairing them, and
// compares span F1 (percent) of A and B on each resample.
func SpanF1Bootstrap(a, b *Outcomes, resamples int, seed uint64) (Bootstrap, error) {
	if err := paired(a, b); err != nil {
		return Bootstrap{}, err
	}
	if resamples < 1 {
		return Bootstrap{}, fmt.Errorf("report: bootstrap: %d resamples", resamples)
	}
	f1 := func(o *Outcomes, ids []int) float64 {
		var matched, spans int
		for _, s := range ids {
			matched += o.Matched[s]
			spans += o.TrueSpans[s] + o.PredSpans[s]
		}
		if spans == 0 {
			return 100
		}
		return 200 * float64(matched) / float64(spans)
	}
	n := len(a.Tokens)
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	res := Bootstrap{Resamples: resamples, Seed: seed, Diff: f1(a, all) - f1(b, all)}
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15))
	diffs := make([]float64, resamples)
	ids := make([]int, n)
	far := 0
	for r := range diffs {
		for i := range ids {
			ids[i] = rng.IntN(n)
		}
		diffs[r] = f1(a, ids) - f1(b, ids)
		if math.Abs(diffs[r]-res.Diff) >= math.Abs(res.Diff) {
			far++
		}
	}
	res.P = float64(1+far) / float64(1+resamples)
	slices.Sort(diffs)
	res.Low, res.High = diffs[int(0.025*float64(resamples-1))], diffs[int(math.Ceil(0.975*float64(resamples-1)))]
	return res, nil
}

// paired checks that a and b are outcomes on the same test set.
func paired(a, b *Outcomes) error {
	switch {
	case a == nil || b == nil:
		return fmt.Errorf("report: runs without per-sentence outcomes")
	case a.Check() != nil:
		return a.Check()
	case b.Check() != nil:
		return b.Check()
	case !a.Same(b):
		return fmt.Errorf("report: outcomes on different test sets (%d vs %d sentences)", len(a.Tokens), len(b.Tokens))
	case len(a.Tokens) == 0:
		return fmt.Errorf("report: no sentences to compare")
	}
	return nil
}
