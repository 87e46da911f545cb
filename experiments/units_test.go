package experiments

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/experiments/config"
	"github.com/maxmargin/repro/experiments/store"
)

// validUnit returns a unit result as runUnit stores it.
func validUnit() unitResult {
	u := unitSpec{Schema: store.SchemaVersion, Dataset: "synthetic", Task: config.TaskSequence, Trainer: "margin", C: 1, Split: 2, TrainFraction: 0.5, Phase: store.PhaseTest}
	return unitResult{Key: u.Key(), Spec: u, TrainSize: 20, EvalSize: 20, Metrics: map[string]float64{"token_error": 12.5, "span_f1": 80}, TrainSeconds: 0.1, Iterations: 3, Primal: 1, Dual: 0.9, Gap: 0.1, Version: "v1"}
}

// edit applies a textual edit to an encoded unit file.
func edit(t *testing.T, b []byte, old, new string) []byte {
	t.Helper()
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%q not in %s", old, b)
	}
	return bytes.Replace(b, []byte(old), []byte(new), 1)
}

// withoutChecksum re-encodes a unit file as written before checksums.
func withoutChecksum(t *testing.T, b []byte) []byte {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "checksum")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDecodeUnitRejectsInvalidFiles(t *testing.T) {
	t.Parallel()
	good := validUnit()
	key := good.Key
	enc, err := store.Encode(good)
	if err != nil {
		t.Fatal(err)
	}
	otherSchema := good
	otherSchema.Spec.Schema = store.SchemaVersion + 1
	otherSchema.Key = otherSchema.Spec.Key()
	otherEnc, _ := store.Encode(otherSchema)
	legacy := withoutChecksum(t, enc)
	// A file from before metrics were data: token_error and span_f1 at
	// the top.
	oldForm := edit(t, legacy, `"metrics":{"span_f1":80,"token_error":12.5}`, `"span_f1":80,"token_error":12.5`)
	for _, tc := range []struct {
		name string
		file []byte
		key  string
		want string // "" for valid
	}{
		{"valid", enc, key, ""},
		{"valid without checksum", legacy, key, ""},
		{"token error edited", edit(t, enc, `"token_error": 12.5`, `"token_error": 99`), key, "checksum does not match"},
		{"spec edited", edit(t, enc, `"C": 1`, `"C": 10`), key, "checksum does not match"},
		{"null metric", edit(t, oldForm, `"token_error":12.5`, `"token_error":null`), key, `"token_error" is missing or null`},
		{"missing metric", edit(t, oldForm, `"span_f1":80,`, ``), key, `"span_f1" is missing or null`},
		{"empty metrics", edit(t, legacy, `{"span_f1":80,"token_error":12.5}`, `{}`), key, `"metrics" is empty`},
		{"out of range, no checksum", edit(t, legacy, `"token_error":12.5`, `"token_error":150`), key, "token_error = 150 is not a percentage"},
		{"negative F1, no checksum", edit(t, legacy, `"span_f1":80`, `"span_f1":-1`), key, "span_f1 = -1 is not a percentage"},
		{"unknown metric, no checksum", edit(t, legacy, `"span_f1":80`, `"span_f2":80`), key, `unknown metric "span_f2"`},
		{"old form without checksum", oldForm, key, ""},
		{"empty training set, no checksum", edit(t, legacy, `"train_size":20`, `"train_size":0`), key, "both must be positive"},
		{"spec edited, no checksum", edit(t, legacy, `"C":1`, `"C":10`), key, "does not hash to its key"},
		{"another unit's file", enc, "0123456789abcdef", "want \"0123456789abcdef\""},
		{"old schema", otherEnc, otherSchema.Key, fmt.Sprintf("schema %d, current is %d", store.SchemaVersion+1, store.SchemaVersion)},
		{"truncated", enc[:len(enc)/2], key, "does not parse"},
		{"garbage", []byte("\x00\x01garbage"), key, "does not parse"},
		{"wrong type", edit(t, legacy, `"train_size":20`, `"train_size":"20"`), key, "does not decode"},
	} {
		res, unsummed, err := store.Decode(tc.file, tc.key)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want == "" && (res.Metrics["token_error"] != good.Metrics["token_error"] || res.Key != key):
			t.Errorf("%s: decoded %+v", tc.name, res)
		case tc.want == "" && unsummed != strings.Contains(tc.name, "without checksum"):
			t.Errorf("%s: unsummed = %v", tc.name, unsummed)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: err = %v, want %q", tc.name, err, tc.want)
		}
	}
}

// A cached unit edited by hand is recomputed with a warning naming the
// file, and the results are those of the untouched run.
func TestRunRecomputesEditedUnit(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	want := metricView(readRuns(t, dir))
	p := unitPath(t, dir, "margin", 0)
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var res unitResult
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"token_error": `+jsonNumber(t, res.Metrics["token_error"])), []byte(`"token_error": 99`), 1)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	out, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if out.Computed != 1 {
		t.Errorf("computed %d units, want the edited one", out.Computed)
	}
	if !strings.Contains(log.String(), "warning: "+p+": checksum does not match the content (edited or damaged); recomputing it") {
		t.Errorf("no warning naming %s in:\n%s", filepath.Base(p), log.String())
	}
	if got := metricView(readRuns(t, dir)); !equalViews(got, want) {
		t.Errorf("results after recomputing differ:\n%v\n%v", got, want)
	}
}

func jsonNumber(t *testing.T, v float64) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// A unit file without its checksum (written before unit files had one, or
// one whose checksum was removed along with an edit) is not trusted: it is
// computed again, with a warning naming the file, and the edited number
// does not reach the results.
func TestRunRecomputesUnitsWithoutChecksum(t *testing.T) {
	t.Parallel()
	cfg := mustConfig(t, smallConfig)
	dir := t.TempDir()
	if _, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2}); err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(dir, "units", "*.json"))
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, withoutChecksum(t, b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	out, err := Run(context.Background(), cfg, Options{OutDir: dir, Workers: 2, Progress: &log})
	if err != nil {
		t.Fatal(err)
	}
	if out.Computed != 12 || out.Cached != 0 {
		t.Errorf("computed %d, cached %d; want 12 and 0", out.Computed, out.Cached)
	}
	for _, p := range paths[:1] {
		if want := p + ": has no checksum, so an edit cannot be ruled out; recomputing it"; !strings.Contains(log.String(), want) {
			t.Errorf("no %q in:\n%s", want, log.String())
		}
	}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil || !bytes.Contains(b, []byte(`"checksum"`)) {
			t.Errorf("%s not rewritten with a checksum (%v)", p, err)
		}
	}
}
