package tasks

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/maxmargin/repro/internal/modelfile"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/trainers"
)

const multiclassFile = `# three classes, the third never beyond feature 2
1 1:1 2:0.1
2 2:1
3 1:0.2 2:0.2
1 1:0.9
2 1:0.1 2:0.8
3 2:0.1
`

func trainMulticlass(t *testing.T, cost [][]float64) *Classifier {
	t.Helper()
	path := filepath.Join(t.TempDir(), "train.libsvm")
	if err := os.WriteFile(path, []byte(multiclassFile), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _, err := Multiclass{}.TrainFile(context.Background(), path, Settings{Trainer: "margin", Params: trainers.Values{"C": 10}, Cost: cost})
	if err != nil {
		t.Fatal(err)
	}
	return m.(*Classifier)
}

// The model has the training file's features plus the bias, one weight
// vector per class; a feature beyond them carries no weight, as
// liblinear's predict skips it.
func TestMulticlassFeaturesAndBias(t *testing.T) {
	t.Parallel()
	m := trainMulticlass(t, nil)
	if m.Features != 2 || len(m.Weights) != 3*3 || strings.Join(m.Classes, " ") != "1 2 3" {
		t.Fatalf("features %d, weights %d, classes %v", m.Features, len(m.Weights), m.Classes)
	}
	x := structpred.SparseVec{Idx: []int32{0}, Val: []float64{1}}
	beyond := structpred.SparseVec{Idx: []int32{0, 5}, Val: []float64{1, 100}}
	if a, b := m.Classify(x), m.Classify(beyond); a != b || a != 0 {
		t.Errorf("class %d, with a feature beyond the training data's %d; want 0 both", a, b)
	}
	if got := withBias(beyond, 2); len(got.Idx) != 2 || got.Idx[1] != 2 || got.Val[1] != multiclassBias {
		t.Errorf("withBias %+v", got)
	}
}

// A saved classifier reads back equal and classifies alike; a damaged or
// inconsistent file is a format error.
func TestClassifierFileRoundTrip(t *testing.T) {
	t.Parallel()
	m := trainMulticlass(t, [][]float64{{0, 1, 2}, {1, 0, 1}, {2, 1, 0}})
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	got, err := Decode(buf.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	c := got.(*Classifier)
	if c.TaskName() != MulticlassName || c.DataHash != m.DataHash || c.Features != m.Features || len(c.Cost) != 3 || c.Cost[0][2] != 2 {
		t.Errorf("read back %+v", c)
	}
	for j, w := range m.Weights {
		if c.Weights[j] != w {
			t.Fatalf("weight %d: %v, saved %v", j, c.Weights[j], w)
		}
	}
	b := buf.Bytes()
	if _, err := Decode(b[:len(b)-40]); !errors.Is(err, modelfile.ErrFormat) {
		t.Errorf("truncated file: %v", err)
	}
	bad := &Classifier{Classes: m.Classes, Features: m.Features, Weights: m.Weights[1:]}
	if err := bad.Save(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "8 weights for 3 classes of 2 features") {
		t.Errorf("saving an inconsistent classifier: %v", err)
	}
	bad = &Classifier{Classes: m.Classes, Features: m.Features, Weights: m.Weights, Cost: [][]float64{{0, 1, 1}, {1, 1, 1}, {1, 1, 0}}}
	if err := bad.Save(&bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "the cost of the true class must be 0") {
		t.Errorf("saving a bad cost matrix: %v", err)
	}
}

// Tag writes one label a line; Evaluate counts what Tag predicts.
func TestClassifierTagEvaluate(t *testing.T) {
	t.Parallel()
	m := trainMulticlass(t, nil)
	var out strings.Builder
	if _, err := m.Tag(context.Background(), strings.NewReader(multiclassFile), &out, "stdin"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Fields(out.String())
	gold := []string{"1", "2", "3", "1", "2", "3"}
	wrong := 0
	for i, l := range lines {
		if l != gold[i] {
			wrong++
		}
	}
	path := filepath.Join(t.TempDir(), "test.libsvm")
	if err := os.WriteFile(path, []byte(multiclassFile), 0o644); err != nil {
		t.Fatal(err)
	}
	e, _, err := m.Evaluate(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if me := e.(*MulticlassEvaluation); len(lines) != 6 || me.Items != 6 || me.Wrong != wrong {
		t.Errorf("tag wrote %q (%d wrong), eval counted %+v", lines, wrong, me)
	}
}
