// Package modelfile is the frame every model file shares, whatever its
// task: the magic line, the format version, a gzip stream of the task's
// payload (opening with a JSON header that names the task) and a SHA-256
// of everything before it. Tasks own their payloads; this package only
// frames them, so that one reader can tell a file's task (and refuse a
// damaged file) before any task decodes it.
//
//	"repro-model\n"           12 bytes, the magic
//	format version            uint32, big-endian
//	gzip stream of:
//	  header length, header   uvarint, JSON with at least {"task": ...}
//	  the task's payload
//	SHA-256                   32 bytes, of everything before it
//
// Format versions are one sequence across tasks, so that a repro that
// predates a layout names its version instead of misreading it: 1 and 2
// are the sequence and segmentation layouts (package tagger), 3 is the
// parsing layout, 4 the multiclass one. A new layout of any task takes the next number.
package modelfile

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"

	"github.com/maxmargin/repro/internal/readlimit"
)

// Magic opens every model file; it is text so that `head -c 12` shows it.
const Magic = "repro-model\n"

// Newest is the newest format version any task writes.
const Newest = 6

// MaxHeaderBytes bounds a header's length: a header is a few hundred bytes
// of metadata, and a corrupt length must not make a reader allocate
// without bound.
const MaxHeaderBytes = 1 << 20

// ErrFormat marks a file that is not a readable model file: another
// version, truncated, corrupt, or not a model file.
var ErrFormat = errors.New("not a readable model file")

// Write frames payload: the magic, version, the gzip'd (fastest level)
// output of payload and the checksum.
func Write(w io.Writer, version uint32, payload func(io.Writer) error) error {
	sum := sha256.New()
	out := io.MultiWriter(w, sum)
	if _, err := io.WriteString(out, Magic); err != nil {
		return err
	}
	if err := binary.Write(out, binary.BigEndian, version); err != nil {
		return err
	}
	zw, err := gzip.NewWriterLevel(out, gzip.BestSpeed)
	if err != nil {
		return err
	}
	if err := payload(zw); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	_, err = w.Write(sum.Sum(nil))
	return err
}

// Open checks a file's frame (magic, a version from 1 to [Newest], the
// checksum) and returns its version and a reader of its uncompressed
// payload. Errors wrap [ErrFormat].
func Open(b []byte) (uint32, *bufio.Reader, error) {
	head := len(Magic) + 4
	switch {
	case len(b) < len(Magic) || string(b[:len(Magic)]) != Magic:
		return 0, nil, fmt.Errorf("%w: it does not start with the model file header %q", ErrFormat, Magic)
	case len(b) < head:
		return 0, nil, fmt.Errorf("%w: truncated in the header (%d bytes)", ErrFormat, len(b))
	}
	v := binary.BigEndian.Uint32(b[len(Magic):head])
	if v < 1 || v > Newest {
		return 0, nil, fmt.Errorf("%w: model file format version %d; this repro reads versions 1 to %d only (train the model again, or use the repro that wrote it)", ErrFormat, v, Newest)
	}
	if len(b) < head+sha256.Size {
		return 0, nil, fmt.Errorf("%w: truncated (%d bytes)", ErrFormat, len(b))
	}
	body, sum := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if got := sha256.Sum256(body); !bytes.Equal(got[:], sum) {
		return 0, nil, fmt.Errorf("%w: checksum mismatch: the file is truncated or corrupt", ErrFormat)
	}
	zr, err := gzip.NewReader(bytes.NewReader(body[head:]))
	if err != nil {
		return 0, nil, fmt.Errorf("%w: payload: %w", ErrFormat, err)
	}
	zr.Multistream(false)
	return v, bufio.NewReaderSize(zr, 64<<10), nil
}

// Task returns the task a model file's header names, after checking its
// frame as [Open] does.
func Task(b []byte) (string, error) {
	_, r, err := Open(b)
	if err != nil {
		return "", err
	}
	js, err := ReadHeader(r)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrFormat, err)
	}
	var h struct {
		Task string `json:"task"`
	}
	if err := json.Unmarshal(js, &h); err != nil {
		return "", fmt.Errorf("%w: header: %w", ErrFormat, err)
	}
	if h.Task == "" {
		return "", fmt.Errorf("%w: header names no task", ErrFormat)
	}
	return h.Task, nil
}

