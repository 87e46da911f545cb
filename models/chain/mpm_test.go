package chain

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/maxmargin/repro/decoders/bruteforce"
)

// bruteNodeMarginals returns P(y_t = y) under P_β(y) ∝ exp(β·w·f(x_i, y))
// by enumerating every labeling, features built independently of the
// model's scoring (denseFeatures).
func bruteNodeMarginals(m *Model, i int, w []float64, beta float64) []float64 {
	x := m.data[i]
	n := len(x.Labels)
	ys := bruteforce.Labelings(n, m.k)
	vals := make([]float64, len(ys))
	top := math.Inf(-1)
	for j, y := range ys {
		vals[j] = beta * dot(w, denseFeatures(m, x, y))
		top = max(top, vals[j])
	}
	node := make([]float64, n*m.k)
	var z float64
	for j, y := range ys {
		p := math.Exp(vals[j] - top)
		z += p
		for t, l := range y {
			node[t*m.k+l] += p
		}
	}
	for j := range node {
		node[j] /= z
	}
	return node
}

// PosteriorModes labels every token with a label of largest marginal under
// P_β, the marginals enumerated over every labeling, at temperatures on
// both sides of 1; and leaves w as it was (the tempered transitions are a
// copy).
func TestPosteriorModesAgainstBruteForce(t *testing.T) {
	t.Parallel()
	const tol = 1e-9
	for seed := range uint64(5) {
		for _, s := range shapes {
			for _, beta := range []float64{0.1, 1, 3} {
				rng := rand.New(rand.NewPCG(seed, uint64(s.n*10+s.k)))
				m, w := randomModel(t, rng, s.n, s.k, s.edges, costFor(rng, s.cost, s.k))
				if seed%2 == 1 {
					m = withValues(t, rng, m)
				}
				before := slices.Clone(w)
				for i := range m.Len() {
					got := m.PosteriorModes(i, w, beta)
					node := bruteNodeMarginals(m, i, w, beta)
					if len(got) != len(m.data[i].Labels) {
						t.Fatalf("seed %d %+v: %d labels for %d tokens", seed, s, len(got), len(m.data[i].Labels))
					}
					for pos, y := range got {
						row := node[pos*m.k : (pos+1)*m.k]
						if top := slices.Max(row); row[y] < top-tol {
							t.Errorf("seed %d %+v β=%v instance %d token %d: label %d has marginal %v, the best %v",
								seed, s, beta, i, pos, y, row[y], top)
						}
					}
				}
				if !slices.Equal(w, before) {
					t.Fatalf("seed %d %+v: PosteriorModes changed w", seed, s)
				}
			}
		}
	}
}

// As β grows, P_β concentrates on the MAP labeling, so MPM and Viterbi
// agree wherever the MAP labeling is unique (random real weights: almost
// surely); at β = 1 they differ on some of these instances.
func TestPosteriorModesTendToMAP(t *testing.T) {
	t.Parallel()
	differ := 0
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		m, w := randomModel(t, rng, 6, 3, true, costFor(rng, "hamming", 3))
		for i := range m.Len() {
			mapY := m.Predict(m.data[i], w)
			if got := m.PosteriorModes(i, w, 1e4); !slices.Equal(got, mapY) {
				t.Errorf("seed %d instance %d: MPM at β = 1e4 is %v, MAP %v", seed, i, got, mapY)
			}
			if !slices.Equal(m.PosteriorModes(i, w, 1), mapY) {
				differ++
			}
		}
	}
	if differ == 0 {
		t.Error("MPM at β = 1 equals MAP on every instance: is β applied?")
	}
}
