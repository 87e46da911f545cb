// Package version names the code that produced a result. Results record it
// (runs.jsonl, unit files) so that cached units computed by other code are
// recognised; it must therefore change whenever the code does, also under
// `go run` and with -buildvcs=false, where Go stamps no VCS revision.
package version

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"sync"
)

// String returns the running program's code version:
//
//   - "<rev>" when the binary carries a clean VCS stamp (go build in a
//     clean checkout): the first 12 hex digits of the commit;
//   - "<rev>+dirty.<exe>" when the tree had local changes: the commit alone
//     would name different code, so a hash of the executable is added;
//   - "exe.<exe>" without a stamp (go run, -buildvcs=false, no git): a hash
//     of the executable, which changes with any change to the code compiled
//     into it (and with the Go toolchain and build flags, which can change
//     results too);
//   - "unknown" when even the executable cannot be read.
//
// <exe> is the first 12 hex digits of the SHA-256 of os.Executable's file.
// The result is computed once per process.
func String() string { return cached() }

var cached = sync.OnceValue(func() string {
	rev, dirty := vcsStamp()
	if rev != "" && !dirty {
		return rev
	}
	exe, err := executableHash()
	switch {
	case rev != "" && err != nil:
		return rev + "+dirty"
	case rev != "":
		return rev + "+dirty." + exe
	case err != nil:
		return "unknown"
	}
	return "exe." + exe
})

// Exact reports whether version v (a String value) names one build of the
// code: false for "unknown" and for "<rev>+dirty" without the
// executable's hash, which name no code in particular.
func Exact(v string) bool {
	return v != "" && v != "unknown" && !strings.HasSuffix(v, "+dirty")
}

// vcsStamp returns the commit the binary was built from, shortened to 12
// hex digits, and whether the tree was modified; "" without a stamp.
func vcsStamp() (rev string, dirty bool) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "", false
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	return rev, dirty
}

// executableHash fingerprints the running executable's content.
func executableHash() (string, error) {
	path, err := os.Executable()
	if err != nil {
		return "", err
	}
	return fileHash(path)
}

func fileHash(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)[:6]), nil
}
