package tasks_test

import (
	"slices"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/metrics"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tasks"
)

// The token error in the file's encoding reads both labelings as conlleval
// reads IOB2 and writes them in the file's scheme: on an IOB1 file a
// predicted I-X after O and a true B-X there are the same tag, which the
// token error on the internal IOB2 labels counts wrong. Written out, a
// prediction that breaks the scheme's rules is the chunks conlleval reads
// in it, even on an IOB2 file.
func TestTokenErrorInFileEncoding(t *testing.T) {
	t.Parallel()
	names := []string{"O", "B-PER", "I-PER"}
	truth := []int{0, 1, 2, 0} // O B-PER I-PER O
	pred := []int{0, 2, 2, 0}  // O I-PER I-PER O: the same chunk, read as conlleval reads it
	seq, _ := tasks.Lookup(tasks.SequenceName)
	score := func(c *tasks.Corpus) map[string]float64 {
		t.Helper()
		s := seq.NewScorer(c, nil)
		if err := s.Add(0, tasks.Prediction{Labels: pred}); err != nil {
			t.Fatal(err)
		}
		return s.Metrics()
	}
	seqs := []structpred.Sequence{{Tokens: []string{"a", "b", "c", "d"}, Labels: truth}}
	for _, tc := range []struct {
		scheme   datasets.Scheme
		fileErrs int
	}{
		{datasets.IOB1, 0}, // both are "O I-PER I-PER O" in IOB1
		{datasets.IOB2, 0}, // written out, the broken I-PER is the B-PER a tagger's file has
		{datasets.IOBES, 0},
	} {
		m := score(&tasks.Corpus{Labels: names, Sequences: seqs, Chunked: true, Scheme: tc.scheme})
		if m[metrics.TokenError] != 25 {
			t.Errorf("%s: token error %v, want 25 (one of four IOB2 labels)", tc.scheme, m[metrics.TokenError])
		}
		if want := 25 * float64(tc.fileErrs); m[metrics.TokenErrorFile] != want {
			t.Errorf("%s: token error in the file's encoding %v, want %v", tc.scheme, m[metrics.TokenErrorFile], want)
		}
	}
	// Unchunked corpora have no file encoding to speak of.
	if _, ok := score(&tasks.Corpus{Labels: names, Sequences: seqs})[metrics.TokenErrorFile]; ok {
		t.Error("a plain-label corpus has a token error in a file encoding")
	}
}

// Every task declares its metrics in the registry, and its scorer reports
// only declared metrics, each of its required ones (all but those that
// apply to some corpora only), with the outcomes of every item it keeps.
func TestTasksScoreTheirDeclaredMetrics(t *testing.T) {
	t.Parallel()
	labels := []int{0, 1, 1}
	c := &tasks.Corpus{Labels: []string{"A", "B"}, Sequences: []structpred.Sequence{{
		Tokens: []string{"x", "y", "z"}, Labels: labels, Segments: structpred.SegmentsFromLabels(labels),
	}}}
	pred := tasks.Prediction{Labels: []int{0, 1, 0}, Segments: structpred.SegmentsFromLabels([]int{0, 1, 0})}
	// A multiclass item is a one-token sequence holding its class.
	vc := &tasks.Corpus{Labels: []string{"-1", "1"}, Sequences: []structpred.Sequence{{Tokens: []string{"a:1"}, Labels: []int{1}}},
		Vectors: []structpred.SparseVec{{Idx: []int32{0}, Val: []float64{1}}}}
	// A treebank item is a sentence with its gold tree.
	gold := datasets.PhraseTree{ID: "s", Root: &datasets.PhraseNode{Label: "S", Children: []*datasets.PhraseNode{
		{Label: "NP", Children: []*datasets.PhraseNode{{Label: "NN", Word: "x"}}}, {Label: "VB", Word: "y"}}}}
	tc := &tasks.Corpus{Trees: []datasets.PhraseTree{gold}, Sequences: []structpred.Sequence{{Tokens: []string{"x", "y"}}}}
	// The training-set metrics come from the fitting (the runner adds them).
	// The token error in the file's encoding is chunk-tagged corpora's;
	// the training error and the trainer's statistics are the unit's to
	// add (the training part scored, trainers.Stats and the QP time), not a scorer's, and
	// so are the fittings' training-set metrics.
	optional := []string{metrics.TokenErrorFile, metrics.TrainError, metrics.Constraints, metrics.SupportLoss, metrics.TrainTreeAcc, metrics.TrainBracketF1, metrics.TrainErrorRate, metrics.QPSeconds, metrics.QPShare}
	for _, task := range tasks.All() {
		c, pred := c, pred
		if task.Name() == tasks.MulticlassName || task.Name() == tasks.TaxonomyName || task.Name() == tasks.MILName {
			c, pred = vc, tasks.Prediction{Labels: []int{0}} // a bag, too, is a one-token item
		}
		if task.Name() == tasks.AlignmentName {
			c, pred = vc, tasks.Prediction{Labels: []int{0}}
		}
		if task.Name() == tasks.CFGName {
			c, pred = tc, tasks.Prediction{Tree: gold}
		}
		decl := task.Metrics()
		if err := decl.Check(); err != nil {
			t.Errorf("%s: %v", task.Name(), err)
		}
		if decl.Task != task.Name() {
			t.Errorf("%s declares the metrics of %q", task.Name(), decl.Task)
		}
		var kept []tasks.Outcome
		s := task.NewScorer(c, func(o tasks.Outcome) { kept = append(kept, o) })
		if err := s.Add(0, pred); err != nil {
			t.Fatalf("%s: %v", task.Name(), err)
		}
		got := s.Metrics()
		for name := range got {
			if !slices.Contains(decl.Metrics, name) {
				t.Errorf("%s reports %s, which it does not declare (%v)", task.Name(), name, decl.Metrics)
			}
		}
		for _, name := range decl.Metrics {
			if _, ok := got[name]; !ok && !slices.Contains(optional, name) {
				t.Errorf("%s does not report its metric %s", task.Name(), name)
			}
		}
		if len(kept) > 1 {
			t.Errorf("%s kept %d outcomes of one item", task.Name(), len(kept))
		}
	}
}
