package tree_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxmargin/repro/decoders/mst"
	"github.com/maxmargin/repro/internal/forktest"
	"github.com/maxmargin/repro/models/tree"
)

// answers calls every method of m that decodes or uses scratch on
// instance x (instance i of m) and formats the results (floats exactly).
func answers(m *tree.Model, x tree.Instance, w []float64, i int) string {
	var b strings.Builder
	fmt.Fprintln(&b, "predict", m.Predict(x, w), "score", m.Score(i, w, m.Truth(i)))
	y := m.LossAugmented(i, w, 1)
	fmt.Fprintln(&b, "loss-augmented", y, "loss", m.Loss(i, y), "delta", m.DeltaFeatures(i, y))
	fmt.Fprintln(&b, "positions", m.PositionViolators(i, w, nil))
	fmt.Fprintln(&b, "k-best", m.KBest(i, w, 1, 4))
	return b.String()
}

// Forks used from several goroutines at once answer as the model does
// alone (run with -race: a scratch buffer still shared is a data race).
func TestForksAnswerAsTheModelAlone(t *testing.T) {
	t.Parallel()
	for _, dec := range []mst.Decoder{{}, {Projective: true}, {SingleRoot: true}} {
		t.Run(dec.String(), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(15, 16))
			const attrs = 10
			data := make([]tree.Instance, 10)
			for i := range data {
				data[i] = randInstance(rng, 1+rng.IntN(6), attrs) // sizes vary, so buffers grow and shrink
			}
			m, err := tree.New(data, attrs, dec)
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, attrs)
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			forktest.Concurrent(t, m, m.Len(),
				func(m *tree.Model) *tree.Model { return m.Fork().(*tree.Model) },
				func(m *tree.Model, i int) string { return answers(m, data[i], w, i) })
		})
	}
}
