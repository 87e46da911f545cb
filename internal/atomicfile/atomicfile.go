// Package atomicfile writes files so that a reader never sees a half-written
// file and a crash leaves either the old content or the new: the data goes
// to a temporary file in the same directory, which is synced and then
// renamed over the target. Every file repro writes goes through here, so all
// of them get the same mode (0644: results are meant to be shared).
package atomicfile

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Mode is the permission of every file written by this package.
const Mode os.FileMode = 0o644

// WriteFile writes data to path atomically, creating its directory if needed.
func WriteFile(path string, data []byte) error {
	return Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Write streams write's output to path atomically, creating its directory if
// needed. If write fails, path is left as it was.
func Write(path string, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()           // may already be closed; the first error matters more
			os.Remove(f.Name()) // best effort
		}
	}()
	bw := bufio.NewWriter(f)
	if err := write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	// CreateTemp makes the file private.
	if err := f.Chmod(Mode); err != nil {
		return err
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
