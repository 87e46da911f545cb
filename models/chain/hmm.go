package chain

import (
	"errors"
	"fmt"
)

// emissions designates, for the generative HMM baseline, which attributes
// are emission symbols and which one is on at every token.
type emissions struct {
	symbol  []int32 // per attribute id: its symbol, or −1
	symbols int
	bias    int32
}

// SetEmissions makes the model an HMM's emitter (trainers.EmissionCounter):
// symbol[a] is the emission symbol (0..S−1) of attribute a, −1 for
// attributes that are not symbols (a token has at most one symbol
// attribute: the word, in the citation and NER templates "w=<token>"),
// and bias an attribute on at every token ("bias" in both templates),
// whose weights carry the unknown-word emission. Set it before forking.
func (m *Model) SetEmissions(symbol []int32, bias int32) error {
	if len(symbol) != m.attrs {
		return fmt.Errorf("chain: %d emission symbols for %d attributes", len(symbol), m.attrs)
	}
	if bias < 0 || int(bias) >= m.attrs || symbol[bias] >= 0 {
		return fmt.Errorf("chain: bias attribute %d is not an attribute other than a symbol", bias)
	}
	e := &emissions{symbol: symbol, bias: bias}
	for _, s := range symbol {
		e.symbols = max(e.symbols, int(s)+1)
	}
	for i, x := range m.data {
		for t, attrs := range x.Attrs {
			n, on := 0, false
			for _, a := range attrs {
				if symbol[a] >= 0 {
					n++
				}
				on = on || a == bias
			}
			if n > 1 || !on {
				return fmt.Errorf("chain: instance %d token %d has %d symbol attributes and bias %v; want at most one and the bias", i, t, n, on)
			}
		}
	}
	m.hmm = e
	return nil
}

// HMMShape returns the number of emission symbols and of labels.
func (m *Model) HMMShape() (symbols, labels int, err error) {
	if m.hmm == nil {
		return 0, 0, errors.New("chain: no emission symbols designated (SetEmissions)")
	}
	if !m.edges {
		return 0, 0, errors.New("chain: an HMM needs transition features (edges)")
	}
	if m.pairs != nil {
		return 0, 0, errors.New("chain: an HMM needs every attribute × label weight (pairs all), not seen pairs")
	}
	return m.hmm.symbols, m.k, nil
}

// HMMTokens returns instance i's tokens' symbols (−1: none) and labels.
func (m *Model) HMMTokens(i int) (symbols []int32, labels []int) {
	x := m.data[i]
	symbols = make([]int32, len(x.Attrs))
	for t, attrs := range x.Attrs {
		symbols[t] = -1
		for _, a := range attrs {
			if s := m.hmm.symbol[a]; s >= 0 {
				symbols[t] = s
			}
		}
	}
	return symbols, x.Labels
}

// HMMWeights puts an HMM's log-probabilities into the model's weights: the
// bias attribute's are the unknown emission's, a symbol attribute's its
// emission's minus those (a token of a known symbol has both on), the
// transitions' the transition log-probabilities; the rest are 0.
func (m *Model) HMMWeights(logEmit [][]float64, logUnknown []float64, logTrans [][]float64) ([]float64, error) {
	if _, _, err := m.HMMShape(); err != nil {
		return nil, err
	}
	k := m.k
	if len(logEmit) != m.hmm.symbols || len(logUnknown) != k || len(logTrans) != k {
		return nil, fmt.Errorf("chain: HMM of %d symbols and %d labels for a model of %d and %d", len(logEmit), len(logUnknown), m.hmm.symbols, k)
	}
	w := make([]float64, m.Dim())
	copy(w[int(m.hmm.bias)*k:], logUnknown)
	for a, s := range m.hmm.symbol {
		if s < 0 {
			continue
		}
		for y := range k {
			w[a*k+y] = logEmit[s][y] - logUnknown[y]
		}
	}
	for prev, row := range logTrans {
		copy(w[m.attrs*k+prev*k:], row)
	}
	return w, nil
}
