package features

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// NEROptions selects the named-entity and chunking templates of [NER].
type NEROptions struct {
	// Window copies the word, lower-cased word, shape and extra columns of
	// the neighbours at offsets -Window..+Window; 0 disables it.
	Window int
	// Affixes adds the lower-cased word's prefixes and suffixes of length
	// 1..Affixes; 0 disables them.
	Affixes int
}

// DefaultNEROptions returns Window 2 and Affixes 4.
func DefaultNEROptions() NEROptions { return NEROptions{Window: 2, Affixes: 4} }

// NER returns the attributes of every token of a sentence for named-entity
// recognition and chunking, in the spirit of the "standard word and
// sub-word features" of Crammer, McDonald & Pereira (2005) and of the
// Stanford NER feature factory that Sarawagi & Gupta (2008) used (which
// neither paper lists). columns[c][t] is extra column c of token t (e.g.
// the POS and chunk tags of a CoNLL file) and names[c] its name. Negative
// options count as 0.
//
//	attribute          value                                            example
//	bias               always
//	w=WORD, lw=LOWER   the token, and lower-cased                       "Jordan" → w=Jordan, lw=jordan
//	shape=, cshape=    X/x/d shape, and with runs collapsed             "U.S." → shape=X.X., cshape=X.X.
//	p1..pN=, s1..sN=   prefixes, suffixes of LOWER up to Affixes        "Jordan" → p2=jo, s3=dan
//	initcap allcaps    first letter upper; ≥ 2 letters all upper
//	mixedcaps          an upper-case letter after the first character   "McDonald"
//	hasdigit alldigits hyphen punct   digits; only digits; a '-'; no letter or digit
//	first              first token of the sentence
//	NAME=VALUE         each extra column                                pos=NNP, chunk=I-NP
//	±d:w= ±d:lw= ±d:shape= ±d:NAME=   the neighbour at offset d,       -1:lw=mr
//	                   1 ≤ |d| ≤ Window; ±d:BOS/EOS past the ends
//	bi-1=, bi+1=       lower-cased bigrams (previous, current), (current, next)
//
// What the Stanford set has and this one does not: gazetteers,
// distributional-similarity classes, long-distance (document) features
// and character n-grams beyond affixes. Label transitions are the model's
// edge features, not attributes.
func NER(tokens []string, columns [][]string, names []string, opt NEROptions) [][]string {
	n := len(tokens)
	window, affixes := max(opt.Window, 0), max(opt.Affixes, 0)
	lower := make([]string, n)
	local := make([][]string, n) // what neighbours see
	for t, tok := range tokens {
		lower[t] = strings.ToLower(tok)
		shape := wordShape(tok)
		attrs := make([]string, 0, 4+len(names))
		attrs = append(attrs, "w="+tok, "lw="+lower[t], "shape="+shape)
		for c, name := range names {
			if c < len(columns) && t < len(columns[c]) {
				attrs = append(attrs, name+"="+columns[c][t])
			}
		}
		local[t] = attrs
	}
	offsets := make([]string, 2*window+1)
	for d := -window; d <= window; d++ {
		if d < 0 {
			offsets[d+window] = strconv.Itoa(d) + ":"
		} else if d > 0 {
			offsets[d+window] = "+" + strconv.Itoa(d) + ":"
		}
	}
	out := make([][]string, n)
	for t, tok := range tokens {
		attrs := make([]string, 0, 16+2*affixes+len(local[t])*(2*window+1))
		attrs = append(attrs, "bias")
		attrs = append(attrs, local[t]...)
		attrs = append(attrs, "cshape="+collapse(wordShape(tok)))
		runes := []rune(lower[t])
		for k := 1; k <= affixes && k <= len(runes); k++ {
			attrs = append(attrs, "p"+strconv.Itoa(k)+"="+string(runes[:k]), "s"+strconv.Itoa(k)+"="+string(runes[len(runes)-k:]))
		}
		attrs = appendNERFlags(attrs, tok)
		if t == 0 {
			attrs = append(attrs, "first")
		}
		for d := -window; d <= window; d++ {
			switch u := t + d; {
			case d == 0:
			case u < 0:
				attrs = append(attrs, offsets[d+window]+"BOS")
			case u >= n:
				attrs = append(attrs, offsets[d+window]+"EOS")
			default:
				for _, a := range local[u] {
					attrs = append(attrs, offsets[d+window]+a)
				}
			}
		}
		prev, next := "<s>", "</s>"
		if t > 0 {
			prev = lower[t-1]
		}
		if t < n-1 {
			next = lower[t+1]
		}
		attrs = append(attrs, "bi-1="+prev+"|"+lower[t], "bi+1="+lower[t]+"|"+next)
		out[t] = attrs
	}
	return out
}

// appendNERFlags appends the capitalisation and character-class flags.
func appendNERFlags(attrs []string, tok string) []string {
	letters, uppers, digits, others := 0, 0, 0, 0
	laterUpper := false
	for i, r := range tok {
		switch {
		case unicode.IsLetter(r):
			letters++
			if unicode.IsUpper(r) {
				uppers++
				laterUpper = laterUpper || i > 0
			}
		case unicode.IsDigit(r):
			digits++
		default:
			others++
		}
	}
	first, _ := utf8.DecodeRuneInString(tok)
	flags := []struct {
		name string
		on   bool
	}{
		{"initcap", unicode.IsUpper(first)},
		{"allcaps", letters >= 2 && uppers == letters},
		{"mixedcaps", laterUpper && uppers < letters},
		{"hasdigit", digits > 0},
		{"alldigits", digits > 0 && digits == utf8.RuneCountInString(tok)},
		{"hyphen", strings.ContainsRune(tok, '-')},
		{"punct", letters == 0 && digits == 0},
	}
	for _, f := range flags {
		if f.on {
			attrs = append(attrs, f.name)
		}
	}
	return attrs
}

// BuildIndexMinCount is [BuildIndex] keeping only the attributes that occur
// at least minCount times in seqs (a frequency cut-off; minCount ≤ 1 keeps
// all, as BuildIndex does). Ids follow first appearance, as in BuildIndex.
func BuildIndexMinCount(seqs [][][]string, minCount int) *Index {
	if minCount <= 1 {
		return BuildIndex(seqs)
	}
	counts := make(map[string]int)
	for _, seq := range seqs {
		for _, attrs := range seq {
			for _, a := range attrs {
				counts[a]++
			}
		}
	}
	x := NewIndex()
	for _, seq := range seqs {
		for _, attrs := range seq {
			for _, a := range attrs {
				if counts[a] >= minCount {
					x.Add(a)
				}
			}
		}
	}
	return x
}
