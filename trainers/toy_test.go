package trainers

import (
	"math"
	"math/rand/v2"

	"github.com/maxmargin/repro/structpred"
)

// toyModel is multiclass classification written as a structured model, small
// enough to enumerate: f(x, y) places x in the block of class y, and the loss
// is cost[truth][y] (0/1 by default). Every oracle is brute force.
type toyModel struct {
	x    [][]float64
	y    []int
	k    int
	cost [][]float64
}

func newToy(x [][]float64, y []int, k int) *toyModel {
	cost := make([][]float64, k)
	for a := range cost {
		cost[a] = make([]float64, k)
		for b := range cost[a] {
			if a != b {
				cost[a][b] = 1
			}
		}
	}
	return &toyModel{x: x, y: y, k: k, cost: cost}
}

// separableToy draws k well-separated Gaussian clusters in d dimensions.
func separableToy(rng *rand.Rand, n, k, d int) *toyModel {
	centres := make([][]float64, k)
	for c := range centres {
		centres[c] = make([]float64, d)
		centres[c][c%d] = 5 // one axis per class, far from the others
	}
	x := make([][]float64, n)
	y := make([]int, n)
	for i := range x {
		y[i] = i % k
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = centres[y[i]][j] + 0.3*rng.NormFloat64()
		}
	}
	return newToy(x, y, k)
}

func (m *toyModel) Len() int              { return len(m.x) }
func (m *toyModel) Dim() int              { return m.k * len(m.x[0]) }
func (m *toyModel) Truth(i int) int       { return m.y[i] }
func (m *toyModel) Loss(i, y int) float64 { return m.cost[m.y[i]][y] }

func (m *toyModel) Score(i int, w []float64, y int) float64 {
	d := len(m.x[i])
	var s float64
	for j, v := range m.x[i] {
		s += w[y*d+j] * v
	}
	return s
}

func (m *toyModel) DeltaFeatures(i, y int) structpred.SparseVec {
	var acc structpred.Accumulator
	d := len(m.x[i])
	for j, v := range m.x[i] {
		acc.Add(int32(m.y[i]*d+j), v)
		acc.Add(int32(y*d+j), -v)
	}
	return acc.Vec()
}

func (m *toyModel) argmax(f func(y int) float64, skip int) (int, bool) {
	best, bestV := -1, math.Inf(-1)
	for y := 0; y < m.k; y++ {
		if y == skip {
			continue
		}
		if v := f(y); v > bestV {
			best, bestV = y, v
		}
	}
	return best, best >= 0
}

func (m *toyModel) LossAugmented(i int, w []float64, scale float64) int {
	y, _ := m.argmax(func(y int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }, -1)
	return y
}

func (m *toyModel) BestExcluding(i int, w []float64, scale float64) (int, bool) {
	return m.argmax(func(y int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }, m.y[i])
}

// BestPerLoss: losses here are 0/1 (or small integers), so bucket by value.
func (m *toyModel) BestPerLoss(i int, w []float64) ([]int, []float64, error) {
	maxL := 0
	for y := 0; y < m.k; y++ {
		maxL = max(maxL, int(m.Loss(i, y)))
	}
	ys, ok := make([]int, maxL+1), make([]bool, maxL+1)
	for y := 0; y < m.k; y++ {
		l := int(m.Loss(i, y))
		if !ok[l] || m.Score(i, w, y) > m.Score(i, w, ys[l]) {
			ys[l], ok[l] = y, true
		}
	}
	scores := make([]float64, len(ys))
	for l := range ys {
		scores[l] = math.Inf(-1)
		if ok[l] {
			scores[l] = m.Score(i, w, ys[l])
		}
	}
	return ys, scores, nil
}

func (m *toyModel) Positions(int) int { return 1 }

func (m *toyModel) PositionViolators(i int, w []float64, dst []PositionViolator[int]) []PositionViolator[int] {
	t := m.Score(i, w, m.y[i])
	y, ok := m.argmax(func(y int) float64 { return m.Loss(i, y) * (1 - t + m.Score(i, w, y)) }, m.y[i])
	if !ok {
		return dst
	}
	return append(dst, PositionViolator[int]{Position: 0, Y: y, Score: m.Score(i, w, y), Loss: m.Loss(i, y)})
}

// truePrimal is the primal objective over the full (enumerated) constraint set
// of the given formulation: ½‖w‖² + C Σ_i max(0, max_y H_i(y)).
func (m *toyModel) truePrimal(trainer string, w []float64, c float64) float64 {
	var ww float64
	for _, v := range w {
		ww += v * v
	}
	var xi float64
	for i := range m.x {
		t := m.Score(i, w, m.y[i])
		worst := 0.0
		for y := 0; y < m.k; y++ {
			l := m.Loss(i, y)
			if y == m.y[i] || l == 0 {
				continue
			}
			h := l - (t - m.Score(i, w, y)) // margin scaling
			if trainer != Margin {
				h = l * (1 - (t - m.Score(i, w, y)))
			}
			worst = math.Max(worst, h)
		}
		xi += worst
	}
	return 0.5*ww + c*xi
}
