package datasets

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/maxmargin/repro/structpred"
)

// SyntheticConfig parameterises [Synthetic].
type SyntheticConfig struct {
	Sequences int     // number of sequences (≥ 1)
	Labels    int     // number of labels (≥ 2)
	MinLen    int     // minimum sequence length (≥ 1)
	MaxLen    int     // maximum sequence length (≥ MinLen)
	Vocab     int     // words per label, and words in the shared vocabulary (≥ 1)
	Stay      float64 // probability of keeping the previous label, in [0, 1]
	Noise     float64 // probability a token comes from the shared vocabulary, in [0, 1]
	Seed      uint64  // generator seed
}

// DefaultSynthetic returns the default synthetic configuration: 200
// sequences of length 8..20 over 5 labels, 50 words per label and 50 shared
// words, Stay 0.8, Noise 0.3, Seed 1. With these settings about a third of
// the tokens say nothing about their label on their own, while the sticky
// chain makes the neighbours' labels informative.
func DefaultSynthetic() SyntheticConfig {
	return SyntheticConfig{
		Sequences: 200, Labels: 5, MinLen: 8, MaxLen: 20, Vocab: 50,
		Stay: 0.8, Noise: 0.3, Seed: 1,
	}
}

// SettingError is an invalid [SyntheticConfig] field. Setting is the
// field's name as configs spell it (snake case: "labels", "min_len"), so
// that callers can point at the line that sets it.
type SettingError struct {
	Setting string
	Msg     string
}

func (e *SettingError) Error() string { return fmt.Sprintf("synthetic.%s: %s", e.Setting, e.Msg) }

// Validate reports the first invalid field of cfg as a [*SettingError].
func (cfg SyntheticConfig) Validate() error {
	inUnit := func(x float64) bool { return x >= 0 && x <= 1 } // false for NaN
	bad := func(setting, format string, args ...any) error {
		return &SettingError{Setting: setting, Msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case cfg.Sequences < 1:
		return bad("sequences", "must be at least 1, got %d", cfg.Sequences)
	case cfg.Labels < 2:
		return bad("labels", "must be at least 2, got %d", cfg.Labels)
	case cfg.MinLen < 1:
		return bad("min_len", "must be at least 1, got %d", cfg.MinLen)
	case cfg.MaxLen < cfg.MinLen:
		return bad("max_len", "%d is below min_len %d", cfg.MaxLen, cfg.MinLen)
	case cfg.Vocab < 1:
		return bad("vocab", "must be at least 1, got %d", cfg.Vocab)
	case cfg.Vocab > math.MaxInt32/(cfg.Labels+1):
		// Word ids run up to (Labels+1)·Vocab.
		return bad("vocab", "labels × vocab = %d × %d is too large", cfg.Labels, cfg.Vocab)
	case !inUnit(cfg.Stay):
		return bad("stay", "must be a probability in [0, 1], got %v", cfg.Stay)
	case !inUnit(cfg.Noise):
		return bad("noise", "must be a probability in [0, 1], got %v", cfg.Noise)
	}
	return nil
}

// Synthetic generates a corpus named "synthetic" from cfg. Labels follow a
// sticky Markov chain: the first label is uniform, and each next label keeps
// the previous one with probability Stay and otherwise moves to one of the
// other labels uniformly. A token is drawn with probability Noise from a
// shared vocabulary used by every label, else from its label's own
// vocabulary; so emissions are ambiguous and the transitions matter. Words
// are rendered in four styles ("w17", "W17", "1017.", "w17,") so that
// citation-like shape features fire; a label's own words share one style,
// shared words take a style from their id. Segments are the maximal label
// runs. The same cfg, seed included, always yields the same corpus.
func Synthetic(cfg SyntheticConfig) (*Corpus, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	// A fixed stream ("synth") keeps this generator apart from the split
	// generators even when they share a seed.
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x73796e7468))
	c := &Corpus{Name: "synthetic", Labels: make([]string, cfg.Labels)}
	for l := range c.Labels {
		c.Labels[l] = fmt.Sprintf("L%d", l)
	}
	c.Sequences = make([]structpred.Sequence, cfg.Sequences)
	for i := range c.Sequences {
		n := cfg.MinLen + rng.IntN(cfg.MaxLen-cfg.MinLen+1)
		seq := structpred.Sequence{
			ID:     fmt.Sprintf("synthetic-%d", i),
			Tokens: make([]string, n),
			Labels: make([]int, n),
		}
		y := rng.IntN(cfg.Labels)
		for t := range n {
			if t > 0 && rng.Float64() >= cfg.Stay {
				// Move to one of the other Labels-1 labels uniformly.
				y = (y + 1 + rng.IntN(cfg.Labels-1)) % cfg.Labels
			}
			seq.Labels[t] = y
			var id, style int
			if rng.Float64() < cfg.Noise {
				id = rng.IntN(cfg.Vocab) // shared words: ids [0, Vocab)
				style = id % 4
			} else {
				id = (y+1)*cfg.Vocab + rng.IntN(cfg.Vocab)
				style = y % 4
			}
			seq.Tokens[t] = renderWord(id, style)
		}
		seq.Segments = structpred.SegmentsFromLabels(seq.Labels)
		c.Sequences[i] = seq
	}
	return c, nil
}

// renderWord spells word id in one of four citation-like styles.
func renderWord(id, style int) string {
	switch style {
	case 0:
		return fmt.Sprintf("w%d", id)
	case 1:
		return fmt.Sprintf("W%d", id)
	case 2:
		return fmt.Sprintf("%d.", 1000+id)
	default:
		return fmt.Sprintf("w%d,", id)
	}
}
