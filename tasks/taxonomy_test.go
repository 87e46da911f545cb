package tasks

import (
	"context"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/taxonomy"
	"github.com/maxmargin/repro/trainers"
)

// docCorpus is four classes of two texts each: sports and politics under
// "news", poems and tales under "arts"; the last text of each class is
// the test part.
func docCorpus(t *testing.T) (*Corpus, []int, []int) {
	t.Helper()
	tree, err := taxonomy.Parse([]byte("- news: [sports, politics]\n- arts: [poems, tales]\n"), "tree.yaml")
	if err != nil {
		t.Fatal(err)
	}
	texts := [][]string{
		{"goal", "match", "team", "news"}, {"vote", "senate", "law", "news"}, {"rhyme", "verse", "art"}, {"dragon", "king", "art"},
		{"team", "goal", "score", "news"}, {"senate", "vote", "bill", "news"}, {"verse", "rhyme", "art", "unseen"}, {"king", "dragon", "art"},
	}
	c := &Corpus{Labels: tree.Classes(), Docs: texts}
	for i := range texts {
		c.Sequences = append(c.Sequences, structpred.Sequence{Tokens: []string{"t"}, Labels: []int{i % 4}})
	}
	cost := tree.Cost()
	for y := range cost.K {
		c.Cost = append(c.Cost, cost.M[y*cost.K:(y+1)*cost.K])
	}
	c.Tree = &ClassTree{tree}
	return c, []int{0, 1, 2, 3}, []int{4, 5, 6, 7}
}

// Both multiclass tasks fit their bag of words on the training texts
// only, classify the held-out texts of this easy corpus right, and the
// taxonomy model has one weight vector per tree node.
func TestDocumentTasks(t *testing.T) {
	t.Parallel()
	c, train, test := docCorpus(t)
	for _, task := range []Multiclass{{}, {Taxonomy: true}} {
		f, err := task.Prepare(c, train, Settings{Trainer: "margin", Params: trainers.Values{"C": 10}})
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := f.Fit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		cl := m.(*Classifier)
		if cl.TaskName() != task.Name() {
			t.Errorf("%s: model of task %s", task.Name(), cl.TaskName())
		}
		// 12 distinct training words ("unseen" and "score" are only in test texts).
		outputs := 4
		if task.Taxonomy {
			outputs = 6
		}
		if cl.Features != 12 || len(cl.Weights) != outputs*13 {
			t.Errorf("%s: %d features, %d weights; want 12 and %d", task.Name(), cl.Features, len(cl.Weights), outputs*13)
		}
		s := task.NewScorer(c, nil)
		for _, i := range test {
			if err := s.Add(i, m.Predict(c, i)); err != nil {
				t.Fatal(err)
			}
		}
		if got := s.Metrics(); got["error_rate"] != 0 || got["average_cost"] != 0 {
			t.Errorf("%s: %v", task.Name(), got)
		}
		if err := cl.SaveFile(t.TempDir() + "/m"); err == nil || !strings.Contains(err.Error(), "not saved") {
			t.Errorf("%s: saving a document model: %v", task.Name(), err)
		}
	}
}

// With the identity embedding the taxonomy task trains the flat model:
// the same weights, bit for bit.
func TestTaxonomyIdentityIsFlat(t *testing.T) {
	t.Parallel()
	c, train, _ := docCorpus(t)
	flat, err := taxonomy.Parse([]byte("[sports, politics, poems, tales]"), "flat.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if e := flat.Embedding(); !reflect.DeepEqual(e, multiclass.Identity(4)) {
		t.Fatalf("a flat tree's embedding %+v is not the identity", e)
	}
	c.Tree = &ClassTree{flat}
	var ws [][]float64
	for _, task := range []Multiclass{{}, {Taxonomy: true}} {
		f, err := task.Prepare(c, train, Settings{Trainer: "margin", Params: trainers.Values{"C": 1}})
		if err != nil {
			t.Fatal(err)
		}
		m, _, err := f.Fit(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		ws = append(ws, m.(*Classifier).Weights)
	}
	if !slices.Equal(ws[0], ws[1]) {
		t.Errorf("flat %v\ntaxonomy over Λ = I %v", ws[0], ws[1])
	}
}

func TestTaxonomyNeedsATree(t *testing.T) {
	t.Parallel()
	c, train, _ := docCorpus(t)
	c.Tree = nil
	if _, err := (Multiclass{Taxonomy: true}).Prepare(c, train, Settings{Trainer: "margin", Params: trainers.Values{"C": 1}}); err == nil || !strings.Contains(err.Error(), "class tree") {
		t.Errorf("no tree: %v", err)
	}
	if _, _, err := (Multiclass{Taxonomy: true}).TrainFile(context.Background(), "x", Settings{Trainer: "margin"}); err == nil {
		t.Error("TrainFile of the taxonomy task: no error")
	}
}
