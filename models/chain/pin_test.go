package chain

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/decoders"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
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

// Every cutting-plane oracle that pins an instance's scores releases them
// before it returns: a pin left behind would serve stale scores to the next
// call on that instance once w has moved in place.
func TestSeparatorsUnpin(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	m, w := randomModel(t, rng, 5, 3, true, decoders.Cost{})
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		sep, err := trainers.NewSeparator[[]int](trainer, m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		for i := range m.Len() {
			if _, err := sep.Separate(i, w, func(int) float64 { return 0 }, nil); err != nil {
				t.Fatal(err)
			}
			if m.pinned != 0 {
				t.Errorf("%s: instance %d's scores still pinned after Separate", trainer, i)
			}
		}
	}
}
