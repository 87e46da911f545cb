package segment

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/maxmargin/repro/internal/forktest"
)

// answers calls every method of m that decodes or uses scratch on
// instance i and formats the results (floats exactly).
func answers(m *Model, w []float64, i int) string {
	var b strings.Builder
	x := m.data[i]
	fmt.Fprintln(&b, "predict", m.Predict(x, w), "score", m.Score(i, w, m.Truth(i)))
	y := m.LossAugmented(i, w, 1)
	fmt.Fprintln(&b, "loss-augmented", y, "loss", m.Loss(i, y), "delta", m.DeltaFeatures(i, y))
	y, ok := m.BestExcluding(i, w, 0.5)
	fmt.Fprintln(&b, "excluding", y, ok)
	ys, scores, err := m.BestPerLoss(i, w)
	fmt.Fprintln(&b, "per loss", ys, scores, err)
	fmt.Fprintln(&b, "positions", m.PositionViolators(i, w, nil))
	fmt.Fprintln(&b, "k-best", m.KBest(i, w, 1, 4))
	grad := make([]float64, m.Dim())
	fmt.Fprintln(&b, "log loss", m.LogLoss(i, w, 1, 0.5, grad), grad)
	return b.String()
}

// Forks used from several goroutines at once answer as the model does
// alone (run with -race: a scratch buffer still shared is a data race).
func TestForksAnswerAsTheModelAlone(t *testing.T) {
	t.Parallel()
	for _, edges := range []bool{true, false} {
		t.Run(fmt.Sprintf("edges=%v", edges), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(13, 14))
			const attrs, k, maxLen = 5, 3, 3
			data := make([]Instance, 10)
			for i := range data {
				// lengths vary, so buffers grow and shrink; truths up to 4
				// long exceed maxLen
				data[i] = randomInstance(rng, 1+rng.IntN(7), k, attrs, 4)
			}
			m, err := New(data, attrs, k, maxLen, edges, lossFor(rng, "integer", k))
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, m.Dim())
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			forktest.Concurrent(t, m, m.Len(),
				func(m *Model) *Model { return m.Fork().(*Model) },
				func(m *Model, i int) string { return answers(m, w, i) })
		})
	}
}
