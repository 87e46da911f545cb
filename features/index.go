package features

import (
	"fmt"
	"slices"
)

// Index numbers attribute strings densely from 0 in first-seen order. The
// zero value is an empty index ready to use.
type Index struct {
	ids   map[string]int32
	names []string
}

// NewIndex returns an empty index.
func NewIndex() *Index { return &Index{ids: make(map[string]int32)} }

// BuildIndex indexes every attribute of the given sequences (per sequence,
// per token, the attributes from [Extract]) in order of first appearance.
// Pass training sequences only: attributes first seen at test time must stay
// unknown.
func BuildIndex(seqs [][][]string) *Index {
	x := NewIndex()
	for _, seq := range seqs {
		for _, attrs := range seq {
			for _, a := range attrs {
				x.Add(a)
			}
		}
	}
	return x
}

// IndexOf returns the index whose ids are the positions of names, as
// Name lists them (a saved index read back); a name that appears twice is
// an error.
func IndexOf(names []string) (*Index, error) {
	x := &Index{ids: make(map[string]int32, len(names)), names: names}
	for i, n := range names {
		x.ids[n] = int32(i)
		if len(x.ids) != i+1 {
			return nil, fmt.Errorf("attribute %d %q repeats attribute %d", i, n, slices.Index(names, n))
		}
	}
	return x, nil
}

// Add returns the id of attr, assigning the next free id if it is new.
func (x *Index) Add(attr string) int32 {
	if id, ok := x.ids[attr]; ok {
		return id
	}
	if x.ids == nil {
		x.ids = make(map[string]int32)
	}
	id := int32(len(x.names))
	x.ids[attr] = id
	x.names = append(x.names, attr)
	return id
}

// Lookup returns the id of attr and whether it is indexed.
func (x *Index) Lookup(attr string) (int32, bool) {
	id, ok := x.ids[attr]
	return id, ok
}

// Len returns the number of indexed attributes; ids are 0..Len()-1.
func (x *Index) Len() int { return len(x.names) }

// Name returns the attribute with the given id; it panics if id is out of
// range, like a slice index.
func (x *Index) Name(id int32) string { return x.names[id] }

// Encode maps each token's attributes to the sorted, distinct ids of those
// that are indexed; unknown attributes are dropped, so a token may end up
// with no ids at all.
func (x *Index) Encode(attrs [][]string) [][]int32 {
	out := make([][]int32, len(attrs))
	for t, as := range attrs {
		ids := make([]int32, 0, len(as))
		for _, a := range as {
			if id, ok := x.ids[a]; ok {
				ids = append(ids, id)
			}
		}
		slices.Sort(ids)
		out[t] = slices.Compact(ids)
	}
	return out
}
