// Package readlimit reads files with a size bound and cancellation, so
// that a wrong path (/dev/zero, a named pipe, a multi-gigabyte file given
// in place of a config) costs an error naming the file and the bound, not
// all the machine's memory, and a Ctrl-C while reading stops the read.
// The bounds repro applies are stated in docs/limits.md.
package readlimit

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Bounds of the files repro reads whole. Each is far above any real file of
// its kind (the largest committed config is a few KiB, the largest unit
// file under 1 MiB) yet small enough to read into memory at once.
const (
	ConfigBytes = 4 << 20  // an experiment config (YAML)
	UnitBytes   = 64 << 20 // a unit file of the store (JSON)
	PlanBytes   = 1 << 30  // a plan (plan.jsonl: one line per unit)
	SplitBytes  = 1 << 30  // a split file (JSON or CSV indices)
	DataBytes   = 8 << 30  // a data file, after decompression
	ModelBytes  = 8 << 30  // a model file
)

// TooLargeError reports a file or stream longer than its bound.
type TooLargeError struct {
	Name  string // the file
	What  string // what kind of file, e.g. "config"
	Limit int64
}

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("%s: larger than the %s bound for a %s (is it the right file?)", e.Name, Size(e.Limit), e.What)
}

// Size renders a byte count as the bounds are stated: in KiB, MiB or GiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// ReadFile reads the file at path whole, failing with a *TooLargeError
// (wrapped with nothing else: it names the file) when it holds more than
// limit bytes, and with ctx's error once ctx is done. A file that cannot be
// opened gives os.Open's error, which names it too.
func ReadFile(ctx context.Context, path string, limit int64, what string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		if st.Size() > limit {
			return nil, &TooLargeError{Name: path, What: what, Limit: limit}
		}
		size = st.Size()
	}
	b, err := ReadAll(ctx, f, limit, int(size))
	var tl *TooLargeError
	if errors.As(err, &tl) {
		tl.Name, tl.What = path, what
		return nil, tl
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return b, nil
}

// ReadAll reads r to its end, failing with a *TooLargeError (whose Name and
// What the caller fills in) past limit bytes, and with ctx's error once ctx
// is done; sizeHint, if positive, is the expected size.
func ReadAll(ctx context.Context, r io.Reader, limit int64, sizeHint int) ([]byte, error) {
	n := 512
	if sizeHint > 0 {
		n = sizeHint + 1 // one more, to see the end without growing
	}
	b := make([]byte, 0, min(int64(n), limit+1))
	r = NewReader(ctx, io.LimitReader(r, limit+1))
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		k, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+k]
		if int64(len(b)) > limit {
			return nil, &TooLargeError{Limit: limit}
		}
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// NewReader returns a reader of r that fails with ctx's cause once ctx is
// done (checked before each read, so a read blocked on a pipe is not
// interrupted; a second Ctrl-C is for that).
func NewReader(ctx context.Context, r io.Reader) io.Reader {
	if ctx.Done() == nil {
		return r
	}
	return &ctxReader{ctx: ctx, r: r}
}

type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c *ctxReader) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.r.Read(p)
}

// LimitReader returns a reader of r that fails with a *TooLargeError naming
// name once more than limit bytes have been read: a streaming reader's
// whole-file bound (io.LimitReader would end the stream silently instead).
func LimitReader(r io.Reader, limit int64, name, what string) io.Reader {
	return &limitReader{r: r, left: limit, err: &TooLargeError{Name: name, What: what, Limit: limit}}
}

type limitReader struct {
	r    io.Reader
	left int64
	err  *TooLargeError
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.left < 0 {
		return 0, l.err
	}
	if int64(len(p)) > l.left+1 {
		p = p[:l.left+1]
	}
	n, err := l.r.Read(p)
	l.left -= int64(n)
	if l.left < 0 {
		return n, l.err
	}
	return n, err
}
