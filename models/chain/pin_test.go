package chain

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/structpred"
)

// Pinned scores give every answer an unpinned model gives, also after calls
// on other instances (which must unpin) and in a fork (which starts
// unpinned).
func TestPinScoresAnswersAsUnpinned(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	m, w := randomModel(t, rng, 5, 3, true, decoders.Cost{})
	ref := m.Fork().(*Model)
	type answers struct {
		score         float64
		excl          []int
		ok            bool
		aug           []int
		perLoss       [][]int
		perLossScores []float64
		violators     []structpred.PositionViolator[[]int]
	}
	ask := func(m *Model, i int) answers {
		var a answers
		y := m.data[(i+1)%len(m.data)].Labels
		a.score = m.Score(i, w, y)
		a.excl, a.ok = m.BestExcluding(i, w, 0.7)
		a.aug = m.LossAugmented(i, w, 1)
		var err error
		if a.perLoss, a.perLossScores, err = m.BestPerLoss(i, w); err != nil {
			t.Fatal(err)
		}
		a.violators = m.PositionViolators(i, w, nil)
		return a
	}
	for _, tc := range []struct {
		name string
		run  func() answers
	}{
		{"pinned", func() answers { m.PinScores(1, w); defer m.UnpinScores(); return ask(m, 1) }},
		{"another instance between", func() answers {
			m.PinScores(1, w)
			defer m.UnpinScores()
			m.Score(2, w, m.data[2].Labels)
			return ask(m, 1)
		}},
		{"pinned elsewhere", func() answers { m.PinScores(0, w); defer m.UnpinScores(); return ask(m, 1) }},
		{"predict between", func() answers {
			m.PinScores(1, w)
			defer m.UnpinScores()
			m.Predict(m.data[0], w)
			return ask(m, 1)
		}},
		{"fork of a pinned model", func() answers {
			m.PinScores(0, w)
			defer m.UnpinScores()
			return ask(m.Fork().(*Model), 1)
		}},
	} {
		if got, want := tc.run(), ask(ref, 1); !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %+v, want %+v", tc.name, got, want)
		}
	}
}
