package experiments

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

// writeConfig writes text to path and loads it.
func writeConfig(t *testing.T, path, text string) *config.Config {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// A copied config that keeps its name must not overwrite the original's
// results; editing the original is fine; --force takes the directory over.
func TestRunRefusesAnotherConfigWithTheSameName(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	out := filepath.Join(root, "results", "small")
	orig := filepath.Join(root, "configs", "small.yaml")
	cfg := writeConfig(t, orig, smallConfig)
	if _, err := Run(context.Background(), cfg, Options{OutDir: out, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	readOwnerFile := func() store.Owner {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(out, store.OwnerFile))
		if err != nil {
			t.Fatal(err)
		}
		var o store.Owner
		if err := json.Unmarshal(b, &o); err != nil {
			t.Fatal(err)
		}
		return o
	}
	hash := func(text string) string {
		sum := sha256.Sum256([]byte(text))
		return hex.EncodeToString(sum[:])
	}
	if o := readOwnerFile(); o.Config != "../../configs/small.yaml" || o.SHA256 != hash(smallConfig) || o.Name != "small" {
		t.Errorf("owner record %+v", o)
	}
	before, err := os.ReadFile(filepath.Join(out, "runs.jsonl"))
	if err != nil {
		t.Fatal(err)
	}

	copied := strings.Replace(smallConfig, "seed: 5", "seed: 6", 1)
	other := writeConfig(t, filepath.Join(root, "mine", "small.yaml"), copied)
	_, err = Run(context.Background(), other, Options{OutDir: out, Workers: 2})
	if err == nil || !strings.Contains(err.Error(), "holds the results of config "+filepath.Join(out, "../../configs/small.yaml")) || !strings.Contains(err.Error(), "--force") {
		t.Fatalf("second config with the same name: err = %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(out, "runs.jsonl")); string(after) != string(before) {
		t.Error("refused run changed runs.jsonl")
	}

	edited := strings.Replace(smallConfig, "C: [0.1, 1]\n  - name: poslearn", "C: [0.1, 1] # edited\n  - name: poslearn", 1)
	cfg = writeConfig(t, orig, edited)
	if _, err := Run(context.Background(), cfg, Options{OutDir: out, Workers: 2}); err != nil {
		t.Fatalf("edited config refused: %v", err)
	}
	if o := readOwnerFile(); o.SHA256 != hash(edited) {
		t.Errorf("owner hash %s not updated to the edited config's", o.SHA256)
	}

	if _, err := Run(context.Background(), other, Options{OutDir: out, Workers: 2, Force: true}); err != nil {
		t.Fatalf("--force: %v", err)
	}
	if o := readOwnerFile(); o.Config != "../../mine/small.yaml" || o.SHA256 != hash(copied) {
		t.Errorf("after --force, owner record %+v", o)
	}
}
