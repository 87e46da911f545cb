package tagger

import (
	"reflect"
	"testing"

	"github.com/maxmargin/repro/features"
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
