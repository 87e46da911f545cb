package features

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"unicode"

	"github.com/maxmargin/repro/structpred"
)

// BagOfWords is a tf-idf bag of words fitted on a training part only:
// words are lower-cased tokens with at least one letter (punctuation and
// bare numbers are dropped); the vocabulary is the words of at least
// MinDF training documents, indexed in sorted order; a document's vector
// is tf·idf with tf the raw count and the smoothed idf = ln((1+N)/(1+df)) + 1
// (N training documents, df those containing the word), L2-normalised.
// These are scikit-learn's TfidfVectorizer defaults. Words unseen in
// training carry no feature.
type BagOfWords struct {
	words []string
	index map[string]int32
	idf   []float64
}

// normWord returns the lower-cased word and whether it counts.
func normWord(tok string) (string, bool) {
	if !strings.ContainsFunc(tok, unicode.IsLetter) {
		return "", false
	}
	return strings.ToLower(tok), true
}

// FitBagOfWords builds the vocabulary and idf from docs[train] alone.
func FitBagOfWords(docs [][]string, train []int, minDF int) (*BagOfWords, error) {
	if len(train) == 0 {
		return nil, fmt.Errorf("bag of words: no training documents")
	}
	df := map[string]int{}
	seen := map[int]bool{}
	for _, i := range train {
		if i < 0 || i >= len(docs) {
			return nil, fmt.Errorf("bag of words: training index %d outside [0, %d)", i, len(docs))
		}
		if seen[i] {
			return nil, fmt.Errorf("bag of words: training index %d given twice", i)
		}
		seen[i] = true
		inDoc := map[string]bool{}
		for _, tok := range docs[i] {
			if w, ok := normWord(tok); ok && !inDoc[w] {
				inDoc[w] = true
				df[w]++
			}
		}
	}
	b := &BagOfWords{index: map[string]int32{}}
	for w, n := range df {
		if n >= minDF {
			b.words = append(b.words, w)
		}
	}
	slices.Sort(b.words)
	n := float64(len(train))
	b.idf = make([]float64, len(b.words))
	for j, w := range b.words {
		b.index[w] = int32(j)
		b.idf[j] = math.Log((1+n)/(1+float64(df[w]))) + 1
	}
	return b, nil
}

// Dim returns the vocabulary's size.
func (b *BagOfWords) Dim() int { return len(b.words) }

// Word returns the word of feature j.
func (b *BagOfWords) Word(j int) string { return b.words[j] }

// Transform returns a document's L2-normalised tf-idf vector (empty if
// it has no known word).
func (b *BagOfWords) Transform(doc []string) structpred.SparseVec {
	tf := map[int32]float64{}
	for _, tok := range doc {
		if w, ok := normWord(tok); ok {
			if j, known := b.index[w]; known {
				tf[j]++
			}
		}
	}
	var v structpred.SparseVec
	for j := range tf {
		v.Idx = append(v.Idx, j)
	}
	slices.Sort(v.Idx)
	var norm float64
	v.Val = make([]float64, len(v.Idx))
	for e, j := range v.Idx {
		v.Val[e] = tf[j] * b.idf[j]
		norm += v.Val[e] * v.Val[e]
	}
	norm = math.Sqrt(norm)
	for e := range v.Val {
		v.Val[e] /= norm
	}
	return v
}

// TransformAll transforms every document.
func (b *BagOfWords) TransformAll(docs [][]string) []structpred.SparseVec {
	out := make([]structpred.SparseVec, len(docs))
	for i, d := range docs {
		out[i] = b.Transform(d)
	}
	return out
}
