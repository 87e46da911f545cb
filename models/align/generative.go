package align

import (
	"fmt"
	"math"

	"github.com/maxmargin/repro/decoders/align"
)

// Generative returns the weights of the generative baseline (section 5.4):
// the substitution scores are log-odds log P(a, b) / (P(a) P(b)) of
// Laplace estimates over the substitution columns of the examples' true
// alignments (each of the A·A pair counts plus one; P(a) and P(b) are the
// joint estimate's marginals), and every gap column scores −gap.
func Generative(data []Example, a int, gap float64) []float64 {
	counts := make([]float64, a*a)
	total := 0.0
	for _, x := range data {
		i, j := x.True.S, x.True.T
		for _, o := range x.True.Ops {
			switch o {
			case align.Match:
				counts[int(x.Native[i])*a+int(x.Homologue[j])]++
				total++
				i, j = i+1, j+1
			case align.Delete:
				i++
			case align.Insert:
				j++
			}
		}
	}
	p := make([]float64, a*a)
	ps, pt := make([]float64, a), make([]float64, a)
	for k := range p {
		p[k] = (counts[k] + 1) / (total + float64(a*a))
		ps[k/a] += p[k]
		pt[k%a] += p[k]
	}
	w := make([]float64, a*a+1)
	for k := range p {
		w[k] = math.Log(p[k] / (ps[k/a] * pt[k%a]))
	}
	w[a*a] = -gap
	return w
}

// GapChoice is a gap cost picked from a grid, with the data it was picked
// on: the paper picks the generative model's on the test set ("which
// performs best on the test set"), an advantage a table must mark.
type GapChoice struct {
	Gap      float64
	Error    float64 // the error at Gap on the data it was picked on
	ChosenOn string  // e.g. "test": what the error was measured on
}

// PickGap returns the grid's gap cost with the lowest errAt (the first on
// ties), labelled with chosenOn.
func PickGap(grid []float64, chosenOn string, errAt func(gap float64) (float64, error)) (GapChoice, error) {
	if len(grid) == 0 {
		return GapChoice{}, fmt.Errorf("gap cost: empty grid")
	}
	best := GapChoice{ChosenOn: chosenOn, Error: math.Inf(1)}
	for _, g := range grid {
		e, err := errAt(g)
		if err != nil {
			return GapChoice{}, fmt.Errorf("gap cost %v: %w", g, err)
		}
		if e < best.Error {
			best.Gap, best.Error = g, e
		}
	}
	if math.IsInf(best.Error, 1) {
		return GapChoice{}, fmt.Errorf("gap cost: no grid point has a finite error")
	}
	return best, nil
}
