package tagger

import (
	"context"
	"reflect"
	"testing"

	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/structpred"
)

// Given attributes are encoded through the training index with their
// values: sorted by id, unknown ones dropped, binary tokens without values.
func TestEncodeValued(t *testing.T) {
	t.Parallel()
	idx := features.BuildIndex([][][]string{{{"b", "a"}, {"c"}}})
	ids, vals := encodeValued(idx, [][]string{{"a", "zz", "b"}, {"c", "a"}}, [][]float64{{0.5, 3, 2}, nil})
	wantIDs, wantVals := [][]int32{{0, 1}, {1, 2}}, [][]float64{{2, 0.5}, nil}
	if !reflect.DeepEqual(ids, wantIDs) || !reflect.DeepEqual(vals, wantVals) {
		t.Errorf("encoded %v %v, want %v %v", ids, vals, wantIDs, wantVals)
	}
	if ids, vals := encodeValued(idx, [][]string{{"a"}}, nil); vals != nil || !reflect.DeepEqual(ids, [][]int32{{1}}) {
		t.Errorf("without values: %v %v", ids, vals)
	}
}

// Values reach the model: a model trained on valued attributes predicts
// from them, and scaling an attribute to 0 takes its evidence away.
func TestValuesScaleFeatures(t *testing.T) {
	t.Parallel()
	labels := []string{"A", "B"}
	// Token attribute "x" with value +1 means A, with value -1 means B;
	// no other attribute tells them apart.
	train := []structpred.Sequence{{Labels: []int{0}}, {Labels: []int{1}}}
	attrs := [][][]string{{{"x", "bias"}}, {{"x", "bias"}}}
	values := [][][]float64{{{1, 1}}, {{-1, 1}}}
	f := Features{Kind: Citation}
	tr, err := PrepareValues(labels, train, attrs, values, Options{Task: Sequence, Features: f, Trainer: "perceptron"})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := tr.Fit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		v    float64
		want int
	}{{1, 0}, {-1, 1}, {2, 0}, {-3, 1}} {
		if got := m.PredictValues([][]string{{"x", "bias"}}, [][]float64{{tt.v, 1}}).Labels[0]; got != tt.want {
			t.Errorf("x:%g predicted %s, want %s", tt.v, labels[got], labels[tt.want])
		}
	}
	if _, err := PrepareValues(labels, train, attrs, values, Options{Task: Segmentation, Features: f, Trainer: "perceptron"}); err == nil {
		t.Error("segmentation accepted attribute values")
	}
}
