package datasets

import (
	"errors"
	"math"
	"reflect"
	"strings"
	"testing"
)

func TestSyntheticDeterministic(t *testing.T) {
	cfg := DefaultSynthetic()
	a, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same config gave different corpora")
	}
	cfg.Seed++
	c, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.Sequences, c.Sequences) {
		t.Fatal("different seeds gave the same corpus")
	}
}

func TestSyntheticShape(t *testing.T) {
	cfg := DefaultSynthetic()
	c, err := Synthetic(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "synthetic" || len(c.Labels) != cfg.Labels || len(c.Sequences) != cfg.Sequences {
		t.Fatalf("corpus %q: %d labels, %d sequences", c.Name, len(c.Labels), len(c.Sequences))
	}
	var stay, moves int
	for _, s := range c.Sequences {
		if n := len(s.Tokens); n < cfg.MinLen || n > cfg.MaxLen {
			t.Fatalf("%s: length %d outside [%d, %d]", s.ID, n, cfg.MinLen, cfg.MaxLen)
		}
		checkSequence(t, s, cfg.Labels)
		for i := 1; i < len(s.Segments); i++ {
			if s.Segments[i].Label == s.Segments[i-1].Label {
				t.Fatalf("%s: segments are not maximal runs", s.ID)
			}
		}
		for p := 1; p < len(s.Labels); p++ {
			if s.Labels[p] == s.Labels[p-1] {
				stay++
			}
			moves++
		}
	}
	// Loose bounds: ~2700 transitions, so the observed rate is within ±0.03
	// of Stay with overwhelming probability.
	if rate := float64(stay) / float64(moves); math.Abs(rate-cfg.Stay) > 0.05 {
		t.Errorf("stay rate %.3f, want about %.2f", rate, cfg.Stay)
	}
}

// Every invalid field is reported as a SettingError naming the setting as
// configs spell it, so that the config layer can point at its line.
func TestSyntheticValidate(t *testing.T) {
	base := DefaultSynthetic()
	tests := []struct {
		name    string
		edit    func(*SyntheticConfig)
		setting string
	}{
		{"no sequences", func(c *SyntheticConfig) { c.Sequences = 0 }, "sequences"},
		{"one label", func(c *SyntheticConfig) { c.Labels = 1 }, "labels"},
		{"zero length", func(c *SyntheticConfig) { c.MinLen = 0 }, "min_len"},
		{"max below min", func(c *SyntheticConfig) { c.MaxLen = c.MinLen - 1 }, "max_len"},
		{"no vocabulary", func(c *SyntheticConfig) { c.Vocab = 0 }, "vocab"},
		{"stay above one", func(c *SyntheticConfig) { c.Stay = 1.5 }, "stay"},
		{"noise negative", func(c *SyntheticConfig) { c.Noise = -0.1 }, "noise"},
		{"noise NaN", func(c *SyntheticConfig) { c.Noise = math.NaN() }, "noise"},
		{"huge vocabulary", func(c *SyntheticConfig) { c.Vocab = math.MaxInt32 }, "vocab"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := base
			tt.edit(&cfg)
			_, err := Synthetic(cfg)
			var se *SettingError
			if !errors.As(err, &se) || se.Setting != tt.setting {
				t.Fatalf("Synthetic(%+v) = %v, want a SettingError for %q", cfg, err, tt.setting)
			}
			if !strings.HasPrefix(err.Error(), "synthetic."+tt.setting+": ") {
				t.Errorf("error %q does not start with the setting's name", err)
			}
		})
	}
}
