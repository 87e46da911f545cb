package taxonomy_test

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/maxmargin/repro/datasets"
	"github.com/maxmargin/repro/features"
	"github.com/maxmargin/repro/models/multiclass"
	"github.com/maxmargin/repro/taxonomy"
	"github.com/maxmargin/repro/trainers"
)

const brownTree = `
- informative:
    - press: [news, editorial, reviews]
    - religion
    - hobbies
    - lore
    - belles_lettres
    - government
    - learned
- imaginative:
    - fiction-genres: [fiction, mystery, science_fiction, adventure, romance]
    - humor
`

// One draw of the Brown set-up end to end (reader, tf-idf fitted on the
// training texts, flat and taxonomy models trained with the tree loss by
// margin rescaling): both beat chance (1/15) on the held-out texts. The
// numbers are logged for the record, not pinned; the experiment proper
// (several draws, Table 1's rows) is for the configs.
func TestBrownOneDraw(t *testing.T) {
	t.Parallel()
	root := os.Getenv("REPRO_DATA")
	if root == "" || testing.Short() {
		t.Skip("needs REPRO_DATA and not -short")
	}
	texts, err := datasets.ReadBrown(filepath.Join(root, "brown"))
	if err != nil {
		t.Fatal(err)
	}
	tr, err := taxonomy.Parse([]byte(brownTree), "brown.yaml")
	if err != nil {
		t.Fatal(err)
	}
	labels := make([]int, len(texts))
	docs := make([][]string, len(texts))
	byClass := make([][]int, len(tr.Classes()))
	for i, x := range texts {
		y, ok := tr.Class(x.Category)
		if !ok {
			t.Fatalf("%s: category %s not in the tree", x.File, x.Category)
		}
		labels[i], docs[i] = y, x.Tokens
		byClass[y] = append(byClass[y], i)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	var train, test []int
	for _, idx := range byClass {
		perm := rng.Perm(len(idx))
		for r, p := range perm {
			if r < 4 {
				train = append(train, idx[p])
			} else {
				test = append(test, idx[p])
			}
		}
	}
	bow, err := features.FitBagOfWords(docs, train, 1)
	if err != nil {
		t.Fatal(err)
	}
	xs := bow.TransformAll(docs)
	data := make([]multiclass.Instance, len(train))
	for k, i := range train {
		data[k] = multiclass.Instance{X: xs[i], Label: labels[i]}
	}
	cost := tr.Cost()
	for _, emb := range []struct {
		name string
		e    multiclass.Embedding
	}{{"flat", multiclass.Identity(len(tr.Classes()))}, {"tax", tr.Embedding()}} {
		m, err := multiclass.NewEmbedded(data, bow.Dim(), emb.e, cost)
		if err != nil {
			t.Fatal(err)
		}
		res, err := trainers.Train(context.Background(), trainers.Margin, m, trainers.Values{"C": 1.0, "epsilon": 0.01})
		if err != nil {
			t.Fatal(err)
		}
		truth, pred := make([]int, len(test)), make([]int, len(test))
		for k, i := range test {
			truth[k], pred[k] = labels[i], m.Predict(xs[i], res.W)
		}
		errRate, _ := multiclass.ErrorRate(truth, pred)
		loss, _ := multiclass.AverageCost(cost, truth, pred)
		t.Logf("%s Δ, 4 per class (%d train, %d test, %d words): accuracy %.2f%%, Δ-loss %.3f, %d iterations", emb.name, len(train), len(test), bow.Dim(), 100-errRate, loss, res.Iterations)
		if 100-errRate <= 100.0/15 {
			t.Errorf("%s: accuracy %.2f%% not above chance", emb.name, 100-errRate)
		}
	}
}
