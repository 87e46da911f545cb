package align

import (
	"fmt"
	"slices"

	"github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/structpred"
)

// Example is one training or test item.
type Example struct {
	Native    []byte          // letters in [0, A)
	Homologue []byte          // the sequence to select
	True      align.Alignment // the homologue's given alignment to Native
	Decoys    [][]byte        // the sequences not to select
}

// Label is a candidate with an alignment of it to the native: Decoy −1
// for the homologue, else the decoy's index.
type Label struct {
	Decoy int
	A     align.Alignment
}

// Options are the model's choices.
type Options struct {
	// Alternatives makes the homologue's alignments other than the true
	// one labelings, at loss 0 (see the package doc).
	Alternatives bool
}

// Model is the alignment model over a fixed set of examples. It owns DP
// tables and is not safe for concurrent use; Fork gives another goroutine
// its own.
type Model struct {
	data []Example
	a    int
	opt  Options
	ws   align.Workspace
}

// New returns the model over data with an alphabet of a letters.
func New(data []Example, a int, opt Options) (*Model, error) {
	if a < 1 || a > 256 {
		return nil, fmt.Errorf("alignment model: alphabet of %d letters, want 1 to 256", a)
	}
	for i, x := range data {
		if err := x.check(a); err != nil {
			return nil, fmt.Errorf("example %d: %w", i, err)
		}
	}
	return &Model{data: data, a: a, opt: opt}, nil
}

func (x Example) check(a int) error {
	bad := func(s []byte) bool { return slices.ContainsFunc(s, func(c byte) bool { return int(c) >= a }) }
	if bad(x.Native) || bad(x.Homologue) || slices.ContainsFunc(x.Decoys, bad) {
		return fmt.Errorf("a letter outside [0, %d)", a)
	}
	if len(x.Decoys) == 0 {
		return fmt.Errorf("no decoys")
	}
	if err := x.True.Check(len(x.Native), len(x.Homologue)); err != nil {
		return fmt.Errorf("true alignment: %w", err)
	}
	return nil
}

// Fork returns a model over the same examples with DP tables of its own
// (trainers.Forker). The result is a *Model.
func (m *Model) Fork() structpred.Model[Label] {
	return &Model{data: m.data, a: m.a, opt: m.opt}
}

// Len returns the number of examples.
func (m *Model) Len() int { return len(m.data) }

// Dim returns A·A + 1: the substitution pairs and the gap count.
func (m *Model) Dim() int { return m.a*m.a + 1 }

// Scores returns w as the alignment scoring model (views of w).
func Scores(w []float64, a int) align.Scores {
	return align.Scores{A: a, Sub: w[:a*a], Gap: w[a*a]}
}

// Truth returns the homologue with its true alignment.
func (m *Model) Truth(i int) Label { return Label{Decoy: -1, A: m.data[i].True} }

// candidate returns the sequence a label aligns.
func (m *Model) candidate(i int, y Label) []byte {
	if y.Decoy < 0 {
		return m.data[i].Homologue
	}
	return m.data[i].Decoys[y.Decoy]
}

// Loss is zero-one on the candidate.
func (m *Model) Loss(_ int, y Label) float64 {
	if y.Decoy < 0 {
		return 0
	}
	return 1
}

// Score returns w·Ψ(s_i, candidate, alignment).
func (m *Model) Score(i int, w []float64, y Label) float64 {
	return Scores(w, m.a).Score(m.data[i].Native, m.candidate(i, y), y.A)
}

// Features returns Ψ(s, t, a) over an alphabet of a letters: the count of
// every substitution pair and, last, of gap columns; indices increasing.
func Features(s, t []byte, al align.Alignment, a int) structpred.SparseVec {
	counts := map[int32]float64{}
	i, j := al.S, al.T
	for _, o := range al.Ops {
		switch o {
		case align.Match:
			counts[int32(int(s[i])*a+int(t[j]))]++
			i, j = i+1, j+1
		case align.Delete:
			counts[int32(a*a)]++
			i++
		case align.Insert:
			counts[int32(a*a)]++
			j++
		}
	}
	var v structpred.SparseVec
	for k := range counts {
		v.Idx = append(v.Idx, k)
	}
	slices.Sort(v.Idx)
	v.Val = make([]float64, len(v.Idx))
	for e, k := range v.Idx {
		v.Val[e] = counts[k]
	}
	return v
}

