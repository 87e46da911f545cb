package store

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/maxmargin/repro/experiments/config"
)

// OwnerFile records, in an output directory, which config file writes it:
// the file's path (relative to the directory, so that a clone of the
// repository agrees) and the SHA-256 of its content when last run. Another
// config file with the same name would otherwise overwrite the directory's
// results silently.
const OwnerFile = ".owner.json"

// Owner is the record in OwnerFile.
type Owner struct {
	Config string `json:"config"`           // path of the config file, relative to the directory
	SHA256 string `json:"sha256,omitempty"` // of its content; empty for a config parsed from memory
	Name   string `json:"name"`             // the config's name
}

// ClaimOwner checks that cfg may write dir and records it as dir's owner.
// The same config file (edited or not) may; another file is refused unless
// force, because it would replace the other experiment's results. A
// directory without a record (written before records existed) is claimed.
func ClaimOwner(dir string, cfg *config.Config, src []byte, force bool, log io.Writer) error {
	me, err := OwnerOf(dir, cfg, src)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, OwnerFile)
	prev, err := readOwner(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil && !force:
		return fmt.Errorf("%w; use --force to take the directory over", err)
	case err != nil:
	case !sameConfig(dir, prev.Config, me.Config) && !force:
		return fmt.Errorf("output directory %s holds the results of config %s (name %q), not of %s, which may not replace them: "+
			"give it another name, write elsewhere with --out, or use --force to replace them",
			dir, filepath.Join(dir, prev.Config), prev.Name, cfg.File())
	case !sameConfig(dir, prev.Config, me.Config) && log != nil:
		fmt.Fprintf(log, "repro: --force: taking over %s from config %s\n", dir, filepath.Join(dir, prev.Config))
	}
	b, err := json.MarshalIndent(me, "", "  ")
	if err != nil {
		return err
	}
	return writeFileAtomic(path, append(b, '\n'))
}

// OwnerOf describes cfg as an owner of dir.
func OwnerOf(dir string, cfg *config.Config, src []byte) (Owner, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return Owner{}, err
	}
	absCfg, err := filepath.Abs(cfg.File())
	if err != nil {
		return Owner{}, err
	}
	rel, err := filepath.Rel(absDir, absCfg)
	if err != nil {
		rel = absCfg
	}
	o := Owner{Config: filepath.ToSlash(rel), Name: cfg.Name}
	if src != nil {
		sum := sha256.Sum256(src)
		o.SHA256 = hex.EncodeToString(sum[:])
	}
	return o, nil
}

func readOwner(path string) (Owner, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Owner{}, err
	}
	var o Owner
	if err := json.Unmarshal(b, &o); err != nil || o.Config == "" {
		return Owner{}, fmt.Errorf("%s does not say which config wrote the directory (damaged?)", path)
	}
	return o, nil
}

// sameConfig reports whether two owner paths (relative to dir, or absolute)
// name the same file: by identity when both exist, else by cleaned path.
func sameConfig(dir, a, b string) bool {
	resolve := func(p string) string {
		p = filepath.FromSlash(p)
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		return filepath.Clean(p)
	}
	a, b = resolve(a), resolve(b)
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(sa, sb)
	}
	return a == b
}
