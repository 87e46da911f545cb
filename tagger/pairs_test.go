package tagger

import (
	"bytes"
	"errors"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// A sequence model with seen pairs has fewer weights than the full model
// (every attribute with the labels it was seen with, plus transitions),
// round-trips through its file with its pairs table, and tags as saved;
// pairs all is the default and is stored as before pairs existed.
func TestSeenPairsModelFile(t *testing.T) {
	t.Parallel()
	text := nerFixture(2, 30, "iob1")
	d, err := ParseData(strings.NewReader(text), "train.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	feats, err := DefaultFeatures(NER)
	if err != nil {
		t.Fatal(err)
	}
	all, _, err := Train(t.Context(), d, Options{Trainer: "crf", Params: trainers.Values{"C": 10.0}, Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	feats.Pairs = PairsAll
	stated, _, err := Train(t.Context(), d, Options{Trainer: "crf", Params: trainers.Values{"C": 10.0}, Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	if stated.Features.Pairs != "" || !bytes.Equal(saved(t, stated), saved(t, all)) {
		t.Errorf("pairs %s stated: features %+v; the file differs from the default's", PairsAll, stated.Features)
	}
	feats.Pairs = PairsSeen
	m, _, err := Train(t.Context(), d, Options{Trainer: "crf", Params: trainers.Values{"C": 10.0}, Features: feats})
	if err != nil {
		t.Fatal(err)
	}
	k := len(m.Labels)
	if got, full := len(m.Weights), chain.Dim(m.NumAttributes(), k, true); got != m.pairs.Len()+k*k || got >= full {
		t.Errorf("%d weights with seen pairs (%d pairs), the full model %d", got, m.pairs.Len(), full)
	}
	path := filepath.Join(t.TempDir(), "seen.repro")
	if err := m.SaveFile(path); err != nil {
		t.Fatal(err)
	}
	back, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(back.pairs, m.pairs) || !slices.Equal(back.Weights, m.Weights) || !reflect.DeepEqual(back.Features, m.Features) {
		t.Error("pairs, weights or features differ after loading")
	}
	if got, want := tagText(t, back, text), tagText(t, m, text); got != want {
		t.Error("the loaded model tags differently")
	}
	if got, want := columnOf(tagText(t, m, text), -1), columnOf(text, -1); !slices.Equal(got, want) {
		t.Error("the seen-pairs CRF does not fit its separable training data")
	}
	// A file whose header and pairs table disagree is refused.
	bad := &Model{
		Task: m.Task, Features: m.Features, Format: m.Format, Labels: m.Labels,
		Trainer: m.Trainer, Params: m.Params, Weights: m.Weights, index: m.index,
	}
	bad.Features.Pairs = ""
	var buf bytes.Buffer
	if err := frame(&buf, bad.writePayload); err != nil {
		t.Fatal(err)
	}
	if _, err := Decode(buf.Bytes()); !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "weights") {
		t.Errorf("pairs table dropped: %v, want ErrFormat about weights", err)
	}
}

func TestSeenPairsRefusals(t *testing.T) {
	t.Parallel()
	d, err := ParseData(strings.NewReader(coraFixture(6, 10)), "refs.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	feats, err := DefaultFeatures(Citation)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		task, pairs, want string
	}{
		{Segmentation, PairsSeen, "only the sequence task"},
		{Sequence, "some", `pairs "some"`},
	} {
		feats.Pairs = tc.pairs
		_, _, err := Train(t.Context(), d, Options{Task: tc.task, Trainer: "perceptron", Features: feats})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s, pairs %q: error %v, want one mentioning %q", tc.task, tc.pairs, err, tc.want)
		}
	}
}
