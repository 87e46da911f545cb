package tagger

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/internal/modelfile"
)

// smallModel trains a perceptron on a small fixture.
func smallModel(t testing.TB) (*Model, string) {
	t.Helper()
	text := nerFixture(2, 30, "iob1")
	d, err := ParseData(strings.NewReader(text), "train.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := Train(t.Context(), d, Options{Trainer: "perceptron"})
	if err != nil {
		t.Fatal(err)
	}
	return m, text
}

func saved(t testing.TB, m *Model) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestSaveLoadRoundTrip: a loaded model has the saved one's metadata,
// attributes and weights bit for bit, tags every sentence alike, and
// saving it again gives the same bytes.
func TestSaveLoadRoundTrip(t *testing.T) {
	t.Parallel()
	m, text := smallModel(t)
	path := filepath.Join(t.TempDir(), "model.repro")
	if err := m.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []struct {
		name      string
		got, want any
	}{
		{"task", back.Task, m.Task}, {"features", back.Features, m.Features}, {"format", back.Format, m.Format},
		{"labels", back.Labels, m.Labels}, {"trainer", back.Trainer, m.Trainer}, {"data hash", back.DataHash, m.DataHash},
		{"version", back.Version, m.Version}, {"attributes", back.NumAttributes(), m.NumAttributes()},
	} {
		if !reflect.DeepEqual(f.got, f.want) {
			t.Errorf("%s: loaded %v, saved %v", f.name, f.got, f.want)
		}
	}
	if len(back.Params) != len(m.Params) {
		t.Errorf("params: loaded %v, saved %v", back.Params, m.Params)
	}
	for a := range m.NumAttributes() {
		if back.Attribute(a) != m.Attribute(a) {
			t.Fatalf("attribute %d: loaded %q, saved %q", a, back.Attribute(a), m.Attribute(a))
		}
	}
	if !slices.Equal(back.Weights, m.Weights) {
		t.Fatal("weights differ after loading")
	}
	if got, want := tagText(t, back, text), tagText(t, m, text); got != want {
		t.Error("the loaded model tags differently")
	}
	if !bytes.Equal(saved(t, back), saved(t, m)) {
		t.Error("saving the loaded model gives other bytes")
	}
}

// TestDecodeRefusesDamagedFiles: another format version, a wrong magic,
// truncation anywhere and any flipped byte are errors wrapping ErrFormat
// that say which.
func TestDecodeRefusesDamagedFiles(t *testing.T) {
	t.Parallel()
	m, _ := smallModel(t)
	good := saved(t, m)
	if _, err := Decode(good); err != nil {
		t.Fatal(err)
	}
	other := slices.Clone(good)
	binary.BigEndian.PutUint32(other[len(magic):], modelfile.Newest+1)
	// A layout of another task (parsing's), framed and checksummed as such.
	var parsing bytes.Buffer
	if err := modelfile.Write(&parsing, modelfile.Newest, m.writePayload); err != nil {
		t.Fatal(err)
	}
	flipped := slices.Clone(good)
	flipped[len(good)/2] ^= 0x40
	for _, tc := range []struct {
		name string
		file []byte
		want string
	}{
		{"another version", other, fmt.Sprintf("format version %d", modelfile.Newest+1)},
		{"another task's version", parsing.Bytes(), fmt.Sprintf("format version %d, not a sequence or segmentation model's", modelfile.Newest)},
		{"not a model", []byte("EU NNP B-ORG\n"), "does not start with"},
		{"empty", nil, "does not start with"},
		{"header only", good[:len(magic)+2], "truncated"},
		{"truncated", good[:len(good)-1], "checksum"},
		{"half", good[:len(good)/2], "checksum"},
		{"flipped byte", flipped, "checksum"},
		{"appended byte", append(slices.Clone(good), 0), "checksum"},
	} {
		_, err := Decode(tc.file)
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrFormat mentioning %q", tc.name, err, tc.want)
		}
	}
}

