package cfg

import (
	"fmt"
	"math"
	"slices"

	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/structpred"
)

// Loss is the structured loss a Model trains with.
type Loss int

const (
	// ZeroOne is 1 for any tree other than the gold one.
	ZeroOne Loss = iota
	// BracketF1 is 1 − F1 over labelled brackets (the paper's Δ).
	BracketF1
)

func (l Loss) String() string {
	switch l {
	case ZeroOne:
		return "zero-one"
	case BracketF1:
		return "1-F1"
	}
	return fmt.Sprintf("Loss(%d)", int(l))
}

// Instance is a training sentence encoded by a Grammar: its tags and its
// gold tree, and the gold tree's brackets.
type Instance struct {
	Sent     []int32
	Gold     cky.Tree
	Brackets []cky.Bracket
}

// NewInstance encodes a gold tree of g (see Grammar.Encode).
func NewInstance(g *Grammar, sent []int32, gold cky.Tree) Instance {
	return Instance{Sent: sent, Gold: gold, Brackets: cky.Brackets(g.c.Grammar(), gold)}
}

// Model is the weighted CFG over a fixed set of training instances:
// weight r scores rule r, a tree scores the sum over its rules. It owns
// scratch buffers and is not safe for concurrent use; Fork gives another
// goroutine its own.
type Model struct {
	g    *Grammar
	data []Instance
	loss Loss
	scratch
}

type scratch struct {
	ws  cky.Workspace
	acc structpred.CountAccumulator
}

// New returns a model over data, each a tree of g, with loss.
func New(g *Grammar, data []Instance, loss Loss) (*Model, error) {
	if loss != ZeroOne && loss != BracketF1 {
		return nil, fmt.Errorf("cfg: unknown loss %v", loss)
	}
	for i := range data {
		if err := g.c.Grammar().CheckTree(data[i].Gold, data[i].Sent); err != nil {
			return nil, fmt.Errorf("cfg: instance %d: %w", i, err)
		}
	}
	return &Model{g: g, data: data, loss: loss}, nil
}

// Fork returns a model over the same instances with scratch of its own
// (trainers.Forker); it answers every call as m does.
func (m *Model) Fork() structpred.Model[cky.Tree] {
	f := *m
	f.scratch = scratch{}
	return &f
}

// Len returns the number of training instances.
func (m *Model) Len() int { return len(m.data) }

// Dim returns the number of weights: one per rule.
func (m *Model) Dim() int { return m.g.Rules() }

// Instance returns training instance i (read-only).
func (m *Model) Instance(i int) Instance { return m.data[i] }

// Truth returns instance i's gold tree.
func (m *Model) Truth(i int) cky.Tree { return m.data[i].Gold }

// Loss returns the model's loss of y on instance i.
func (m *Model) Loss(i int, y cky.Tree) float64 {
	x := &m.data[i]
	if m.loss == ZeroOne {
		if y.Equal(x.Gold) {
			return 0
		}
		return 1
	}
	pred := cky.Brackets(m.g.c.Grammar(), y)
	return 1 - cky.F1(cky.Matched(x.Brackets, pred), len(pred), len(x.Brackets))
}

// Score returns the score of y: the sum of its rules' weights.
func (m *Model) Score(_ int, w []float64, y cky.Tree) float64 { return cky.Score(y, w) }

// DeltaFeatures returns f(x_i, truth) − f(x_i, y): rule count differences.
func (m *Model) DeltaFeatures(i int, y cky.Tree) structpred.SparseVec {
	m.acc.Reset()
	m.AddDelta(i, y, 1, m.acc.Add)
	return m.acc.Vec(m.Dim())
}

// DeltaScore returns w·δf_i(y) (a trainers.DeltaScorer).
func (m *Model) DeltaScore(i int, w []float64, y cky.Tree) float64 {
	return cky.Score(m.data[i].Gold, w) - cky.Score(y, w)
}

// AddDelta calls add(r, ±scale) for every rule of the truth (+) and of y
// (−) (a trainers.DeltaAdder).
func (m *Model) AddDelta(i int, y cky.Tree, scale float64, add func(j int32, v float64)) {
	for _, n := range m.data[i].Gold {
		if n.Rule >= 0 {
			add(n.Rule, scale)
		}
	}
	for _, n := range y {
		if n.Rule >= 0 {
			add(n.Rule, -scale)
		}
	}
}

// bestOther returns the best tree of instance i other than its truth,
// from the 2-best list; ok is false if the truth is the only tree.
func (m *Model) bestOther(i int, w []float64) (cky.Tree, float64, bool) {
	x := &m.data[i]
	trees, scores, err := m.g.c.KBest(x.Sent, w, 2, &m.ws)
	if err != nil {
		panic(fmt.Sprintf("cfg: instance %d: %v", i, err)) // New checked the instance
	}
	for k, t := range trees {
		if !t.Equal(x.Gold) {
			return t, scores[k], true
		}
	}
	return nil, 0, false
}

