package trainers

import (
	"context"
	"slices"
	"strings"
	"testing"
)

func TestRegistrySpecs(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, s := range Specs() {
		if seen[s.Name] || s.Summary == "" {
			t.Errorf("%q: duplicate or without summary", s.Name)
		}
		seen[s.Name] = true
		if _, hasC := s.Param(ParamC); hasC != (s.C != "") {
			t.Errorf("%s: C param %v but C documented as %q", s.Name, hasC, s.C)
		}
		for _, p := range s.Params {
			if p.Help == "" {
				t.Errorf("%s.%s has no help", s.Name, p.Key)
			}
		}
	}
	for _, name := range slices.Concat(CuttingPlaneTrainers(), OnlineTrainers(), LogLinearTrainers()) {
		if !seen[name] {
			t.Errorf("%s is not in the registry", name)
		}
	}
	if !strings.Contains(Help(), "epsilon (float in (0, ∞), default 0.01)") {
		t.Errorf("Help() lacks margin's epsilon default:\n%s", Help())
	}
}

func TestResolveDefaults(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		v    Values
		key  string
		want any
	}{
		{Margin, nil, "max_iterations", 500},
		{Margin, Values{"solver": OneSlack}, "max_iterations", oneSlackMaxIterations},
		{ApproxSlack, nil, "epsilon", DefaultEpsilon},
		{MIRAName, nil, "k", DefaultK},
		{PerceptronName, nil, "average", true},
		{SubgradientName, nil, "average", false},
		{EntropyMarginName, nil, "loss_scale", 1.0},
		{CRFName, nil, "max_iterations", 1000},
	}
	for _, tt := range tests {
		got, err := Resolve(tt.name, tt.v)
		if err != nil {
			t.Fatal(err)
		}
		if got[tt.key] != tt.want {
			t.Errorf("%s %v: %s = %v, want %v", tt.name, tt.v, tt.key, got[tt.key], tt.want)
		}
	}
	if _, err := Resolve(PerceptronName, Values{"k": 3}); err == nil || !strings.Contains(err.Error(), "does not apply") {
		t.Errorf("perceptron with k: %v, want a does-not-apply error", err)
	}
}

// onlyModel has no decoder: every trainer must refuse it with a reason.
type onlyModel struct{ Model[int] }

func TestCheckNamesTheMissingCapability(t *testing.T) {
	t.Parallel()
	for _, name := range Names() {
		err := CanTrain[int](name, onlyModel{})
		if err == nil || !strings.Contains(err.Error(), "which this task does not provide") {
			t.Errorf("%s on a model without decoders: %v", name, err)
		}
	}
	if err := CanTrain[int]("nope", onlyModel{}); err == nil || !strings.Contains(err.Error(), "unknown trainer") {
		t.Errorf("unknown trainer: %v", err)
	}
}

// The registry trains exactly as the direct call with the same settings.
func TestRegistryMatchesDirectCall(t *testing.T) {
	t.Parallel()
	m := noisyToy(7, 20, 3, 4)
	got, err := Train[int](context.Background(), Margin, m, Values{ParamC: 2.0, "C_per_example": true})
	if err != nil {
		t.Fatal(err)
	}
	sep, err := NewSeparator[int](Margin, m, 0)
	if err != nil {
		t.Fatal(err)
	}
	want, err := CuttingPlane(context.Background(), m.Len(), m.Dim(), sep, Settings{C: 2.0 / float64(m.Len())})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.W, want.W) || got.Primal != want.Primal {
		t.Errorf("registry: primal %v, direct %v", got.Primal, want.Primal)
	}
}
