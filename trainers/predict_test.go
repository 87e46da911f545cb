package trainers

import (
	"errors"
	"maps"
	"testing"
)

// predict is map (unset), mpm or mpm-beta1 for both log-linear trainers; a
// stated map resolves to unset, so that spelling the default out changes no
// unit key, and MPM reads the rule and its β back from resolved params: the
// trainer's for mpm, 1 for mpm-beta1.
func TestPredictParam(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		trainer  string
		v        Values
		resolved string // the resolved predict param
		beta     float64
		mpm      bool
		wrong    bool
	}{
		{trainer: CRFName, v: Values{"C": 1.0}},
		{trainer: CRFName, v: Values{"C": 1.0, ParamPredict: PredictMAP}},
		{trainer: CRFName, v: Values{"C": 1.0, ParamPredict: PredictMPM}, resolved: PredictMPM, beta: 1, mpm: true},
		{trainer: EntropyMarginName, v: Values{"C": 1.0, "beta": 0.3, ParamPredict: PredictMPM}, resolved: PredictMPM, beta: 0.3, mpm: true},
		{trainer: EntropyMarginName, v: Values{"C": 1.0, "beta": 10.0, ParamPredict: PredictMAP}},
		{trainer: EntropyMarginName, v: Values{"C": 1.0, "beta": 10.0, ParamPredict: PredictMPMBeta1}, resolved: PredictMPMBeta1, beta: 1, mpm: true},
		{trainer: CRFName, v: Values{"C": 1.0, ParamPredict: PredictMPMBeta1}, resolved: PredictMPMBeta1, beta: 1, mpm: true},
		{trainer: CRFName, v: Values{"C": 1.0, ParamPredict: "viterbi"}, wrong: true},
		{trainer: EntropyMarginName, v: Values{"C": 1.0, "beta": 1.0, ParamPredict: "MPM"}, wrong: true},
	} {
		err := Validate(tt.trainer, tt.v)
		var pe *ParamError
		if tt.wrong {
			if !errors.As(err, &pe) || pe.Key != ParamPredict {
				t.Errorf("%s %v: error %v, want one at %q", tt.trainer, tt.v, err, ParamPredict)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s %v: %v", tt.trainer, tt.v, err)
			continue
		}
		r, err := Resolve(tt.trainer, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if r[ParamPredict] != tt.resolved {
			t.Errorf("%s %v: resolved predict %q, want %q", tt.trainer, tt.v, r[ParamPredict], tt.resolved)
		}
		beta, mpm := MPM(tt.trainer, r)
		if mpm != tt.mpm || beta != tt.beta {
			t.Errorf("%s %v: MPM = %v, %v; want %v, %v", tt.trainer, tt.v, beta, mpm, tt.beta, tt.mpm)
		}
	}
	// Another trainer has no such param, and MPM ignores a stray one.
	if err := Validate(Margin, Values{"C": 1.0, ParamPredict: PredictMPM}); err == nil {
		t.Error("margin accepted predict")
	}
	if _, ok := MPM(Margin, Values{ParamPredict: PredictMPM}); ok {
		t.Error("MPM reads predict: mpm for margin")
	}
}

// Settings names the text hyperparameters away from their defaults:
// nothing for the default method (so records of it do not change), the
// rescaling and the prediction rule otherwise; never a non-hyper text
// param (the CRF's stop, the cutting-plane solver).
func TestSpecSettings(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		trainer string
		v       Values
		want    map[string]string
	}{
		{EntropyMarginName, Values{"C": 1.0, "beta": 1.0}, nil},
		{EntropyMarginName, Values{"C": 1.0, "beta": 1.0, "rescaling": Margin, ParamPredict: PredictMAP}, nil},
		{EntropyMarginName, Values{"C": 1.0, "beta": 1.0, "rescaling": Slack}, map[string]string{"rescaling": Slack}},
		{EntropyMarginName, Values{"C": 1.0, "beta": 1.0, "rescaling": Slack, ParamPredict: PredictMPM},
			map[string]string{"rescaling": Slack, ParamPredict: PredictMPM}},
		{CRFName, Values{"C": 1.0, ParamPredict: PredictMPM}, map[string]string{ParamPredict: PredictMPM}},
		{CRFName, Values{"C": 1.0, "stop": StopCRFsuite}, nil},
		{Margin, Values{"C": 1.0, "solver": OneSlack}, nil},
	} {
		r, err := Resolve(tt.trainer, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		s, err := SpecOf(tt.trainer)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.Settings(r); !maps.Equal(got, tt.want) || (got == nil) != (tt.want == nil) {
			t.Errorf("%s %v: settings %v, want %v", tt.trainer, tt.v, got, tt.want)
		}
	}
}
