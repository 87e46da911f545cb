package tagger

import (
	"cmp"
	"slices"

	"github.com/maxmargin/repro/features"
)

// encodeValued encodes one sequence's attributes through idx with their
// values (nil, or nil for a token, when every value is 1): per token the
// ids of the indexed attributes, sorted, each with its value. Unknown
// attributes are dropped, as features.Index.Encode drops them; a token's
// attributes are distinct (datasets.Attributes merges repeats), so its ids
// are. Without values it is idx.Encode and the values are nil.
func encodeValued(idx *features.Index, names [][]string, values [][]float64) ([][]int32, [][]float64) {
	if values == nil {
		return idx.Encode(names), nil
	}
	type pair struct {
		id int32
		v  float64
	}
	ids, vals := make([][]int32, len(names)), make([][]float64, len(names))
	for t, as := range names {
		if values[t] == nil {
			ids[t] = idx.Encode([][]string{as})[0]
			continue
		}
		ps := make([]pair, 0, len(as))
		for j, a := range as {
			if id, ok := idx.Lookup(a); ok {
				ps = append(ps, pair{id, values[t][j]})
			}
		}
		slices.SortFunc(ps, func(a, b pair) int { return cmp.Compare(a.id, b.id) })
		ids[t], vals[t] = make([]int32, len(ps)), make([]float64, len(ps))
		for j, p := range ps {
			ids[t][j], vals[t][j] = p.id, p.v
		}
	}
	return ids, vals
}

// valuesOf returns sequence i's values, nil when there are none.
func valuesOf(values [][][]float64, i int) [][]float64 {
	if values == nil {
		return nil
	}
	return values[i]
}
