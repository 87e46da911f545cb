package tagger

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/atomicfile"
	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/internal/readlimit"
	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/models/segment"
	"github.com/maxmargin/repro/trainers"
)

// FormatVersion is the model file format this package writes. Bump it
// when the layout or the meaning of a field changes, to the next version
// no task has used (internal/modelfile.Newest+1): files of another
// version are refused with an error that says so, except version 1, whose
// segmentation weights were laid out block by block (models/segment's
// layout before version 2) and are reordered when read. A sequence model
// with seen attribute–label pairs (Features.Pairs) adds its pairs table to
// the version-2 payload; its header says so (features.pairs), which a
// repro that predates pairs refuses as an unknown field rather than
// misread, so the version stays 2 and every other file is as it was.
const FormatVersion = 2

// magic opens every model file (internal/modelfile frames them).
const magic = modelfile.Magic

// Limits on what the reader accepts before it allocates, so that a corrupt
// or hostile file cannot make it allocate without bound: the header is a
// few hundred bytes, attributes are short strings.
const maxAttributeBytes = 1 << 16

// ErrFormat marks a file that is not a readable model file of this format
// version: another version, truncated, corrupt, or not a model file.
var ErrFormat = modelfile.ErrFormat

// header is the metadata of a model file, as JSON.
type header struct {
	Task             string          `json:"task"`
	Features         Features        `json:"features"`
	Format           Format          `json:"format"`
	Labels           []string        `json:"labels"`
	Trainer          string          `json:"trainer"`
	Params           trainers.Values `json:"params"`
	DataHash         string          `json:"data_sha256"`
	Version          string          `json:"repro_version"`
	MaxSegmentLength int             `json:"max_segment_length,omitempty"`
	Decoder          string          `json:"decoder,omitempty"`
	Attributes       int             `json:"attributes"`
	Weights          int             `json:"weights"`
}

// Save writes the model file: the magic line, the format version (uint32,
// big-endian), a gzip stream of the payload (the JSON header, each
// attribute string with its uvarint length, in id order; with seen pairs,
// each attribute's labels as a uvarint count and uvarint label ids; and the
// weights as little-endian float64s) and the SHA-256 of everything before it.
func (m *Model) Save(w io.Writer) error {
	if err := m.check(); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	if err := frame(w, m.writePayload); err != nil {
		return fmt.Errorf("save model: %w", err)
	}
	return nil
}

// frame writes the magic, the version, the gzip'd output of payload and
// the checksum (internal/modelfile).
func frame(w io.Writer, payload func(io.Writer) error) error {
	return modelfile.Write(w, FormatVersion, payload)
}

