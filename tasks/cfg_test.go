package tasks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/trainers"
)

// cfgTreebank is a toy treebank: two attachments of a PP, and sentences
// the grammar covers or not.
const cfgTreebank = `( (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (DT a) (NN cat)))) )
( (S (NP (DT a) (NN cat)) (VP (VBD saw) (NP (DT the) (NN dog)))) )
( (S (NP (NN dog)) (VP (VBD ran))) )
( (S (NP (DT the) (NN cat)) (VP (VBD ran))) )
( (S (NP (DT the) (NN dog)) (VP (VBD saw) (NP (NN cat)))) )
`

func writeTreebank(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "trees.mrg")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Every trainer of Table 5 fits the toy treebank; the PCFG and the SVM
// parse their training trees exactly, and the training metrics say so.
func TestCFGTrainers(t *testing.T) {
	t.Parallel()
	raw, err := datasets.ReadPhraseTrees(strings.NewReader(cfgTreebank), "toy")
	if err != nil {
		t.Fatal(err)
	}
	c := &Corpus{Trees: datasets.PreprocessPhraseTrees(raw, 0)}
	train := []int{0, 1, 2, 3}
	for _, s := range []Settings{
		{Trainer: trainers.Generative},
		{Trainer: trainers.Margin, Params: trainers.Values{"C": 1.0, "C_per_example": true, "epsilon": 0.01, "slack_penalty": "quadratic", "delta_loss": "zero-one"}},
		{Trainer: trainers.Slack, Params: trainers.Values{"C": 1.0, "C_per_example": true, "epsilon": 0.01, "slack_penalty": "quadratic"}},
		{Trainer: trainers.Margin, Params: trainers.Values{"C": 10.0, "epsilon": 0.01}},
	} {
		if err := (CFG{}).Supports(s.Trainer, s.Params); err != nil {
			t.Fatal(err)
		}
		f, err := CFG{}.Prepare(c, train, s)
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := f.Fit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		tm := f.(*cfgFitting).TrainMetrics(m)
		if tm[metrics.TrainBracketF1] != 100 || tm[metrics.TrainTreeAcc] != 100 {
			t.Errorf("%s: training metrics %v", m.Describe(), tm)
		}
		sc := CFG{}.NewScorer(c, nil)
		if err := sc.Add(4, m.Predict(c, 4)); err != nil {
			t.Fatal(err)
		}
		// "(NP (NN cat))" after a verb is covered: the grammar has NP → NN.
		if got := sc.Metrics(); got[metrics.Coverage] != 100 || got[metrics.TreeAccuracy] != 100 {
			t.Errorf("%s: test metrics %v", m.Describe(), got)
		}
	}
}

// repro train, tag and eval's route: a parser trained on a file saves,
// reads back equal, parses alike, and falls back to a flat tree for an
// unseen tag; a damaged file is a format error.
func TestCFGFile(t *testing.T) {
	t.Parallel()
	path := writeTreebank(t, cfgTreebank)
	m, _, err := CFG{}.TrainFile(context.Background(), path, Settings{Trainer: trainers.Margin, Params: trainers.Values{"C": 1.0, "epsilon": 0.01}})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.(*GrammarParser).Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	in := "( (S (NP (DT the) (NN cat)) (VP (VBD saw) (NP (DT a) (NN dog)))) )\n( (X (UH oh)) )\n"
	var a, b bytes.Buffer
	wa, err := m.Tag(context.Background(), strings.NewReader(in), &a, "in")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := back.Tag(context.Background(), strings.NewReader(in), &b, "in"); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() || !strings.Contains(a.String(), "(VP (VBD saw) (NP (DT a) (NN dog)))") || !strings.Contains(a.String(), "(S (UH oh))") {
		t.Errorf("parses %q and %q", a.String(), b.String())
	}
	if len(wa) != 1 || !strings.Contains(wa[0], "1 of 2 sentences") {
		t.Errorf("warnings %q", wa)
	}
	e, _, err := back.Evaluate(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	var rep bytes.Buffer
	if err := e.WriteReport(&rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(rep.String(), "sentences: 5\n") || !strings.Contains(rep.String(), "coverage: 100.00%") {
		t.Errorf("report %q", rep.String())
	}
	damaged := bytes.Clone(buf.Bytes())
	damaged[len(damaged)-10] ^= 0xff
	if _, err := Decode(damaged); !errors.Is(err, modelfile.ErrFormat) {
		t.Errorf("damaged file: %v", err)
	}
}
