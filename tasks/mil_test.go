package tasks

import (
	"bytes"
	"context"
	"errors"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

// milCorpus draws n training and n test bags of 50 instances with p
// positives, as a corpus of the mil task.
func milCorpus(t *testing.T, p, n int) (c *Corpus, train, test []int) {
	t.Helper()
	c = &Corpus{Labels: datasets.MILLabels()}
	for _, part := range []string{"train", "test"} {
		bags, err := datasets.PletscherMIL(p).Draw(n, 1, part)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bags {
			i := len(c.Sequences)
			label := 0
			if b.Label == 1 {
				label = 1
			}
			c.Sequences = append(c.Sequences, structpred.Sequence{Tokens: []string{"bag"}, Labels: []int{label}})
			c.Bags = append(c.Bags, b.Instances)
			if part == "train" {
				train = append(train, i)
			} else {
				test = append(test, i)
			}
		}
	}
	return c, train, test
}

// With 25 positives of 50 a bag's mean instance tells the labels apart
// well: latent-lbeta at a small β learns a positive instance weight and
// beats chance clearly on fresh bags, the model file keeps it, and the
// file routes refuse bags.
func TestMILTrainsPredictsAndSaves(t *testing.T) {
	c, train, test := milCorpus(t, 25, 200)
	task := MIL{}
	if err := task.Supports("crf", nil); err == nil {
		t.Error("mil supports crf, which has no latent variables")
	}
	f, err := task.Prepare(c, train, Settings{Trainer: trainers.LatentLBetaName, Params: trainers.Values{"beta": 0.1, "C": 1.0}})
	if err != nil {
		t.Fatal(err)
	}
	m, _, err := f.Fit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	bc := m.(*BagClassifier)
	if bc.Beta != 0.1 || len(bc.Weights) != 2 || !(bc.Weights[0] > 0) {
		t.Fatalf("model β %v, weights %v: want β 0.1 and a positive instance weight", bc.Beta, bc.Weights)
	}
	s := task.NewScorer(c, nil)
	for _, i := range test {
		if err := s.Add(i, m.Predict(c, i)); err != nil {
			t.Fatal(err)
		}
	}
	if acc := s.Metrics()[metrics.BagAccuracy]; !(acc > 70 && acc <= 100) {
		t.Errorf("bag accuracy %v%%, want above 70", acc)
	}
	var buf bytes.Buffer
	if err := bc.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range test[:20] {
		if back.Predict(c, i).Labels[0] != m.Predict(c, i).Labels[0] {
			t.Fatalf("bag %d: the decoded model predicts otherwise", i)
		}
	}
	b := buf.Bytes()
	b[len(b)-1] ^= 1
	if _, err := Decode(b); !errors.Is(err, modelfile.ErrFormat) {
		t.Errorf("corrupt file: error %v, want modelfile.ErrFormat", err)
	}
	if _, _, err := task.TrainFile(context.Background(), "bags.txt", Settings{}); !errors.Is(err, errNoBagFiles) {
		t.Errorf("TrainFile: %v", err)
	}
}

func TestMILPrepareNeedsBags(t *testing.T) {
	_, err := MIL{}.Prepare(&Corpus{Labels: datasets.MILLabels()}, nil, Settings{Trainer: trainers.LatentLBetaName, Params: trainers.Values{"beta": 1.0}})
	if err == nil {
		t.Error("no error for a corpus without bags")
	}
}
