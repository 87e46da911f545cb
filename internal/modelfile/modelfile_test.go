package modelfile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
)

// framed returns a model file of version v whose header is h, followed by
// weights w.
func framed(t *testing.T, v uint32, h any, w []float64) []byte {
	t.Helper()
	var b bytes.Buffer
	err := Write(&b, v, func(out io.Writer) error {
		buf, err := AppendHeader(nil, h)
		if err != nil {
			return err
		}
		_, err = out.Write(AppendWeights(buf, w))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestRoundTrip: the header and weights come back bit for bit, and Task
// names the header's task.
func TestRoundTrip(t *testing.T) {
	w := []float64{0, -1.5, 1e-300, 3}
	file := framed(t, 3, map[string]any{"task": "parsing", "n": 4}, w)
	if task, err := Task(file); err != nil || task != "parsing" {
		t.Fatalf("Task = %q, %v", task, err)
	}
	v, r, err := Open(file)
	if err != nil || v != 3 {
		t.Fatalf("Open: version %d, %v", v, err)
	}
	js, err := ReadHeader(r)
	if err != nil {
		t.Fatal(err)
	}
	var h struct {
		Task string `json:"task"`
		N    int    `json:"n"`
	}
	if err := DecodeHeader(js, &h); err != nil || h.N != 4 {
		t.Fatalf("header %+v, %v", h, err)
	}
	got, err := ReadWeights(r, h.N)
	if err != nil || !slices.Equal(got, w) {
		t.Fatalf("weights %v, %v", got, err)
	}
	if err := AtEnd(r); err != nil {
		t.Error(err)
	}
}

// TestOpenRefusesDamagedFiles: each damage is an ErrFormat saying which.
func TestOpenRefusesDamagedFiles(t *testing.T) {
	good := framed(t, 2, map[string]string{"task": "sequence"}, []float64{1})
	future := slices.Clone(good)
	binary.BigEndian.PutUint32(future[len(Magic):], Newest+1)
	flipped := slices.Clone(good)
	flipped[len(good)/2] ^= 1
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"not a model", []byte("EU NNP B-ORG\n"), "does not start with"},
		{"header only", good[:len(Magic)+2], "truncated in the header"},
		{"future version", future, fmt.Sprintf("format version %d; this repro reads versions 1 to %d only", Newest+1, Newest)},
		{"flipped", flipped, "checksum mismatch"},
		{"truncated", good[:len(good)-3], "checksum mismatch"},
		{"no task", framed(t, 2, map[string]int{"n": 1}, nil), "names no task"},
	} {
		_, err := Task(tc.file)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrFormat containing %q", tc.name, err, tc.want)
		}
	}
}

// TestReadLimits: a length beyond its limit and a stream that ends inside
// the weights are errors, without allocating what they claim.
func TestReadLimits(t *testing.T) {
	huge := binary.AppendUvarint(nil, MaxHeaderBytes+1)
	if _, err := ReadHeader(bufio.NewReader(bytes.NewReader(huge))); err == nil || !strings.Contains(err.Error(), "exceeds") {
		t.Errorf("huge header: %v", err)
	}
	if _, err := ReadWeights(bytes.NewReader(make([]byte, 12)), 1<<40); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("short weights: %v", err)
	}
}
