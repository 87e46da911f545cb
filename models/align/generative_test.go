package align_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	dalign "github.com/maxmargin/repro/decoders/align"
	"github.com/maxmargin/repro/models/align"
)

// Two letters; the true alignments hold the pairs (0,0) ×2 and (0,1) ×1
// (gaps do not count): Laplace gives P = (3, 2, 1, 1)/7 over (00, 01, 10,
// 11), marginals P(a) = (5, 2)/7 and P(b) = (4, 3)/7.
func TestGenerativeByHand(t *testing.T) {
	t.Parallel()
	xs := []align.Example{
		{Native: []byte{0, 0}, Homologue: []byte{0, 1}, True: dalign.Alignment{Ops: []dalign.Op{dalign.Match, dalign.Match}}},
		{Native: []byte{0, 1}, Homologue: []byte{0}, True: dalign.Alignment{Ops: []dalign.Op{dalign.Match, dalign.Delete}}},
	}
	w := align.Generative(xs, 2, 0.3)
	p := []float64{3.0 / 7, 2.0 / 7, 1.0 / 7, 1.0 / 7}
	ps, pt := []float64{5.0 / 7, 2.0 / 7}, []float64{4.0 / 7, 3.0 / 7}
	for k := range 4 {
		if want := math.Log(p[k] / (ps[k/2] * pt[k%2])); math.Abs(w[k]-want) > 1e-12 {
			t.Errorf("w[%d] = %v, want %v", k, w[k], want)
		}
	}
	if w[4] != -0.3 {
		t.Errorf("gap weight %v, want −0.3", w[4])
	}
}

func TestPickGap(t *testing.T) {
	t.Parallel()
	errs := map[float64]float64{0.1: 5, 0.2: 3, 0.3: 3, 0.4: 4}
	c, err := align.PickGap([]float64{0.1, 0.2, 0.3, 0.4}, "test", func(g float64) (float64, error) { return errs[g], nil })
	if err != nil || c.Gap != 0.2 || c.Error != 3 || c.ChosenOn != "test" {
		t.Errorf("PickGap = %+v, %v; want gap 0.2 (first of the ties), error 3, chosen on test", c, err)
	}
	if _, err := align.PickGap(nil, "test", nil); err == nil {
		t.Error("empty grid accepted")
	}
	boom := errors.New("boom")
	if _, err := align.PickGap([]float64{1}, "test", func(float64) (float64, error) { return 0, boom }); !errors.Is(err, boom) || !strings.Contains(err.Error(), "gap cost 1") {
		t.Errorf("error %v", err)
	}
}
