package trainers

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
)

// rankToy is toyModel with the capabilities of the online and log-linear
// trainers, all by enumerating the k classes.
type rankToy struct{ *toyModel }

var (
	_ KBestDecoder[int]   = rankToy{}
	_ LogLinear[int]      = rankToy{}
	_ SlackLogLinear[int] = rankToy{}
)

func (m rankToy) KBest(i int, w []float64, scale float64, k int) []int {
	ys := make([]int, m.k)
	for y := range ys {
		ys[y] = y
	}
	v := func(y int) float64 { return m.Score(i, w, y) + scale*m.Loss(i, y) }
	slices.SortStableFunc(ys, func(a, b int) int { return cmp.Compare(v(b), v(a)) })
	return ys[:min(k, len(ys))]
}

// addFeatures adds scale·f(x_i, y) into grad.
func (m rankToy) addFeatures(i, y int, scale float64, grad []float64) {
	d := len(m.x[i])
	for j, v := range m.x[i] {
		grad[y*d+j] += scale * v
	}
}

// logSumExpOver returns log Σ_y exp(e(y)) and the normalised weights.
func logSumExpOver(k int, e func(y int) float64) (float64, []float64) {
	vals := make([]float64, k)
	top := math.Inf(-1)
	for y := range vals {
		vals[y] = e(y)
		top = max(top, vals[y])
	}
	var z float64
	for y := range vals {
		vals[y] = math.Exp(vals[y] - top)
		z += vals[y]
	}
	for y := range vals {
		vals[y] /= z
	}
	return top + math.Log(z), vals
}

func (m rankToy) LogLoss(i int, w []float64, beta, lossScale float64, grad []float64) float64 {
	lse, p := logSumExpOver(m.k, func(y int) float64 { return beta * (m.Score(i, w, y) + lossScale*m.Loss(i, y)) })
	if grad != nil {
		for y, py := range p {
			m.addFeatures(i, y, py, grad)
		}
		m.addFeatures(i, m.y[i], -1, grad)
	}
	return lse/beta - m.Score(i, w, m.y[i])
}

func (m rankToy) SlackLogLoss(i int, w []float64, beta, lossScale float64, grad []float64) (float64, error) {
	truth := m.Score(i, w, m.y[i])
	delta := func(y int) float64 { return lossScale * m.Loss(i, y) }
	lse, p := logSumExpOver(m.k, func(y int) float64 { return beta * delta(y) * (1 + m.Score(i, w, y) - truth) })
	if grad != nil {
		for y, py := range p {
			m.addFeatures(i, y, py*delta(y), grad)
			m.addFeatures(i, m.y[i], -py*delta(y), grad)
		}
	}
	return lse / beta, nil
}

// noisyToy is the overlapping-clusters problem of the cutting-plane tests:
// n instances, k classes in d dimensions, cost |a − b|.
func noisyToy(seed uint64, n, k, d int) rankToy {
	rng := rand.New(rand.NewPCG(seed, 99))
	m := separableToy(rng, n, k, d)
	for i := range m.x {
		for j := range m.x[i] {
			m.x[i][j] += 2 * rng.NormFloat64()
		}
	}
	for a := range m.cost {
		for b := range m.cost[a] {
			m.cost[a][b] = math.Abs(float64(a - b))
		}
	}
	return rankToy{m}
}

// trainingErrors counts the instances whose argmax class is wrong.
func trainingErrors(m rankToy, w []float64) int {
	errs := 0
	for i := range m.x {
		if m.LossAugmented(i, w, 0) != m.y[i] {
			errs++
		}
	}
	return errs
}
