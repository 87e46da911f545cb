package tagger

import (
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/chain"
	"github.com/maxmargin/repro/trainers"
)

// A log-linear trainer's predict: mpm changes how the model predicts, not
// what it trains: the weights are those of the same training without it,
// the model (and its file) records the rule, and every sentence is
// labelled by maximum posterior marginals at the trainer's β (mpm-beta1:
// at β = 1; chain.Model's PredictMPM, checked against enumeration in
// models/chain).
func TestPredictMPM(t *testing.T) {
	t.Parallel()
	text := nerFixture(3, 40, "iob2")
	d, err := ParseData(strings.NewReader(text), "train.txt", Format{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		trainer string
		rule    string
		params  trainers.Values
		beta    float64
	}{
		{trainers.CRFName, trainers.PredictMPM, trainers.Values{"C": 0.1}, 1},
		{trainers.EntropyMarginName, trainers.PredictMPM, trainers.Values{"C": 0.1, "beta": 0.3}, 0.3},
		{trainers.EntropyMarginName, trainers.PredictMPMBeta1, trainers.Values{"C": 0.1, "beta": 0.3}, 1},
	} {
		t.Run(tc.trainer+"/"+tc.rule, func(t *testing.T) {
			t.Parallel()
			mapModel, _, err := Train(t.Context(), d, Options{Trainer: tc.trainer, Params: tc.params})
			if err != nil {
				t.Fatal(err)
			}
			withMPM := trainers.Values{trainers.ParamPredict: tc.rule}
			for k, v := range tc.params {
				withMPM[k] = v
			}
			m, _, err := Train(t.Context(), d, Options{Trainer: tc.trainer, Params: withMPM})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(m.Weights, mapModel.Weights) {
				t.Fatal("predict: mpm changed the trained weights")
			}
			if got := m.Params[trainers.ParamPredict]; got != tc.rule {
				t.Errorf("model params: predict %v, want %s", got, tc.rule)
			}
			back, err := Decode(saved(t, m))
			if err != nil {
				t.Fatal(err)
			}
			dec, err := m.newDecoder()
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range d.Corpus.Sequences {
				attrs := m.Features.Extract(s.Tokens, s.Columns)
				got := m.PredictAttributes(attrs).Labels
				want := dec.chain.PredictMPM(chain.Instance{Attrs: m.index.Encode(attrs)}, m.Weights, tc.beta)
				if !slices.Equal(got, want) {
					t.Fatalf("%v: labels %v, maximum posterior marginals at β = %v %v", s.Tokens, got, tc.beta, want)
				}
				if loaded := back.PredictAttributes(attrs).Labels; !slices.Equal(loaded, got) {
					t.Fatalf("%v: the loaded model labels %v, the saved one %v", s.Tokens, loaded, got)
				}
			}
		})
	}
}

// predict: mpm needs a model with posterior marginals: the segmentation
// model has none, so it is refused before any data is read.
func TestPredictMPMNeedsMarginals(t *testing.T) {
	t.Parallel()
	v := trainers.Values{"C": 1.0, trainers.ParamPredict: trainers.PredictMPM}
	if err := Check(Sequence, trainers.CRFName, v); err != nil {
		t.Errorf("sequence: %v", err)
	}
	err := Check(Segmentation, trainers.CRFName, v)
	if err == nil || !strings.Contains(err.Error(), "maximum posterior marginals") {
		t.Errorf("segmentation: got %v, want an error naming maximum posterior marginals", err)
	}
}
