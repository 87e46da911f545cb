package tasks

import (
	"bufio"
	"fmt"
	"io"
	"math"

	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/trainers"
)

// ClassifierFormatVersion is the format version of multiclass model files
// (internal/modelfile: versions are one sequence across tasks). The
// payload after the frame's JSON header is the weights, float64 each,
// little-endian, K·(D+1) of them class by class.
const ClassifierFormatVersion = 4

// classifierHeader is the JSON header of a multiclass model file.
type classifierHeader struct {
	Task     string          `json:"task"`
	Trainer  string          `json:"trainer"`
	Params   trainers.Values `json:"params"`
	DataHash string          `json:"data_sha256"`
	Version  string          `json:"repro_version"`
	Classes  []string        `json:"classes"`
	Features int             `json:"features"`
	Bias     float64         `json:"bias"`
	Cost     [][]float64     `json:"cost,omitempty"`
}

// Save writes the classifier's model file (see [ClassifierFormatVersion]).
func (m *Classifier) Save(w io.Writer) error {
	if err := m.check(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	if m.Embedding != nil || m.bow != nil {
		return fmt.Errorf("save model: the file format holds a flat classifier over given feature vectors; a taxonomy model or one over documents is not saved")
	}
	return saveHeaderAndWeights(w, ClassifierFormatVersion, classifierHeader{
		Task: MulticlassName, Trainer: m.Trainer, Params: m.Params, DataHash: m.DataHash, Version: m.Version,
		Classes: m.Classes, Features: m.Features, Bias: multiclassBias, Cost: m.Cost,
	}, m.Weights)
}

// SaveFile writes the model file to path atomically.
func (m *Classifier) SaveFile(path string) error { return atomicfile.Write(path, m.Save) }

// DecodeClassifier parses the bytes of a multiclass model file. A file of
// another version or task, truncated, corrupt or inconsistent is an error
// wrapping modelfile.ErrFormat that says which.
func DecodeClassifier(b []byte) (*Classifier, error) {
	return decodeVersioned(b, ClassifierFormatVersion, "multiclass", decodeClassifier)
}

func decodeClassifier(r *bufio.Reader) (*Classifier, error) {
	h, err := readHeader[classifierHeader](r)
	if err != nil {
		return nil, err
	}
	switch {
	case h.Task != MulticlassName:
		return nil, fmt.Errorf("header: task %q, want %s", h.Task, MulticlassName)
	case h.Features < 0 || h.Features >= math.MaxInt32 || len(h.Classes) < 1 || len(h.Classes) > math.MaxInt32/(h.Features+1):
		return nil, fmt.Errorf("header: %d classes of %d features", len(h.Classes), h.Features)
	case h.Bias != multiclassBias:
		return nil, fmt.Errorf("header: bias %v, this repro's is %v", h.Bias, multiclassBias)
	}
	weights, err := readFinalWeights(r, len(h.Classes)*(h.Features+1))
	if err != nil {
		return nil, err
	}
	m := &Classifier{
		Trainer: h.Trainer, Params: h.Params, DataHash: h.DataHash, Version: h.Version,
		Classes: h.Classes, Features: h.Features, Cost: h.Cost, Weights: weights,
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}
