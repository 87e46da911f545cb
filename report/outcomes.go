package report

import "fmt"

// Outcomes are one run's results on its test set sentence by sentence, in
// test-set order, so that two runs on the same test set can be compared
// sentence by sentence and token by token (McNemar's test, a paired
// bootstrap) where there is a single split and no t-test over splits.
type Outcomes struct {
	Tokens    []int `json:"tokens"`     // tokens per sentence
	Wrong     []int `json:"wrong"`      // wrongly labelled tokens per sentence
	TrueSpans []int `json:"true_spans"` // true spans (chunks) per sentence
	PredSpans []int `json:"pred_spans"` // predicted spans per sentence
	Matched   []int `json:"matched"`    // predicted spans that are true, per sentence
	// TokenOK is a bit per token over all sentences in order (bit i of
	// byte i/8, least significant first): 1 if the token's label is right.
	// Base64 (standard encoding) in JSON.
	TokenOK []byte `json:"token_ok"`
	n       int
}

// Add appends one sentence: whether each token is right, and its span
// counts.
func (o *Outcomes) Add(tokenOK []bool, trueSpans, predSpans, matched int) {
	if o.n == 0 && len(o.Tokens) > 0 { // read back from JSON
		o.n = o.NumTokens()
	}
	wrong := 0
	for _, ok := range tokenOK {
		if o.n%8 == 0 {
			o.TokenOK = append(o.TokenOK, 0)
		}
		if ok {
			o.TokenOK[o.n/8] |= 1 << (o.n % 8)
		} else {
			wrong++
		}
		o.n++
	}
	o.Tokens = append(o.Tokens, len(tokenOK))
	o.Wrong = append(o.Wrong, wrong)
	o.TrueSpans = append(o.TrueSpans, trueSpans)
	o.PredSpans = append(o.PredSpans, predSpans)
	o.Matched = append(o.Matched, matched)
}

// NumTokens returns the number of tokens over all sentences.
func (o *Outcomes) NumTokens() int {
	n := 0
	for _, t := range o.Tokens {
		n += t
	}
	return n
}

// TokenRight reports whether token i (over all sentences, in order) is
// labelled right.
func (o *Outcomes) TokenRight(i int) bool { return o.TokenOK[i/8]&(1<<(i%8)) != 0 }

// Check reports whether the outcomes are consistent: equal lengths, a bit
// per token, and counts within bounds.
func (o *Outcomes) Check() error {
	n := len(o.Tokens)
	if len(o.Wrong) != n || len(o.TrueSpans) != n || len(o.PredSpans) != n || len(o.Matched) != n {
		return fmt.Errorf("outcomes: per-sentence lists of different lengths")
	}
	tokens := o.NumTokens()
	if len(o.TokenOK) != (tokens+7)/8 {
		return fmt.Errorf("outcomes: %d token bits for %d tokens", 8*len(o.TokenOK), tokens)
	}
	at := 0
	for s := range n {
		wrong := 0
		for t := range o.Tokens[s] {
			if !o.TokenRight(at + t) {
				wrong++
			}
		}
		at += o.Tokens[s]
		if wrong != o.Wrong[s] || o.Matched[s] > o.TrueSpans[s] || o.Matched[s] > o.PredSpans[s] || o.Matched[s] < 0 {
			return fmt.Errorf("outcomes: sentence %d: inconsistent counts", s)
		}
	}
	return nil
}

// Same reports whether a and b are outcomes on the same test set (same
// sentence lengths and true spans), so that they can be paired.
func (o *Outcomes) Same(b *Outcomes) bool {
	if len(o.Tokens) != len(b.Tokens) {
		return false
	}
	for i := range o.Tokens {
		if o.Tokens[i] != b.Tokens[i] || o.TrueSpans[i] != b.TrueSpans[i] {
			return false
		}
	}
	return true
}
