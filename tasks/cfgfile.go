package tasks

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/models/cfg"
	"github.com/maxmargin/repro/trainers"
)

// GrammarFormatVersion is the format version of cfg model files
// (internal/modelfile: versions are one sequence across tasks). The JSON
// header holds the training trees in bracketed form, from which the
// grammar is read again (deterministically: rules in the trees' order);
// the payload is one float64 weight per rule, little-endian.
const GrammarFormatVersion = 6

// grammarHeader is the JSON header of a cfg model file.
type grammarHeader struct {
	Task     string          `json:"task"`
	Trainer  string          `json:"trainer"`
	Params   trainers.Values `json:"params"`
	DataHash string          `json:"data_sha256"`
	Version  string          `json:"repro_version"`
	Rules    int             `json:"rules"`
	Trees    string          `json:"trees"`
}

// Save writes the parser's model file (see [GrammarFormatVersion]).
func (p *GrammarParser) Save(w io.Writer) error {
	if err := p.check(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	var trees bytes.Buffer
	if err := datasets.WritePhraseTrees(&trees, p.Trees); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return saveHeaderAndWeights(w, GrammarFormatVersion, grammarHeader{
		Task: CFGName, Trainer: p.Trainer, Params: p.Params, DataHash: p.DataHash, Version: p.Version,
		Rules: len(p.Weights), Trees: trees.String(),
	}, p.Weights)
}

// SaveFile writes the model file to path atomically.
func (p *GrammarParser) SaveFile(path string) error { return atomicfile.Write(path, p.Save) }

// DecodeGrammarParser parses the bytes of a cfg model file. A file of
// another version or task, truncated, corrupt or inconsistent (its trees
// give a grammar of another size than its weights) is an error wrapping
// modelfile.ErrFormat that says which.
func DecodeGrammarParser(b []byte) (*GrammarParser, error) {
	return decodeVersioned(b, GrammarFormatVersion, "cfg", decodeGrammarParser)
}

func decodeGrammarParser(r *bufio.Reader) (*GrammarParser, error) {
	h, err := readHeader[grammarHeader](r)
	if err != nil {
		return nil, err
	}
	if h.Task != CFGName {
		return nil, fmt.Errorf("header: task %q, want %s", h.Task, CFGName)
	}
	trees, err := datasets.ReadPhraseTrees(bytes.NewReader([]byte(h.Trees)), "header trees")
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	g, err := cfg.NewGrammar(trees)
	if err != nil {
		return nil, fmt.Errorf("header: %w", err)
	}
	if h.Rules != g.Rules() {
		return nil, fmt.Errorf("header: %d rules, but its trees give %d", h.Rules, g.Rules())
	}
	weights, err := readFinalWeights(r, h.Rules)
	if err != nil {
		return nil, err
	}
	p := &GrammarParser{Trainer: h.Trainer, Params: h.Params, DataHash: h.DataHash, Version: h.Version, Trees: trees, Weights: weights, grammar: g}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check validates a parser before it parses or is saved.
func (p *GrammarParser) check() error {
	switch {
	case p.grammar == nil:
		return fmt.Errorf("parser has no grammar")
	case p.grammar.Rules() != len(p.Weights):
		return fmt.Errorf("%d weights for %d rules", len(p.Weights), p.grammar.Rules())
	}
	for j, w := range p.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v", j, w)
		}
	}
	return nil
}
