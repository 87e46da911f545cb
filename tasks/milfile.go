package tasks

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/trainers"
)

// BagClassifierFormatVersion is the format version of multiple-instance
// model files (internal/modelfile: versions are one sequence across
// tasks). The payload after the frame's JSON header is the D+1 weights,
// float64 each, little-endian.
const BagClassifierFormatVersion = 5

type bagClassifierHeader struct {
	Task     string          `json:"task"`
	Trainer  string          `json:"trainer"`
	Params   trainers.Values `json:"params"`
	Version  string          `json:"repro_version"`
	Features int             `json:"features"`
	Beta     float64         `json:"beta"`
}

// Save writes the model file (see [BagClassifierFormatVersion]).
func (m *BagClassifier) Save(w io.Writer) error {
	if err := m.check(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return saveHeaderAndWeights(w, BagClassifierFormatVersion, bagClassifierHeader{
		Task: MILName, Trainer: m.Trainer, Params: m.Params, Version: m.Version, Features: m.Features, Beta: m.Beta,
	}, m.Weights)
}

// SaveFile writes the model file to path atomically.
func (m *BagClassifier) SaveFile(path string) error { return atomicfile.Write(path, m.Save) }

// DecodeBagClassifier parses the bytes of a multiple-instance model file;
// a file of another version or task, truncated, corrupt or inconsistent is
// an error wrapping modelfile.ErrFormat.
func DecodeBagClassifier(b []byte) (*BagClassifier, error) {
	return decodeVersioned(b, BagClassifierFormatVersion, "mil", decodeBagClassifier)
}

func decodeBagClassifier(r *bufio.Reader) (*BagClassifier, error) {
	h, err := readHeader[bagClassifierHeader](r)
	if err != nil {
		return nil, err
	}
	if h.Task != MILName || h.Features < 0 || h.Features >= math.MaxInt32 {
		return nil, fmt.Errorf("header: task %q with %d features, want %s", h.Task, h.Features, MILName)
	}
	weights, err := readFinalWeights(r, h.Features+1)
	if err != nil {
		return nil, err
	}
	m := &BagClassifier{Trainer: h.Trainer, Params: h.Params, Version: h.Version, Features: h.Features, Beta: h.Beta, Weights: weights}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}