// DeltaFeatures returns Ψ(truth) − Ψ(y), zero entries dropped.
func (m *Model) DeltaFeatures(i int, y Label) structpred.SparseVec {
	x := m.data[i]
	f := Features(x.Native, x.Homologue, x.True, m.a)
	g := Features(x.Native, m.candidate(i, y), y.A, m.a)
	var acc structpred.Accumulator
	for e, k := range f.Idx {
		acc.Add(k, f.Val[e])
	}
	for e, k := range g.Idx {
		acc.Add(k, -g.Val[e])
	}
	return acc.Vec() // exact zeros dropped
}

// bestHomologue returns the truth, or with Alternatives the homologue's
// best alignment when it scores strictly more than the true one.
func (m *Model) bestHomologue(i int, w []float64) (Label, float64) {
	x, sc := m.data[i], Scores(w, m.a)
	truth := m.Truth(i)
	v := sc.Score(x.Native, x.Homologue, x.True)
	if m.opt.Alternatives {
		if best, al := m.ws.Local(x.Native, x.Homologue, sc); best > v {
			return Label{Decoy: -1, A: al}, best
		}
	}
	return truth, v
}

// bestDecoy returns the decoy whose best alignment scores highest (the
// lowest index on ties) with that alignment.
func (m *Model) bestDecoy(i int, w []float64) (Label, float64) {
	x, sc := m.data[i], Scores(w, m.a)
	best, bestV := -1, 0.0
	for d, t := range x.Decoys {
		if v := m.ws.LocalScore(x.Native, t, sc); best < 0 || v > bestV {
			best, bestV = d, v
		}
	}
	_, al := m.ws.Local(x.Native, x.Decoys[best], sc)
	return Label{Decoy: best, A: al}, bestV
}

// LossAugmented returns argmax_y w·Ψ(y) + scale·Δ(y): the best decoy
// alignment if it beats the truth (or, with Alternatives, the homologue's
// best alignment) by its loss, else that homologue labeling.
func (m *Model) LossAugmented(i int, w []float64, scale float64) Label {
	h, hv := m.bestHomologue(i, w)
	d, dv := m.bestDecoy(i, w)
	if dv+scale > hv {
		return d
	}
	return h
}

// BestPerLoss returns the best labeling of loss 0 (the homologue's) and of
// loss 1 (the best decoy alignment) with their scores: the exact slack
// oracle's scan. The error is always nil.
func (m *Model) BestPerLoss(i int, w []float64) ([]Label, []float64, error) {
	h, hv := m.bestHomologue(i, w)
	d, dv := m.bestDecoy(i, w)
	return []Label{h, d}, []float64{hv, dv}, nil
}

// CandidateScores returns the best local alignment score of the homologue
// and of every decoy against the native under w.
func (m *Model) CandidateScores(x Example, w []float64) (homologue float64, decoys []float64) {
	sc := Scores(w, m.a)
	homologue = m.ws.LocalScore(x.Native, x.Homologue, sc)
	decoys = make([]float64, len(x.Decoys))
	for d, t := range x.Decoys {
		decoys[d] = m.ws.LocalScore(x.Native, t, sc)
	}
	return homologue, decoys
}

// Selected reports whether w selects x's homologue: its best alignment
// scores strictly above every decoy's.
func (m *Model) Selected(x Example, w []float64) bool {
	h, ds := m.CandidateScores(x, w)
	return !slices.ContainsFunc(ds, func(d float64) bool { return d >= h })
}

// ErrorRate returns the percentage of examples whose homologue w does not
// select (0 for none); x need not be the training examples.
func (m *Model) ErrorRate(xs []Example, w []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	wrong := 0
	for _, x := range xs {
		if !m.Selected(x, w) {
			wrong++
		}
	}
	return 100 * float64(wrong) / float64(len(xs))
}

// GenerativeGap returns the generative baseline's weights (see
// Generative) over the model's training examples, with gap cost gap
// (trainers.GapEstimator).
func (m *Model) GenerativeGap(gap float64) ([]float64, error) {
	return Generative(m.data, m.a, gap), nil
}