// writePayload writes the uncompressed payload.
func (m *Model) writePayload(w io.Writer) error {
	h := header{
		Task: m.Task, Features: m.Features, Format: m.Format, Labels: m.Labels,
		Trainer: m.Trainer, Params: m.Params, DataHash: m.DataHash, Version: m.Version,
		MaxSegmentLength: m.MaxSegmentLength, Decoder: m.Decoder, Attributes: m.index.Len(), Weights: len(m.Weights),
	}
	buf, err := modelfile.AppendHeader(nil, h)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if _, err := bw.Write(buf); err != nil {
		return err
	}
	for a := range m.index.Len() {
		name := m.index.Name(int32(a))
		buf = binary.AppendUvarint(buf[:0], uint64(len(name)))
		buf = append(buf, name...)
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	if m.pairs != nil {
		if err := writePairs(bw, m.pairs); err != nil {
			return err
		}
	}
	for ws := m.Weights; len(ws) > 0; ws = ws[min(len(ws), 1024):] {
		buf = modelfile.AppendWeights(buf[:0], ws[:min(len(ws), 1024)])
		if _, err := bw.Write(buf); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// writePairs writes each attribute's labels: a uvarint count, then the
// label ids as uvarints.
func writePairs(w io.Writer, p *chain.Pairs) error {
	var buf []byte
	for a := range len(p.Start) - 1 {
		labels := p.Label[p.Start[a]:p.Start[a+1]]
		buf = binary.AppendUvarint(buf[:0], uint64(len(labels)))
		for _, y := range labels {
			buf = binary.AppendUvarint(buf, uint64(y))
		}
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// readPairs reads the pairs table of numAttrs attributes over k labels
// (see writePairs); Model.check checks its order.
func readPairs(r *bufio.Reader, numAttrs, k int) (*chain.Pairs, error) {
	p := &chain.Pairs{Start: make([]int32, 1, min(numAttrs+1, 1<<16))}
	for a := range numAttrs {
		n, err := modelfile.ReadLength(r, uint64(k), "attribute's labels")
		if err != nil {
			return nil, fmt.Errorf("pairs of attribute %d: %w", a, err)
		}
		for range n {
			y, err := modelfile.ReadLength(r, uint64(k-1), "label")
			if err != nil {
				return nil, fmt.Errorf("pairs of attribute %d: %w", a, err)
			}
			p.Label = append(p.Label, int32(y))
		}
		p.Start = append(p.Start, int32(len(p.Label)))
	}
	return p, nil
}

// SaveFile writes the model file to path atomically (a reader never sees
// half a file, and a failed write leaves an old file as it was).
func (m *Model) SaveFile(path string) error {
	return atomicfile.Write(path, m.Save)
}

// LoadFile reads a model file written by [Model.SaveFile].
func LoadFile(path string) (*Model, error) {
	return LoadFileContext(context.Background(), path)
}

// LoadFileContext is [LoadFile] that stops reading once ctx is done. A file
// that does not start with the model file header is refused before the
// rest is read, and one over readlimit.ModelBytes with an error naming the
// bound.
func LoadFileContext(ctx context.Context, path string) (*Model, error) {
	b, err := modelfile.ReadFile(ctx, path)
	if err != nil {
		return nil, err // it names path
	}
	m, err := Decode(b)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return m, nil
}

// Load reads a model file from r (see [Model.Save]), refusing a stream
// over readlimit.ModelBytes.
func Load(r io.Reader) (*Model, error) {
	b, err := readlimit.ReadAll(context.Background(), r, readlimit.ModelBytes, 0)
	var tl *readlimit.TooLargeError
	if errors.As(err, &tl) {
		return nil, &readlimit.TooLargeError{Name: "load model", What: "model file", Limit: readlimit.ModelBytes}
	}
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	return Decode(b)
}

// Decode parses the bytes of a model file. A file of another format
// version, a truncated or corrupt file, or one that is no model file is
// an error wrapping [ErrFormat] that says which.
func Decode(b []byte) (*Model, error) {
	v, r, err := modelfile.Open(b)
	if err != nil {
		return nil, err
	}
	if v != FormatVersion && v != 1 {
		return nil, fmt.Errorf("%w: model file format version %d, not a sequence or segmentation model's; this repro reads those in versions 1 to %d only", ErrFormat, v, FormatVersion)
	}
	m, err := decodePayload(r, v)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return m, nil
}

// decodePayload reads the payload of a model file of format version v and
// checks the model.
func decodePayload(r *bufio.Reader, v uint32) (*Model, error) {
	js, err := modelfile.ReadHeader(r)
	if err != nil {
		return nil, err
	}
	var h header
	if err := modelfile.DecodeHeader(js, &h); err != nil {
		return nil, err
	}
	if h.Attributes < 0 || h.Weights < 0 {
		return nil, fmt.Errorf("header: negative counts (%d attributes, %d weights)", h.Attributes, h.Weights)
	}
	// Counts from the header only bound what is read, never what is
	// allocated up front, so that a wrong count cannot make the reader
	// allocate more than the file holds.
	var names []string
	for a := range h.Attributes {
		n, err := modelfile.ReadLength(r, maxAttributeBytes, "attribute")
		if err != nil {
			return nil, fmt.Errorf("attribute %d: %w", a, err)
		}
		name := make([]byte, n)
		if _, err := io.ReadFull(r, name); err != nil {
			return nil, fmt.Errorf("attribute %d: %w", a, modelfile.Unexpected(err))
		}
		names = append(names, string(name))
	}
	index, err := features.IndexOf(names)
	if err != nil {
		return nil, err
	}
	var pairs *chain.Pairs
	if h.Features.Pairs == PairsSeen {
		if pairs, err = readPairs(r, index.Len(), len(h.Labels)); err != nil {
			return nil, err
		}
	}
	weights, err := modelfile.ReadWeights(r, h.Weights)
	if err != nil {
		return nil, err
	}
	if err := modelfile.AtEnd(r); err != nil {
		return nil, err
	}
	m := &Model{
		Task: h.Task, Features: h.Features, Format: h.Format, Labels: h.Labels,
		Trainer: h.Trainer, Params: h.Params, DataHash: h.DataHash, Version: h.Version,
		MaxSegmentLength: h.MaxSegmentLength, Decoder: h.Decoder, Weights: weights, index: index, pairs: pairs,
	}
	if v == 1 && m.Task == Segmentation && len(weights) == segment.Dim(index.Len(), len(m.Labels), m.Features.Edges) {
		segment.FromBlockMajor(weights, index.Len(), len(m.Labels))
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	return m, nil
}
