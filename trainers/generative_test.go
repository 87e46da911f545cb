package trainers

import (
	"context"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// countingToy has a generative counterpart: the log of each weight's
// index plus one, or a failure.
type countingToy struct {
	*toyModel
	fail bool
}

func (m countingToy) Generative() ([]float64, error) {
	if m.fail {
		return nil, errors.New("no counts")
	}
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = math.Log(float64(j + 1))
	}
	return w, nil
}

// The generative baseline returns the model's estimate as it is; a model
// without one is refused before training, and its failure is the
// trainer's error.
func TestGenerativeTrainer(t *testing.T) {
	t.Parallel()
	toy := newToy([][]float64{{1, 0}, {0, 1}}, []int{0, 1}, 2)
	res, err := Train[int](context.Background(), Generative, countingToy{toyModel: toy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := countingToy{toyModel: toy}.Generative()
	if !slices.Equal(res.W, want) || !res.Converged || res.Iterations != 1 {
		t.Errorf("result %+v, want weights %v", res, want)
	}
	if err := CanTrain[int](Generative, toy); err == nil || !strings.Contains(err.Error(), "generative estimate") {
		t.Errorf("a model without a generative estimate: %v", err)
	}
	if _, err := Train[int](context.Background(), Generative, countingToy{toyModel: toy, fail: true}, nil); err == nil || !strings.Contains(err.Error(), "no counts") {
		t.Errorf("failing estimate: %v", err)
	}
	if err := Validate(Generative, Values{"C": 1.0}); err == nil {
		t.Error("C accepted by the generative baseline")
	}
	if err := Check[int](Generative, countingToy{toyModel: toy}, Values{"gap": 0.5}); err == nil || !strings.Contains(err.Error(), "gap cost") {
		t.Errorf("gap on a model without one: %v", err)
	}
	res, err = Train[int](context.Background(), Generative, gapToy{toy}, Values{"gap": 0.5})
	if err != nil || res.W[0] != -0.5 {
		t.Errorf("gap 0.5: %v, %v", res, err)
	}
}

// gapToy's generative weights are all −gap.
type gapToy struct{ *toyModel }

func (m gapToy) GenerativeGap(gap float64) ([]float64, error) {
	w := make([]float64, m.Dim())
	for j := range w {
		w[j] = -gap
	}
	return w, nil
}
