package align

import (
	"fmt"
	"math/rand/v2"

	"github.com/maxmargin/repro/decoders/align"
)

// GenConfig describes the synthetic data (docs/alignment.md says why each
// value and how close it is to Joachims (2003)). A zero field takes the
// default in brackets.
type GenConfig struct {
	Letters int     // alphabet size A [20]
	Length  int     // native length [50]
	Decoys  int     // decoys per example [10]
	Group   int     // letters per similarity group; A must be a multiple [4]
	SubRate float64 // probability that a kept native letter is substituted [0.6]
	InGroup float64 // probability that a homologue's substitution stays in the letter's group [0.9]
	DelRate float64 // probability that a native letter is deleted [0.05]
	InsRate float64 // probability of an inserted letter after each native position (repeated: geometric) [0.05]
}

// Resolved returns c with its defaults filled in.
func (c GenConfig) Resolved() GenConfig {
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	deff := func(v *float64, d float64) {
		if *v == 0 {
			*v = d
		}
	}
	def(&c.Letters, 20)
	def(&c.Length, 50)
	def(&c.Decoys, 10)
	def(&c.Group, 4)
	deff(&c.SubRate, 0.6)
	deff(&c.InGroup, 0.9)
	deff(&c.DelRate, 0.05)
	deff(&c.InsRate, 0.05)
	return c
}

// Validate reports settings the generator cannot use.
func (c GenConfig) Validate() error {
	switch {
	case c.Letters < 2 || c.Letters > 256:
		return fmt.Errorf("letters: %d, want 2 to 256", c.Letters)
	case c.Length < 1 || c.Decoys < 1:
		return fmt.Errorf("length %d and decoys %d must be positive", c.Length, c.Decoys)
	case c.Group < 2 || c.Letters%c.Group != 0:
		return fmt.Errorf("group: %d letters per group do not divide %d letters", c.Group, c.Letters)
	}
	for _, p := range []struct {
		name string
		v    float64
	}{{"sub_rate", c.SubRate}, {"in_group", c.InGroup}, {"del_rate", c.DelRate}, {"ins_rate", c.InsRate}} {
		if !(p.v >= 0 && p.v <= 1) || (p.name == "ins_rate" && p.v >= 1) {
			return fmt.Errorf("%s: %v is not a probability (ins_rate below 1)", p.name, p.v)
		}
	}
	return nil
}

// Generate draws n examples from seed (the same seed, the same examples):
// a uniform native of Length letters; the homologue and each decoy derived
// from it by the same indel process and substitution rate, but the
// homologue's substitutions stay within the letter's group with
// probability InGroup while the decoys' are uniform over the other
// letters. The homologue's true alignment is the one its mutation made
// (global: it starts at (0, 0) and covers both sequences).
func Generate(n int, c GenConfig, seed uint64) ([]Example, error) {
	c = c.Resolved()
	if err := c.Validate(); err != nil {
		return nil, fmt.Errorf("alignment generator: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x616c69676e)) // "align"
	out := make([]Example, n)
	for i := range out {
		native := make([]byte, c.Length)
		for k := range native {
			native[k] = byte(rng.IntN(c.Letters))
		}
		hom, al := c.mutate(rng, native, true)
		x := Example{Native: native, Homologue: hom, True: al}
		for range c.Decoys {
			d, _ := c.mutate(rng, native, false)
			x.Decoys = append(x.Decoys, d)
		}
		out[i] = x
	}
	return out, nil
}

// mutate derives a sequence from native and returns it with the alignment
// the mutation made.
func (c GenConfig) mutate(rng *rand.Rand, native []byte, homologue bool) ([]byte, align.Alignment) {
	var t []byte
	var ops []align.Op
	for _, a := range native {
		if rng.Float64() < c.DelRate {
			ops = append(ops, align.Delete)
		} else {
			b := a
			if rng.Float64() < c.SubRate {
				b = c.substitute(rng, a, homologue)
			}
			t, ops = append(t, b), append(ops, align.Match)
		}
		for rng.Float64() < c.InsRate {
			t, ops = append(t, byte(rng.IntN(c.Letters))), append(ops, align.Insert)
		}
	}
	return t, align.Alignment{Ops: ops}
}

// substitute returns a letter other than a: within a's group with
// probability InGroup for a homologue, else uniform over the others.
func (c GenConfig) substitute(rng *rand.Rand, a byte, homologue bool) byte {
	if homologue && rng.Float64() < c.InGroup {
		g := int(a) / c.Group * c.Group
		b := g + rng.IntN(c.Group-1)
		if b >= int(a) {
			b++
		}
		return byte(b)
	}
	b := rng.IntN(c.Letters - 1)
	if b >= int(a) {
		b++
	}
	return byte(b)
}
