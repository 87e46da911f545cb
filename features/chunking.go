package features

import "strings"

// Chunking returns the attributes of every token of a sentence for noun
// phrase chunking: the observation predicates of Sha & Pereira (2003),
// "Shallow parsing with conditional random fields", Table 1, which Crammer,
// McDonald & Pereira (2005) use for their CoNLL-2000 NP chunking row.
// words[t] is token t and tags[t] its part-of-speech tag; positions past
// the ends read as <s> (before) and </s> (after).
//
//	attribute                 predicate (w: word, t: POS tag, at offset d from token i)
//	bias                      always
//	w[d]=W                    w_{i+d}, d ∈ {-2, …, 2}
//	ww[d]=W|W                 w_{i+d} w_{i+d+1}, d ∈ {-1, 0}
//	t[d]=T                    t_{i+d}, d ∈ {-2, …, 2}
//	tt[d]=T|T                 t_{i+d} t_{i+d+1}, d ∈ {-2, …, 1}
//	ttt[d]=T|T|T              t_{i+d} t_{i+d+1} t_{i+d+2}, d ∈ {-2, -1, 0}
//
// Sha & Pereira conjoin each predicate with the label y_i and with the
// label pair (y_{i-1}, y_i) of their second-order-state model. A first-order
// chain conjoins them with y_i only (its edge features are the label pairs
// alone), as Crammer et al.'s first-order model does. Words are kept as
// written (no lower-casing, no sub-word features), as in the table.
func Chunking(words, tags []string) [][]string {
	n := len(words)
	at := func(xs []string, u int) string {
		switch {
		case u < 0:
			return "<s>"
		case u >= n:
			return "</s>"
		case u >= len(xs):
			return ""
		}
		return xs[u]
	}
	offsets := [...]string{"-2", "-1", "0", "+1", "+2"}
	out := make([][]string, n)
	for i := range n {
		attrs := make([]string, 0, 1+5+2+5+4+3)
		attrs = append(attrs, "bias")
		for d := -2; d <= 2; d++ {
			attrs = append(attrs, "w["+offsets[d+2]+"]="+at(words, i+d))
		}
		for d := -1; d <= 0; d++ {
			attrs = append(attrs, "ww["+offsets[d+2]+"]="+at(words, i+d)+"|"+at(words, i+d+1))
		}
		for d := -2; d <= 2; d++ {
			attrs = append(attrs, "t["+offsets[d+2]+"]="+at(tags, i+d))
		}
		for d := -2; d <= 1; d++ {
			attrs = append(attrs, "tt["+offsets[d+2]+"]="+at(tags, i+d)+"|"+at(tags, i+d+1))
		}
		for d := -2; d <= 0; d++ {
			attrs = append(attrs, "ttt["+offsets[d+2]+"]="+strings.Join([]string{at(tags, i+d), at(tags, i+d+1), at(tags, i+d+2)}, "|"))
		}
		out[i] = attrs
	}
	return out
}
