package readlimit

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
)

func TestReadFile(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	small := filepath.Join(dir, "small.yaml")
	if err := os.WriteFile(small, []byte("name: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("interrupted by interrupt"))
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		path  string
		limit int64
		want  string // error substring; "" for success
	}{
		{"within the bound", context.Background(), small, 8, ""},
		{"regular file over the bound", context.Background(), small, 7, "small.yaml: larger than the 7 bytes bound for a config (is it the right file?)"},
		{"endless device", context.Background(), "/dev/zero", 1 << 20, "/dev/zero: larger than the 1 MiB bound for a config"},
		{"missing", context.Background(), filepath.Join(dir, "nope"), 8, "nope: no such file"},
		{"cancelled", cancelled, "/dev/zero", 1 << 30, "/dev/zero: interrupted by interrupt"},
	} {
		b, err := ReadFile(tc.ctx, tc.path, tc.limit, "config")
		switch {
		case tc.want == "" && (err != nil || string(b) != "name: x\n"):
			t.Errorf("%s: %q, %v", tc.name, b, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadAll: whatever the data, the bound and how the reader splits its
// reads, ReadAll returns the data when it fits the bound and a
// *TooLargeError when it does not; LimitReader agrees.
func FuzzReadAll(f *testing.F) {
	f.Add([]byte("hello"), uint16(5), uint8(0))
	f.Add([]byte("hello"), uint16(4), uint8(1))
	f.Add([]byte{}, uint16(0), uint8(2))
	f.Fuzz(func(t *testing.T, data []byte, bound uint16, split uint8) {
		limit := int64(bound)
		reader := func() io.Reader {
			switch split % 3 {
			case 1:
				return iotest.OneByteReader(bytes.NewReader(data))
			case 2:
				return iotest.HalfReader(bytes.NewReader(data))
			}
			return bytes.NewReader(data)
		}
		b, err := ReadAll(context.Background(), reader(), limit, int(split))
		var tl *TooLargeError
		fits := int64(len(data)) <= limit
		switch {
		case fits && (err != nil || !bytes.Equal(b, data)):
			t.Fatalf("%d bytes, bound %d: %v", len(data), limit, err)
		case !fits && !errors.As(err, &tl):
			t.Fatalf("%d bytes, bound %d: error %v", len(data), limit, err)
		}
		got, err := io.ReadAll(LimitReader(reader(), limit, "f", "data file"))
		switch {
		case fits && (err != nil || !bytes.Equal(got, data)):
			t.Fatalf("LimitReader: %d bytes, bound %d: %v", len(data), limit, err)
		case !fits && !errors.As(err, &tl):
			t.Fatalf("LimitReader: %d bytes, bound %d: error %v", len(data), limit, err)
		}
	})
}
