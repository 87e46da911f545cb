package align_test

import (
	"math"
	"reflect"
	"strings"
	"testing"

	dalign "github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/models/align"
)

// The same seed gives the same examples, another seed others.
func TestGenerateDeterministic(t *testing.T) {
	t.Parallel()
	a, err := align.Generate(5, align.GenConfig{}, 42)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := align.Generate(5, align.GenConfig{}, 42)
	c, _ := align.Generate(5, align.GenConfig{}, 43)
	if !reflect.DeepEqual(a, b) {
		t.Error("seed 42 twice: different examples")
	}
	if reflect.DeepEqual(a, c) {
		t.Error("seeds 42 and 43: the same examples")
	}
}

// The emitted true alignment is global and is the mutation: kept letters
// are identical or substituted (within the letter's group for the
// homologue, InGroup = 1 here), and the rates come out near the settings.
func TestGenerateTrueAlignment(t *testing.T) {
	t.Parallel()
	cfg := align.GenConfig{InGroup: 1, SubRate: 0.5, DelRate: 0.1, InsRate: 0.1}
	xs, err := align.Generate(200, cfg, 1)
	if err != nil {
		t.Fatal(err)
	}
	var match, same, del, ins, natives float64
	for _, x := range xs {
		if len(x.Native) != 50 || len(x.Decoys) != 10 {
			t.Fatalf("native of %d letters, %d decoys", len(x.Native), len(x.Decoys))
		}
		if err := x.True.Check(len(x.Native), len(x.Homologue)); err != nil {
			t.Fatal(err)
		}
		if i, j := x.True.Ends(); x.True.S != 0 || x.True.T != 0 || i != len(x.Native) || j != len(x.Homologue) {
			t.Fatalf("true alignment %v is not global over %d and %d letters", x.True, len(x.Native), len(x.Homologue))
		}
		natives += float64(len(x.Native))
		i, j := 0, 0
		for _, o := range x.True.Ops {
			switch o {
			case dalign.Match:
				a, b := x.Native[i], x.Homologue[j]
				match++
				if a == b {
					same++
				} else if a/4 != b/4 {
					t.Fatalf("homologue substitutes %d by %d, outside its group", a, b)
				}
				i, j = i+1, j+1
			case dalign.Delete:
				del++
				i++
			case dalign.Insert:
				ins++
				j++
			}
		}
	}
	// 10,000 native letters: the rates within about 4 standard errors.
	for _, r := range []struct {
		name      string
		got, want float64
	}{
		{"deletion", del / natives, 0.1},
		{"substitution", 1 - same/match, 0.5},
		{"insertions per letter", ins / natives, 0.1 / 0.9},
	} {
		if math.Abs(r.got-r.want) > 0.025 {
			t.Errorf("%s rate %.4f, setting gives %.4f", r.name, r.got, r.want)
		}
	}
}

func TestGenConfigValidate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		cfg  align.GenConfig
		want string
	}{
		{align.GenConfig{Group: 3}, "group: 3 letters per group do not divide 20"},
		{align.GenConfig{SubRate: 1.5}, "sub_rate: 1.5 is not a probability"},
		{align.GenConfig{InsRate: 1}, "ins_rate: 1 is not a probability"},
		{align.GenConfig{Letters: 1}, "letters: 1"},
		{align.GenConfig{Length: -1}, "length -1"},
	} {
		if _, err := align.Generate(1, tc.cfg, 1); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want %q", tc.cfg, err, tc.want)
		}
	}
}