// TestDecodeChecksThePayload: a file with a valid checksum but a payload
// that contradicts itself is refused by the payload's checks.
func TestDecodeChecksThePayload(t *testing.T) {
	t.Parallel()
	m, _ := smallModel(t)
	for _, tc := range []struct {
		name string
		edit func(m *Model)
		want string
	}{
		{"weights", func(m *Model) { m.Weights = m.Weights[:len(m.Weights)-1] }, "weights"},
		{"task", func(m *Model) { m.Task = "parsing" }, "unknown task"},
		{"labels", func(m *Model) { m.Labels = append(slices.Clone(m.Labels), m.Labels[0]) }, "twice"},
		{"format", func(m *Model) { m.Format.Scheme = "bilou" }, "label encoding"},
		{"features", func(m *Model) { m.Features.Kind = "pixels" }, "feature kind"},
		{"label table", func(m *Model) {
			m.index, m.Features.Edges, m.Weights, m.Labels = features.NewIndex(), false, nil, nil
			for l := range 300 {
				m.Labels = append(m.Labels, fmt.Sprint(l))
			}
		}, "300 labels, but only 0 weights"},
		{"segment length", func(m *Model) { m.MaxSegmentLength = 3 }, "no maximum segment length"},
	} {
		bad := &Model{
			Task: m.Task, Features: m.Features, Format: m.Format, Labels: slices.Clone(m.Labels),
			Trainer: m.Trainer, Params: m.Params, Weights: slices.Clone(m.Weights), index: m.index,
		}
		tc.edit(bad)
		var buf bytes.Buffer
		if err := frame(&buf, bad.writePayload); err != nil {
			t.Fatal(err)
		}
		_, err := Decode(buf.Bytes())
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want ErrFormat mentioning %q", tc.name, err, tc.want)
		}
	}
}

// A version-1 file stored a segmentation model's weights block by block;
// it loads with them reordered, and tags as the model that was saved. A
// version-1 sequence model's weights are read as they are.
func TestDecodeReadsVersion1(t *testing.T) {
	t.Parallel()
	d, err := ParseData(strings.NewReader(coraFixture(6, 30)), "refs.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	for _, task := range []string{Sequence, Segmentation} {
		m, _, err := Train(t.Context(), d, Options{Task: task, Trainer: "perceptron"})
		if err != nil {
			t.Fatal(err)
		}
		old := &Model{
			Task: m.Task, Features: m.Features, Format: m.Format, Labels: m.Labels,
			Trainer: m.Trainer, Params: m.Params, DataHash: m.DataHash, Version: m.Version,
			MaxSegmentLength: m.MaxSegmentLength, Weights: slices.Clone(m.Weights), index: m.index,
		}
		if task == Segmentation {
			// Version 1's layout: block b, attribute a, label c at (b·A + a)·K + c.
			a, k := m.NumAttributes(), len(m.Labels)
			for b := range 5 {
				for id := range a {
					copy(old.Weights[(b*a+id)*k:][:k], m.Weights[(id*5+b)*k:][:k])
				}
			}
		}
		file := saved(t, old)
		binary.BigEndian.PutUint32(file[len(magic):], 1)
		sum := sha256.Sum256(file[:len(file)-sha256.Size])
		copy(file[len(file)-sha256.Size:], sum[:])
		got, err := Decode(file)
		if err != nil {
			t.Fatalf("%s: %v", task, err)
		}
		if !slices.Equal(got.Weights, m.Weights) {
			t.Errorf("%s: version-1 weights not read in this version's layout", task)
		}
		tokens := []string{"A.", "Smith,", "learning", "models", "2004."}
		if g, w := got.Predict(tokens, nil), m.Predict(tokens, nil); !reflect.DeepEqual(g, w) {
			t.Errorf("%s: tagged %v, the saved model %v", task, g, w)
		}
	}
}