// AppendHeader appends a header's uvarint length and its JSON to buf.
func AppendHeader(buf []byte, header any) ([]byte, error) {
	js, err := json.Marshal(header)
	if err != nil {
		return nil, err
	}
	buf = binary.AppendUvarint(buf, uint64(len(js)))
	return append(buf, js...), nil
}

// ReadHeader reads a header's length and its JSON bytes.
func ReadHeader(r *bufio.Reader) ([]byte, error) {
	n, err := ReadLength(r, MaxHeaderBytes, "header")
	if err != nil {
		return nil, err
	}
	js := make([]byte, n)
	if _, err := io.ReadFull(r, js); err != nil {
		return nil, fmt.Errorf("header: %w", Unexpected(err))
	}
	return js, nil
}

// DecodeHeader decodes a header's JSON into h, refusing unknown fields.
func DecodeHeader(js []byte, h any) error {
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.DisallowUnknownFields()
	if err := dec.Decode(h); err != nil {
		return fmt.Errorf("header: %w", err)
	}
	return nil
}

// AppendWeights appends weights as little-endian float64s: exact, and
// fast to read back.
func AppendWeights(buf []byte, w []float64) []byte {
	for _, x := range w {
		buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(x))
	}
	return buf
}

// ReadWeights reads n little-endian float64s, a buffer at a time; n only
// bounds what is read, never what is allocated up front, so that a wrong
// count cannot make the reader allocate more than the file holds.
func ReadWeights(r io.Reader, n int) ([]float64, error) {
	weights := []float64{}
	buf := make([]byte, 8<<10)
	for len(weights) < n {
		chunk := buf[:8*min(n-len(weights), len(buf)/8)]
		if _, err := io.ReadFull(r, chunk); err != nil {
			return nil, fmt.Errorf("weights %d.. of %d: %w", len(weights), n, Unexpected(err))
		}
		for b := chunk; len(b) > 0; b = b[8:] {
			weights = append(weights, math.Float64frombits(binary.LittleEndian.Uint64(b)))
		}
	}
	return weights, nil
}

// ReadLength reads a uvarint length of at most limit.
func ReadLength(r io.ByteReader, limit uint64, what string) (int, error) {
	n, err := binary.ReadUvarint(r)
	if err != nil {
		return 0, fmt.Errorf("%s length: %w", what, Unexpected(err))
	}
	if n > limit {
		return 0, fmt.Errorf("%s length %d exceeds %d", what, n, limit)
	}
	return int(n), nil
}

// AtEnd reports an error unless r has nothing left.
func AtEnd(r io.ByteReader) error {
	if _, err := r.ReadByte(); err != io.EOF {
		if err == nil {
			return errors.New("data after the weights")
		}
		return fmt.Errorf("payload: %w", err)
	}
	return nil
}

// Unexpected turns an end of the stream inside a field into
// io.ErrUnexpectedEOF.
func Unexpected(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// ReadFile reads a model file's bytes, stopping once ctx is done. A file
// that does not start with the magic is refused (an error wrapping
// ErrFormat) before the rest is read, and one over readlimit.ModelBytes
// with an error naming the bound.
func ReadFile(ctx context.Context, path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("load model: %w", err)
	}
	defer f.Close()
	head := make([]byte, len(Magic))
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, fmt.Errorf("load model: %s: %w", path, err)
	}
	if string(head[:n]) != Magic {
		_, _, err := Open(head[:n])
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	rest, err := readlimit.ReadAll(ctx, f, readlimit.ModelBytes-int64(n), 0)
	var tl *readlimit.TooLargeError
	if errors.As(err, &tl) {
		return nil, &readlimit.TooLargeError{Name: path, What: "model file", Limit: readlimit.ModelBytes}
	}
	if err != nil {
		return nil, fmt.Errorf("load model: %s: %w", path, err)
	}
	return append(head, rest...), nil
}
