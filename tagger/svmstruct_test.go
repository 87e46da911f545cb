package tagger

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/trainers"
)

// TestHMMThroughTheSequenceTask trains the registry's hmm on a column file:
// the sequence task designates the word attributes as its symbols, so it
// trains and fits the learnable fixture; segmentation's model has no
// symbols and is refused before anything trains, as are attributes with
// no bias to carry the unknown-word emission.
func TestHMMThroughTheSequenceTask(t *testing.T) {
	t.Parallel()
	text := nerFixture(3, 120, datasets.IOB2)
	m := trainText(t, text, Format{}, Options{Trainer: trainers.HMM})
	if got, want := columnOf(tagText(t, m, text), -1), columnOf(text, -1); !slices.Equal(got, want) {
		t.Fatalf("the HMM does not fit the fixture:\n%s", diffLines(got, want))
	}
	if m.Params["smoothing"] != 1.0 {
		t.Errorf("model params %v, want the resolved defaults", m.Params)
	}
	if err := Check(Segmentation, trainers.HMM, nil); err == nil || !strings.Contains(err.Error(), "emission") {
		t.Errorf("segmentation accepted the hmm trainer: %v", err)
	}
	if err := Check(Sequence, trainers.HMM, nil); err != nil {
		t.Errorf("sequence refused the hmm trainer: %v", err)
	}
	d, err := ParseData(strings.NewReader(text), "train.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	attrs := make([][][]string, len(d.Corpus.Sequences))
	for i, s := range d.Corpus.Sequences {
		for _, tok := range s.Tokens {
			attrs[i] = append(attrs[i], []string{"w=" + tok})
		}
	}
	f, _ := DefaultFeatures(NER)
	_, err = Prepare(d.Corpus.Labels, d.Corpus.Sequences, attrs, Options{Features: f, Trainer: trainers.HMM})
	if err == nil || !strings.Contains(err.Error(), `"bias"`) {
		t.Errorf("attributes without bias: %v, want an error naming it", err)
	}
}

// TestDegree2PredictsAsTrained checks that the pairs a model adds to a
// token through its index (expandPairs) are exactly those Prepare trained
// on (features.Pairs.Expand on the training part), for training tokens
// and with min counts that prune, and that a model file keeps the degree
// and predicts alike after a round trip.
func TestDegree2PredictsAsTrained(t *testing.T) {
	t.Parallel()
	train, err := ParseData(strings.NewReader(nerFixture(5, 60, datasets.IOB2)), "train.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	test, err := ParseData(strings.NewReader(nerFixture(6, 30, datasets.IOB2)), "test.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	for _, minCount := range []int{1, 3} {
		f, _ := DefaultFeatures(NER)
		f.Degree, f.MinCount = 2, minCount
		f.Columns = []string{"pos"}
		attrs := make([][][]string, len(train.Corpus.Sequences))
		for i, s := range train.Corpus.Sequences {
			attrs[i] = f.Extract(s.Tokens, s.Columns)
		}
		tr, err := Prepare(train.Corpus.Labels, train.Corpus.Sequences, attrs, Options{Features: f, Trainer: trainers.PerceptronName})
		if err != nil {
			t.Fatal(err)
		}
		pairs := features.BuildPairs(attrs, minCount)
		if pairs.Len() == 0 || tr.index.Len() != len(indexOf(attrs, minCount))+pairs.Len() {
			t.Fatalf("min count %d: %d attributes indexed, want %d and %d pairs", minCount, tr.index.Len(), len(indexOf(attrs, minCount)), pairs.Len())
		}
		for i, a := range attrs {
			want := tr.index.Encode(pairs.ExpandAll([][][]string{a})[0])
			if got := tr.index.Encode(expandPairs(tr.index, a)); !slices.EqualFunc(got, want, slices.Equal) {
				t.Fatalf("min count %d, sentence %d: the model's pairs differ from training's", minCount, i)
			}
		}
		m, _, err := tr.Fit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		m.Format = train.Format
		var buf bytes.Buffer
		if err := m.Save(&buf); err != nil {
			t.Fatal(err)
		}
		back, err := Decode(buf.Bytes())
		if err != nil {
			t.Fatal(err)
		}
		if back.Features.Degree != 2 {
			t.Fatalf("the model file lost the degree: %+v", back.Features)
		}
		for _, s := range test.Corpus.Sequences {
			if a, b := m.Predict(s.Tokens, s.Columns), back.Predict(s.Tokens, s.Columns); !slices.Equal(a.Labels, b.Labels) {
				t.Fatalf("min count %d: the saved model predicts %v, the trained one %v", minCount, b.Labels, a.Labels)
			}
		}
	}
}

// indexOf returns the attributes of attrs seen at least minCount times.
func indexOf(attrs [][][]string, minCount int) []string {
	x := features.BuildIndexMinCount(attrs, minCount)
	out := make([]string, x.Len())
	for i := range out {
		out[i] = x.Name(int32(i))
	}
	return out
}
