package version

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// Test binaries carry no VCS stamp, so the version is the executable's hash,
// never the constant "devel" that hid code changes under go run.
func TestStringIsAFingerprint(t *testing.T) {
	v := String()
	if !regexp.MustCompile(`^(exe\.[0-9a-f]{12}|[0-9a-f]{1,12}(\+dirty(\.[0-9a-f]{12})?)?)$`).MatchString(v) {
		t.Fatalf("version %q is not a fingerprint", v)
	}
	if rev, _ := vcsStamp(); rev == "" {
		exe, err := executableHash()
		if err != nil || v != "exe."+exe {
			t.Errorf("version %q, executable hash %q (%v)", v, exe, err)
		}
	}
	if String() != v {
		t.Error("version changed within a process")
	}
}

// Different content gives different fingerprints.
func TestFileHashFollowsContent(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("code 1"), 0o644)
	os.WriteFile(b, []byte("code 2"), 0o644)
	ha, errA := fileHash(a)
	hb, errB := fileHash(b)
	if errA != nil || errB != nil || ha == hb || len(ha) != 12 {
		t.Errorf("hashes %q %q (%v %v)", ha, hb, errA, errB)
	}
}

func TestExact(t *testing.T) {
	for _, tc := range []struct {
		v    string
		want bool
	}{
		{"0123456789ab", true},
		{"0123456789ab+dirty.ba9876543210", true},
		{"exe.ba9876543210", true},
		{"0123456789ab+dirty", false},
		{"unknown", false},
		{"", false},
	} {
		if got := Exact(tc.v); got != tc.want {
			t.Errorf("Exact(%q) = %v, want %v", tc.v, got, tc.want)
		}
	}
}
