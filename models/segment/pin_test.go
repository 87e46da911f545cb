package segment

import (
	"math/rand/v2"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// Pinned score tables give every answer an unpinned model gives, also after
// calls on other inputs (which must unpin) and in a fork (which starts
// unpinned).
func TestPinScoresAnswersAsUnpinned(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	m, w := randomModel(t, rng, shape{n: 6, k: 3, l: 3, edges: true, loss: "integer", maxSeg: 4})
	ref := m.Fork().(*Model)
	type answers struct {
		score         float64
		excl          []structpred.Segment
		ok            bool
		aug           []structpred.Segment
		kbest         [][]structpred.Segment
		perLoss       [][]structpred.Segment
		perLossScores []float64
		violators     []structpred.PositionViolator[[]structpred.Segment]
	}
	ask := func(m *Model, i int) answers {
		var a answers
		a.score = m.Score(i, w, m.data[i].Segments)
		a.excl, a.ok = m.BestExcluding(i, w, 0.7)
		a.aug = m.LossAugmented(i, w, 1)
		a.kbest = m.KBest(i, w, 1, 3)
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
			m.LossAugmented(0, w, 1)
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

// Every cutting-plane oracle that pins an instance's tables releases them
// before it returns: a pin left behind would serve stale tables to the next
// call on that instance once w has moved in place.
func TestSeparatorsUnpin(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(13, 14))
	m, w := randomModel(t, rng, shape{n: 6, k: 3, l: 3, edges: true, loss: "integer", maxSeg: 3})
	for _, trainer := range trainers.CuttingPlaneTrainers() {
		sep, err := trainers.NewSeparator[[]structpred.Segment](trainer, m, 1e-3)
		if err != nil {
			t.Fatal(err)
		}
		for i := range m.Len() {
			if _, err := sep.Separate(i, w, func(int) float64 { return 0 }, nil); err != nil {
				t.Fatal(err)
			}
			if m.pinned != 0 {
				t.Errorf("%s: instance %d's tables still pinned after Separate", trainer, i)
			}
		}
	}
}
