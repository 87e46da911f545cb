package tagger_test

import (
	"bytes"
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strings"

	"github.com/maxmargin/repro/tagger"
	"github.com/maxmargin/repro/trainers"
)

// train is a tiny CoNLL file, "word POS label" in IOB2.
const train = `Ada NNP B-PER
Lovelace NNP I-PER
visited VBD O
London NNP B-LOC
. . O

Alan NNP B-PER
Turing NNP I-PER
worked VBD O
in IN O
Manchester NNP B-LOC
. . O

Grace NNP B-PER
Hopper NNP I-PER
joined VBD O
Harvard NNP B-ORG
in IN O
Cambridge NNP B-LOC
. . O

IBM NNP B-ORG
hired VBD O
Ada NNP B-PER
in IN O
London NNP B-LOC
. . O
`

// Train a model on a labelled column file with PosLearn and label a new
// sentence. The label encoding (IOB2 here) is detected from the file and
// the output is written in it.
func ExampleTrain() {
	data, err := tagger.ParseData(strings.NewReader(train), "train.txt", tagger.Format{})
	if err != nil {
		log.Fatal(err)
	}
	m, res, err := tagger.Train(context.Background(), data, tagger.Options{
		Trainer: "poslearn", Params: trainers.Values{"C": 1.0},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(m.Task, m.Format.Scheme, m.Features.Kind, m.Features.Columns, res.Converged)
	tokens := []string{"Grace", "Turing", "visited", "Cambridge", "."}
	pos := []string{"NNP", "NNP", "VBD", "NNP", "."}
	labels, err := m.Tag(tokens, [][]string{pos})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(labels)
	// Output:
	// sequence iob2 ner [c1] true
	// [B-PER I-PER O B-LOC O]
}

// Save a model to a file and load it again: the loaded model tags as the
// trained one, bit for bit, and remembers how it was trained.
func ExampleLoadFile() {
	data, err := tagger.ParseData(strings.NewReader(train), "train.txt", tagger.Format{})
	if err != nil {
		log.Fatal(err)
	}
	m, _, err := tagger.Train(context.Background(), data, tagger.Options{Trainer: "perceptron"})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "tagger-example")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "ner.repro")
	if err := m.SaveFile(path); err != nil {
		log.Fatal(err)
	}
	loaded, err := tagger.LoadFile(path)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(loaded.Trainer, loaded.Params["epochs"], loaded.Labels)
	labels, err := loaded.Tag([]string{"IBM", "hired", "Alan", "Turing"}, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(labels)
	// Output:
	// perceptron 10 [O B-LOC I-LOC B-ORG I-ORG B-PER I-PER]
	// [B-ORG O B-PER I-PER]
}

// Tag a text stream, as `repro tag` does: bare tokens, one per line, a
// blank line after each sentence; each line comes back with its label.
func ExampleModel_TagText() {
	data, err := tagger.ParseData(strings.NewReader(train), "train.txt", tagger.Format{})
	if err != nil {
		log.Fatal(err)
	}
	m, _, err := tagger.Train(context.Background(), data, tagger.Options{Trainer: "perceptron"})
	if err != nil {
		log.Fatal(err)
	}
	in := "Alan\nHopper\njoined\nIBM\n\nAda\nvisited\nManchester\n"
	if _, err := m.TagText(context.Background(), strings.NewReader(in), os.Stdout, "stdin"); err != nil {
		log.Fatal(err)
	}
	// Output:
	// Alan B-PER
	// Hopper I-PER
	// joined O
	// IBM B-ORG
	//
	// Ada B-PER
	// visited O
	// Manchester B-LOC
}

// Evaluate a model on labelled data: token error and span precision,
// recall and F1, overall and per label (conlleval's chunks for chunk tags).
func ExampleModel_Evaluate() {
	data, err := tagger.ParseData(strings.NewReader(train), "train.txt", tagger.Format{})
	if err != nil {
		log.Fatal(err)
	}
	m, _, err := tagger.Train(context.Background(), data, tagger.Options{Trainer: "perceptron"})
	if err != nil {
		log.Fatal(err)
	}
	test := "Ada NNP B-PER\nLovelace NNP I-PER\nvisited VBD O\nLondon NNP B-ORG\n"
	d, err := tagger.ParseData(strings.NewReader(test), "test.txt", m.Format)
	if err != nil {
		log.Fatal(err)
	}
	e, err := m.Evaluate(context.Background(), d)
	if err != nil {
		log.Fatal(err)
	}
	var report bytes.Buffer
	if err := e.WriteReport(&report); err != nil {
		log.Fatal(err)
	}
	fmt.Print(report.String())
	// Output:
	// sentences: 1, tokens: 4
	// token error: 25.00% (1 of 4 tokens)
	// chunks (conlleval): precision 50.00%, recall 50.00%, F1 50.00 (true 2, predicted 2, correct 1)
	// label            precision    recall      F1   true   pred correct
	// LOC                  0.00%     0.00%    0.00      0      1       0
	// ORG                  0.00%     0.00%    0.00      1      0       0
	// PER                100.00%   100.00%  100.00      1      1       1
}
