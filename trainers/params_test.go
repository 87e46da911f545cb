package trainers

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// The rules on what a caller states are the trainers', so that a config
// and a command line read a param alike: a required param must be given,
// a 0 that would silently mean the default is refused, every number lies
// in its declared range, and an optional param's 0 is a value.
func TestValidateStatedParams(t *testing.T) {
	t.Parallel()
	tests := []struct {
		trainer string
		v       Values
		key     string // the *ParamError's key; "" for no error
		msg     string // substring of its message
	}{
		{Margin, Values{}, ParamC, "is required and missing"},
		{CRFName, Values{"max_iterations": 5}, ParamC, "is required and missing"},
		{EntropyMarginName, Values{ParamC: 1.0}, "beta", "is required and missing"},
		{Margin, Values{ParamC: 0.0}, ParamC, "must be in (0, 1e+12], got 0"},
		{Margin, Values{ParamC: 1e308}, ParamC, "must be in (0, 1e+12], got 1e+308"},
		{Margin, Values{ParamC: math.Inf(1)}, ParamC, "must be in (0, 1e+12], got +Inf"},
		{Margin, Values{ParamC: math.NaN()}, ParamC, "got NaN"},
		{Margin, Values{ParamC: 1e12}, "", ""},
		{MIRAName, Values{ParamC: 0.0}, "", ""}, // its default: hard constraints
		{MIRAName, Values{ParamC: -1.0}, ParamC, "must be in [0, 1e+12], got -1"},
		{PerceptronName, Values{"epochs": 0}, "epochs", "must not be 0 (omit it for the default, 10)"},
		{PerceptronName, Values{"epochs": -5}, "epochs", "must be at least 1, got -5"},
		{PerceptronName, Values{"epochs": nil}, "", ""},
		{PerceptronName, Values{"average": false}, "", ""},
		{Margin, Values{ParamC: 1.0, "max_iterations": 0}, "max_iterations", "must not be 0 (omit it for the default, 500)"},
		{Margin, Values{ParamC: 1.0, "qp_tolerance": 0.0}, "", ""}, // default 0
		{Margin, Values{ParamC: 1.0, "qp_tolerance": 1.0}, "qp_tolerance", "must be in [0, 1), got 1"},
		{Margin, Values{ParamC: 1.0, "epsilon": -0.1}, "epsilon", "must be positive, got -0.1"},
		{CRFName, Values{ParamC: 1.0, "max_iterations": 0}, "max_iterations", "must not be 0 (omit it for the default, 1000)"},
		{EntropyMarginName, Values{ParamC: 1.0, "beta": 1.0, "loss_scale": 0.0}, "", ""}, // optional: 0 is a value
		{EntropyMarginName, Values{ParamC: 1.0, "beta": 1.0, "loss_scale": -1.0}, "loss_scale", "must be non-negative, got -1"},
		{MIRAName, Values{"k": 0}, "k", "must not be 0 (omit it for the default, 5)"},
	}
	for _, tt := range tests {
		err := Validate(tt.trainer, tt.v)
		var pe *ParamError
		switch {
		case tt.key == "" && err != nil:
			t.Errorf("%s %v: %v, want no error", tt.trainer, tt.v, err)
		case tt.key == "":
		case !errors.As(err, &pe) || pe.Key != tt.key || !strings.Contains(pe.Msg, tt.msg):
			t.Errorf("%s %v: %v, want a %s error saying %q", tt.trainer, tt.v, err, tt.key, tt.msg)
		}
	}
}

func TestParamParse(t *testing.T) {
	t.Parallel()
	tests := []struct {
		trainer, key, text string
		want               any
		msg                string
	}{
		{PerceptronName, "epochs", "20", 20, ""},
		{PerceptronName, "epochs", "ten", nil, `epochs: takes an integer, got "ten"`},
		{PerceptronName, "average", "yes", nil, `average: takes true or false, got "yes"`},
		{PerceptronName, "seed", "-1", nil, `seed: takes a non-negative integer, got "-1"`},
		{Margin, "epsilon", "0.001", 0.001, ""},
		{Margin, "epsilon", "small", nil, `epsilon: takes a number, got "small"`},
		{Margin, "solver", "one-slack", "one-slack", ""},
	}
	for _, tt := range tests {
		p, ok := mustSpec(t, tt.trainer).Param(tt.key)
		if !ok {
			t.Fatalf("%s has no %s", tt.trainer, tt.key)
		}
		got, err := p.Parse(tt.text)
		if tt.msg != "" {
			if err == nil || err.Error() != tt.msg {
				t.Errorf("%s=%s: %v, want %q", tt.key, tt.text, err, tt.msg)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s=%s: %v (%T), %v; want %v", tt.key, tt.text, got, got, err, tt.want)
		}
	}
}

// Every declared range parses and says what it admits; a bad tag is a
// programming error found when the spec is built.
func TestRanges(t *testing.T) {
	t.Parallel()
	tests := []struct {
		tag  string
		in   []float64
		out  []float64
		text string
	}{
		{"[1,)", []float64{1, 1e9}, []float64{0, math.Inf(1), math.NaN()}, "[1, ∞)"},
		{"(0,1e12]", []float64{1e-300, 1e12}, []float64{0, 1.5e12, -1}, "(0, 1e+12]"},
		{"[0,1)", []float64{0, 0.5}, []float64{1, -0.1}, "[0, 1)"},
	}
	for _, tt := range tests {
		r, err := parseRange(tt.tag)
		if err != nil {
			t.Fatal(err)
		}
		if r.String() != tt.text {
			t.Errorf("%s: String %q, want %q", tt.tag, r, tt.text)
		}
		for _, x := range tt.in {
			if r.Check(x) != nil {
				t.Errorf("%s refuses %v", tt.tag, x)
			}
		}
		for _, x := range tt.out {
			if r.Check(x) == nil {
				t.Errorf("%s admits %v", tt.tag, x)
			}
		}
	}
	for _, bad := range []string{"1,2", "[1", "[a,)", "(0,b]"} {
		if _, err := parseRange(bad); err == nil {
			t.Errorf("range tag %q parsed", bad)
		}
	}
	// Every trainer's numeric params are bounded, so that no caller has to
	// hold bounds of its own.
	for _, s := range Specs() {
		for _, p := range s.Params {
			if (p.Kind == "int" || p.Kind == "float") && p.Range.String() == "" {
				t.Errorf("%s.%s: a number without a declared range", s.Name, p.Key)
			}
		}
	}
}
