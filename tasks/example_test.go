package tasks_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/structpred"
	"github.com/maxmargin/repro/tasks"
	"github.com/maxmargin/repro/trainers"
)

// Train a parser on a treebank, save it, load it back through the task
// registry and parse a sentence whose heads are unknown.
func Example() {
	dir, _ := os.MkdirTemp("", "tasks")
	defer os.RemoveAll(dir)
	treebank := filepath.Join(dir, "train.conllu")
	row := "1\tthe\tthe\tDET\tDT\t_\t2\tdet\t_\t_\n2\tdog\tdog\tNOUN\tNN\t_\t3\tnsubj\t_\t_\n3\truns\trun\tVERB\tVB\t_\t0\troot\t_\t_\n\n"
	_ = os.WriteFile(treebank, []byte(strings.Repeat(row, 5)), 0o644)

	parsing, _ := tasks.Lookup("parsing")
	m, _, err := parsing.TrainFile(context.Background(), treebank, tasks.Settings{Trainer: "perceptron", Params: trainers.Values{"epochs": 2}})
	if err != nil {
		fmt.Println(err)
		return
	}
	model := filepath.Join(dir, "parser.repro")
	_ = m.SaveFile(model)
	loaded, _ := tasks.LoadFile(model)

	var out strings.Builder
	unparsed := strings.ReplaceAll(strings.ReplaceAll(row, "\t2\tdet", "\t_\tdet"), "\t3\tnsubj", "\t_\tnsubj")
	_, _ = loaded.Tag(context.Background(), strings.NewReader(unparsed), &out, "stdin")
	fmt.Println(loaded.TaskName())
	fmt.Print(out.String())
	// Output:
	// parsing
	// 1	the	the	DET	DT	_	2	det	_	_
	// 2	dog	dog	NOUN	NN	_	3	nsubj	_	_
	// 3	runs	run	VERB	VB	_	0	root	_	_
}

// Train a multiclass classifier on a libsvm file with a cost matrix and
// label new examples, one predicted label a line as liblinear's predict
// writes them.
func ExampleMulticlass() {
	dir, _ := os.MkdirTemp("", "tasks")
	defer os.RemoveAll(dir)
	train := filepath.Join(dir, "train.libsvm")
	_ = os.WriteFile(train, []byte(strings.Repeat("-1 1:1\n1 2:1\n3 1:1 2:1\n", 4)), 0o644)

	multiclass, _ := tasks.Lookup("multiclass")
	cost, _ := tasks.ParseCost("0,1,2;1,0,1;2,1,0") // classes in label order: -1, 1, 3
	m, _, err := multiclass.TrainFile(context.Background(), train, tasks.Settings{Trainer: "margin", Params: trainers.Values{"C": 10}, Cost: cost})
	if err != nil {
		fmt.Println(err)
		return
	}
	var out strings.Builder
	_, _ = m.Tag(context.Background(), strings.NewReader("0 1:1\n0 2:1\n0 1:1 2:1\n"), &out, "stdin")
	fmt.Print(out.String())
	// Output:
	// -1
	// 1
	// 3
}

// Train a multiple-instance classifier with latent-lbeta on bags whose
// positives are one in every bag of three, and classify two bags.
func ExampleMIL() {
	one := func(v float64) structpred.SparseVec { return structpred.SparseVec{Idx: []int32{0}, Val: []float64{v}} }
	c := &tasks.Corpus{Labels: []string{"-1", "+1"}}
	for i := range 20 {
		pos := i%2 == 0
		bag := []structpred.SparseVec{one(-1), one(-0.5), one(-1)}
		if pos {
			bag[i%3] = one(2) // the latent positive instance
		}
		label := 0
		if pos {
			label = 1
		}
		c.Sequences = append(c.Sequences, structpred.Sequence{Tokens: []string{"bag"}, Labels: []int{label}})
		c.Bags = append(c.Bags, bag)
	}
	train := make([]int, 18)
	for i := range train {
		train[i] = i
	}
	f, err := tasks.MIL{}.Prepare(c, train, tasks.Settings{Trainer: trainers.LatentLBetaName, Params: trainers.Values{"beta": 10.0, "C": 1.0}})
	if err != nil {
		panic(err)
	}
	m, _, err := f.Fit(context.Background())
	if err != nil {
		panic(err)
	}
	fmt.Println("bag 18:", c.Labels[m.Predict(c, 18).Labels[0]], "bag 19:", c.Labels[m.Predict(c, 19).Labels[0]])
	// Output:
	// bag 18: +1 bag 19: -1
}
