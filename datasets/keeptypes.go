package datasets

import (
	"fmt"
	"slices"
	"strings"
)

// KeepTypes maps every chunk of a type outside keep to O in a chunk
// corpus (internal labels "O", "B-T", "I-T"; see [BIOLabels]): NP chunking
// on the CoNLL-2000 files, whose other chunk types Crammer et al. (2005)
// and Sha & Pereira (2003) treat as outside. The label list becomes O and
// the kept types, in their corpus order; the segments of the dropped types
// go. Mapping whole chunks to O leaves every remaining chunk as it was, so
// the labels stay valid in every scheme. A kept type the corpus does not
// have is an error (a typo would otherwise leave no chunk at all).
func KeepTypes(c *Corpus, keep []string) error {
	if len(c.Labels) == 0 || c.Labels[0] != "O" || len(c.Labels)%2 != 1 {
		return fmt.Errorf("keep_types: the labels %v are not chunk labels (O, B-T, I-T)", c.Labels)
	}
	var types []string
	for i := 1; i < len(c.Labels); i += 2 {
		t, ok := strings.CutPrefix(c.Labels[i], "B-")
		if !ok || c.Labels[i+1] != "I-"+t {
			return fmt.Errorf("keep_types: the labels %v are not chunk labels (O, B-T, I-T)", c.Labels)
		}
		types = append(types, t)
	}
	for _, k := range keep {
		if !slices.Contains(types, k) {
			return fmt.Errorf("keep_types: chunk type %q is not in the corpus (its types: %s)", k, strings.Join(types, ", "))
		}
	}
	remap := make([]int, len(c.Labels)) // old label id → new, 0 (O) for dropped types
	labels := []string{"O"}
	for k, t := range types {
		if slices.Contains(keep, t) {
			remap[1+2*k], remap[2+2*k] = len(labels), len(labels)+1
			labels = append(labels, "B-"+t, "I-"+t)
		}
	}
	for i := range c.Sequences {
		s := &c.Sequences[i]
		for t, id := range s.Labels {
			s.Labels[t] = remap[id]
		}
		segs := s.Segments[:0:0]
		for _, g := range s.Segments {
			if g.Label = remap[g.Label]; g.Label != 0 {
				segs = append(segs, g)
			}
		}
		s.Segments = segs
	}
	c.Labels = labels
	return nil
}
