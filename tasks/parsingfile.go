package tasks

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/trainers"
)

// ParserFormatVersion is the format version of parsing model files
// (internal/modelfile: versions are one sequence across tasks). The
// payload after the frame's JSON header:
//
//	feature hashes   uint64 each, little-endian, in id order
//	weights          float64 each, little-endian, one per feature
//
// Arc features are 64-bit hashes (features.Dependency), so the index is
// its hashes, 8 bytes a feature, and a loaded parser encodes a sentence's
// arcs exactly as the trained one did.
const ParserFormatVersion = 3

// parserHeader is the JSON header of a parsing model file.
type parserHeader struct {
	Task       string          `json:"task"`
	Trainer    string          `json:"trainer"`
	Params     trainers.Values `json:"params"`
	DataHash   string          `json:"data_sha256"`
	Version    string          `json:"repro_version"`
	CoarseTags bool            `json:"coarse_tags"`
	Decoder    string          `json:"decoder,omitempty"`
	Features   int             `json:"features"`
}

// Save writes the parser's model file (see [ParserFormatVersion]).
func (p *Parser) Save(w io.Writer) error {
	if err := p.check(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	err := modelfile.Write(w, ParserFormatVersion, func(w io.Writer) error {
		buf, err := modelfile.AppendHeader(nil, parserHeader{
			Task: ParsingName, Trainer: p.Trainer, Params: p.Params, DataHash: p.DataHash,
			Version: p.Version, CoarseTags: p.CoarseTags, Decoder: p.Decoder, Features: p.index.Len(),
		})
		if err != nil {
			return err
		}
		for _, h := range p.index.Hashes() {
			buf = binary.LittleEndian.AppendUint64(buf, h)
		}
		_, err = w.Write(modelfile.AppendWeights(buf, p.Weights))
		return err
	})
	if err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return nil
}

// SaveFile writes the model file to path atomically (a reader never sees
// half a file, and a failed write leaves an old file as it was).
func (p *Parser) SaveFile(path string) error { return atomicfile.Write(path, p.Save) }

// DecodeParser parses the bytes of a parsing model file. A file of
// another version or task, truncated, corrupt or inconsistent is an error
// wrapping modelfile.ErrFormat that says which.
func DecodeParser(b []byte) (*Parser, error) {
	return decodeVersioned(b, ParserFormatVersion, "parsing", decodeParser)
}

func decodeParser(r *bufio.Reader) (*Parser, error) {
	h, err := readHeader[parserHeader](r)
	if err != nil {
		return nil, err
	}
	switch {
	case h.Task != ParsingName:
		return nil, fmt.Errorf("header: task %q, want %s", h.Task, ParsingName)
	case h.Features < 0:
		return nil, fmt.Errorf("header: %d features", h.Features)
	}
	// The count bounds what is read, not what is allocated up front.
	var hashes []uint64
	var buf [8]byte
	for len(hashes) < h.Features {
		if _, err := io.ReadFull(r, buf[:]); err != nil {
			return nil, fmt.Errorf("feature hash %d of %d: %w", len(hashes), h.Features, modelfile.Unexpected(err))
		}
		hashes = append(hashes, binary.LittleEndian.Uint64(buf[:]))
	}
	index, err := features.HashIndexOf(hashes)
	if err != nil {
		return nil, err
	}
	weights, err := readFinalWeights(r, h.Features)
	if err != nil {
		return nil, err
	}
	p := &Parser{
		Trainer: h.Trainer, Params: h.Params, DataHash: h.DataHash, Version: h.Version,
		CoarseTags: h.CoarseTags, Decoder: h.Decoder, Weights: weights, index: index,
	}
	if err := p.check(); err != nil {
		return nil, err
	}
	return p, nil
}

// check validates a parser before it parses or is saved: a weight per
// feature, all finite.
func (p *Parser) check() error {
	if p.index == nil {
		return fmt.Errorf("parser has no feature index")
	}
	if p.Decoder != "" && p.Decoder != DecoderILP {
		return fmt.Errorf("unknown decoder %q (known: %s)", p.Decoder, DecoderILP)
	}
	if len(p.Weights) != p.index.Len() {
		return fmt.Errorf("%d weights for %d features", len(p.Weights), p.index.Len())
	}
	for j, w := range p.Weights {
		if math.IsNaN(w) || math.IsInf(w, 0) {
			return fmt.Errorf("weight %d is %v", j, w)
		}
	}
	return nil
}