// counts runs the count chart on instance i.
func (m *Model) counts(i int, w []float64) []cky.CountResult {
	x := &m.data[i]
	res, err := m.g.c.Counts(x.Sent, w, x.Brackets, &m.ws)
	if err != nil {
		panic(fmt.Sprintf("cfg: instance %d: %v", i, err))
	}
	return res
}

func (m *Model) f1Loss(i int, r cky.CountResult) float64 {
	return 1 - cky.F1(r.Matched, r.Predicted, len(m.data[i].Brackets))
}

// LossAugmented returns argmax_y s(y) + scale·Loss(y) (margin
// rescaling's oracle): for zero-one loss the better of the truth and the
// best other tree; for 1 − F1 a scan of the count chart.
func (m *Model) LossAugmented(i int, w []float64, scale float64) cky.Tree {
	if m.loss == ZeroOne {
		x := &m.data[i]
		other, s, ok := m.bestOther(i, w)
		if ok && s+scale > cky.Score(x.Gold, w) {
			return other
		}
		return x.Gold
	}
	var best cky.Tree
	bestV := math.Inf(-1)
	for _, r := range m.counts(i, w) {
		if v := r.Score + scale*m.f1Loss(i, r); v > bestV {
			best, bestV = r.Tree, v
		}
	}
	return best
}

// BestExcluding returns argmax_{y≠truth} s(y) + scale·Loss(y). For 1 − F1
// the count chart covers every pair but (g, g), which holds the truth and
// any other tree of the same brackets (unary chains reordered); the best
// of those others cannot beat the best other tree by score alone, whose
// loss is ≥ 0, so it joins the scan.
func (m *Model) BestExcluding(i int, w []float64, scale float64) (cky.Tree, bool) {
	other, s, ok := m.bestOther(i, w)
	if m.loss == ZeroOne || !ok {
		return other, ok
	}
	best, bestV := other, s+scale*m.Loss(i, other)
	g := len(m.data[i].Brackets)
	for _, r := range m.counts(i, w) {
		if r.Matched == g && r.Predicted == g {
			continue
		}
		if v := r.Score + scale*m.f1Loss(i, r); v > bestV {
			best, bestV = r.Tree, v
		}
	}
	return best, true
}

// BestPerLoss returns, for every distinct loss value in increasing order,
// the best tree with that loss and its score (trainers.LossCountDecoder,
// which makes slack rescaling exact): for zero-one the truth and the best
// other tree; for 1 − F1 the count chart's pairs grouped by 1 − 2m/(p+g).
func (m *Model) BestPerLoss(i int, w []float64) ([]cky.Tree, []float64, error) {
	x := &m.data[i]
	if m.loss == ZeroOne {
		ys := []cky.Tree{x.Gold, nil}
		scores := []float64{cky.Score(x.Gold, w), math.Inf(-1)}
		if other, s, ok := m.bestOther(i, w); ok {
			ys[1], scores[1] = other, s
		} else {
			ys[1] = x.Gold
		}
		return ys, scores, nil
	}
	type group struct {
		loss, score float64
		tree        cky.Tree
	}
	var groups []group
	for _, r := range m.counts(i, w) {
		l := m.f1Loss(i, r)
		at := slices.IndexFunc(groups, func(g group) bool { return g.loss == l })
		if at < 0 {
			groups = append(groups, group{l, r.Score, r.Tree})
		} else if r.Score > groups[at].score {
			groups[at].score, groups[at].tree = r.Score, r.Tree
		}
	}
	slices.SortStableFunc(groups, func(a, b group) int {
		switch {
		case a.loss < b.loss:
			return -1
		case a.loss > b.loss:
			return 1
		}
		return 0
	})
	ys := make([]cky.Tree, len(groups))
	scores := make([]float64, len(groups))
	for k, g := range groups {
		ys[k], scores[k] = g.tree, g.score
	}
	return ys, scores, nil
}

// Predict returns the best tree of the tag ids sent under w; ok is false
// if the grammar has none (see Grammar.Fallback).
func (m *Model) Predict(sent []int32, w []float64) (cky.Tree, bool) {
	t, _, ok, err := m.g.c.Best(sent, w, &m.ws)
	return t, ok && err == nil
}

// Generative returns the PCFG of the training trees by relative
// frequencies (MLE), log-probabilities as weights: the generative
// baseline of Table 5 in the model's weight space
// (trainers.GenerativeEstimator).
func (m *Model) Generative() ([]float64, error) {
	trees := make([]cky.Tree, len(m.data))
	for i := range m.data {
		trees[i] = m.data[i].Gold
	}
	return MLE(m.g, trees)
}
