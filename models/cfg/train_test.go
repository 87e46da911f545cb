package cfg_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/decoders/cky"
	"github.com/maxmargin/repro/models/cfg"
	"github.com/maxmargin/repro/trainers"
)

// trainingSummary parses every training tree with w and scores it.
func trainingSummary(g *cfg.Grammar, trees []datasets.PhraseTree, w []float64) cfg.Summary {
	var ws cky.Workspace
	var out []cfg.Outcome
	for _, t := range trees {
		p, fb := g.Parse(t, w, &ws)
		out = append(out, cfg.Evaluate(t, p, fb))
	}
	return cfg.Summarize(out)
}

func pcfgWeights(t *testing.T, g *cfg.Grammar, m *cfg.Model) []float64 {
	t.Helper()
	var gold []cky.Tree
	for i := range m.Len() {
		gold = append(gold, m.Truth(i))
	}
	w, err := cfg.MLE(g, gold)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

// trainAndCompare trains trees with trainer and loss through the
// trainers' registry and returns the training-set summaries of the SVM
// and of the PCFG.
func trainAndCompare(t *testing.T, trees []datasets.PhraseTree, trainer string, loss cfg.Loss, v trainers.Values) (svm, pcfg cfg.Summary, res *trainers.Result) {
	t.Helper()
	g, m := toyModel(t, trees, loss)
	res, err := trainers.Train(context.Background(), trainer, m, v)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Converged || res.Gap < -1e-9 {
		t.Errorf("%s, %v: converged %v, gap %v", trainer, loss, res.Converged, res.Gap)
	}
	return trainingSummary(g, trees, res.W), trainingSummary(g, trees, pcfgWeights(t, g, m)), res
}

// On toy trees with PP-attachment ambiguity the cutting-plane trainers
// converge with every oracle of the model, and the margin-rescaled SVM's
// training F1 is at least the PCFG's.
func TestTrainToyGrammar(t *testing.T) {
	trees := toyTrees(5, 30, 8)
	for _, tt := range []struct {
		trainer string
		loss    cfg.Loss
	}{
		{trainers.Margin, cfg.BracketF1},
		{trainers.Slack, cfg.BracketF1},
		{trainers.Margin, cfg.ZeroOne},
		{trainers.Slack, cfg.ZeroOne},
	} {
		svm, pcfg, res := trainAndCompare(t, trees, tt.trainer, tt.loss, trainers.Values{"C": 1.0, "epsilon": 0.01, "solver": trainers.NSlack})
		t.Logf("%s %v: SVM F1 %.4f acc %.3f, PCFG F1 %.4f acc %.3f, %d constraints", tt.trainer, tt.loss, svm.F1(), svm.Accuracy(), pcfg.F1(), pcfg.Accuracy(), res.Constraints)
		if tt.trainer == trainers.Margin && tt.loss == cfg.BracketF1 {
			if svm.F1() < pcfg.F1() {
				t.Errorf("margin-rescaled SVM training F1 %.4f below the PCFG's %.4f", svm.F1(), pcfg.F1())
			}
			if got := fmt.Sprintf("%.4f %.4f", svm.F1(), pcfg.F1()); got != "0.9824 0.9824" {
				t.Errorf("training F1 SVM, PCFG: %s; docs/cfg.md says 0.9824 for both", got)
			}
		}
	}
}

// shortSampleTrees returns the first count trees of the WSJ sample of at
// most maxWords words after Johnson's preprocessing; it skips without
// REPRO_DATA.
func shortSampleTrees(t testing.TB, count, maxWords int) []datasets.PhraseTree {
	t.Helper()
	dir := os.Getenv(datasets.EnvDataDir)
	if dir == "" {
		t.Skip("needs REPRO_DATA")
	}
	raw, err := datasets.LoadPhraseTrees(filepath.Join(dir, "ptb-sample", "combined"))
	if err != nil {
		t.Skipf("no WSJ sample: %v", err)
	}
	var out []datasets.PhraseTree
	for _, r := range raw {
		if p, ok := datasets.JohnsonPreprocess(r); ok && len(p.Leaves()) <= maxWords {
			out = append(out, p)
			if len(out) == count {
				break
			}
		}
	}
	return out
}

// The margin-rescaled SVM with Δ = 1 − F1 (n-slack, C = 1, ε = 0.01, the
// paper's settings) on 30 short trees of the WSJ sample, against the
// PCFG on the training set.
func TestTrainPTBSample(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	trees := shortSampleTrees(t, 30, 10)
	svm, pcfg, res := trainAndCompare(t, trees, trainers.Margin, cfg.BracketF1, trainers.Values{"C": 1.0, "epsilon": 0.01, "solver": trainers.NSlack})
	t.Logf("SVM F1 %.4f acc %.3f; PCFG F1 %.4f acc %.3f; %d constraints, %d passes", svm.F1(), svm.Accuracy(), pcfg.F1(), pcfg.Accuracy(), res.Constraints, res.Iterations)
	if svm.F1() < pcfg.F1() {
		t.Errorf("SVM training F1 %.4f below the PCFG's %.4f", svm.F1(), pcfg.F1())
	}
	// docs/cfg.md quotes these.
	got := fmt.Sprintf("SVM %.4f %.3f, PCFG %.4f %.3f, %d constraints, %d passes", svm.F1(), svm.Accuracy(), pcfg.F1(), pcfg.Accuracy(), res.Constraints, res.Iterations)
	if want := "SVM 0.9946 0.933, PCFG 0.9702 0.867, 28 constraints, 4 passes"; got != want {
		t.Errorf("got %s, docs/cfg.md says %s", got, want)
	}
}
