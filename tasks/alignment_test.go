package tasks

import (
	"context"
	"testing"

	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/trainers"
)

// The SVM and the generative model train on generated examples and
// select homologues of held-out ones far better than chance; the same
// seed generates the same corpus.
func TestAlignmentTask(t *testing.T) {
	t.Parallel()
	dc, data, err := AlignmentCorpus("a", 60, 3)
	if err != nil {
		t.Fatal(err)
	}
	_, again, _ := AlignmentCorpus("a", 60, 3)
	if data.Fingerprint() != again.Fingerprint() {
		t.Error("the same seed generated other examples")
	}
	c := &Corpus{Labels: dc.Labels, Sequences: dc.Sequences, Alignments: data}
	train, test := make([]int, 20), make([]int, 40)
	for i := range train {
		train[i] = i
	}
	for i := range test {
		test[i] = 20 + i
	}
	for _, s := range []Settings{
		{Trainer: trainers.Margin, Params: trainers.Values{"C": 0.01, "C_per_example": true, "epsilon": 0.1}},
		{Trainer: trainers.Generative, Params: trainers.Values{"gap": 0.2}},
	} {
		if err := (Alignment{}).Supports(s.Trainer, s.Params); err != nil {
			t.Fatal(err)
		}
		f, err := Alignment{}.Prepare(c, train, s)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := f.Fit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		sc := Alignment{}.NewScorer(c, nil)
		for _, i := range test {
			if err := sc.Add(i, m.Predict(c, i)); err != nil {
				t.Fatal(err)
			}
		}
		// 10 decoys: a random choice is right 1 time in 11.
		if got := sc.Metrics()[metrics.ErrorRate]; got > 50 {
			t.Errorf("%s: test error %.1f%%", m.Describe(), got)
		}
		if got := f.(*alignFitting).TrainMetrics(m)[metrics.TrainErrorRate]; got > 50 {
			t.Errorf("%s: training error %.1f%%", m.Describe(), got)
		}
	}
	if err := (Alignment{}).Supports(trainers.Generative, nil); err == nil {
		t.Error("the generative alignment model without a gap cost: no error")
	}
}
